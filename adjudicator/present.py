"""Text for people: a position, a score, a view file, in lines of at most
72 columns, pure ASCII in the ASCII style whatever names a log holds.

Shared by the command line (``show``) and the referee by mail
(:mod:`adjudicator.postal`), so a player reads the same words in a terminal
and in a mail; so is the scene a view file's picture is drawn in.

The ASCII style is the style of mail: no line starts with ``>`` (a mail
client shows it as a quotation, and a reply quotes it again) or ``From ``
(which some mail systems turn into ``>From ``), and names in any script are
transliterated (``José`` reads ``Jose``, ``Ελένη`` ``Eleni``), kept unique
(:func:`ascii_names`); what has no transliteration is escaped, and an
escape is never cut across a line break.
"""

from __future__ import annotations

import functools
import re
import textwrap
from collections.abc import Mapping, Sequence
from typing import Any

from .engine import GameSpec, Outcome, Scene, Style
from .errors import BadLogError, one_line
from .log import Log, MoveEntry, ViewFile
from .names import MAX, key
from .outputs import Position

WIDTH = 72
NAME_MAX = MAX  # the longest name a log allows; every layout leaves room for it

#: How the ASCII style writes the names of a game's players: only those that
#: change are listed (:func:`ascii_names`).
Names = Mapping[str, str]

# One character as the ASCII style writes it, or one escape (``\\xe9``,
# ``\\u2028``, ``\\n``): the unit a line may be cut between.
_ATOM = re.compile(r"\\(?:x[0-9a-f]{2}|u[0-9a-f]{4}|U[0-9a-f]{8}|.)|.", re.DOTALL)


def _escape(ch: str) -> str:
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def to_ascii(text: str) -> str:
    """``text`` in printable ASCII: every other character transliterated
    (anyascii: ``é`` is ``e``, ``λ`` is ``l``, ``北`` is ``Bei``), escaped
    (``\\ue000``) only where it has no transliteration.

    >>> to_ascii("Zoë, Ελένη")
    'Zoe, Eleni'
    """
    if text.isascii() and text.isprintable():
        return text
    from anyascii import anyascii  # loaded only for text that needs it

    out = []
    for ch in text:
        if " " <= ch <= "~":
            out.append(ch)
            continue
        got = anyascii(ch) if ch > "~" else ""
        out.append(got if got and got.isascii() and got.isprintable() else _escape(ch))
    return "".join(out)


def _cut(text: str, width: int) -> int:
    """Where to cut ``text`` so that its first part is as long as possible but
    at most ``width`` columns, between two characters or escapes (at least one)."""
    end = 0
    for atom in _ATOM.finditer(text):
        if atom.end() > width and end:
            break
        end = atom.end()
    return end


def ascii_names(players: Sequence[str]) -> dict[str, str]:
    """How the ASCII style writes each player's name that is not ASCII:
    transliterated (:func:`to_ascii`), at most 24 characters like any name,
    and unique. A name that reads as another player's name once
    transliterated (``José`` and ``Jose``, ``Zoë`` and ``Zoé``) gets its
    seat number (``Jose-1``); an ASCII name is never changed. Reading as
    another name is case and spaces aside, as for the names themselves
    (:func:`adjudicator.names.key`: ``Zoë Li`` and ``zoeli``).

    >>> ascii_names(["José", "Zoë", "Jose", "Ελένη"])
    {'José': 'Jose-1', 'Zoë': 'Zoe', 'Ελένη': 'Eleni'}
    """
    plain = {name: to_ascii(name) for name in players if not name.isascii()}
    plain = {name: form[:_cut(form, NAME_MAX)] for name, form in plain.items()}
    seen: dict[str, int] = {}
    for form in [*(n for n in players if n.isascii()), *plain.values()]:
        seen[key(form)] = seen.get(key(form), 0) + 1
    taken = set(seen)
    out: dict[str, str] = {}
    for seat, name in enumerate(players):
        if name not in plain:
            continue
        form = plain[name]
        if seen[key(form)] > 1:
            tries = 1
            while True:
                mark = f"-{seat + 1}" + (f"-{tries}" if tries > 1 else "")
                unique = form[:_cut(form, NAME_MAX - len(mark))] + mark
                if key(unique) not in taken:
                    break
                tries += 1
            taken.add(key(unique))
            form = unique
        out[name] = form
    return out


