"""Text for people: a position, a score, a view file, in lines of at most
72 columns, pure ASCII in the ASCII style whatever names a log holds.

Shared by the command line (``show``) and the referee by mail
(:mod:`adjudicator.postal`), so a player reads the same words in a terminal
and in a mail.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import Any

from .engine import Game, Outcome, Style
from .errors import BadLogError, one_line
from .log import ViewFile

WIDTH = 72


def safe(text: str, style: Style) -> str:
    """Text from a log (a name, a comment) made safe for a terminal or a mail:
    control characters and escape sequences escaped, and, in ASCII style,
    anything that is not printable ASCII."""
    text = one_line(text)
    if not style.unicode:
        text = "".join(ch if " " <= ch <= "~" else
                       (f"\\x{ord(ch):02x}" if ord(ch) < 0x100 else
                        f"\\u{ord(ch):04x}" if ord(ch) < 0x10000 else f"\\U{ord(ch):08x}")
                       for ch in text)
    return text


def fold(text: str, style: Style) -> str:
    """A line of text from a log, made safe and folded at 72 columns."""
    # Continuation lines are marked, so text from a log can never start a
    # line that looks like the tool's own ("Game over. Winner: ...").
    return "\n".join(textwrap.wrap(safe(text, style), width=WIDTH, subsequent_indent="  | ",
                                   break_on_hyphens=False, break_long_words=True)) or ""


def wrap(items: Sequence[str], indent: str = "  ") -> str:
    """Moves (or other short words) filled into lines of at most 72 columns."""
    return textwrap.fill("  ".join(items), width=WIDTH, initial_indent=indent,
                         subsequent_indent=indent, break_on_hyphens=False)


def score_lines(outcome: Outcome, final: bool, style: Style = Style(),
                details: bool = True) -> list[str]:
    """The score in lines of at most 72 columns; the reasoning with ``details``."""
    scores = "  ".join(f"{s.place}. {s.player} {s.score}" for s in outcome.standings)
    if final:
        winners = ", ".join(outcome.winners) or "nobody"
        lines = [f"Game over. Winner: {winners}",
                 f"Result: {scores}" if outcome.standings else "Result: none"]
    else:
        lines = [f"Score so far: {scores}"]
    if details:
        lines += [f"  {d}" for d in outcome.details]
    out: list[str] = []
    for line in lines:
        indent = "    " if line.startswith("  ") else "  "
        out += textwrap.wrap(safe(line, style), width=WIDTH, subsequent_indent=indent,
                             break_on_hyphens=False) or [""]
    return out


def since_lines(lines: Sequence[str], viewer: str | None, style: Style,
                heading: str = "Since your last move") -> list[str]:
    """What happened since the viewer last moved, one folded line per entry."""
    if not lines:
        return []
    return [safe(f"{heading} ({viewer}):", style), *(fold("  " + line, style) for line in lines)]


def render(game: Game, seen: Any, style: Style, source: str | None) -> str:
    """A view drawn as text, pure printable ASCII in the ASCII style whatever
    names it holds; a view file's view that the game cannot draw is bad input."""
    if source is None:
        text = game.render(seen, style)
    else:
        try:
            text = game.render(seen, style)
        except (KeyError, IndexError, ValueError, TypeError, AttributeError, ZeroDivisionError):
            raise BadLogError(f"{source}: its view does not describe a {game.TITLE} position") from None
    if not style.unicode and not text.isascii():
        # Escaped names are longer than the names the game laid out: a line
        # that no longer fits 72 columns is folded, never sent wider.
        text = "\n".join(line if len(line) <= WIDTH else _hard_fold(line)
                         for line in (safe(line, style) for line in text.split("\n")))
    return text


def _hard_fold(line: str) -> str:
    indent = WIDTH // 2
    first, rest = line[:WIDTH], line[WIDTH:]
    pieces = [rest[i:i + WIDTH - indent - 2] for i in range(0, len(rest), WIDTH - indent - 2)]
    return "\n".join([first, *(" " * indent + "| " + piece for piece in pieces)])


def view_file_text(vf: ViewFile, style: Style, source: str = "view file") -> str:
    """A view file as its player reads it: the referee's notes, what happened
    since their last move, the board as they see it, and their move (the legal
    list, or the move chosen and the moves queued after it) or the result."""
    from . import games, referee

    game = games.get(vf.log.game)
    seen = referee.check_view(vf, source)
    text = render(game, seen, style, source)
    dot = " · " if style.unicode else " - "
    where = f"after move {len(vf.log.moves)}" if vf.log.moves else "start"
    out = [fold(dot.join((game.TITLE, where, f"view file of {vf.player}")), style)]
    out += since_lines(vf.notes, vf.player, style, "From the referee")
    out += since_lines(vf.since, vf.player, style)
    if vf.log.moves:
        last = vf.log.moves[-1]
        out.append(fold(f"Last move: {last.by} {last.move}"
                        + (f"  # {last.comment}" if last.comment else ""), style))
    out += [text, ""]
    if vf.log.result is not None:
        out += score_lines(vf.log.result, True, style)
    elif vf.move is not None:
        out.append(fold(f"Your move, to send to the referee: {vf.move.move}", style))
        if vf.queued:
            out.append(fold("Queued after it: " + ", ".join(vf.queued), style))
    elif vf.legal is not None:
        out.append(f"Your move. Legal moves ({len(vf.legal)}):")
        out.append(wrap(list(vf.legal)))
    else:
        out.append(fold(f"To move: {vf.to_move}", style))
    return "\n".join(out)
