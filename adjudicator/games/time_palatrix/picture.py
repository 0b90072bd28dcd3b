"""Time Palatrix as a picture: the table of a view as SVG, in the shared frame
of :mod:`adjudicator.drawing`.

The table as it lies: a band a player, in seat order, holding their bid (the
purple chip, with the orange spare chip beside it if they took it), the
trick cubes they have won this hand, their player board with its locations
(the pawn's colour on top of each, the card placed there face up, and the
small pawn on the card that set the location's follow suit), and their hand:
the viewer's cards face up, everyone else's as a face-down count. The large
yellow pawn stands by the start player. Under the bands, every trick of the
hand so far (or of the hand just ended): each player's card, the lead card
in brackets, the winner's card boxed; then the scoring of each finished hand.
The last move is read from its canonical text only: the card it placed, or
the bid it made, is outlined in vermilion.
"""

from __future__ import annotations

from functools import partial

import msgspec

from ...drawing import FAINT, HIGHLIGHT, INK, MUTED, PAPER, SEAT_COLOURS, WIDTH, Canvas, Element, picture
from ...engine import Scene
from .cards import PAWNS, SUIT_NAMES, SUITS
from .rules import View

#: Per suit (pink, orange, green, blue): the ink of its cards and a pale tint.
SUIT_INK = ("#b3246b", "#a84f00", "#1e7b45", "#1f4f96")
SUIT_TINT = ("#fbe3ef", "#fdebd6", "#e0f2e7", "#e2eaf7")
#: The colour of each location's pawn: black, red, yellow, blue.
PAWN_FILL = ("#222222", "#c0392b", "#f2c200", "#1f5fbf")
PURPLE, SPARE, CUBE = "#6a3d9a", "#f28e2b", "#6d5d4b"  # bidding chip, spare chip, trick cube
START_PAWN = "#f2c200"  # the large yellow start player pawn

STATUS = 22  # the baseline of the status line
HEAD = 34  # the top of the location headers
BANDS = 84  # the top of the first player band
BAND = 100  # the height of a band
INFO_W = 214  # the player's name, bid, tricks and score
BOARD_X = 12 + INFO_W + 10  # the first location
SLOT_W, SLOT_H, SLOT_GAP = 66, 84, 12
CARD_W, CARD_H = 48, 58  # a card on a board
HAND_W, HAND_H, HAND_PITCH = 34, 40, 39  # a card in a hand (two rows of six)
GRID_LABEL = 92  # the name column of the tricks grid
GRID_COL = 58
GRID_ROW = 22

LEGEND = (
    "Cards: suit letter and rank; P pink is trump, O orange, G green, B blue.",
    "Purple chip: the bid; orange +1: the spare chip. Cubes: tricks won this hand.",
    "Small pawn on a card: it set the follow suit there. Large yellow pawn: the start player.",
)
TRICKS = "Tricks: the lead card in [brackets], the winning card boxed."
LAST = "Vermilion outline: the last move."


def draw(v: View, scene: Scene) -> str:
    """The table of the view ``v`` as an SVG document.

    >>> from .rules import setup, standing, view
    >>> state = setup({"locations": 3}, ("ann", "bob", "cy"), "0")
    >>> svg = draw(view(state, 1), Scene("Time Palatrix", ("ann", "bob", "cy"), "bob",
    ...     "ann", 0, None, standing(state), False))
    >>> svg.count('class="card hand"'), svg.count('class="backs"')
    (12, 2)
    """
    last = _last_move(v, scene)
    height = _grid_top(v) + _grid_height(v) + _results_height(v)
    legend = [*LEGEND, *[TRICKS] * bool(v.tricks_played), *[LAST] * (last is not None)]
    # A view file carries no standing, but every panel shows its player's score.
    return picture(scene, height, lambda c: _table(c, v, last), legend=legend,
                   no_score="in each player's panel")


def _last_move(v: View, scene: Scene) -> tuple[str, str] | None:
    """What to outline for the last move, read from its canonical text: a
    placement ``G7-2`` names the card G7, a bid ``3+`` the mover's bid."""
    if scene.last is None:
        return None
    by, text = scene.last
    if "-" in text:
        return "card", text.partition("-")[0]
    return "bid", by


def _grid_top(v: View) -> float:
    return BANDS + BAND * len(v.players) + 10


def _grid_height(v: View) -> float:
    return 34 + GRID_ROW * (len(v.players) + 1) + 14 if v.tricks_played else 0


def _results_height(v: View) -> float:
    return 24 + 20 * len(v.results) if v.results else 0


