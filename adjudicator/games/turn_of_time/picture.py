"""Turn of Time as a picture: the table of a view as SVG, in the shared frame
of :mod:`adjudicator.drawing`.

The floating grid of cards as it lies on the table (rank 7 at the top): each
card shows the season face up, large, above a strip with the season on its
back; the squares where the next card may go are dashed. Beside it, the
seasons (cards face up, largest group, who plays them) and the hands, open
in Turn of Time (ruling R10); in a solo game the card drawn and the deck,
face down. Seasons are told apart by colour and by their codes (Sp, Su, Fa,
Wi), seats by colour and mark. The last move is read from its canonical
text only: the square it placed a card on is framed.
"""

from __future__ import annotations

import re
from typing import Any

from ...drawing import HIGHLIGHT, INK, MUTED, Canvas, picture
from ...engine import Scene
from .cards import FILES, SEASON_NAMES, SEASONS
from .rules import View

#: One colour per season, kept apart from the seats' colours: leaf green,
#: yellow, sienna, ice blue; and the ink of a season code written on it.
SEASON_COLOURS = ("#8cc63f", "#f0e442", "#a0522d", "#a6cee3")
SEASON_INKS = (INK, INK, "#ffffff", INK)
#: The same, mixed with white: the ground of a card showing the season.
SEASON_TINTS = ("#dcefc4", "#f8f2a6", "#e3b9a0", "#dcebf5")
CELL = 90  # one square of the grid
CARD = 82  # a card on it
LEFT, TOP = 34, 10  # the grid's top left corner in the table area
PANEL = 500  # the left edge of the column beside the grid
MINI_W, MINI_H, MINI_GAP = 32, 44, 4  # a card in a hand
LEGEND = (
    "A card: the season face up (large) over the season on its back. "
    "Sp Spring, Su Summer, Fa Fall, Wi Winter.",
    "Dashed squares: where the next card may go. Vermilion frame: the card "
    "placed by the last move.",
)
_SQUARE = re.compile(r"-([a-g][1-7])(?::|$)")


def css(name: str) -> dict[str, Any]:
    """The attributes of an element of CSS class ``name`` (``class`` is a keyword)."""
    return {"class": name}


def draw(v: View, scene: Scene) -> str:
    """The table of the view ``v`` as an SVG document.

    >>> from adjudicator import match
    >>> rep = match.replay(match.new_log("turn-of-time", ["ann", "bob"], "0"))
    >>> svg = draw(rep.game.view(rep.state, None), Scene("Turn of Time", ("ann", "bob"),
    ...     None, "ann", 0, None, rep.game.standing(rep.state), False))
    >>> svg.count('class="open"')
    1
    """
    last = None
    if scene.last is not None:
        found = _SQUARE.search(scene.last[1])
        last = found[1] if found else None
    cols, rows = _extent(v)
    grid_height = TOP + len(rows) * CELL + 30
    panel_height = _panel(None, v, scene)
    return picture(
        scene,
        max(grid_height, panel_height),
        lambda c: _table(c, v, scene, cols, rows, last),
        legend=LEGEND,
    )


def _extent(v: View) -> tuple[list[int], list[int]]:
    """The columns and rows drawn: those of the cards and the open squares (at
    least d4), columns left to right, rows top to bottom."""
    shown = set(v.board) | set(v.open) or {"d4"}
    cols = sorted({FILES.index(s[0]) for s in shown})
    rows = sorted({int(s[1:]) - 1 for s in shown}, reverse=True)
    return list(range(cols[0], cols[-1] + 1)), list(range(rows[0], rows[-1] - 1, -1))


def _table(c: Canvas, v: View, scene: Scene, cols: list[int], rows: list[int],
           last: str | None) -> None:
    grid = c.group(**css("grid"))
    for i, col in enumerate(cols):
        c.text(LEFT + i * CELL + CELL / 2, TOP + len(rows) * CELL + 20, FILES[col],
               size=14, anchor="middle", fill=MUTED, parent=grid)
    for j, row in enumerate(rows):
        c.text(LEFT - 14, TOP + j * CELL + CELL / 2 + 5, str(row + 1), size=14,
               anchor="middle", fill=MUTED, parent=grid)
    for j, row in enumerate(rows):
        for i, col in enumerate(cols):
            square = f"{FILES[col]}{row + 1}"
            x = LEFT + i * CELL + (CELL - CARD) / 2
            y = TOP + j * CELL + (CELL - CARD) / 2
            card = v.board.get(square)
            if card is not None:
                _card(c, x, y, card, square, grid, highlight=square == last)
            elif square in v.open:
                spot = c.rect(x + 4, y + 4, CARD - 8, CARD - 8, stroke=MUTED, rx=6,
                              stroke_dasharray="5 4", parent=grid, **css("open"))
                c.title(spot, f"{square}: the next card may go here")
                c.text(x + CARD / 2, y + CARD / 2 + 5, square, size=13, anchor="middle",
                       fill=MUTED, parent=grid)
    _panel(c, v, scene)


