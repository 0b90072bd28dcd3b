"""15 Days as a picture: the table of a view as SVG, in the shared frame of
:mod:`adjudicator.drawing`.

The middle of the table on top: the two draw piles (face down, each showing
the back of its top card), the three market columns with their cards
overlapping (only the last one dealt, at the bottom of the column, can be
taken), the discard pile fanned with its top card on the right, and the
supply of wild cards, feathers and animals. Below, one panel a player: name,
seat mark, score, feathers and animal tokens, the hand (face up for the
viewer, backs for everybody else) and the four corners as they lie, top-left
to bottom-right, each with its season, its order (descending on the left,
ascending on the right) and its cards in that order, a wild dashed with a
star. The last move is read from its canonical text only: the card played,
the wild placed, the pile drawn from or the source taken from is outlined
in vermilion.
"""

from __future__ import annotations

from functools import partial

import msgspec

from ...drawing import FAINT, HIGHLIGHT, INK, MUTED, PAPER, SEAT_COLOURS, Canvas, Element, num, picture
from ...engine import Scene
from .rules import SEASON_NAMES, SEASONS, CornerView, PlayerView, View

#: Per season (Spring, Summer, Autumn, Winter): the tint of its cards and its ink.
TINT = ("#e3f3df", "#fff1bf", "#fde1d2", "#dde8f6")
SEASON_INK = ("#2f7a2b", "#7a5f00", "#b03a00", "#23508f")
BACK_FILL = ("#5c9a58", "#b08a12", "#c2571e", "#3f6fae")  # a card back of that season

CARD_W, CARD_H = 44, 60  # the middle of the table
SMALL_W, SMALL_H = 30, 40  # hands and corners
BOARD_W, BOARD_H = 27, 40  # a card in a corner
MIDDLE = 190  # the height of the middle of the table
PANEL = 160  # the height of one player's panel
GAP = 10
CORNER_X = 256  # the corners' grid starts here in a panel
CORNER_W = 261
CORNER_H = 56
CARDS_X = 84  # a corner's cards start here
SHOWN = 9  # discard cards fanned; the rest are counted
HAND_ROW = 7  # hand cards side by side; more are fanned
ANIMALS = ("Otter", "Frog", "Squirrel", "Rabbit")

LEGEND = [
    "Cards: value over season (Sp Spring, Su Summer, Au Autumn, Wi Winter); dashed "
    "with \u2605: a wild card.",
    "Corners: \u2193 descending (left), \u2191 ascending (right); run: the points it "
    "scores; \u2713 set: all six values.",
    "Face down: the draw piles (coloured by the back of the top card) and other "
    "players' hands.",
    "1st: the player who took the first turn; turns go round in seat order.",
]
LAST = ("Vermilion outline: what the last move played, placed, paid or drew from; "
        "dashed: where it took a card from.")


def draw(v: View, scene: Scene) -> str:
    """The table of the view ``v`` as an SVG document.

    >>> from adjudicator.games.fifteen_days import GAME as fd
    >>> state = fd.setup({"first-player": "seat-0", "feathers": "one-per-turn",
    ...                   "wild": "any"}, ("ann", "bob"), "0")
    >>> svg = draw(fd.view(state, 0), Scene("15 Days", ("ann", "bob"), "ann", "ann", 0,
    ...     None, fd.standing(state), False))
    >>> svg.count('class="card face-up hand"'), svg.count('class="card face-down hand"')
    (2, 2)
    """
    last = _last(scene)
    height = MIDDLE + len(v.players) * (PANEL + GAP)
    legend = LEGEND + [LAST] * (last is not None)
    # A view file carries no standing, but every panel shows its player's score.
    return picture(scene, height, lambda c: _table(c, v, last), legend=legend,
                   no_score="in each player's panel")


