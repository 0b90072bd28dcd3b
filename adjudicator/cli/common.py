"""What the commands of the command line share: option declarations, the
output style, JSON and bytes on standard output."""

from __future__ import annotations

import os
import sys
from typing import Annotated, Any

import msgspec
import typer

from ..engine import Style

LogArg = Annotated[str, typer.Argument(help="A game log file, or - for stdin.", show_default=False)]
AsOpt = Annotated[
    str | None,
    typer.Option("--as", metavar="PLAYER", help="See the game as this player sees it."),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON for programs instead of text.")]
SecretOpt = Annotated[
    str | None,
    typer.Option("--secret", metavar="FILE", help="The referee's secret file of a refereed game."),
]
AsciiOpt = Annotated[
    bool, typer.Option("--ascii", help="Draw with plain ASCII (safe in any mail client).")
]
DetailsOpt = Annotated[
    bool, typer.Option("--details", help="Spell out how every score and tie-break came about.")
]
ForceOpt = Annotated[bool, typer.Option("--force", help="Replace FILE if it exists.")]
LogsArg = Annotated[
    list[str] | None,
    typer.Argument(metavar="LOG", help="Log files (- for stdin), directories (searched recursively for "
                        "*.json, *.txt and *.eml) and zip or tar archives.", show_default=False),
]
FilesFromOpt = Annotated[
    str | None,
    typer.Option("--files-from", "-T", metavar="FILE",
                 help="Also the paths listed in FILE, one a line (- for stdin), after LOGS."),
]
JobsOpt = Annotated[
    int | None,
    typer.Option("--jobs", "-j", metavar="N", min=1, help="Check logs in N processes (default: one per core)."),
]

RefereeKeyOpt = Annotated[
    str | None,
    typer.Option("--referee-key", metavar="KEY", help="The referee you expect: their key (ed25519:...), its "
                 "fingerprint, their key file, or a name of your known referees (trusted on first use)."),
]
AllowUnsignedOpt = Annotated[
    bool, typer.Option("--allow-unsigned-event", help="Accept a log with tournament tags (event, round) "
                       "that no referee signed (an open or version 1 log)."),
]

#: Set when standard output cannot take the Unicode drawing: draw in ASCII.
ascii_only = False


def fit_output() -> None:
    """Never crash on a terminal or pipe that cannot take Unicode (a cp1252
    console, LANG=C): draw in ASCII there and escape whatever else is left."""
    global ascii_only
    for stream in (sys.stdout, sys.stderr):
        encoding = getattr(stream, "encoding", None) or "ascii"
        try:
            "\u2500\u00b7\u2190".encode(encoding)
        except (UnicodeEncodeError, LookupError):
            if stream is sys.stdout:
                ascii_only = True
            try:
                stream.reconfigure(errors="backslashreplace")  # type: ignore[union-attr]
            except (AttributeError, ValueError):
                pass


def known_game(game_id: str) -> None:
    """A game id typed on the command line must name a game: one that does
    not is a usage error (exit 2), said as a log's unknown game is."""
    from .. import games

    if game_id not in games.GAMES:
        from ..errors import UsageError

        raise UsageError(f"unknown game {game_id!r} (known: {', '.join(games.GAMES)})")


def style(ascii_: bool) -> Style:
    """The style of text for standard output: ``--ascii``, or what it can take."""
    color = sys.stdout.isatty() and "NO_COLOR" not in os.environ
    return Style(unicode=not (ascii_ or ascii_only), color=color and not ascii_)


def echo_json(obj: Any) -> None:
    """``obj`` as indented JSON on standard output."""
    typer.echo(msgspec.json.format(msgspec.json.encode(obj), indent=2).decode())


class JsonList:
    """A JSON list on standard output, written one item at a time: the same
    text :func:`echo_json` prints for the whole list at once."""

    def __init__(self) -> None:
        self.started = False

    def add(self, obj: Any) -> None:
        item = msgspec.json.format(msgspec.json.encode(obj), indent=2).decode()
        typer.echo(("," if self.started else "[") + "\n  " + item.replace("\n", "\n  "), nl=False)
        self.started = True

    def close(self) -> None:
        typer.echo("\n]" if self.started else "[]")


def put(data: bytes) -> None:
    """Bytes on standard output (a log, a view file), as they are."""
    sys.stdout.buffer.write(data)
    sys.stdout.flush()
