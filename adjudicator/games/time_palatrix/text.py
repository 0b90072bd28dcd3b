"""Time Palatrix as text: the boards as a table, the viewer's hand, the
tricks of the hand and the scores, in Unicode or plain ASCII.

Every line fits in 72 columns, for mail, whatever the names (up to 24
characters) and the position: the table narrows its location columns as the
names and follow suits need (see :func:`_board`), and every other line wraps.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ...engine import Style
from .cards import PAWNS, SUIT_NAMES, SUITS
from .rules import View

WIDTH = 72  # columns, so that a reply quoting it still fits in 80
_SUIT_COLOURS = ("35", "33", "32", "34")  # pink magenta, orange yellow, green, blue
_ANSI = re.compile(r"\x1b\[[0-9;]*m")
_PAWN_SHORT = ("blk", "red", "yel", "blu")


def _len(text: str) -> int:
    """The columns ``text`` takes on screen (ANSI colours take none)."""
    return len(_ANSI.sub("", text))


def _paint_card(name: str | None, style: Style) -> str:
    if name is None:
        return ""
    return style.paint(name, _SUIT_COLOURS[SUITS.index(name[0])])


def _paint_suit(suit: str, style: Style, text: str | None = None) -> str:
    return style.paint(text or suit, _SUIT_COLOURS[SUIT_NAMES.index(suit)])


def _flow(first: str, words: Sequence[str], indent: str, sep: str = " ") -> list[str]:
    """``first`` then ``words`` joined by ``sep``, broken into lines of at most
    WIDTH columns; continuation lines begin with ``indent``."""
    lines = [first]
    for word in words:
        glue = "" if lines[-1] == indent else sep
        if _len(lines[-1]) + _len(glue) + _len(word) > WIDTH and lines[-1].strip():
            lines.append(indent)
            glue = ""
        lines[-1] += glue + word
    return [line.rstrip() for line in lines]


# --- the board table ------------------------------------------------------------------

Cell = list[str]  # the words of a table cell, painted; wrapped at spaces to fit


def _cell_lines(words: Cell, width: int) -> list[str]:
    """A cell's words in lines of at most ``width`` columns; a word too long
    for them (only a long name) is cut across lines."""
    lines = [""]
    for word in words:
        while _len(word) > width:
            plain = _ANSI.sub("", word)
            if lines[-1]:
                lines.append("")
            lines[-1], word = plain[:width], plain[width:]
            lines.append("")
        if lines[-1] and _len(lines[-1]) + 1 + _len(word) > width:
            lines.append("")
        lines[-1] += (" " if lines[-1] else "") + word
    return [line for line in lines if line] or [""]


def _fit(rows: list[list[Cell]], floors: list[int], ruled: int) -> list[int] | None:
    """Column widths that make the table at most WIDTH wide: each column as
    wide as its cells on one line, the widest shrunk first (its cells wrap),
    none below its floor; None if the floors alone are too wide."""
    widths = [max(_len(" ".join(row[i])) for row in rows) for i in range(len(floors))]
    while sum(widths) + ruled > WIDTH:
        shrinkable = [i for i in range(len(widths)) if widths[i] > floors[i]]
        if not shrinkable:
            return None
        widths[max(shrinkable, key=lambda i: widths[i])] -= 1
    # A column whose cells wrap needs no more than its longest wrapped line;
    # then the room left unwraps what it can, the smallest need first.
    widths = [max(_len(line) for row in rows for line in _cell_lines(row[i], w))
              for i, w in enumerate(widths)]
    natural = [max(_len(" ".join(row[i])) for row in rows) for i in range(len(widths))]
    for i in sorted(range(len(widths)), key=lambda i: natural[i] - widths[i]):
        if widths[i] < natural[i] <= widths[i] + WIDTH - ruled - sum(widths):
            widths[i] = natural[i]
    return widths


def _board(v: View, style: Style) -> tuple[list[str], list[str]]:
    """The table of the boards, a row a player, and the lines that go with it.

    The location columns show the cards, then each follow suit with who set
    it. Three ways to write them: the follow suit and its setter in the
    column; the suit alone, the setters on a line below; the suit's letter
    and the pawns' colours cut to three letters. Each with the header on one
    line or two. The first way that fits 72 columns without wrapping a cell
    is taken, else the first that fits with wrapped cells; long names are cut
    across lines only if nothing else fits.
    """
    arrow = "→" if style.unicode else "*"  # as in every game: never ">", a quotation in mail
    locs = range(v.locations)
    numbers = ("bid", "won", "pts", "held")
    below: list[str] = []
    setters = [(loc, suit, by) for loc, (suit, by) in enumerate(zip(v.follow, v.follow_set_by))
               if suit is not None]
    ruled = 3 * (1 + v.locations + len(numbers)) + 1  # the rules and padding of every column

    def build(mode: str, stacked: bool) -> list[list[Cell]]:
        # The header: each location's number and pawn on one line, or stacked.
        pawns = _PAWN_SHORT if mode == "letters" else PAWNS
        if stacked:
            rows = [[["player"], *[[f"{loc + 1}"] for loc in locs], *[[h] for h in numbers]],
                    [[], *[[pawns[loc]] for loc in locs], *[[] for _ in numbers]]]
        else:
            rows = [[["player"], *[[f"{loc + 1} {pawns[loc]}"] for loc in locs],
                     *[[h] for h in numbers]]]
        for p, name in enumerate(v.players):
            mark = (arrow if v.to_move == name else " ") + ("+" if v.start_player == name else " ")
            said = v.bids[p]
            bid = "-" if said is None else said
            rows.append([[mark + name], *[[_paint_card(c, style)] if c else [] for c in v.boards[p]],
                         [bid], [str(v.tricks[p])], [str(v.scores[p])], [str(v.cards_in_hand[p])]])
        follow: list[Cell] = [["follow"]]
        for loc in locs:
            suit, by = v.follow[loc], v.follow_set_by[loc]
            if suit is None:
                follow.append([])
            elif mode == "named":
                follow.append([_paint_suit(suit, style), f"({by})"])
            elif mode == "suits":
                follow.append([_paint_suit(suit, style)])
            else:
                follow.append([_paint_suit(suit, style, suit[0].upper())])
        rows.append(follow + [[] for _ in numbers])
        return rows

    def floors(rows: list[list[Cell]], header: int, wrap: bool, names: bool) -> list[int]:
        # What may not wrap: a header, a word, a player with their marks
        # (unless names must be cut); nothing at all unless ``wrap``.
        if not wrap:
            return [max(_len(" ".join(row[i])) for row in rows) for i in range(len(rows[0]))]
        out = [max((_len(w) for row in rows for w in row[i]), default=1)
               for i in range(len(rows[0]))]
        for row in rows[:header]:
            out = [max(f, _len(" ".join(c))) for f, c in zip(out, row)]
        if not names:
            out[0] = len("player")
        return out

    ways = [(mode, stacked) for mode in ("named", "suits", "letters") for stacked in (False, True)]
    tries = [(way, False, True) for way in ways] + [(way, True, True) for way in ways]
    tries.append((("letters", True), True, False))
    for (mode, stacked), wrap, names in tries:
        rows = build(mode, stacked)
        widths = _fit(rows, floors(rows, 1 + stacked, wrap, names), ruled)
        if widths is not None:
            break
    if widths is None:
        # The last way always fits a real view (60 columns); a view that does
        # not fit was damaged on the way (a view file is bad input).
        raise ValueError("the view does not fit any table layout")
    if mode != "named" and setters:
        said = [f"{loc + 1} {_paint_suit(suit, style)} ({by})," for loc, suit, by in setters]
        said[-1] = said[-1].rstrip(",")
        below = _flow("Follow suits set:", said, "  ")

    if style.unicode:
        h, bar = "─", "│"
        top, mid, bot = ("┌", "┬", "┐"), ("├", "┼", "┤"), ("└", "┴", "┘")
    else:
        h, bar = "-", "|"
        top = mid = bot = ("+", "+", "+")

    def rule(ends: tuple[str, str, str]) -> str:
        return ends[0] + ends[1].join(h * (w + 2) for w in widths) + ends[2]

    def row_lines(cells: list[Cell]) -> list[str]:
        wrapped = [_cell_lines(c, w) for c, w in zip(cells, widths)]
        height = max(len(c) for c in wrapped)
        out = []
        for k in range(height):
            parts = []
            for c, w in zip(wrapped, widths):
                text = c[k] if k < len(c) else ""
                parts.append(f" {text}{' ' * (w - _len(text))} ")
            out.append(bar + bar.join(parts) + bar)
        return out

    header = 2 if stacked else 1
    lines = [rule(top)]
    for cells in rows[:header]:
        lines += row_lines(cells)
    lines.append(rule(mid))
    players, follow = rows[header:-1], rows[-1]
    for cells in players:
        lines += row_lines(cells)
    lines += [rule(mid), *row_lines(follow), rule(bot)]
    return lines, below


# --- the rest ---------------------------------------------------------------------------


def _tricks(v: View, style: Style) -> list[str]:
    """One line a trick, a column a player, the lead player's card in brackets."""
    arrow = "→" if style.unicode else ">"
    n = len(v.players)
    prefix = 12  # "  10 yellow "
    # Wide enough for every name if the line allows, else names are cut.
    width = min(max(6, *(len(name) + 1 for name in v.players)), (WIDTH - prefix - 20) // n)

    def label(name: str) -> str:
        return name if len(name) < width else name[: width - 2] + "~"

    lines = [f"Tricks of hand {v.tricks_played[0].hand}: the lead player's card in brackets"]
    names = "".join(f"{label(name):<{width}}" for name in v.players)
    lines.append((" " * (prefix + 1) + names).rstrip())  # over the cards, not the brackets
    for t in v.tricks_played:
        cells = []
        for name, c in zip(v.players, t.cards):
            text = f"[{c}]" if name == t.lead else f" {c} "
            cells.append(text.replace(c, _paint_card(c, style)) + " " * (width - len(text)))
        won = t.cards[v.players.index(t.winner)]
        why = "highest trump" if won[0] == "P" else "highest of the lead suit"
        head = f"{t.number:>4} {PAWNS[t.location - 1]:<6} " + "".join(cells)[:-1]
        lines += _flow(head, [f"{arrow} {t.winner} ({why})"], " " * prefix)
    return lines


def render(v: View, style: Style) -> str:
    """The boards as a table (one row a player), then the hand, tricks and scores."""
    dot = " · " if style.unicode else " - "
    if v.phase == "over":
        head = [f"Game over after {v.hands_in_game} hands"]
    else:
        head = [f"Hand {v.hand} of {v.hands_in_game}"]
        head.append("bidding" if v.phase == "bidding" else f"round {v.round} of {v.rounds}")
    head += [f"start player: {v.start_player}", "trump: pink"]
    lines = _flow(head[0], [dot.lstrip() + part for part in head[1:]], "  ", sep=" ")
    lines.append("")
    table, below = _board(v, style)
    lines += table + below
    arrow = "→" if style.unicode else "*"
    lines.append(f"{arrow} to move   + start player (leads the first trick)")
    lines.append("won: tricks won this hand   pts: score   held: cards in hand")
    lines.append("")
    if v.my_cards is not None:
        cards = [_paint_card(c, style) for c in v.my_cards] or ["(empty)"]
        lines += _flow(f"{v.viewer}'s hand:", cards, "  ")
    if v.tricks_played:
        lines += _tricks(v, style)
    if v.results:
        lines.append("Scores by hand (bid/tricks taken = points):")
        for r in v.results:
            said = [f"{name} {b}/{t} = {pts}," for name, b, t, pts in
                    zip(v.players, r.bids, r.tricks, r.points)]
            said[-1] = said[-1].rstrip(",")
            lines += _flow(f"  hand {r.hand}:", said, "    ")
    return "\n".join(lines).rstrip()