def _last(scene: Scene) -> tuple[str, str, str] | None:
    """What the last move touched, from its text: (player, what, which): what is
    "pile" (drawn from, 1 or 2), "take" (taken from, a-d), "paid" (the card now
    on top of the discard pile d), "card" (played, e.g. Su4) or "wild" (placed)."""
    if scene.last is None:
        return None
    by, text = scene.last
    text = text.removeprefix("F")
    if text[:1] in ("D", "R") and text[1:] in ("1", "2"):
        return by, "pile", text[1:]
    if text[:1] == "T" and text[1:] in ("a", "b", "c", "d"):
        return by, "take", text[1:]
    if text[:1] == "P" and len(text) >= 4 and text[1:3] in SEASONS:
        return by, "card", text[1:4]
    if text[:1] == "W" and len(text) >= 4 and text[1:3] in SEASONS:  # WSu4, WSu4L
        return by, "wild", text[1:4]
    if text[:1] == "X" and len(text) == 4:
        return by, "paid", "d"  # the card paid or discarded is on top of the pile
    return None


def _table(c: Canvas, v: View, last: tuple[str, str, str] | None) -> None:
    # Most of a table is as it was a move before, and as another viewer sees
    # it: each part is drawn once for all the pictures it is the same in.
    c.shared(("fifteen-days middle", v.market, v.discard, v.piles, v.pile_backs, v.wild_supply,
              v.feather_supply, v.animal_supply, None if last is None else last[1:]),
             lambda: _middle(c, v, last))
    _now(c, v)
    for seat, pv in enumerate(v.players):
        mine = last if last is not None and last[0] == pv.name else None
        c.shared(("fifteen-days player", seat, msgspec.json.encode(pv), v.to_move == pv.name,
                  v.viewer == pv.name, v.first == pv.name, mine),
                 partial(_player, c, v, seat, pv, MIDDLE + seat * (PANEL + GAP), last))


# --- cards ------------------------------------------------------------------------------


def _face(c: Canvas, x: float, y: float, w: float, h: float, card: str, cls: str,
          title: str | None = None, index: bool = False) -> Element:
    """A face-up card: its value, large, over its season's code; a wild
    (``Su4*``) dashed, with a star. ``index``: value and season in the top
    left corner, readable when the card is mostly covered by the next."""
    season = SEASONS.index(card[:2])
    wild = card.endswith("*")
    g = c.group(class_=cls)
    c.rect(x, y, w, h, fill=PAPER if wild else TINT[season], stroke=SEASON_INK[season],
           width=1.5, rx=5, parent=g, stroke_dasharray="4 3" if wild else None)
    big = h > 50
    mid = x + (9 if index else w / 2)
    c.text(mid, y + (20 if index and big else 17 if index else h * 0.52), card[2],
           size=22 if index and big else 16 if index else 26 if big else 18, anchor="middle",
           weight="bold", fill=SEASON_INK[season], parent=g)
    c.text(mid, y + (36 if index and big else 29) if index else y + h - (7 if big else 5),
           card[:2] + (" \u2605" if wild and not index else ""), size=12 if big else 10,
           anchor="middle", fill=SEASON_INK[season], parent=g)
    name = f"{SEASON_NAMES[season]} {card[2]}" + (" (a wild card)" if wild else "")
    c.title(g, f"{name}{', ' + title if title else ''}")
    return g


def _back(c: Canvas, x: float, y: float, w: float, h: float, season: int | None, cls: str,
          title: str) -> Element:
    """A face-down card: the colour and code of its back when it is known."""
    g = c.group(class_=cls)
    fill = "#6b7280" if season is None else BACK_FILL[season]
    c.rect(x, y, w, h, fill=fill, stroke=INK, width=1, rx=5, parent=g)
    c.rect(x + 3, y + 3, w - 6, h - 6, stroke="#ffffff", width=0.8, rx=3, parent=g)
    if season is not None and h > 50:
        c.text(x + w / 2, y + h / 2 + 5, SEASONS[season], size=14, anchor="middle",
               weight="bold", fill="#ffffff", parent=g)
    c.title(g, title)
    return g


def _outline(c: Canvas, x: float, y: float, w: float, h: float) -> None:
    c.rect(x - 4, y - 4, w + 8, h + 8, stroke=HIGHLIGHT, width=3, rx=8, class_="last")


def _taken(c: Canvas, x: float, y: float, w: float, h: float) -> None:
    """Where the last move took a card from (the card itself is in a hand)."""
    c.rect(x - 5, y - 5, w + 10, h + 10, stroke=HIGHLIGHT, width=2.5, rx=8,
           stroke_dasharray="6 4", class_="last")


