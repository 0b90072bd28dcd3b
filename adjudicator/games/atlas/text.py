"""Atlas as text: the board of a view, for a terminal or a mail."""

from __future__ import annotations

from ...engine import Style
from .cards import MARKS, NUMBERS, SUIT_NAMES, SUITS, plural
from .rules import View

_COLOURS = ("35", "33", "31", "34")  # Dawn magenta, Day yellow, Sunset red, Night blue


def _paint_card(text: str, style: Style) -> str:
    return style.paint(text, _COLOURS[SUITS.index(text[-1])])


def render(v: View, style: Style) -> str:
    """The board as 4 suit rows by 8 number columns, each place showing its card
    (face up, face down or not played) over the stack of chips on it; then the
    draw pile, the players, their chips and the viewer's hand."""
    if style.unicode:
        h, bar, down, arrow = "─", "│", "▓▓", "→"
        top, mid, bot = ("┌", "┬", "┐"), ("├", "┼", "┤"), ("└", "┴", "┘")
    else:
        # "*", not ">", marks the player to move: a line that starts with
        # ">" is a quotation to every mail client.
        h, bar, down, arrow = "-", "|", "##", "*"
        top = mid = bot = ("+", "+", "+")
    width = 5
    up, flipped, out = set(v.face_up), set(v.face_down), set(v.out_of_game)
    stacks = {s.card: s for s in v.stacks}
    seat_of = {name: i for i, name in enumerate(v.players)}

    def rule(ends: tuple[str, str, str]) -> str:
        return " " * 7 + ends[0] + ends[1].join([h * width] * NUMBERS) + ends[2]

    lines = [" " * 8 + "".join(f"{n:^{width}} " for n in range(1, NUMBERS + 1)).rstrip()]
    lines.append(rule(top))
    for suit, name in enumerate(SUIT_NAMES):
        cards, chips = [], []
        for number in range(1, NUMBERS + 1):
            text = f"{number}{SUITS[suit]}"
            if text in up:
                shown = _paint_card(text, style)
                cell = f"[{shown}] " if v.last == text else f" {shown}  "
            elif text in flipped:
                cell = f" {style.paint(down, '2')}  "
            elif text in out:
                cell = " --  "
            else:
                cell = " " * width
            cards.append(cell)
            s = stacks.get(text)
            chips.append(
                f" {MARKS[seat_of[s.owner]]}{s.chips}{s.side[0]} " if s else " " * width
            )
        lines.append(f"{name:<7}{bar}" + bar.join(cards) + bar)
        lines.append(" " * 7 + bar + bar.join(chips) + bar)
        lines.append(rule(mid if suit < 3 else bot))
    if len(v.players) == 4:
        notes = ["No draw pile with 4 players"]
    else:
        notes = [f"Draw pile: {plural(v.draw_pile, 'card')}" if v.draw_pile else "Draw pile: empty"]
    notes.append(f"{v.removed} removed unseen")
    if v.out_of_game:
        notes.append("8s out of the game (--)")
    dot = "·" if style.unicode else "-"
    lines.append(f"  {dot}  ".join(notes))
    lines.append(f"{down} face down; in brackets, the card played last")
    lines.append("a2T: 2 chips of player a on Time (P: Place), scored once face down")
    lines.append("")
    # Every line fits a mail (72 columns) whatever the names (24 letters at
    # most): the viewer's cards go on a line of their own.
    w = max(4, *(len(p) for p in v.players))
    lines.append(f"    {'player':<{w}}  score  chips left  riding  hand")
    for p, name in enumerate(v.players):
        mine = [s for s in v.stacks if s.owner == name and s.scored]
        score = sum(s.chips for s in mine) + len(mine)
        riding = sum(s.chips for s in v.stacks if s.owner == name and not s.scored)
        mark = arrow if v.to_move == name else " "
        size = v.hand_sizes[p]
        lines.append(
            f"{mark} {MARKS[p]} {name:<{w}}  {score:>5}  {v.chips[p]:>10}  {riding:>6}  "
            + (plural(size, "card") if size else "empty")
        )
    if v.hand is not None and v.viewer is not None:
        hand = " ".join(_paint_card(c, style) for c in v.hand) or "empty"
        lines.append("")
        lines.append(f"Hand of {v.viewer}: {hand}")
    return "\n".join(lines)
