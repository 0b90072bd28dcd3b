"""Atlas as a picture: the table of a view as SVG, in the shared frame of
:mod:`adjudicator.drawing`.

The board as it lies on the table: the four suit rows (Dawn on top), each
card in the column of its number, face up with its number and suit, face
down as a card back, a dashed outline where no card lies and a grey 8 where
the 8s are out of the game. Under each card, the stack of chips on it in its
owner's colour and mark, with its size and side (a tick once the card is
face down: the prediction was right and scores). Below, the draw pile, the
cards removed unseen, and each player's chips and hand: the viewer's cards
face up, the others' as backs. The last move is read from its canonical text
only: the card it played is outlined in vermilion.
"""

from __future__ import annotations

from typing import Any

import msgspec

from ...drawing import FAINT, HIGHLIGHT, INK, MUTED, PAPER, Canvas, Element, picture
from ...engine import Scene
from .cards import CARD_INDEX, NUMBERS, SUIT_NAMES, SUITS
from .rules import View

LEFT = 96  # the left edge of the first column
COLUMN = 86  # one number column
ROW = 108  # one suit row: the card, and the stack under it clear of the row's edge
TOP = 30  # the top of the first row
CARD_W, CARD_H = 58, 66
BOARD_END = TOP + 4 * ROW
PANEL = BOARD_END + 14  # the draw pile line, then one line a player
PLAYER = 46
SMALL_W, SMALL_H = 30, 40  # a card in a hand

#: Per suit: a pale tint for its row, and the ink of its cards.
TINT = ("#fbe8ef", "#fbf3d2", "#fde6d6", "#e2e8f5")
SUIT_INK = ("#a3356a", "#7d6200", "#a84300", "#27407d")
BACK, BACK_EDGE, BACK_LINE = "#4b5c82", "#2e3a57", "#8595bb"  # a face-down card
BACKS = "Blue card back: face down, flipped in a Time or a Place"
OUT = "; dashed grey 8: out of the game"
CHIPS = (
    "Chips: the owner's mark, how many, and Time or Place; \u2713 on a face-down card: "
    "a correct prediction, scored."
)
LAST = "Vermilion outline: the card played by the last move."


def draw(v: View, scene: Scene) -> str:
    """The table of the view ``v`` as an SVG document.

    >>> from adjudicator.games.atlas import GAME as atlas
    >>> state = atlas.setup({}, ("ann", "bob"), "0")
    >>> svg = draw(atlas.view(state, 0), Scene("Atlas", ("ann", "bob"), "ann", "ann", 0,
    ...     None, atlas.standing(state), False))
    >>> svg.count('class="card face-up hand"'), svg.count('class="card face-down hand"')
    (7, 7)
    """
    last = None
    if scene.last is not None:
        card = scene.last[1].partition("+")[0]
        last = card if card in CARD_INDEX else None
    height = PANEL + 28 + PLAYER * len(v.players)
    legend = [BACKS + OUT * bool(v.out_of_game) + ".", CHIPS] + [LAST] * (last is not None)
    return picture(scene, height, lambda c: _table(c, v, last), legend=legend,
                   key=("atlas", msgspec.json.encode(v), last))


def _table(c: Canvas, v: View, last: str | None) -> None:
    up, down, out = set(v.face_up), set(v.face_down), set(v.out_of_game)
    stacks = {s.card: s for s in v.stacks}
    seat_of = {name: i for i, name in enumerate(v.players)}
    for number in range(1, NUMBERS + 1):
        c.text(LEFT + (number - 0.5) * COLUMN, TOP - 10, str(number), size=15, anchor="middle",
               weight="bold", fill=MUTED)
    for suit, name in enumerate(SUIT_NAMES):
        y = TOP + suit * ROW
        c.rect(12, y + 2, LEFT - 12 + NUMBERS * COLUMN, ROW - 4, fill=TINT[suit], stroke=None,
               rx=8)
        c.text(20, y + CARD_H / 2 + 8, name, size=17, weight="bold", fill=SUIT_INK[suit])
        for number in range(1, NUMBERS + 1):
            text = f"{number}{SUITS[suit]}"
            x = LEFT + (number - 1) * COLUMN + (COLUMN - CARD_W) / 2
            where = f"the {number} of {name}"
            if text in up:
                g = _face(c, x, y + 6, CARD_W, CARD_H, text, "card face-up")
                c.title(g, f"{where}: face up")
            elif text in down:
                g = _back(c, x, y + 6, CARD_W, CARD_H, "card face-down")
                c.title(g, f"{where}: face down")
            elif text in out:
                g = c.group(**_cls("card out"))
                c.rect(x, y + 6, CARD_W, CARD_H, fill="#f4f4f4", stroke="#9a9a9a", rx=6,
                       stroke_dasharray="5 4", parent=g)
                c.text(x + CARD_W / 2, y + 6 + CARD_H / 2 + 8, str(number), size=24,
                       anchor="middle", fill="#b0b0b0", parent=g)
                c.title(g, f"{where}: out of the game")
            else:
                c.rect(x, y + 6, CARD_W, CARD_H, fill="none", stroke="#c9c9c9", rx=6,
                       stroke_dasharray="3 4", **_cls("place"))
            if text == last:
                c.rect(x - 4, y + 2, CARD_W + 8, CARD_H + 8, stroke=HIGHLIGHT, width=3, rx=9,
                       **_cls("last"))
            stack = stacks.get(text)
            if stack is not None:
                _stack(c, LEFT + (number - 0.5) * COLUMN, y + CARD_H + 22, seat_of[stack.owner],
                       stack.chips, stack.side, stack.scored, f"{stack.owner}'s {stack.chips} "
                       f"on {stack.side} on {where}" + (", scored" if stack.scored else ""))
    _panel(c, v)