def _fit(c: Canvas, x: float, y: float, text: str, room: float, *, size: float = 15,
         weight: str | None = None, fill: str = INK, class_: str | None = None) -> None:
    """Text that never runs past ``room`` pixels: a long name is squeezed."""
    squeeze = len(text) * size * (0.66 if weight else 0.6) > room
    c.text(x, y, text, size=size, weight=weight, fill=fill, class_=class_,
           textLength=room if squeeze else None,
           lengthAdjust="spacingAndGlyphs" if squeeze else None)


def _suit(card: str) -> int:
    return SUITS.index(card[0])


def _card(c: Canvas, x: float, y: float, w: float, h: float, card: str, cls: str) -> None:
    """A face-up card: its suit letter and rank, in the suit's ink on its tint."""
    suit = _suit(card)
    g = c.group(class_=cls)
    c.rect(x, y, w, h, fill=SUIT_TINT[suit], stroke=SUIT_INK[suit], width=1.5, rx=5, parent=g)
    if h >= 50:
        c.text(x + w / 2, y + h / 2 + 4, card[1:], size=24, anchor="middle", weight="bold",
               fill=SUIT_INK[suit], parent=g)
        c.text(x + w / 2, y + h - 7, SUIT_NAMES[suit], size=10, anchor="middle",
               fill=SUIT_INK[suit], parent=g)
        c.text(x + 5, y + 13, card[0], size=11, weight="bold", fill=SUIT_INK[suit], parent=g)
    else:
        c.text(x + w / 2, y + h / 2 + 1, card[1:], size=15, anchor="middle", weight="bold",
               fill=SUIT_INK[suit], parent=g)
        c.text(x + w / 2, y + h - 5, card[0], size=10, anchor="middle", weight="bold",
               fill=SUIT_INK[suit], parent=g)
    c.title(g, f"{card}: {SUIT_NAMES[suit]} {card[1:]}" + (", trump" if suit == 0 else ""))


def _back(c: Canvas, x: float, y: float, w: float, h: float, parent: Element) -> None:
    c.rect(x, y, w, h, fill="#4b5c82", stroke="#2e3a57", width=1.2, rx=4, parent=parent)
    c.rect(x + 3, y + 3, w - 6, h - 6, stroke="#8595bb", rx=2, parent=parent)


def _pawn(c: Canvas, cx: float, base: float, size: float, fill: str, title: str,
          cls: str = "pawn") -> None:
    """A pawn standing on ``base``: a head over a flared body."""
    g = c.group(class_=cls)
    s = size
    c.polygon([(cx - 0.55 * s, base), (cx + 0.55 * s, base), (cx + 0.25 * s, base - 0.9 * s),
               (cx - 0.25 * s, base - 0.9 * s)], fill=fill, stroke=INK, width=1, parent=g)
    c.circle(cx, base - 1.15 * s, 0.38 * s, fill=fill, stroke=INK, width=1, parent=g)
    c.title(g, title)


def _chip(c: Canvas, cx: float, cy: float, fill: str, label: str, ink: str, title: str,
          cls: str) -> None:
    g = c.group(class_=cls)
    c.circle(cx, cy, 12, fill=fill, stroke=INK, width=1, parent=g)
    c.circle(cx, cy, 8.5, stroke=PAPER, width=1, stroke_dasharray="2 2", parent=g)
    c.text(cx, cy + 4.5, label, size=12, anchor="middle", weight="bold", fill=ink, parent=g)
    c.title(g, title)


def _slot_x(loc: int) -> float:
    return BOARD_X + loc * (SLOT_W + SLOT_GAP)


def _table(c: Canvas, v: View, last: tuple[str, str] | None) -> None:
    if v.phase == "over":
        status = f"Game over after {v.hands_in_game} hands"
    elif v.phase == "bidding":
        status = f"Hand {v.hand} of {v.hands_in_game} \u00b7 bidding"
    else:
        status = f"Hand {v.hand} of {v.hands_in_game} \u00b7 placement round {v.round} of {v.rounds}"
    c.text(12, STATUS, f"{status} \u00b7 trump: pink \u00b7 start player: {v.start_player}",
           size=15, weight="bold")
    # The headers, a band, the grid: each drawn once for every picture it is
    # the same in (a move changes a band or two, a viewer sees one hand).
    c.shared(("time-palatrix headers", v.locations, v.follow), lambda: _headers(c, v))
    for p, name in enumerate(v.players):
        bid = last if last == ("bid", name) else None
        c.shared(("time-palatrix band", p, name, v.to_move == name, v.start_player == name,
                  v.bids[p], v.phase == "over", v.tricks[p], v.scores[p], bid),
                 partial(_band, c, v, p, last))
        card = last if last is not None and last[0] == "card" and last[1] in v.boards[p] else None
        c.shared(("time-palatrix board", p, name, v.locations, v.boards[p],
                  tuple(s == name for s in v.follow_set_by), card),
                 partial(_board, c, v, p, last))
        c.shared(("time-palatrix hand", p, name, v.locations, v.viewer == name,
                  v.my_cards if v.viewer == name else None, v.cards_in_hand[p]),
                 partial(_hand, c, v, p))
    if v.tricks_played:
        lit = last is not None and last[0] == "card" and not any(last[1] in b for b in v.boards)
        c.shared(("time-palatrix grid", msgspec.json.encode(v.tricks_played), v.hand,
                  v.phase == "over", v.players, last if lit else None),
                 lambda: _grid(c, v, last))
    if v.results:
        _results(c, v)