def _feather(c: Canvas, x: float, y: float, parent: Element | None = None) -> None:
    """A feather token: a quill, 12 px wide and 16 high, from its top left."""
    d = (f"M {num(x + 10)} {num(y)} C {num(x + 2)} {num(y + 4)} {num(x)} {num(y + 10)} "
         f"{num(x + 2)} {num(y + 16)} C {num(x + 8)} {num(y + 12)} {num(x + 12)} {num(y + 6)} "
         f"{num(x + 10)} {num(y)} Z")
    c.path(d, fill="#8a7bb8", stroke="#4b3f78", width=0.8, parent=parent, class_="feather")
    c.line(x + 2, y + 16, x + 9, y + 3, stroke="#4b3f78", width=0.8, parent=parent)


def _animal(c: Canvas, x: float, y: float, animal: int, held: bool = True) -> float:
    """An animal token as a labelled pill in its season's colour; its width."""
    name = ANIMALS[animal]
    w = 18 + 8.2 * len(name)
    g = c.group(class_="animal")
    c.rect(x, y - 14, w, 20, fill=TINT[animal], stroke=SEASON_INK[animal], width=1.2, rx=10,
           parent=g)
    c.text(x + w / 2, y + 1, name, size=12, anchor="middle", weight="bold",
           fill=SEASON_INK[animal], parent=g)
    c.title(g, f"the {name} token ({SEASON_NAMES[animal]})" + ("" if held else ", in the supply"))
    return w


# --- the middle of the table ----------------------------------------------------------------


def _middle(c: Canvas, v: View, last: tuple[str, str, str] | None) -> None:
    top = 40
    lit = last[1:] if last is not None else None
    # The draw piles.
    c.text(20, top - 20, "Draw piles", size=13, weight="bold", fill=MUTED)
    for i, (size, back) in enumerate(zip(v.piles, v.pile_backs)):
        x = 20 + i * (CARD_W + 16)
        if back is None:
            c.rect(x, top, CARD_W, CARD_H, stroke="#bbbbbb", rx=5, stroke_dasharray="3 4",
                   class_="pile empty")
        else:
            _back(c, x, top, CARD_W, CARD_H, SEASONS.index(back), "pile",
                  f"draw pile {i + 1}: {size} cards, a {SEASON_NAMES[SEASONS.index(back)]} back "
                  "on top")
        c.text(x + CARD_W / 2, top + CARD_H + 18, str(i + 1), size=14, anchor="middle",
               weight="bold")
        c.text(x + CARD_W / 2, top + CARD_H + 34, f"{size} left" if size else "empty", size=12,
               anchor="middle", fill=MUTED)
        if lit == ("pile", str(i + 1)):
            _outline(c, x, top, CARD_W, CARD_H)
    # The market: each column's cards overlap downwards; the last dealt, at
    # the bottom, is the one that can be taken.
    c.text(140, top - 20, "Market", size=13, weight="bold", fill=MUTED)
    step = 22
    for i, column in enumerate(v.market):
        x = 140 + i * (CARD_W + 12)
        c.text(x + CARD_W / 2, top - 4, "abc"[i], size=13, anchor="middle", weight="bold")
        for k, card in enumerate(column):
            # A card with another dealt over it shows only its top strip:
            # its value goes in the corner there, as in the discard pile's fan.
            covered = k < len(column) - 1
            g = _face(c, x, top + k * step, CARD_W, CARD_H, card, "card market",
                      f"column {'abc'[i]}" + (", can be taken" if not covered else ""),
                      index=covered)
            if covered:  # and its season beside it, not by its colour alone
                c.text(x + CARD_W - 5, top + k * step + 17, card[:2], size=12, anchor="end",
                       weight="bold", fill=SEASON_INK[SEASONS.index(card[:2])], parent=g)
        if not column:
            c.rect(x, top, CARD_W, CARD_H, stroke="#bbbbbb", rx=5, stroke_dasharray="3 4",
                   class_="column empty")
        if lit == ("take", "abc"[i]):
            _taken(c, x, top, CARD_W, 2 * step + CARD_H)
    # The discard pile, face up: the top card on the right.
    dx = 326
    shown = v.discard[-SHOWN:]
    c.text(dx, top - 20, f"Discard pile d ({len(v.discard)})", size=13, weight="bold",
           fill=MUTED)
    fan = 20
    for k, card in enumerate(shown):
        _face(c, dx + k * fan, top, CARD_W, CARD_H, card, "card discard",
              "top of the discard pile" if k == len(shown) - 1 else "in the discard pile",
              index=k < len(shown) - 1)
    if not shown:
        c.rect(dx, top, CARD_W, CARD_H, stroke="#bbbbbb", rx=5, stroke_dasharray="3 4",
               class_="discard empty")
    right = dx + max(len(shown) - 1, 0) * fan
    hidden = len(v.discard) - len(shown)
    c.text(dx, top + CARD_H + 18, "the top card on the right" if shown else "empty", size=12,
           fill=MUTED)
    if hidden:
        c.text(dx, top + CARD_H + 34, f"{hidden} more under these", size=12, fill=MUTED)
    if lit == ("paid", "d"):
        _outline(c, right, top, CARD_W, CARD_H)
    elif lit == ("take", "d"):
        _taken(c, dx, top, right - dx + CARD_W, CARD_H)
    # The supply.
    sx = 576
    c.text(sx, top - 20, "Supply", size=13, weight="bold", fill=MUTED)
    g = c.group(class_="wilds")
    c.rect(sx, top, 34, 46, fill=PAPER, stroke=INK, width=1.2, rx=5, stroke_dasharray="4 3",
           parent=g)
    c.text(sx + 17, top + 30, "\u2605", size=20, anchor="middle", parent=g)
    c.title(g, f"{v.wild_supply} wild cards in the supply")
    c.text(sx + 40, top + 28, f"\u00d7 {v.wild_supply}", size=14)
    g = c.group(class_="feathers")
    _feather(c, sx + 84, top + 14, parent=g)
    c.text(sx + 100, top + 28, f"\u00d7 {v.feather_supply}", size=14, parent=g)
    c.title(g, f"{v.feather_supply} feathers in the supply")
    ax: float = sx
    ay: float = top + 74
    for a in range(4):
        if ANIMALS[a] in v.animal_supply:
            if ax + 18 + 8.2 * len(ANIMALS[a]) > 790:
                ax, ay = sx, ay + 24
            ax += _animal(c, ax, ay, a, held=False) + 6
    if not v.animal_supply:
        c.text(sx, top + 74, "no animal left", size=12, fill=MUTED)


