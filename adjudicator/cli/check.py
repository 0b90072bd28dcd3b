"""Commands that check logs: validate, audit, diff, and the referee's reveal."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from contextlib import nullcontext
from typing import Annotated, Any

import typer

from .. import actions, bulk
from ..errors import AdjudicatorError, UsageError, one_line
from .common import (
    AllowUnsignedOpt, FilesFromOpt, JobsOpt, JsonList, JsonOpt, LogArg, LogsArg, RefereeKeyOpt, SecretOpt,
    echo_json, put,
)  # fmt: skip


def validate(
    logs: LogsArg = None,
    files_from: FilesFromOpt = None,
    secret: SecretOpt = None,
    json_: JsonOpt = False,
    jobs: JobsOpt = None,
    referee_key: RefereeKeyOpt = None,
    allow_unsigned_event: AllowUnsignedOpt = False,
) -> None:
    """Check logs move by move; exit 0 only if every one is valid.

    A valid log has a known game and parameters, an unbroken digest chain,
    every move by the player to move, legal and in canonical notation, the
    right result and valid signatures. Each bad log gets one line naming its
    first bad move. A refereed game whose seed is secret has its header,
    chain and referee's signature checked, and says that the legality of its
    moves waits for the reveal (or --secret).

    Besides files, give directories (every *.json, *.txt and *.eml under
    them but *.secret.json and hidden files), zip and tar archives (.tar,
    .tar.gz, .tgz, .tar.bz2, .tar.xz; a member is named ARCHIVE:MEMBER) and
    lists of paths (--files-from FILE, - for stdin). Logs are checked on
    every core and reported in the order found as soon as each is ready,
    with a progress bar on a terminal and a count at the end; --json prints
    the same list as for files, item by item.

    With --referee-key every log must be signed by that referee; a log whose
    event tag names one of your known referees is held to its key anyway
    (a name trusted on first use is said in a note). One refereed log is
    also held to the copy of it you saw last, as show and audit hold it: a
    copy that does not extend it is bad (the referee showed two histories).

    \b
    Example: adjudicator validate examples/turn-of-time/*.json
    """
    from .. import pinning

    inputs = bulk.Inputs(logs or [], files_from)
    secret_file = actions.read_secret(secret)
    trust = pinning.trust(referee_key, allow_unsigned_event=allow_unsigned_event)
    results = actions.validate_logs(inputs, secret_file, jobs=jobs, trust=trust,
                                    witness=inputs.single)
    checked, bad = _stream(results, inputs, json_, "validating", lambda entry: entry.error is None)
    if inputs.expanded and not json_:
        typer.echo(f"{checked} logs checked, {bad} bad", err=True)
    if bad:
        raise typer.Exit(1)


def _stream(results: Iterable[tuple[Any, str]], inputs: bulk.Inputs, json_: bool, label: str,
            ok: Callable[[Any], bool]) -> tuple[int, int]:
    """Print each result as it comes, in order: its line (stdout when ``ok``,
    else stderr) or its JSON item; a progress bar on a terminal. Gives the
    number of logs and of bad ones; no log at all is an error. A note that
    comes with a line (a referee trusted on first use) goes to stderr, once."""
    total = inputs.count
    bar = sys.stderr.isatty() and (total is None or total >= 50)
    listing = JsonList() if json_ else None
    checked = bad = 0
    noted: set[str] = set()
    shown: Any = (typer.progressbar(results, length=total, label=label, file=sys.stderr,
                                    show_pos=total is None) if bar else nullcontext(results))
    try:
        with shown as each:
            for entry, said in each:
                line, *notes = said.split("\n")
                checked += 1
                good = ok(entry)
                bad += not good
                if bar:  # the line goes above the bar, which is drawn again after it
                    sys.stderr.write("\r\x1b[K")
                    sys.stderr.flush()
                if listing is not None:
                    listing.add(entry)
                else:
                    typer.echo(line, err=not good)
                for note in notes:  # a referee first trusted by one log is said once
                    if note not in noted:
                        noted.add(note)
                        typer.echo(note, err=True)
    finally:
        if listing is not None:
            listing.close()
    if not checked:
        raise AdjudicatorError("no log found in the directories, archives or lists given")
    return checked, bad


def reveal(log: LogArg, secret: Annotated[str, typer.Option("--secret", metavar="FILE", help="The referee's secret file.")]) -> None:
    """Publish the seed of a refereed game in its log, so anyone can audit it.

    \b
    Example: adjudicator reveal game.json --secret game.secret.json
    """
    out = actions.reveal(log, secret)
    if out is not None:
        put(out)
        return
    typer.echo(f"Revealed the seed in {log}: anyone can now run 'adjudicator audit {log}'.")


_MARKS = {"ok": "ok  ", "failed": "FAIL", "unchecked": "wait"}


def audit(
    logs: LogsArg = None,
    files_from: FilesFromOpt = None,
    secret: SecretOpt = None,
    json_: JsonOpt = False,
    jobs: JobsOpt = None,
    referee_key: RefereeKeyOpt = None,
    allow_unsigned_event: AllowUnsignedOpt = False,
    views: Annotated[list[str] | None, typer.Option("--views", metavar="FILE", help="A view file a player kept: checked against the log and the revealed deal; repeat for several.")] = None,
) -> None:
    """Check everything about logs: a short report for one, a line each for
    many; exit 0 unless a check fails.

    The seed against the commitment, the digest chain, every move, the result.
    A refereed game whose seed is still secret is audited so far: the header,
    the chain and the signatures; the deal, the moves' legality and the
    result are marked 'wait' until the referee reveals the seed. Many logs
    (several files, directories, archives, --files-from FILE: found as
    validate finds them) are audited on every core, each with one line in
    the order found: "ok NAME: audit passed" (or "passed so far"), or the
    first check that fails; --json prints a list with each log's report.

    --referee-key holds the log to the referee you expect (as validate).
    One refereed log is also held to the copy of it you saw last (a copy
    that does not extend it fails: the referee showed two histories), and
    --views checks view files players kept: each the referee's, in the
    final log's history, and showing what the revealed deal gives.

    \b
    Example: adjudicator audit game.json --views ann-7.json --views bob-8.json
    """
    from .. import pinning

    inputs = bulk.Inputs(logs or [], files_from)
    trust = pinning.trust(referee_key, allow_unsigned_event=allow_unsigned_event)
    if not inputs.single:
        if views:
            raise UsageError("--views goes with one log")
        secret_file = actions.read_secret(secret)
        results = actions.audit_logs(inputs, secret_file, jobs=jobs, trust=trust)
        checked, bad = _stream(results, inputs, json_, "auditing",
                               lambda entry: entry.error is None and entry.status != "failed")
        if inputs.expanded and not json_:
            typer.echo(f"{checked} logs audited, {bad} failed", err=True)
        if bad:
            raise typer.Exit(1)
        return
    (log,) = inputs.paths
    stored = actions.read_log(log)
    report, note = actions.audit_log(stored, actions.read_secret(secret), trust, views or [],
                                     witness=True)
    if note is not None:
        typer.echo(one_line(f"Note: {note}"), err=True)
    name = actions.source(log)
    if json_:
        echo_json(report)
    else:
        if report.status == "pending":
            state = "in progress" if stored.result is None else "over"
            typer.echo(f"Audit of {name} ({state}; the seed is not yet revealed):")
        else:
            typer.echo(f"Audit of {name}:")
        for item in report.items:
            typer.echo(f"  {_MARKS[item.status]} {item.what}: {one_line(item.text)}")
        typer.echo("Audit passed." if report.passed else "Audit FAILED." if report.status == "failed"
                   else "Audit passed so far: the deal and the moves' legality wait for the reveal.")
    if report.status == "failed":
        failed = next(i for i in report.items if i.status == "failed")
        typer.echo(one_line(f"Error: audit failed: {failed.what}: {failed.text}"), err=True)
        raise typer.Exit(1)


def diff(a: Annotated[str, typer.Argument(help="One copy of a log.")], b: Annotated[str, typer.Argument(help="Another copy.")], json_: JsonOpt = False) -> None:
    """Say whether two copies of a log are the same game, and where they part.

    Exit 0 when the copies hold the same moves, 1 otherwise.

    \b
    Example: adjudicator diff ann-copy.json bob-copy.json
    """
    found = actions.compare_files(a, b)
    if json_:
        from ..outputs import Diff

        echo_json(Diff(same=found.same, same_game=found.same_game, parted_at=found.parted_at,
                       lines=[one_line(line) for line in found.lines]))
    else:
        for line in found.lines:
            typer.echo(one_line(line))
    if not found.same:
        raise typer.Exit(1)


COMMANDS = {"validate": validate, "reveal": reveal, "audit": audit, "diff": diff}