def _headers(c: Canvas, v: View) -> None:
    """Over each location: its pawn, its number and colour, and its follow suit."""
    c.text(12, HEAD + 16, "Player, bid, tricks", size=13, fill=MUTED)
    c.text(_slot_x(v.locations) + 4, HEAD + 16, "Hand", size=13, fill=MUTED)
    for loc in range(v.locations):
        x = _slot_x(loc)
        _pawn(c, x + 8, HEAD + 20, 14, PAWN_FILL[loc], f"location {loc + 1}: the {PAWNS[loc]} pawn",
              cls="location-pawn")
        label = c.text(x + 18, HEAD + 16, f"{loc + 1} ", size=13, weight="bold")
        c.element("tspan", label, font_weight="normal").text = PAWNS[loc]
        suit = v.follow[loc]  # who set it: the small pawn on their card
        if suit is None:
            c.text(x, HEAD + 38, "open", size=12, fill=MUTED)
        else:
            s = SUIT_NAMES.index(suit)
            _fit(c, x, HEAD + 38, f"follow {suit}", SLOT_W + 4, size=12, weight="bold",
                 fill=SUIT_INK[s], class_="follow")


def _band(c: Canvas, v: View, p: int, last: tuple[str, str] | None) -> None:
    name = v.players[p]
    top = BANDS + p * BAND
    mover = v.to_move == name
    band = c.group(class_="band to-move" if mover else "band")
    c.rect(8, top + 4, WIDTH - 16, BAND - 8, fill=FAINT if mover else "#fafafa",
           stroke=SEAT_COLOURS[p % 4] if mover else "#dddddd", width=2.5 if mover else 1, rx=8,
           parent=band)
    c.mark(p, 24, top + 24, 8)
    room = INFO_W - 30 - (28 if v.start_player == name else 0)
    _fit(c, 38, top + 29, name, room, size=16, weight="bold")
    if v.start_player == name:
        _pawn(c, 12 + INFO_W - 14, top + 36, 20, START_PAWN, f"{name} is the start player",
              cls="start-pawn")
    # The bid: the purple chip with the tricks bid, and the orange spare chip.
    y = top + 54
    bid = v.bids[p]
    c.text(22, y + 5, "bid", size=13, fill=MUTED)
    if bid is None:
        c.text(52, y + 5, "—" if v.phase == "over" else "not yet", size=13, fill=MUTED)
    else:
        tricks, spare = bid.rstrip("+"), bid.endswith("+")
        _chip(c, 64, y, PURPLE, tricks, PAPER, f"{name} bid {tricks}", "bid")
        if spare:
            _chip(c, 92, y, SPARE, "+1", INK, f"{name} took the spare chip: {tricks} or "
                  f"{int(tricks) + 1} tricks", "spare")
        if last == ("bid", name):
            right = 92 if spare else 64
            c.rect(48, y - 16, right - 48 + 32, 32, stroke=HIGHLIGHT, width=3, rx=16,
                   class_="last")
    # The tricks won this hand as cubes, and the score.
    y = top + 84
    won = v.tricks[p]
    c.text(22, y, "won", size=13, fill=MUTED)
    for k in range(won):
        c.rect(52 + k * 11, y - 10, 9, 9, fill=CUBE, stroke=None, rx=1.5, class_="cube")
    c.text(52 + won * 11 + (4 if won else 0), y, f"{won} \u00b7 {v.scores[p]} pts", size=13)


def _board(c: Canvas, v: View, p: int, last: tuple[str, str] | None) -> None:
    """A player's board: a slot a location, the card placed there."""
    name = v.players[p]
    top = BANDS + p * BAND
    for loc in range(v.locations):
        x = _slot_x(loc)
        g = c.group(class_="location")
        c.rect(x, top + 10, SLOT_W, SLOT_H, fill=PAPER, stroke="#c9c9c9", rx=6, parent=g)
        c.rect(x, top + 10, SLOT_W, 7, fill=PAWN_FILL[loc], stroke=None, rx=3, parent=g)
        card = v.boards[p][loc]
        cx, cy = x + (SLOT_W - CARD_W) / 2, top + 22
        if card is None:
            c.rect(cx, cy, CARD_W, CARD_H, stroke="#d0d0d0", rx=5, stroke_dasharray="3 3",
                   parent=g)
            continue
        _card(c, cx, cy, CARD_W, CARD_H, card, "card board")
        if v.follow_set_by[loc] == name:
            _pawn(c, cx + CARD_W - 2, cy + 16, 11, PAWN_FILL[loc],
                  f"{name}'s {card} set the follow suit of location {loc + 1}",
                  cls="follow-pawn")
        if last == ("card", card):
            c.rect(cx - 4, cy - 4, CARD_W + 8, CARD_H + 8, stroke=HIGHLIGHT, width=3, rx=7,
                   class_="last")


