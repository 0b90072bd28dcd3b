"""15 Days: a view as text, for the terminal and for mail.

Every line fits in 72 columns whatever the position, the player count and the
names (up to 24 characters): long lines are wrapped at words, lists of cards
at cards, with an indent. The ASCII style uses printable ASCII only (names
aside: the CLI folds those).
"""

from __future__ import annotations

import textwrap

from ...engine import Style
from .rules import SEASON_NAMES, SEASONS, SOURCES, CornerView, View, plural

WIDTH = 72  # mail
_COLOURS = ("32", "33", "31", "36")  # Spring green, Summer yellow, Autumn red, Winter cyan
_BOX = 30  # the inner width of a corner's box


def _paint(card: str, style: Style) -> str:
    return style.paint(card, _COLOURS[SEASONS.index(card[:2])])


def _wrap(text: str, indent: str) -> list[str]:
    """``text`` in lines of at most WIDTH columns, broken at spaces; lines after
    the first start with ``indent``."""
    return textwrap.wrap(text, WIDTH, subsequent_indent=indent, break_long_words=True,
                         break_on_hyphens=False) or [text]


def _cards(head: str, cards: tuple[str, ...], style: Style, indent: str) -> list[str]:
    """``head`` then ``cards`` (painted), as many to a line as fit; the cards of
    later lines start in the column ``indent`` ends at."""
    lines, line, width = [], head, len(head)
    for card in cards:
        if width + 1 + len(card) > WIDTH and line.strip():
            lines.append(line)
            line = " " * (len(indent) - 1)
            width = len(line)
        line += " " + _paint(card, style)
        width += 1 + len(card)
    lines.append(line)
    return lines


def render(v: View, style: Style) -> str:
    """Each player's four corners (cards in the corner's order, wilds marked *),
    tokens, feathers, hand and score; then the market, the discard pile, the
    piles and the supply."""
    u = style.unicode
    h, vbar = ("─", "│") if u else ("-", "|")
    tl, tm, tr = ("┌", "┬", "┐") if u else ("+", "+", "+")
    ml, mm, mr = ("├", "┼", "┤") if u else ("+", "+", "+")
    bl, bm, br = ("└", "┴", "┘") if u else ("+", "+", "+")
    down, up = ("↓", "↑") if u else ("v", "^")
    arrow = "→" if u else "*"  # never ">" first on a line: mail reads that as a quotation
    lines: list[str] = []

    def label(c: CornerView) -> str:
        text = f"{h} {c.corner} {down if c.order == 'descending' else up} "
        return text + h * (_BOX - len(text))

    def cell(c: CornerView) -> str:
        if c.season is None:
            body = shown = "(empty)"
        else:
            name = SEASON_NAMES[SEASONS.index(c.season)]
            values = " ".join(x[2:] for x in c.cards)
            tail = " done" if c.complete else ""
            shown = f"{name:<7} {values}{tail}"
            body = style.paint(f"{name:<7}", _COLOURS[SEASONS.index(c.season)]) + \
                f" {values}{tail}"
        return " " + body + " " * max(_BOX - 1 - len(shown), 0)

    for pv in v.players:
        mark = arrow if v.to_move == pv.name else " "
        tokens = ", ".join(pv.animals) or "no animal"
        lines += _wrap(f"{mark} {pv.name}  score {pv.score}  "
                       f"{plural(pv.feathers, 'feather')}  {tokens}", "    ")
        if pv.hand is not None:
            if pv.hand:
                lines += _cards(f"  hand ({pv.hand_size}):", pv.hand, style, " " * 12)
            else:
                lines.append(f"  hand ({pv.hand_size}): (empty)")
        else:
            lines.append(f"  hand: {plural(pv.hand_size, 'card')}")
        c = pv.corners
        lines.append("  " + tl + label(c[0]) + tm + label(c[1]) + tr)
        lines.append("  " + vbar + cell(c[0]) + vbar + cell(c[1]) + vbar)
        lines.append("  " + ml + label(c[2]) + mm + label(c[3]) + mr)
        lines.append("  " + vbar + cell(c[2]) + vbar + cell(c[3]) + vbar)
        lines.append("  " + bl + h * _BOX + bm + h * _BOX + br)
    lines.append(f"  ({down} descending, {up} ascending, * a wild card)")
    lines.append("")
    lines.append("Market (only the last card of a column can be taken):")
    for name, col in zip(SOURCES, v.market):
        if col:
            lines += _cards(f"  {name}:", col, style, " " * 6)
        else:
            lines.append(f"  {name}: (empty)")
    if v.discard:
        # Face up and public: all of it, wrapped, the top card last.
        lines.append(f"  d: discard pile ({len(v.discard)}, top last):")
        lines += _cards("    ", v.discard, style, " " * 5)
    else:
        lines.append("  d: discard pile (empty)")
    for i, (size, back) in enumerate(zip(v.piles, v.pile_backs), 1):
        if back is None:
            lines.append(f"Draw pile {i}: empty")
        else:
            lines.append(f"Draw pile {i}: {plural(size, 'card')}, "
                         f"{SEASON_NAMES[SEASONS.index(back)]} back on top")
    supply = ", ".join(v.animal_supply) or "none"
    lines += _wrap(f"Supply  {plural(v.wild_supply, 'wild card')}, "
                   f"{plural(v.feather_supply, 'feather')}; animals: {supply}", "        ")
    if v.end:
        lines += _wrap(f"End: {v.end}", "     ")
    lines += _wrap(f"Turn: {v.turn}", "      ")
    return "\n".join(lines)