def _now(c: Canvas, v: View) -> None:
    """The decision due and the end, in words."""
    c.text(20, MIDDLE - 28, "Now: " + v.turn, size=14)
    if v.end:
        c.text(20, MIDDLE - 10, "End: " + v.end, size=14, fill=HIGHLIGHT)


# --- a player's panel ---------------------------------------------------------------------------


def _player(c: Canvas, v: View, seat: int, pv: PlayerView, top: float,
            last: tuple[str, str, str] | None) -> None:
    moving = v.to_move == pv.name
    c.rect(8, top, 784, PANEL, fill="#fafafa" if not moving else "#fff8ef",
           stroke=INK if moving else FAINT, width=2 if moving else 1, rx=8,
           class_="panel to-move" if moving else "panel")
    c.rect(8, top, 6, PANEL, fill=SEAT_COLOURS[seat % len(SEAT_COLOURS)], stroke=None)
    c.mark(seat, 30, top + 20, 8)
    name = pv.name + (" (you)" if v.viewer == pv.name else "")
    room = CORNER_X - 52
    if v.first == pv.name:
        room -= 34
        g = c.group(class_="first")
        c.rect(CORNER_X - 40, top + 12, 30, 18, fill=PAPER, stroke=MUTED, rx=9, parent=g)
        c.text(CORNER_X - 25, top + 25, "1st", size=11, anchor="middle", weight="bold",
               fill=MUTED, parent=g)
        c.title(g, f"{pv.name} took the first turn")
    if len(name) * 0.75 * 16 > room:
        # A long name is squeezed into the room left of the corners (at 0.75 em
        # a character, wide letters included, a shorter one always fits).
        c.text(44, top + 26, name, size=16, weight="bold", textLength=room,
               lengthAdjust="spacingAndGlyphs")
    else:
        c.text(44, top + 26, name, size=16, weight="bold")
    c.text(44, top + 46, f"score {pv.score}", size=14)
    # Feathers and tokens.
    x: float = 130
    for k in range(pv.feathers):
        _feather(c, x + k * 14, top + 34)
    c.text(x + max(pv.feathers, 0) * 14 + 4, top + 46,
           f"{pv.feathers} feather{'s' * (pv.feathers != 1)}", size=12, fill=MUTED)
    x, y = 20, top + 70
    for animal in pv.animals:
        width = 18 + 8.2 * len(animal)
        if x + width > CORNER_X - 8:
            x, y = 20, y + 24
        x += _animal(c, x, y, ANIMALS.index(animal)) + 6
    if not pv.animals:
        c.text(20, y, "no animal", size=12, fill=MUTED)
    # The hand.
    hy = top + 102
    if pv.hand is not None:
        n = len(pv.hand)
        step = SMALL_W + 3 if n <= HAND_ROW else (HAND_ROW - 1) * (SMALL_W + 3) / (n - 1)
        for k, card in enumerate(pv.hand):
            _face(c, 20 + k * step, hy, SMALL_W, SMALL_H, card, "card face-up hand", "in hand",
                  index=n > HAND_ROW and k < n - 1)
        c.text(20, hy + SMALL_H + 14, f"hand: {n} card{'s' * (n != 1)}" if n else "hand empty",
               size=12, fill=MUTED)
    else:
        size = pv.hand_size
        for k in range(min(size, 12)):
            _back(c, 20 + k * 12, hy, SMALL_W, SMALL_H, None, "card face-down hand",
                  f"{pv.name}'s hand, face down")
        c.text(20, hy + SMALL_H + 14, f"hand: {size} card{'s' * (size != 1)}, face down"
               if size else "hand empty", size=12, fill=MUTED)
    # The four corners, as they lie.
    mine = last is not None and last[0] == pv.name
    for i, corner in enumerate(pv.corners):
        cx = CORNER_X + (i % 2) * (CORNER_W + 6)
        cy = top + 14 + (i // 2) * (CORNER_H + 20)
        lit = last[1:] if last is not None and mine else None
        c.shared(("fifteen-days corner", cx, cy, msgspec.json.encode(corner), lit),
                 partial(_corner, c, cx, cy, corner, lit))


def _corner(c: Canvas, x: float, y: float, corner: CornerView,
            lit: tuple[str, str] | None) -> None:
    arrow = "\u2193" if corner.order == "descending" else "\u2191"
    g = c.group(class_="corner")
    if corner.season is None:
        c.rect(x, y, CORNER_W, CORNER_H, fill=PAPER, stroke="#c8c8c8", rx=6,
               stroke_dasharray="3 4", parent=g)
        c.text(x + 8, y + 20, f"{arrow} {corner.corner}", size=11, fill=MUTED, parent=g)
        c.text(x + 8, y + 40, "empty: \u22122", size=12, fill=MUTED, parent=g)
        c.title(g, f"{corner.corner} corner ({corner.order}): empty, -2 points")
        return
    season = SEASONS.index(corner.season)
    c.rect(x, y, CORNER_W, CORNER_H, fill=PAPER, stroke=SEASON_INK[season], width=1.2, rx=6,
           parent=g)
    c.text(x + 8, y + 18, f"{arrow} {SEASON_NAMES[season]}", size=12, weight="bold",
           fill=SEASON_INK[season], parent=g)
    c.text(x + 8, y + 36, f"run {corner.run}", size=12, fill=INK, parent=g)
    if corner.complete:
        c.text(x + 8, y + 51, "\u2713 set", size=12, weight="bold", fill=SEASON_INK[season],
               parent=g)
    c.title(g, f"{corner.corner} corner ({corner.order}): {SEASON_NAMES[season]}, "
               f"{' '.join(corner.cards)}; run {corner.run}"
               + (", a complete set" if corner.complete else ""))
    for k, card in enumerate(corner.cards):
        px = x + CARDS_X + k * (BOARD_W + 2)
        py = y + (CORNER_H - BOARD_H) / 2
        _face(c, px, py, BOARD_W, BOARD_H, card, "card board", f"{corner.corner} corner")
        if lit is not None and (lit == ("card", card) or lit == ("wild", card.rstrip("*"))
                                and card.endswith("*")):
            _outline(c, px, py, BOARD_W, BOARD_H)