def _hand(c: Canvas, v: View, p: int) -> None:
    """A player's hand: face up for the viewer, a face-down count for everyone else."""
    name = v.players[p]
    top = BANDS + p * BAND
    hx = _slot_x(v.locations) + 4
    if v.viewer == name and v.my_cards is not None:
        for k, card in enumerate(v.my_cards):
            row, col = divmod(k, 6)
            _card(c, hx + col * HAND_PITCH, top + 8 + row * (HAND_H + 4), HAND_W, HAND_H, card,
                  "card hand")
        if not v.my_cards:
            c.text(hx, top + 54, "hand empty", size=13, fill=MUTED)
    else:
        count = v.cards_in_hand[p]
        if count:
            g = c.group(class_="backs")
            for k in range(min(count, 3)):
                _back(c, hx + k * 6, top + 26 - k * 3, HAND_W, HAND_H + 6, g)
            c.title(g, f"{name} holds {count} card{'s' * (count != 1)}, face down")
            c.text(hx + HAND_W + 22, top + 54, f"{count} card{'s' * (count != 1)}", size=14)
        else:
            c.text(hx, top + 54, "hand empty", size=13, fill=MUTED)


def _grid(c: Canvas, v: View, last: tuple[str, str] | None) -> None:
    """Every trick of the hand so far: a column a trick, a row a player."""
    top = _grid_top(v)
    hand = v.tricks_played[0].hand
    done = "" if v.hand == hand and v.phase != "over" else " (the hand just ended)"
    c.text(12, top + 18, f"Tricks of hand {hand}{done}", size=15, weight="bold")
    y0 = top + 34
    for i, t in enumerate(v.tricks_played):
        x = GRID_LABEL + i * GRID_COL
        loc = t.location - 1
        c.rect(x + 2, y0, GRID_COL - 4, 5, fill=PAWN_FILL[loc], stroke=None, rx=2)
        c.text(x + GRID_COL / 2, y0 + 18, f"{t.number}", size=12, anchor="middle",
               weight="bold", fill=MUTED)
    for p, name in enumerate(v.players):
        y = y0 + GRID_ROW * (p + 1)
        c.mark(p, 18, y + 10, 5)
        _fit(c, 28, y + 15, name, GRID_LABEL - 32, size=13)
        for i, t in enumerate(v.tricks_played):
            x = GRID_LABEL + i * GRID_COL
            card = t.cards[p]
            suit = _suit(card)
            won, lead = t.winner == name, t.lead == name
            g = c.group(class_="trick-card won" if won else "trick-card")
            if won:
                c.rect(x + 4, y + 1, GRID_COL - 8, GRID_ROW - 3, fill=SUIT_TINT[suit],
                       stroke=INK, width=1.8, rx=4, parent=g)
            text = f"[{card}]" if lead else card
            c.text(x + GRID_COL / 2, y + 15, text, size=13, anchor="middle",
                   weight="bold" if won else None, fill=SUIT_INK[suit], parent=g)
            c.title(g, f"trick {t.number}: {name} {card}" + (", led" if lead else "")
                    + (f", won: {t.why}" if won else ""))
            if last == ("card", card) and not any(card in b for b in v.boards):
                c.rect(x + 1, y - 2, GRID_COL - 2, GRID_ROW + 3, stroke=HIGHLIGHT, width=2.5,
                       rx=5, class_="last")


def _results(c: Canvas, v: View) -> None:
    """The scoring of every finished hand: bid / tricks taken = points."""
    top = _grid_top(v) + _grid_height(v)
    c.text(12, top + 18, "Scores by hand (bid / tricks taken = points)", size=14,
           weight="bold")
    for k, r in enumerate(v.results):
        y = top + 38 + 20 * k
        c.text(12, y, f"Hand {r.hand}", size=13, weight="bold")
        x = 80.0
        room = (WIDTH - 12 - x) / len(v.players)
        for p, name in enumerate(v.players):
            c.mark(p, x + 5, y - 4, 5)
            _fit(c, x + 14, y, f"{name} {r.bids[p]}/{r.tricks[p]} = {r.points[p]}",
                 room - 20, size=13)
            x += room