@functools.lru_cache(maxsize=16)
def _renamer(names: tuple[str, ...]) -> re.Pattern[str]:
    # The longest first, so that a name inside another is not taken for it.
    return re.compile("|".join(re.escape(n) for n in sorted(names, key=len, reverse=True)))


def _renamed(text: str, names: Names | None) -> str:
    """``text`` with every name of ``names`` written as it says."""
    if not names or text.isascii():  # the names it lists are never ASCII
        return text
    return _renamer(tuple(names)).sub(lambda m: names[m.group(0)], text)


def safe(text: str, style: Style, names: Names | None = None) -> str:
    """Text from a log (a name, a comment) made safe for a terminal or a mail:
    control characters and escape sequences escaped, and, in ASCII style,
    the players' names written as ``names`` says (:func:`ascii_names`) and
    anything else that is not printable ASCII transliterated or escaped
    (:func:`to_ascii`)."""
    text = one_line(text)
    if not style.unicode:
        text = to_ascii(_renamed(text, names))
    return text


def mail_safe(text: str) -> str:
    """``text`` with every line that starts with ``>`` or ``From `` shifted by
    a space (as RFC 3676 space-stuffs them), so that a mail client neither
    shows it as a quotation nor quotes it. The tool's own lines never start
    so; this keeps it true of any text that reaches a line's start."""
    if ">" not in text and "From " not in text:
        return text
    return "\n".join(" " + line if line.startswith((">", "From ")) else line
                     for line in text.split("\n"))


def _fill(text: str, indent: str) -> list[str]:
    """``text`` (already safe) in lines of at most 72 columns, broken at
    spaces; a word too long for a line is cut between characters, never
    inside an escape."""
    lines = textwrap.wrap(text, width=WIDTH, subsequent_indent=indent,
                          break_on_hyphens=False, break_long_words=False)
    out: list[str] = []
    for line in lines:
        while len(line) > WIDTH:
            at = _cut(line, WIDTH)
            out.append(line[:at])
            line = indent + line[at:]
        out.append(line)
    return out


def fold(text: str, style: Style, names: Names | None = None) -> str:
    """A line of text from a log, made safe and folded at 72 columns."""
    # Continuation lines are marked, so text from a log can never start a
    # line that looks like the tool's own ("Game over. Winner: ...").
    return "\n".join(_fill(safe(text, style, names), "  | "))


def wrap(items: Sequence[str], indent: str = "  ") -> str:
    """Moves (or other short words) filled into lines of at most 72 columns."""
    return textwrap.fill("  ".join(items), width=WIDTH, initial_indent=indent,
                         subsequent_indent=indent, break_on_hyphens=False)


def legal_lines(game: GameSpec, view: Any, legal: Sequence[str], style: Style,
                source: str | None = None) -> list[str]:
    """Each legal move on its own line with what it would do, in the rule
    text's words (:func:`adjudicator.narrating.explained`), folded at 72
    columns under the move: ``  FaSp-d5  place Fall with a Spring back on
    d5``. ``view`` is the view of the player to move; ``source`` names a
    view file, whose view may be bad input (then the moves alone)."""
    from .narrating import explained

    try:
        told = explained(game, view, legal)
    except (KeyError, IndexError, ValueError, TypeError, AttributeError):
        if source is None:
            raise
        return [wrap(list(legal))]
    return explained_lines(told, style)


def explained_lines(told: Sequence[tuple[str, str]], style: Style) -> list[str]:
    """Moves with their words (:func:`adjudicator.narrating.explained`), one
    a line, the words folded at 72 columns under the move."""
    pad = min(max((len(m) for m, _ in told), default=0), 12)
    out: list[str] = []
    for move, words in told:
        head = f"  {move:<{pad}}  "
        text = safe(f"{head}{words}", style) if words else f"  {move}"
        out += _fill(text, " " * min(len(head), 16)) if len(text) > WIDTH else [text]
    return out


_PLAIN = Style()


def score_lines(outcome: Outcome, final: bool, style: Style = _PLAIN,
                details: bool = True, names: Names | None = None) -> list[str]:
    """The score in lines of at most 72 columns; the reasoning with ``details``
    (``names``: how the ASCII style writes the players' names)."""
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
        out += _fill(safe(line, style, names), indent) or [""]
    return out


