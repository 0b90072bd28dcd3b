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
    once: Annotated[bool, typer.Option("--once", help="Handle what is waiting, send the spool, and exit (for cron).")] = False,
    poll: Annotated[float | None, typer.Option("--poll", metavar="SECONDS", help="Seconds between rounds (default: referee.toml's poll, else 60).", min=0.05)] = None,
) -> None:
    """Referee games by mail: read moves from the Maildir (or IMAP), send
    every player their view, no human in the loop.

    Without --once it runs until stopped (SIGTERM or Ctrl-C end it cleanly
    after the message in hand). The README says how to set a directory up.

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
