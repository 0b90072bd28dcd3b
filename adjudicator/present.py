"""Text for people: a position, a score, a view file, in lines of at most
72 columns, pure ASCII in the ASCII style whatever names a log holds.

Shared by the command line (``show``) and the referee by mail
(:mod:`adjudicator.postal`), so a player reads the same words in a terminal
and in a mail; so is the scene a view file's picture is drawn in.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import Any

from .engine import GameSpec, Outcome, Scene, Style
from .errors import BadLogError, one_line
from .log import Log, MoveEntry, ViewFile
from .outputs import Position

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


_PLAIN = Style()


def score_lines(outcome: Outcome, final: bool, style: Style = _PLAIN,
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


def render(game: GameSpec, seen: Any, style: Style, source: str | None) -> str:
    """A view drawn as text, pure printable ASCII in the ASCII style whatever
    names it holds; a view file's view that the game cannot draw is bad input."""
    if source is None:
        text = game.render(seen, style)
    else:
        try:
            text = game.render(seen, style)
        except (KeyError, IndexError, ValueError, TypeError, AttributeError, ZeroDivisionError):
            raise BadLogError(f"{source}: its view does not describe a {game.title} position") from None
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


def tag_lines(log: Log, style: Style) -> list[str]:
    """A log's tags (event, round, ...) filled into lines of at most 72 columns."""
    if not log.tags:
        return []
    return textwrap.wrap(safe("  ".join(f"{k}: {v}" for k, v in log.tags.items()), style),
                         width=WIDTH, break_on_hyphens=False)


def _page(heading: str, style: Style, above: list[str], last: MoveEntry | None,
          board: str) -> list[str]:
    """The top of a position as a player reads it, in a terminal or a view
    file alike: the heading, what the caller puts above the board, the last
    move, the board and a blank line."""
    out = [fold(heading, style), *above]
    if last is not None:
        out.append(fold(f"Last move: {last.by} {last.move}"
                        + (f"  # {last.comment}" if last.comment else ""), style))
    return [*out, board, ""]


def position_text(game: GameSpec, pos: Position, style: Style, total: int,
                  tags: Sequence[str] = (), details: bool = False) -> str:
    """A position of a log as ``show`` prints it (``total``: the moves of the
    log, ``tags``: its :func:`tag_lines`): the board as the viewer sees it,
    whose turn it is with their legal moves when the viewer is to move, and
    the score; the result once the game is over."""
    dot = " · " if style.unicode else " - "
    where = "start" if pos.ply == 0 else f"after move {pos.ply} of {total}"
    seen = f"as seen by {pos.viewer}" if pos.viewer else "public view"
    out = _page(dot.join((game.title, where, seen)), style,
                [*tags, *since_lines(pos.since, pos.viewer, style)], pos.move,
                render(game, pos.view, style, None))
    if pos.result is not None:
        out.append("\n".join(score_lines(pos.result, True, style, details)))
        return "\n".join(out)
    if pos.proposal is not None:
        out.append(fold(f"Waiting for answers: {pos.proposal} (accept or reject)", style))
    turn = f"To move: {pos.to_move}"
    if pos.answer_by is not None:
        turn += f" (answer by {pos.answer_by})"
    out.append(fold(turn, style))
    if pos.legal is not None:
        out.append(f"Legal moves ({len(pos.legal)}):")
        out.append(wrap(pos.legal))
    out.append("\n".join(score_lines(pos.standing, False, style, details)))
    return "\n".join(out)


def view_file_text(vf: ViewFile, seen: Any, style: Style, source: str = "view file") -> str:
    """A view file as its player reads it: the referee's notes, what happened
    since their last move, the board as they see it (``seen``, its view once
    the file is checked: :func:`adjudicator.referee.check_view`), and their
    move (the legal list, or the move chosen and the moves queued after it)
    or the result."""
    from . import games

    game = games.get(vf.log.game)
    text = render(game, seen, style, source)
    dot = " · " if style.unicode else " - "
    where = f"after move {len(vf.log.moves)}" if vf.log.moves else "start"
    out = _page(dot.join((game.title, where, f"view file of {vf.player}")), style,
                [*since_lines(vf.notes, vf.player, style, "From the referee"),
                 *since_lines(vf.since, vf.player, style)],
                vf.log.moves[-1] if vf.log.moves else None, text)
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


def scene_of_view_file(vf: ViewFile) -> Scene:
    """The scene a view file's picture is drawn in: its player, whose turn
    it is, the last move and the score, as the file tells them."""
    from . import games

    last = (vf.log.moves[-1].by, vf.log.moves[-1].move) if vf.log.moves else None
    return Scene(title=games.get(vf.log.game).title, players=vf.log.players, viewer=vf.player,
                 to_move=vf.to_move, ply=len(vf.log.moves), last=last,
                 standing=vf.log.result, final=vf.log.result is not None)


def draw(game: GameSpec, seen: Any, scene: Scene, source: str | None) -> str:
    """A view drawn as an SVG picture; ``source`` names a view file, whose
    view may be bad input (then :class:`BadLogError`)."""
    if source is None:
        return game.draw(seen, scene)
    try:
        return game.draw(seen, scene)
    except (KeyError, IndexError, ValueError, TypeError, AttributeError, ZeroDivisionError):
        raise BadLogError(f"{source}: its view does not describe a {game.title} position") from None


def view_file_picture(vf: ViewFile, seen: Any, source: str = "view file") -> tuple[Scene, str]:
    """A view file's picture as its player sees it (``seen``, its checked
    view): the scene and the SVG. A view the game cannot draw raises
    :class:`BadLogError`."""
    from . import games

    scene = scene_of_view_file(vf)
    return scene, draw(games.get(vf.log.game), seen, scene, source)