def since_lines(lines: Sequence[str], viewer: str | None, style: Style,
                heading: str = "Since your last move", names: Names | None = None) -> list[str]:
    """What happened since the viewer last moved, one folded line per entry."""
    if not lines:
        return []
    return [fold(f"{heading} ({viewer}):", style, names),
            *(fold("  " + line, style, names) for line in lines)]


def names_for(players: Sequence[str], style: Style) -> Names | None:
    """How ``style`` writes the names of ``players``: their :func:`ascii_names`
    in the ASCII style, as they are in Unicode (None)."""
    if style.unicode or all(name.isascii() for name in players):
        return None
    return ascii_names(players)


def _renamed_view(seen: Any, names: Names) -> Any:
    """A view with every player's name written as ``names`` says, wherever it
    stands in the view: laid out by the game at the length it will be shown."""
    import msgspec

    def walk(value: Any) -> Any:
        if isinstance(value, str):
            return _renamed(value, names)
        if isinstance(value, (list, tuple)):
            return [walk(v) for v in value]
        if isinstance(value, dict):
            return {walk(k): walk(v) for k, v in value.items()}
        return value

    try:
        return msgspec.convert(walk(msgspec.to_builtins(seen)), type(seen))
    except msgspec.ValidationError:
        return seen  # then its names are written a character at a time, after it is drawn


def render(game: GameSpec, seen: Any, style: Style, source: str | None,
           names: Names | None = None) -> str:
    """A view drawn as text, pure printable ASCII in the ASCII style whatever
    names it holds (written as ``names`` says: :func:`names_for`); a view
    file's view that the game cannot draw is bad input."""
    try:
        if names and not style.unicode:
            seen = _renamed_view(seen, names)
        text = game.render(seen, style)
    except (KeyError, IndexError, ValueError, TypeError, AttributeError, ZeroDivisionError):
        if source is None:
            raise
        raise BadLogError(f"{source}: its view does not describe a {game.title} position") from None
    if not style.unicode and not text.isascii():
        # Escaped text is longer than the text the game laid out: a line that
        # no longer fits 72 columns is folded, never sent wider.
        text = "\n".join(line if len(line) <= WIDTH else _hard_fold(line)
                         for line in (safe(line, style, names) for line in text.split("\n")))
    return text