def _card(c: Canvas, x: float, y: float, card: str, square: str, parent, *,
          highlight: bool) -> None:
    """A card on the table: its face season large, its back in a strip below."""
    face, back = SEASONS.index(card[:2]), SEASONS.index(card[2:])
    g = c.group(parent, **css("card"))
    c.title(g, f"{square}: {SEASON_NAMES[face]} face up, {SEASON_NAMES[back]} on the back"
            + (" (a single season card)" if face == back else ""))
    strip = 22
    c.rect(x, y, CARD, CARD, fill=SEASON_TINTS[face], stroke=INK, width=1.5, rx=7, parent=g)
    c.rect(x + 5, y + 5, CARD - 10, CARD - strip - 12, fill=SEASON_COLOURS[face], stroke=None,
           rx=5, parent=g)
    c.text(x + CARD / 2, y + 42, card[:2], size=28, anchor="middle", weight="bold",
           fill=SEASON_INKS[face], parent=g)
    c.text(x + CARD - 9, y + 17, square, size=10, anchor="end", fill=SEASON_INKS[face],
           parent=g)
    # The back: a strip in the back season's colour, with its code.
    c.rect(x + 5, y + CARD - strip - 4, CARD - 10, strip, fill=SEASON_TINTS[back],
           stroke=SEASON_COLOURS[back], width=2, rx=3, parent=g)
    c.text(x + CARD / 2, y + CARD - 10, f"back {card[2:]}", size=12, anchor="middle",
           parent=g)
    if highlight:
        c.rect(x - 3, y - 3, CARD + 6, CARD + 6, stroke=HIGHLIGHT, width=4, rx=9,
               parent=g, **css("last"))


def _mini(c: Canvas, x: float, y: float, card: str, parent) -> None:
    """A card in a hand: its two seasons, the player's own first."""
    first, second = SEASONS.index(card[:2]), SEASONS.index(card[2:])
    g = c.group(parent, **css("hand-card"))
    c.title(g, f"{SEASON_NAMES[first]} / {SEASON_NAMES[second]}")
    half = MINI_H / 2
    c.rect(x, y, MINI_W, half, fill=SEASON_TINTS[first], stroke=None, parent=g)
    c.rect(x, y + half, MINI_W, half, fill=SEASON_TINTS[second], stroke=None, parent=g)
    c.rect(x, y, MINI_W, MINI_H, stroke=INK, rx=3, parent=g)
    c.line(x, y + half, x + MINI_W, y + half, stroke=MUTED, parent=g)
    c.text(x + MINI_W / 2, y + half - 6, card[:2], size=12, anchor="middle", weight="bold",
           parent=g)
    c.text(x + MINI_W / 2, y + MINI_H - 6, card[2:], size=12, anchor="middle", parent=g)


def _panel(c: Canvas | None, v: View, scene: Scene) -> float:
    """The column beside the grid: seasons, then hands (or the solo deck).
    Drawn on ``c`` unless it is None; its height either way."""
    x, y = PANEL, TOP + 14
    g = None if c is None else c.group(**css("panel"))

    def text(tx: float, ty: float, content: str, **kw) -> None:
        if c is not None:
            c.text(tx, ty, content, parent=g, **kw)

    solo = v.goal is not None
    owner = {s: p for p, seasons in enumerate(v.seasons) for s in seasons}
    text(x, y, "Season", size=13, weight="bold")
    text(x + 120, y, "face up", size=13, weight="bold", anchor="end")
    text(x + 190, y, "group", size=13, weight="bold", anchor="end")
    if not solo:
        text(x + 206, y, "played by", size=13, weight="bold")
    y += 8
    for i, s in enumerate(SEASONS):
        y += 24
        if c is not None:
            c.rect(x, y - 14, 26, 18, fill=SEASON_COLOURS[i], stroke=INK, rx=3, parent=g)
        text(x + 13, y, s, size=12, anchor="middle", weight="bold", fill=SEASON_INKS[i])
        text(x + 32, y, SEASON_NAMES[i], size=14)
        text(x + 120, y, str(v.face_up[s]), size=15, weight="bold", anchor="end")
        text(x + 190, y, str(v.largest_group[s]), size=14, anchor="end")
        if not solo:
            seat = owner.get(s)
            if seat is None:
                text(x + 206, y, "nobody", size=14, fill=MUTED)
            else:
                if c is not None:
                    c.mark(seat, x + 213, y - 5, 6, parent=g)
                text(x + 224, y, _short(v.players[seat], 8), size=14)
    y += 34
    if solo:
        goal = {"dominance": "7 or more connected cards of one season",
                "balance": "exactly 4 cards of each season"}.get(v.goal or "", "")
        text(x, y, f"Goal: {v.goal}", size=14, weight="bold")
        y += 18
        text(x, y, goal, size=13, fill=MUTED)
        y += 26
        if v.drawn is not None:
            text(x, y, "Card drawn", size=13, weight="bold")
            text(x + 130, y, "Deck", size=13, weight="bold")
            if c is not None:
                _mini(c, x, y + 8, v.drawn, g)
                for k in range(min(v.deck, 4)):  # a face-down stack
                    c.rect(x + 130 + 3 * k, y + 8 - 2 * k, MINI_W, MINI_H, fill="#a9a9a9",
                           stroke="#6f6f6f", rx=3, parent=g, **css("face-down"))
            text(x + 180, y + 36, f"{v.deck} face down", size=13)
            y += MINI_H + 16
        return y
    if not any(v.hands):
        text(x, y, "All 16 cards are on the table.", size=14)
        return y + 10
    text(x, y, "Hands (open to all)", size=13, weight="bold")
    y += 10
    for p, name in enumerate(v.players):
        y += 20
        if c is not None:
            c.mark(p, x + 7, y - 5, 6, parent=g)
        turn = " \u2190 to move" if v.to_move == name else ""
        text(x + 18, y, _short(name, 22) + turn, size=14,
             weight="bold" if turn else None)
        y += 6
        for k, card in enumerate(v.hands[p]):
            if c is not None:
                _mini(c, x + 18 + k * (MINI_W + MINI_GAP), y, card, g)
        if not v.hands[p]:
            text(x + 18, y + 16, "no cards left", size=13, fill=MUTED)
        y += (MINI_H if v.hands[p] else 22) + 8
    return y


def _short(name: str, room: int) -> str:
    return name if len(name) <= room else name[: room - 1] + "\u2026"

