"""Q-Turn as a picture: the table of a view as SVG, in the shared frame of
:mod:`adjudicator.drawing`.

The 4x4 board of wooden disks as it lies on the table (rank 4 at the top):
each revealed disk with its arrows, each face-down disk grey with a ``?``,
the tokens in their seats' colours and marks, and a flag in the outer corner
of each player's starting corner. Beside it, each player's journey, the disks
still face down by kind, and the round. The last move is read from its
canonical text only: the square moved to (or the mover's square) is
outlined, and a disk it turned is ringed.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import msgspec

from ...drawing import FAINT, HIGHLIGHT, INK, MUTED, SEAT_COLOURS, Canvas, picture
from ...engine import Scene
from .rules import FILES, KIND_NAMES, KIND_PLURALS, SQUARES, View

CELL = 104  # one square of the board
RADIUS = 41  # a disk
LEFT, TOP = 40, 14  # the board's top left corner in the table area
PANEL = LEFT + 4 * CELL + 32  # the left edge of the column beside the board
BODY = TOP + 4 * CELL + 40
WOOD, GRAIN = "#f2e2c0", "#9a7846"  # a revealed disk
BACK, BACK_EDGE = "#a9a9a9", "#6f6f6f"  # a face-down disk
ANGLE = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
LEGEND = (
    "Arrows: where a token on the disk may move (Q-Turner 4, Double Arrow 2, "
    "One-Way Arrow 1); grey ?: face down.",
    "A corner flag: that player's starting corner. Vermilion: the last move "
    "(outlined), the disk it turned (ringed).",
)


def draw(v: View, scene: Scene) -> str:
    """The table of the view ``v`` as an SVG document.

    >>> from adjudicator import match
    >>> rep = match.replay(match.new_log("q-turn", ["ann", "bob"], "75"))
    >>> svg = draw(rep.game.view(rep.state, None), Scene("Q-Turn", ("ann", "bob"), None,
    ...     "ann", 0, None, rep.game.standing(rep.state), False))
    >>> svg.count('class="face-down"')
    16
    """
    last = _last_move(v, scene)
    # Every seat sees the same table: one drawing serves every viewer.
    key = ("q-turn", msgspec.json.encode(msgspec.structs.replace(v, viewer=None)), last)
    return picture(scene, BODY, lambda c: _table(c, v, last), legend=LEGEND, key=key)


def _centre(square: str) -> tuple[float, float]:
    col, row = FILES.index(square[0]), int(square[1]) - 1
    return LEFT + col * CELL + CELL / 2, TOP + (3 - row) * CELL + CELL / 2


def _last_move(v: View, scene: Scene) -> tuple[str | None, str | None, str | None]:
    """What the last move did, read from its canonical text (``b2+c3``,
    ``bounce``, ``NS+c3``) and the public position: the square it acted on,
    the disk it turned, and a note when a Q-Turner turned every disk."""
    if scene.last is None:
        return None, None, None
    by, text = scene.last
    head, _, turned = text.partition("+")
    seat = v.players.index(by) if by in v.players else -1
    square: str | None
    if head in SQUARES:
        square = head
    else:  # a bounce or an orientation: on the mover's own disk
        square = v.tokens[seat] if seat >= 0 else None
    note = None
    # Landing or bouncing on a Q-Turner turns every revealed disk, except
    # when the move brings its player home to win.
    won = v.winner == by and seat >= 0 and v.homes[seat] == square
    if square is not None and v.disks[square] == "Q" and head[:1] not in "NESW" and not won:
        note = f"The Q-Turner on {square} turned every revealed disk"
    return square, turned or None, note


def _table(c: Canvas, v: View, last: tuple[str | None, str | None, str | None]) -> None:
    moved, turned, note = last
    c.shared(("q-turn board",), lambda: _board(c))
    homes = {sq: seat for seat, sq in enumerate(v.homes) if sq is not None}
    at = {sq: seat for seat, sq in enumerate(v.tokens) if sq is not None}
    for square, code in v.disks.items():
        # A square is drawn once for every picture it looks the same in.
        c.shared(("q-turn square", square, code, square == v.orienting, square == turned,
                  at.get(square), square == moved, homes.get(square), v.players),
                 partial(_square, c, v, square, code, turned, moved, at, homes))
    _panel(c, v, note)


def _board(c: Canvas) -> None:
    """The board: files and ranks as in the notation."""
    for col, f in enumerate(FILES):
        c.text(LEFT + col * CELL + CELL / 2, TOP + 4 * CELL + 24, f, size=16, anchor="middle",
               fill=MUTED)
    for row in range(4):
        c.text(LEFT - 16, TOP + (3 - row) * CELL + CELL / 2 + 6, str(row + 1), size=16,
               anchor="middle", fill=MUTED)
    c.rect(LEFT, TOP, 4 * CELL, 4 * CELL, fill=FAINT, stroke=MUTED)
    for k in range(1, 4):
        c.line(LEFT + k * CELL, TOP, LEFT + k * CELL, TOP + 4 * CELL, stroke="#d0d0d0")
        c.line(LEFT, TOP + k * CELL, LEFT + 4 * CELL, TOP + k * CELL, stroke="#d0d0d0")


def _square(c: Canvas, v: View, square: str, code: str, turned: str | None, moved: str | None,
            at: dict[str, int], homes: dict[str, int]) -> None:
    """One square: its disk, a token on it, a starting corner, the last move."""
    x, y = _centre(square)
    named: dict[str, Any] = {"class": "square", "data-square": square}
    g = c.group(**named)
    c.title(g, _describe(v, square, code, at.get(square), homes.get(square)))
    _disk(c, g, x, y, code, square == v.orienting)
    if square == turned:
        c.circle(x, y, RADIUS + 5, stroke=HIGHLIGHT, width=3, stroke_dasharray="7 4",
                 parent=g, **{"class": "turned"})
    if square in at:
        _token(c, g, at[square], x, y)
    if square == moved:
        c.rect(x - CELL / 2 + 3, y - CELL / 2 + 3, CELL - 6, CELL - 6, stroke=HIGHLIGHT,
               width=4, rx=6, parent=g, **{"class": "last-move"})
    if square in homes:
        _flag(c, g, square, homes[square])


def _describe(v: View, square: str, code: str, seat: int | None, home: int | None) -> str:
    if code == "?":
        words = "a face-down disk"
    elif code == "Q":
        words = "a Q-Turner"
    elif len(code) == 1:
        words = f"a {KIND_NAMES['QDO'.index(code)]} just revealed, not yet oriented"
    else:
        kind, points = code.split(":")
        words = f"a {KIND_NAMES['QDO'.index(kind)]} pointing {' and '.join(points)}"
    if seat is not None:
        words += f", {v.players[seat]}'s token"
    if home is not None:
        words += f", {v.players[home]}'s starting corner"
    return f"{square}: {words}"


def _disk(c: Canvas, g, x: float, y: float, code: str, orienting: bool) -> None:
    if code == "?":
        c.circle(x, y, RADIUS, fill=BACK, stroke=BACK_EDGE, width=2, parent=g,
                 **{"class": "face-down"})
        c.text(x, y + 11, "?", size=32, anchor="middle", weight="bold", fill="#ffffff",
               parent=g)
        return
    kind = code[0]
    c.circle(x, y, RADIUS, fill=WOOD, stroke=HIGHLIGHT if orienting else GRAIN, width=2.5,
             parent=g, stroke_dasharray="6 4" if orienting else None,
             **{"class": "disk", "data-disk": code})
    # The kind's letter in the gap between the north and west arrows.
    c.text(x - 22, y - 14, kind, size=14, weight="bold", anchor="middle", fill=GRAIN, parent=g)
    if orienting:
        c.text(x, y + RADIUS - 8, "orient", size=11, anchor="middle", fill=HIGHLIGHT, parent=g)
        return
    points = "NESW" if kind == "Q" else code[2:]
    for d in points:
        _arrow(c, g, x, y, *ANGLE[d], 12, RADIUS - 3)


def _arrow(c: Canvas, g, x: float, y: float, dx: int, dy: int, start: float, tip: float,
           *, width: float = 5, head: float = 13, colour: str = INK) -> None:
    """An arrow from ``start`` to ``tip`` away from (x, y) in direction (dx, dy)."""
    base = tip - head
    c.line(x + dx * start, y + dy * start, x + dx * base, y + dy * base, stroke=colour,
           width=width, parent=g)
    half = head * 0.6
    c.polygon(
        [(x + dx * tip, y + dy * tip),
         (x + dx * base - dy * half, y + dy * base + dx * half),
         (x + dx * base + dy * half, y + dy * base - dx * half)],
        fill=colour, stroke=None, parent=g,
    )  # fmt: skip


def _token(c: Canvas, g, seat: int, x: float, y: float) -> None:
    c.circle(x, y, 21, fill="#ffffff", stroke=None, parent=g)
    c.mark(seat, x, y, 16, parent=g).set("class", "token")
    dy = 8 if seat % 4 == 2 else 5  # a triangle's middle sits low
    c.text(x, y + dy, str(seat + 1), size=14, weight="bold", anchor="middle",
           fill=INK if seat % 4 == 1 else "#ffffff", parent=g)


def _flag(c: Canvas, g, square: str, seat: int) -> None:
    """A starting corner: the seat's colour in the cell's outer corner, its mark there."""
    x, y = _centre(square)
    sx = -1 if square[0] == "a" else 1
    sy = -1 if square[1] == "4" else 1
    cx, cy = x + sx * CELL / 2, y + sy * CELL / 2  # the board's corner
    size = 30
    named: dict[str, Any] = {"class": "home"}
    c.polygon([(cx, cy), (cx - sx * size, cy), (cx, cy - sy * size)],
              fill=SEAT_COLOURS[seat % 4], stroke=None, parent=g, **named)
    c.mark(seat, cx - sx * 9, cy - sy * 9, 5, fill="#ffffff", parent=g)


def _panel(c: Canvas, v: View, note: str | None) -> None:
    x = PANEL
    y = TOP + 14
    c.text(x, y, "Players", size=15, weight="bold")
    for seat, name in enumerate(v.players):
        y += 26
        c.mark(seat, x + 8, y - 5, 7)
        if name == v.to_move:
            c.polygon([(x - 14, y - 11), (x - 4, y - 5), (x - 14, y + 1)], fill=INK, stroke=None)
        c.text(x + 22, y, f"{seat + 1} {name}", size=14,
               weight="bold" if name == v.to_move or name == v.winner else None)
        y += 18
        c.text(x + 22, y, _journey(v, seat), size=12, fill=MUTED)
    y += 34
    down = sum(v.face_down.values())
    c.text(x, y, f"Face down: {down}", size=15, weight="bold")
    for k, letter in enumerate("QDO"):
        count = v.face_down[letter]
        if not count:
            continue
        y += 28
        _icon(c, x + 12, y - 5, letter)
        noun = KIND_NAMES[k] if count == 1 else KIND_PLURALS[k]
        c.text(x + 32, y, f"{count} {noun}", size=13)
    y += 34
    c.text(x, y, f"Round {v.round} of at most {v.round_limit}", size=13)
    # The last move's Q-Turner and a disk being oriented in the colour of the
    # last move; the end of the game in bold.
    lines: list[tuple[str, str, str | None]] = [(line, HIGHLIGHT, None) for line in _wrap(note or "", 40)]
    if v.orienting is not None:
        kind = KIND_NAMES["QDO".index(v.disks[v.orienting])]
        text = f"{v.to_move} orients the {kind} just revealed on {v.orienting}"
        lines += [(line, HIGHLIGHT, None) for line in _wrap(text, 40)]
    if v.to_move is None:
        text = (f"{v.winner} completed the journey and wins" if v.winner is not None
                else "The round limit was reached: nobody wins")
        lines += [(line, INK, "bold") for line in _wrap(text, 40)]
    for line, colour, weight in lines:
        y += 20
        c.text(x, y, line, size=13, fill=colour, weight=weight)


def _wrap(text: str, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` characters, broken at spaces."""
    lines: list[str] = []
    for word in text.split():
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def _journey(v: View, seat: int) -> str:
    home, far = v.homes[seat], v.far_corners[seat]
    if home is None:
        return "off the board: enters on a free corner"
    on = f"on {v.tokens[seat]} \u00b7 home {home}"
    if v.players[seat] == v.winner:
        return f"{on} \u00b7 went to {far} and back: wins"
    if v.reached[seat]:
        return f"{on} \u00b7 reached {far}, heading home"
    return f"{on} \u00b7 heading for {far}"


def _icon(c: Canvas, x: float, y: float, letter: str) -> None:
    """A small face-down disk of one kind, its arrows drawn faintly (for the counts)."""
    c.circle(x, y, 11, fill=WOOD, stroke=GRAIN, width=1.5)
    points = {"Q": "NESW", "D": "NS", "O": "N"}[letter]
    for d in points:
        _arrow(c, None, x, y, *ANGLE[d], 0, 10, width=2, head=5, colour=GRAIN)
