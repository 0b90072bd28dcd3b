"""Commands that check logs: validate, audit, diff, and the referee's reveal."""

from __future__ import annotations

import sys
from typing import Annotated, Any

import typer

from .. import actions, match
from ..errors import one_line
from .common import JsonOpt, LogArg, SecretOpt, echo_json, put


def validate(
    logs: Annotated[list[str], typer.Argument(help="Log files to check (- for stdin).", show_default=False)],
    secret: SecretOpt = None,
    json_: JsonOpt = False,
    jobs: Annotated[int | None, typer.Option("--jobs", "-j", metavar="N", min=1, help="Check logs in N processes (default: one per core).")] = None,
) -> None:
    """Check logs move by move; exit 0 only if every one is valid.

    A valid log has a known game and parameters, an unbroken digest chain,
    every move by the player to move, legal and in canonical notation, the
    right result and valid signatures. Each bad log gets one line naming its
    first bad move. A refereed game whose seed is secret has its header,
    chain and referee's signature checked, and says that the legality of its
    moves waits for the reveal (or --secret). Many logs are checked on every
    core, reported in the order given, with a progress bar on a terminal.

    \b
    Example: adjudicator validate examples/turn-of-time/*.json
    """
    secret_file = actions.read_secret(secret)
    bar = sys.stderr.isatty() and not json_ and len(logs) >= 50
    results = actions.validate_files(logs, secret_file, jobs=jobs,
                                     progress=_progress if bar else None)
    bad = 0
    for entry, line in results:
        if entry.error is not None:
            bad += 1
        if not json_:
            typer.echo(line, err=entry.error is not None)
    if json_:
        echo_json([entry for entry, _ in results])
    if bad:
        raise typer.Exit(1)


def _progress(results: Any, total: int) -> list:
    with typer.progressbar(results, length=total, label="validating", file=sys.stderr) as shown:
        return list(shown)


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


def audit(log: LogArg, secret: SecretOpt = None, json_: JsonOpt = False) -> None:
    """Check everything about a log and print a short report; exit 0 unless a check fails.

    The seed against the commitment, the digest chain, every move, the result.
    A refereed game whose seed is still secret is audited so far: the header,
    the chain and the signatures; the deal, the moves' legality and the
    result are marked 'wait' until the referee reveals the seed.

    \b
    Example: adjudicator audit game.json
    """
    stored = actions.read_log(log)
    report = match.audit(stored, actions.read_secret(secret))
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
