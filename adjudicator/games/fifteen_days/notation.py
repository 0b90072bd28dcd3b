"""15 Days: reading and writing moves (``notation/fifteen-days.md``).

``parse_move`` reads a move as typed, forgiving case, spaces, separators and
words; ``format_move`` writes the canonical form, the only one a log holds.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ...errors import NotationError
from .rules import (
    AU,
    CARDS,
    SIDES,
    SOURCES,
    SP,
    SU,
    WI,
    Move,
    State,
    corner_of,
    free_sides,
)

#: Where a player reads the notation, in every installation (error texts cite it).
SEE = "adjudicator rules fifteen-days"

_WORDS = {
    "draw": "d", "take": "t", "wild": "w", "joker": "w", "play": "p", "place": "p",
    "pay": "x", "discard": "x", "rebuild": "r", "end": "e", "stop": "e", "done": "e",
    "feather": "f", "otter": "o", "left": "l", "right": "r",
    "spring": "sp", "summer": "su", "autumn": "au", "fall": "au",
    "winter": "wi", "pile": "", "column": "", "the": "", "from": "", "card": "",
}  # fmt: skip
_SEASON_CODES = {"sp": SP, "su": SU, "au": AU, "fa": AU, "wi": WI}
_MOVE_RE = re.compile(
    r"(?P<f>f)?(?:d(?P<d>[12])|t(?P<t>[abcdx])"
    r"|p(?P<ps>sp|su|au|fa|wi)(?P<pv>[1-6])(?P<side>[lr])?)"
    r"|(?P<w>w)(?:(?P<ws>sp|su|au|fa|wi)(?P<wv>[1-6])(?P<wside>[lr])?)?"
    r"|x(?P<xs>sp|su|au|fa|wi)(?P<xv>[1-6])"
    r"|r(?P<r>[12])|(?P<e>e)|(?P<o>fo)"
)
_SPLIT = re.compile(r"[\s\-_:/.,;+]+")


def parse_move(state: State | None, text: str) -> Move:
    """Read a move; case, spaces, separators and words are forgiven.

    >>> parse_move(None, "play summer 4 right")
    Move(op='P', arg=-1, card=9, side=1, feather=False)
    >>> parse_move(None, "take discard")
    Move(op='T', arg=3, card=-1, side=-1, feather=False)
    """
    return _parse(text)


@lru_cache(maxsize=4096)
def _parse(text: str) -> Move:
    # A move reads the same in every position (the side of a play is checked and
    # dropped by format_move), so readings are cached.
    words = [w for w in _SPLIT.split(text.strip().lower()) if w]
    out = []
    for k, w in enumerate(words):
        if w == "discard" and k and words[k - 1] in ("take", "t"):
            out.append("d")  # "take discard": the discard pile as a source
        else:
            out.append(_WORDS.get(w, w))
    flat = "".join(out)
    m = _MOVE_RE.fullmatch(flat)
    if m is None:
        raise NotationError(
            "cannot read this as a move: expected D1, Ta, W, PSu4, PSu4R, XAu1, WSp3, R2, E "
            f"or FO (an F in front spends a feather) ({SEE})"
        )
    feather = m["f"] is not None
    if m["d"]:
        return Move("D", arg=int(m["d"]) - 1, feather=feather)
    if m["t"]:
        return Move("T", arg=3 if m["t"] == "x" else SOURCES.index(m["t"]), feather=feather)
    if m["ps"]:
        side = -1 if m["side"] is None else "lr".index(m["side"])
        return Move("P", card=_kind(m["ps"], m["pv"]), side=side, feather=feather)
    if m["xs"]:
        return Move("X", card=_kind(m["xs"], m["xv"]))
    if m["w"]:
        if not m["ws"]:
            return Move("W")
        side = -1 if m["wside"] is None else "lr".index(m["wside"])
        return Move("W", card=_kind(m["ws"], m["wv"]), side=side)
    if m["r"]:
        return Move("R", arg=int(m["r"]) - 1)
    if m["e"]:
        return Move("E")
    return Move("O")


def _kind(season: str, value: str) -> int:
    return _SEASON_CODES[season] * 6 + int(value) - 1


def format_move(state: State, move: Move) -> str:
    """The canonical notation. The side of a play or of a wild's place is written
    only when it is a choice: a season new to the board with a free corner on
    both sides (a wild's place in a new season needs the parameter wild=any)."""
    return spell(move, _side_text(state, move) if move.op in "PW" else "")


def spell_refused(state: State, move: Move) -> str:
    """A move the rules refuse, as its player meant it: its canonical notation."""
    return format_move(state, move)


def _feather_text(move: Move) -> str:
    return "F" if move.feather else ""


def spell(move: Move, side: str) -> str:
    """The notation of ``move`` with ``side`` ("", "L" or "R") written where a
    play or a wild's place takes one: what format_move writes once it has
    decided on the side."""
    op = move.op
    if op == "D":
        return f"{_feather_text(move)}D{move.arg + 1}"
    if op == "T":
        return f"{_feather_text(move)}T{SOURCES[move.arg]}"
    if op == "P":
        return f"{_feather_text(move)}P{CARDS[move.card]}{side}"
    if op == "X":
        return f"X{CARDS[move.card]}"
    if op == "W":
        if move.card < 0:
            return _feather_text(move) + "W"
        return f"{_feather_text(move)}W{CARDS[move.card]}{side}"
    if op == "R":
        return f"R{move.arg + 1}"
    if op == "E":
        return "E"
    return "FO"


def _side_text(state: State, move: Move) -> str:
    side = move.side
    if side < 0:
        return ""
    typed = SIDES[side]
    if state.seat < 0:
        return typed
    board = state.boards[state.seat]
    i = corner_of(board, move.card // 6)
    if i >= 0:
        return "" if i & 1 == side else typed
    free = free_sides(board)
    if len(free) == 1 and free[0] == side:
        return ""
    return typed
