"""Commands of trust: the players' contributions to a deal nobody chooses."""

from __future__ import annotations

from typing import Annotated

import typer

from .. import actions, files
from .common import LogArg, SecretOpt

AsPlayer = Annotated[str, typer.Option("--as", metavar="PLAYER", help="The player you are.")]

deal_app = typer.Typer(
    no_args_is_help=True, rich_markup_mode=None,
    help=("Contribute to the deal of a refereed game, so that nobody, the referee "
          "included, chooses it: commit, then reveal.\n\n\b\n"
          "Example: adjudicator deal commit atlas.json --as ann"),
)


@deal_app.command("commit")
def deal_commit(log: LogArg, as_: AsPlayer) -> None:
    """Make your random part of the deal and print the line to send the
    referee; the value stays in this machine's data directory until you
    reveal it.

    \b
    Example: adjudicator deal commit atlas.json --as ann
    """
    from .. import dealing

    lg = actions.read_log(log)
    line = dealing.player_commit(lg, actions.as_named(lg.players, as_) or as_)
    typer.echo(line)
    typer.echo("Send this line to the referee; reveal once every player has committed "
               "(adjudicator deal reveal).", err=True)


@deal_app.command("reveal")
def deal_reveal(log: LogArg, as_: AsPlayer) -> None:
    """Print the line revealing your part of the deal, once the referee's
    signed log holds every player's commitment; the commitments are kept,
    and any later copy that changes them is refused.

    \b
    Example: adjudicator deal reveal atlas.json --as ann
    """
    from .. import dealing

    lg = actions.read_log(log)
    typer.echo(dealing.player_reveal(lg, actions.as_named(lg.players, as_) or as_))
    typer.echo("Send this line to the referee.", err=True)


@deal_app.command("record")
def deal_record(
    log: LogArg,
    lines: Annotated[list[str], typer.Argument(metavar="LINE...", help="What players sent: 'commit NAME HEX', 'reveal NAME VALUE' or 'words NAME TEXT'.", show_default=False)],
    secret: SecretOpt = None,
) -> None:
    """The referee records what players sent: their commitments, then their
    values or words; the log is signed anew.

    \b
    Example: adjudicator deal record atlas.json --secret atlas.secret.json "commit ann 9b1a..."
    """
    from .. import dealing
    from ..errors import UsageError

    if secret is None:
        raise UsageError("the referee records with --secret FILE")
    if log == "-":
        raise UsageError("give the log's file: it is rewritten in place")
    raw = files.read(log)
    got = actions.found(log, raw)
    stored = actions.log_of(log, got)
    key = actions.read_secret(secret)
    assert key is not None
    for line in lines:
        stored = dealing.record(stored, key, line)
    # In the form it came in (JSON, or the text form pasted from a mail).
    files.update(log, raw, actions.encoded(stored, got.form, log), what="recording the deal")
    waiting = dealing.pending(stored)
    if not waiting:
        typer.echo(f"Recorded in {log}: the deal is complete; send each player their view.")
    elif dealing.uncommitted(stored):
        typer.echo(f"Recorded in {log}: waiting for {', '.join(dealing.uncommitted(stored))} "
                   "to commit.")
    else:
        typer.echo(f"Recorded in {log}: every commitment is in; send the log to "
                   f"{', '.join(waiting)} to reveal.")


COMMANDS = {"deal": deal_app}