def _hard_fold(line: str) -> str:
    indent = " " * (WIDTH // 2) + "| "
    at = _cut(line, WIDTH)
    out, rest = [line[:at]], line[at:]
    while rest:
        at = _cut(rest, WIDTH - len(indent))
        out.append(indent + rest[:at])
        rest = rest[at:]
    return "\n".join(out)


def tag_lines(log: Log, style: Style) -> list[str]:
    """A log's tags (event, round, ...) filled into lines of at most 72 columns."""
    if not log.tags:
        return []
    return _fill(safe("  ".join(f"{k}: {v}" for k, v in log.tags.items()), style), "")


def _page(heading: str, style: Style, above: list[str], last: MoveEntry | None,
          board: str, names: Names | None = None, said: str | None = None) -> list[str]:
    """The top of a position as a player reads it, in a terminal or a view
    file alike: the heading, what the caller puts above the board, the last
    move (and ``said``, what it did in words), the board and a blank line."""
    out = [fold(heading, style, names), *above]
    if last is not None:
        out.append(fold(f"Last move: {last.by} {last.move}" + (f": {said}" if said else "")
                        + (f"  # {last.comment}" if last.comment else ""), style, names))
    return [*out, board, ""]


def position_text(game: GameSpec, pos: Position, style: Style, total: int,
                  tags: Sequence[str] = (), details: bool = False,
                  players: Sequence[str] = ()) -> str:
    """A position of a log as ``show`` prints it (``total``: the moves of the
    log, ``tags``: its :func:`tag_lines`, ``players``: its players, whose
    names the ASCII style transliterates): the board as the viewer sees it,
    whose turn it is with their legal moves when the viewer is to move, and
    the score; the result once the game is over."""
    names = names_for(players, style)
    dot = " · " if style.unicode else " - "
    where = "start" if pos.ply == 0 else f"after move {pos.ply} of {total}"
    seen = f"as seen by {pos.viewer}" if pos.viewer else "public view"
    out = _page(dot.join((game.title, where, seen)), style,
                [*tags, *since_lines(pos.since, pos.viewer, style, names=names)], pos.move,
                render(game, pos.view, style, None, names), names, pos.said)
    if pos.result is not None:
        out.append("\n".join(score_lines(pos.result, True, style, details, names)))
        return mail_safe("\n".join(out))
    if pos.proposal is not None:
        out.append(fold(f"Waiting for answers: {pos.proposal} (accept or reject)", style, names))
    turn = f"To move: {pos.to_move}"
    if pos.answer_by is not None:
        turn += f" (answer by {pos.answer_by})"
    out.append(fold(turn, style, names))
    if pos.legal is not None:
        out.append(f"Legal moves ({len(pos.legal)}):")
        out += legal_lines(game, pos.view, pos.legal, style)
    out.append("\n".join(score_lines(pos.standing, False, style, details, names)))
    return mail_safe("\n".join(out))


#: What a refereed game whose seed is secret cannot show anyone, in one line.
UNSEEN = "Not shown until the seed is revealed: the board, the turn, the score."


def public_text(game: GameSpec, log: Log, ply: int, style: Style, tags: Sequence[str] = (),
                signed: bool = True) -> str:
    """A refereed game whose seed is secret, as anyone may see it (``show``
    and ``replay`` without the referee's secret): the heading, the tags, one
    line saying what cannot be shown without the seed, the first ``ply``
    moves as recorded, with who made them (and their comments), and the
    result the referee signed once the game is over. It is made from the
    public log alone (``signed``: whether the referee's signature vouches
    for it), so it holds no hidden card."""
    names = names_for(log.players, style)
    dot = " · " if style.unicode else " - "
    where = "start" if ply == 0 else f"after move {ply} of {len(log.moves)}"
    out = [fold(dot.join((game.title, where, "public view")), style, names), *tags,
           fold(f"Players: {', '.join(log.players)}", style, names), UNSEEN]
    vouched = "these moves and the result" if log.result is not None else "these moves"
    out.append(f"The referee's signature vouches for {vouched}." if signed else
               "Refereed, version 1: no signature vouches for these moves.")
    out.append("")
    if ply:
        out.append("Moves:")
        for number, entry in enumerate(log.moves[:ply], 1):
            comment = f"  # {entry.comment}" if entry.comment else ""
            out.append(fold(f"{number:>4}. {entry.by} {entry.move}{comment}", style, names))
    else:
        out.append("No move yet.")
    if ply == len(log.moves) and log.result is not None:
        out += score_lines(log.result, True, style, False, names)
    return mail_safe("\n".join(out))


def view_file_text(vf: ViewFile, seen: Any, style: Style, source: str = "view file") -> str:
    """A view file as its player reads it: the referee's notes, what happened
    since their last move, the board as they see it (``seen``, its view once
    the file is checked: :func:`adjudicator.referee.check_view`), and their
    move (the legal list, or the move chosen and the moves queued after it)
    or the result."""
    from . import games

    game = games.get(vf.log.game)
    names = names_for(vf.log.players, style)
    text = render(game, seen, style, source, names)
    dot = " · " if style.unicode else " - "
    where = f"after move {len(vf.log.moves)}" if vf.log.moves else "start"
    # "Notes from", not "From": a line that starts "From " is one some mail
    # systems mangle (">From ").
    out = _page(dot.join((game.title, where, f"view file of {vf.player}")), style,
                [*since_lines(vf.notes, vf.player, style, "Notes from the referee", names),
                 *since_lines(vf.since, vf.player, style, names=names)],
                vf.log.moves[-1] if vf.log.moves else None, text, names)
    if vf.log.result is not None:
        out += score_lines(vf.log.result, True, style, names=names)
    elif vf.move is not None:
        out.append(fold(f"Your move, to send to the referee: {vf.move.move}", style, names))
        if vf.queued:
            out.append(fold("Queued after it: " + ", ".join(vf.queued), style, names))
    elif vf.legal is not None:
        out.append(f"Your move. Legal moves ({len(vf.legal)}):")
        out += legal_lines(game, seen, vf.legal, style, source)
    else:
        out.append(fold(f"To move: {vf.to_move}", style, names))
    return mail_safe("\n".join(out))


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
