"""Q-Turn as text: the board of a view for a terminal or a mail."""

from __future__ import annotations

from ...engine import Style
from .rules import FILES, KIND_NAMES, KIND_PLURALS, SQUARES, View

_COLOURS = ("31", "34", "32", "35")  # the tokens of seats 1-4: red, blue, green, magenta
_ARROWS_UNICODE = "↑→↓←"
_ARROWS_ASCII = "^>v<"


def _cell(code: str, token: str, home: str, style: Style) -> tuple[str, str, str]:
    """A disk as three rows of seven characters: its arrows on the sides it points
    to, its kind in the top left corner, the token standing on it in the middle,
    and in the bottom left corner whose starting corner it is."""
    if code == "?":
        if style.unicode:
            return ("░░░░░░░", "░░ ? ░░", "░░░░░░░")
        return (" . . . ", " . ? . ", " . . . ")
    kind = code[0]
    arrows = _ARROWS_UNICODE if style.unicode else _ARROWS_ASCII
    if kind == "Q":
        points = "NESW"
    elif len(code) == 1:
        points = ""  # revealed, its orientation still to be chosen
    else:
        points = code[2:]
    mark = {d: arrows[i] if d in points else " " for i, d in enumerate("NESW")}
    return (
        f"{kind}  {mark['N']}   ",
        f"{mark['W']}  {token}  {mark['E']}",
        f"{home:<2} {mark['S']}   ",
    )


def render(v: View, style: Style) -> str:
    """The board (rank 4 at the top), then each player's token and progress.

    Every line fits in 72 columns (a mail's width) with player names of up
    to 24 characters, the longest a log allows."""
    if style.unicode:
        h, vbar = "─", "│"
        top, mid, bot = ("┌", "┬", "┐"), ("├", "┼", "┤"), ("└", "┴", "┘")
        arrow, dot = "→", "·"
    else:
        h, vbar = "-", "|"
        top = mid = bot = ("+", "+", "+")
        arrow, dot = "*", "-"  # never ">" first on a line: mail reads that as a quotation
    at = {sq: str(p + 1) for p, sq in enumerate(v.tokens) if sq is not None}
    house = "⌂" if style.unicode else "H"
    homes = {sq: house + str(p + 1) for p, sq in enumerate(v.homes) if sq is not None}

    def rule(ends: tuple[str, str, str]) -> str:
        return "   " + ends[0] + ends[1].join([h * 7] * 4) + ends[2]

    lines = ["   " + "".join(f"    {f}   " for f in FILES).rstrip(), rule(top)]
    for r in range(3, -1, -1):
        cells = []
        for c in range(4):
            sq = SQUARES[r * 4 + c]
            token = at.get(sq, " ")
            painted = style.paint(token, _COLOURS[int(token) - 1]) if token != " " else token
            cells.append(_cell(v.disks[sq], painted, homes.get(sq, ""), style))
        for k in range(3):
            label = f" {r + 1} " if k == 1 else "   "
            lines.append(label + vbar + vbar.join(cell[k] for cell in cells) + vbar)
        lines.append(rule(mid if r else bot))
    lines.append("")
    width = max(len(p) for p in v.players)
    for p, name in enumerate(v.players):
        mark = arrow if v.to_move == name else " "
        token = style.paint(str(p + 1), _COLOURS[p])
        if v.homes[p] is None:
            where = "off the board, to enter on a free corner"
        else:
            on = f"on {v.tokens[p]}"
            if name == v.winner:
                trip = f"home {v.homes[p]} {dot} went to {v.far_corners[p]} and back: wins"
            elif v.reached[p]:
                trip = f"home {v.homes[p]} {dot} reached {v.far_corners[p]}, heading home"
            else:
                trip = f"home {v.homes[p]} {dot} heading for {v.far_corners[p]}"
            where = f"{on:<6} {trip}"
        lines.append(f"{mark} {token} {name:<{width}}  {where}")
    lines.append("")
    letters = [k for k in "QDO" if v.face_down[k]]
    down = sum(v.face_down.values())
    mix = ", ".join(
        f"{v.face_down[k]} {KIND_PLURALS['QDO'.index(k)] if v.face_down[k] != 1 else KIND_NAMES['QDO'.index(k)]}"
        for k in letters
    )
    lines.append(f"Face down: {down}" + (f" ({mix})" if down else ""))
    lines.append(f"Round {v.round} of at most {v.round_limit}")
    if v.orienting is not None:
        kind = v.disks[v.orienting]
        lines.append(
            f"{v.to_move} orients the {KIND_NAMES['QDO'.index(kind)]} just revealed "
            f"on {v.orienting}"
        )
    if v.to_move is None:
        if v.winner is not None:
            lines.append(f"{v.winner} has completed the journey and wins")
        else:
            lines.append("The round limit was reached: nobody wins")
    legend = (
        "Q-Turner: four arrows; Double Arrow: two; One-Way Arrow: one"
        if style.unicode
        else "Q = Q-Turner, D = Double Arrow, O = One-Way Arrow; arrows ^ > v <"
    )
    lines.append(legend)
    return "\n".join(lines)
