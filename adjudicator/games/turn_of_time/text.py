"""Turn of Time as text: the table, the tally and the hands, for terminals and mail."""

from __future__ import annotations

from ...engine import Style
from .cards import CENTRE, FILES, SEASON_NAMES, SEASONS, SIZE, SQUARE_INDEX, SQUARES
from .rules import View

_COLOURS = ("32", "33", "31", "36")  # Spring green, Summer yellow, Fall red, Winter cyan
WIDTH = 72  # columns: every line fits a mail message
GOALS = {
    "dominance": "7 or more connected cards of one season",
    "balance": "exactly 4 cards of each season",
}


def _paint_card(card: str, style: Style) -> str:
    return style.paint(card[:2], _COLOURS[SEASONS.index(card[:2])]) + card[2:]


def render(v: View, style: Style) -> str:
    """The table as a grid of the squares still in play, then the tally of the
    seasons and the hands; every line at most 72 columns."""
    cells = {SQUARE_INDEX[sq]: card for sq, card in v.board.items()}
    open_ = {SQUARE_INDEX[s] for s in v.open}
    # The cards and the squares open to the next card; at least d4.
    shown = set(cells) | open_ or {CENTRE}
    r_lo, r_hi = min(i // SIZE for i in shown), max(i // SIZE for i in shown)
    c_lo, c_hi = min(i % SIZE for i in shown), max(i % SIZE for i in shown)
    if style.unicode:
        h, vbar, dot = "─", "│", "·"
        top, mid, bot = ("┌", "┬", "┐"), ("├", "┼", "┤"), ("└", "┴", "┘")
    else:
        h, vbar, dot = "-", "|", "."
        top = mid = bot = ("+", "+", "+")
    ncols = c_hi - c_lo + 1

    def rule(ends: tuple[str, str, str]) -> str:
        return "   " + ends[0] + ends[1].join([h * 6] * ncols) + ends[2]

    lines = ["    " + "".join(f"  {FILES[c]}    " for c in range(c_lo, c_hi + 1)).rstrip()]
    lines.append(rule(top))
    for r in range(r_hi, r_lo - 1, -1):
        row = []
        for c in range(c_lo, c_hi + 1):
            i = r * SIZE + c
            card = cells.get(i)
            if card is not None:
                text = _paint_card(card, style)
                row.append(f"[{text}]" if v.last == SQUARES[i] else f" {text} ")
            elif i in open_:
                row.append(f"  {dot}   ")
            else:
                row.append(" " * 6)
        lines.append(f"{r + 1:>2} {vbar}" + vbar.join(row) + vbar)
        lines.append(rule(mid if r > r_lo else bot))
    lines.append("")
    # The tally, one season a line: what scores at the end (6, 7).
    solo = v.goal is not None
    owner = {s: v.players[p] for p, seasons in enumerate(v.seasons) for s in seasons}
    lines.append("Season  Face up  Largest group" + ("" if solo else "  Played by"))
    for i, s in enumerate(SEASONS):
        line = (
            f"{style.paint(f'{SEASON_NAMES[i]:<6}', _COLOURS[i])}  {v.face_up[s]:>7}"
            f"  {v.largest_group[s]:>13}"
        )
        lines.append(line if solo else f"{line}  {owner.get(s, 'nobody')}")
    lines.append("")
    if v.goal is not None:  # solo
        goal = GOALS.get(v.goal, v.goal)
        lines.append(f"Goal: {v.goal} ({goal})")
        if v.drawn is not None:
            lines.append(f"Drawn card: {_paint_card(v.drawn, style)} ({v.deck} left in the deck)")
    else:
        width = max(len(p) for p in v.players)
        arrow = "→" if style.unicode else "*"  # never ">" first on a line: mail quotes it
        for p, name in enumerate(v.players):
            mark = arrow if v.to_move == name else " "
            cards = v.hands[p]
            hand = " ".join(_paint_card(c, style) for c in cards) or "(empty)"
            plain = 2 + width + 8 + max(7, 5 * len(cards) - 1)
            if plain <= WIDTH:
                lines.append(f"{mark} {name:<{width}}  hand: {hand}")
            else:  # a long name: the hand goes under it
                lines += [f"{mark} {name}", f"    hand: {hand}"]
        for s in v.unowned:
            lines.append(
                f"{SEASON_NAMES[SEASONS.index(s)]} belongs to nobody; its single card started the grid"
            )
    return "\n".join(lines)