def _cls(name: str) -> dict[str, Any]:
    """The SVG class attribute (``class`` is a Python keyword)."""
    return {"class": name}


def _face(c: Canvas, x: float, y: float, w: float, h: float, text: str, cls: str) -> Element:
    """A face-up card: its number, large, over its suit's name."""
    suit = SUITS.index(text[-1])
    g = c.group(**_cls(cls))
    c.rect(x, y, w, h, fill=PAPER, stroke=SUIT_INK[suit], width=1.5, rx=6 if w > 40 else 4,
           parent=g)
    if h > 40:
        c.text(x + w / 2, y + h / 2 + 6, text[:-1], size=28, anchor="middle", weight="bold",
               fill=SUIT_INK[suit], parent=g)
        c.text(x + w / 2, y + h - 7, SUIT_NAMES[suit], size=11, anchor="middle",
               fill=SUIT_INK[suit], parent=g)
    else:
        c.text(x + w / 2, y + h / 2 + 2, text[:-1], size=17, anchor="middle", weight="bold",
               fill=SUIT_INK[suit], parent=g)
        c.text(x + w / 2, y + h - 5, text[-1], size=10, anchor="middle", fill=SUIT_INK[suit],
               parent=g)
    return g


def _back(c: Canvas, x: float, y: float, w: float, h: float, cls: str) -> Element:
    """A face-down card: the same back for every card."""
    g = c.group(**_cls(cls))
    c.rect(x, y, w, h, fill=BACK, stroke=BACK_EDGE, width=1.5, rx=6 if w > 40 else 4, parent=g)
    inset = 5 if w > 40 else 3
    c.rect(x + inset, y + inset, w - 2 * inset, h - 2 * inset, stroke=BACK_LINE, rx=3, parent=g)
    cx, cy, r = x + w / 2, y + h / 2, min(w, h) / 5
    c.polygon([(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)], fill=BACK_LINE,
              stroke=None, parent=g)
    return g


def _stack(c: Canvas, cx: float, y: float, seat: int, chips: int, side: str, scored: bool,
           title: str) -> None:
    """A stack of chips: the owner's mark, the number of chips and the side."""
    g = c.group(**_cls("stack scored" if scored else "stack"))
    label = f"{chips} {side}" + (" \u2713" if scored else "")
    # Within its column, so that two stacks side by side never touch.
    size = 13 if len(label) <= 7 else 12
    width = min(24 + size * 0.62 * len(label), COLUMN - 6)
    c.rect(cx - width / 2, y - 12, width, 20, fill=PAPER, stroke=FAINT, rx=10, parent=g)
    c.mark(seat, cx - width / 2 + 11, y - 2, 6.5, parent=g)
    c.text(cx - width / 2 + 20, y + 3, label, size=size, weight="bold" if scored else None,
           parent=g)
    c.title(g, title)


def _panel(c: Canvas, v: View) -> None:
    """The draw pile, the cards removed, and every player's chips and hand."""
    y = PANEL + 10
    if len(v.players) == 4:
        pile = "No draw pile with 4 players"
    else:
        pile = f"Draw pile: {v.draw_pile} card{'s' * (v.draw_pile != 1)}" if v.draw_pile else (
            "Draw pile: empty")
        if v.draw_pile:
            _back(c, 12, y - 22, 22, 28, "pile")
    px = 42 if len(v.players) < 4 and v.draw_pile else 12
    c.text(px, y, f"{pile}  \u00b7  {v.removed} removed unseen  \u00b7  {len(v.face_up)} "
                  f"face up, {len(v.face_down)} face down on the board", size=14)
    for p, name in enumerate(v.players):
        top = PANEL + 28 + p * PLAYER
        mid = top + PLAYER / 2
        if v.to_move == name:
            c.rect(8, top + 3, NUMBERS * COLUMN + LEFT - 8, PLAYER - 6, fill=FAINT,
                   stroke=None, rx=6)
        c.mark(p, 24, mid, 8)
        c.text(38, mid + 5, name, size=15, weight="bold")
        riding = sum(s.chips for s in v.stacks if s.owner == name and not s.scored)
        left = v.chips[p]
        c.text(282, mid + 5, f"{left} chip{'s' * (left != 1)} left, {riding} riding", size=14,
               fill=INK)
        hand_x = 466
        if v.viewer == name and v.hand is not None:
            for k, card in enumerate(v.hand):
                g = _face(c, hand_x + k * (SMALL_W + 5), mid - SMALL_H / 2, SMALL_W, SMALL_H,
                          card, "card face-up hand")
                c.title(g, f"the {card[:-1]} of {SUIT_NAMES[SUITS.index(card[-1])]}, in hand")
            if not v.hand:
                c.text(hand_x, mid + 5, "hand empty", size=14, fill=MUTED)
        else:
            size = v.hand_sizes[p]
            for k in range(size):
                _back(c, hand_x + k * 14, mid - SMALL_H / 2, SMALL_W, SMALL_H,
                      "card face-down hand")
            words = f"{size} card{'s' * (size != 1)}" if size else "hand empty"
            c.text(hand_x + (size - 1) * 14 + SMALL_W + 10 if size else hand_x, mid + 5, words,
                   size=14, fill=MUTED)
