"""The referee by mail, as a command."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ..engine import Style
from ..errors import AdjudicatorError
from ..present import safe


def referee(
    directory: Annotated[str, typer.Argument(metavar="DIR", help="The referee's directory: referee.toml, roster.toml, games/, Maildir/.", show_default=False)],
    admin: Annotated[list[str] | None, typer.Argument(metavar="[admin ACT GAME ...]", help="The organiser at the machine: 'admin status', or 'admin pause|resume GAME', 'admin extend GAME PLAYER HOURS', 'admin replace GAME PLAYER NEW ADDRESS', 'admin eject GAME PLAYER', 'admin stand-in GAME PLAYER [move|back]', 'admin drop GAME PLAYER' (a part of the deal never sent); recorded in the game's log and told to its players.", show_default=False)] = None,
    once: Annotated[bool, typer.Option("--once", help="Handle what is waiting, send the spool, and exit (for cron).")] = False,
    poll: Annotated[float | None, typer.Option("--poll", metavar="SECONDS", help="Seconds between rounds (default: referee.toml's poll, else 60).", min=0.05)] = None,
) -> None:
    """Referee games by mail: read moves from the Maildir (or IMAP), send
    every player their view, no human in the loop.

    Without --once it runs until stopped (SIGTERM or Ctrl-C end it cleanly
    after the message in hand). The README says how to set a directory up.
    'admin ...' acts as the organiser instead: 'admin status' lists the
    games; 'admin pause GAME', 'admin resume GAME' and 'admin extend GAME
    PLAYER HOURS' act on a game's clock; 'admin replace GAME PLAYER NEW
    ADDRESS' gives a seat to a new player, 'admin eject GAME PLAYER' puts
    one out, 'admin stand-in GAME PLAYER [move|back]' has a bot play
    PLAYER's next move, or every move until they mail 'back'. Each is an
    entry of the game's signed log that its players are mailed about.
    'admin drop GAME PLAYER' drops the part of the deal of a player who
    never committed, before any value is revealed: the header is signed
    anew without it, and every player is told.

    \b
    Example: adjudicator referee club/ --once
    """
    import signal
    import time

    from filelock import FileLock, Timeout

    from .. import postal

    root = Path(directory)
    if not root.is_dir():
        raise AdjudicatorError(f"{directory}: no such directory")
    if admin:
        _admin(root, admin)
        return
    try:
        lock = FileLock(str(root / ".referee.lock"), timeout=0)
        lock.acquire()
    except Timeout:
        raise AdjudicatorError(f"{directory}: another referee is running on it") from None
    stop = []
    previous = {sig: signal.signal(sig, lambda *_: stop.append(True))
                for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        ref = postal.MailReferee(root)
        wait = ref.config.poll if poll is None else poll
        while True:
            for line in ref.run_once():
                typer.echo(safe(line, Style(unicode=False)))
            if once or stop:
                return
            until = time.monotonic() + wait
            while not stop and time.monotonic() < until:
                time.sleep(min(0.2, wait))
            if stop:
                return
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        lock.release()


COMMANDS = {"referee": referee}


def _admin(root: Path, words: list[str]) -> None:
    """``referee DIR admin ...``: the organiser's acts. ``status`` is read at
    once; an act is queued for the referee (``admin/``) and, when no referee
    runs on the directory now, carried out and mailed at once."""
    from filelock import FileLock, Timeout

    from .. import postal
    from ..errors import UsageError

    if words[0] != "admin" or len(words) < 2:
        raise UsageError("after DIR: admin status, admin pause|resume GAME, or admin extend "
                         "GAME PLAYER HOURS")
    ref = postal.MailReferee(root)
    if words[1] == "status":
        for line in ref.status():
            typer.echo(safe(line, Style(unicode=False)))
        return
    if words[1] not in ("pause", "resume", "extend", "replace", "eject", "stand-in", "drop") \
            or len(words) < 3:
        raise UsageError("admin pause|resume GAME, admin extend GAME PLAYER HOURS, admin "
                         "replace GAME PLAYER NEW ADDRESS, admin eject GAME PLAYER, or admin "
                         "stand-in GAME PLAYER [move|back], or admin drop GAME PLAYER")
    if words[2] not in ref.roster:
        raise UsageError(f"no game {words[2]!r} here (games: {', '.join(ref.roster)})")
    name = ref.request(words[1:])
    lock = FileLock(str(root / ".referee.lock"), timeout=0)
    try:
        lock.acquire()
    except Timeout:
        typer.echo(f"Queued as admin/{name}: the running referee records it in its next round.")
        return
    try:
        lines = ref.organise()
        sent, failure = ref.flush()
    finally:
        lock.release()
    for line in lines:
        typer.echo(safe(line, Style(unicode=False)))
    if failure is not None:
        typer.echo(f"SMTP: {failure}; the mails wait in the spool", err=True)
    if any("refused" in line for line in lines):
        raise typer.Exit(1)
