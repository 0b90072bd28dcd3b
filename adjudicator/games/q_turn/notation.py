"""Q-Turn's notation: reading a move as typed and writing it canonically
(``notation/q-turn.md``, Grammar)."""

from __future__ import annotations

import re
from functools import lru_cache

from ...errors import IllegalMoveError, NotationError
from .rules import (
    AXES, BOUNCE, D, DIRS, GO, ORIENT, PASS, Q, SQUARES, TITLE, TURN,
    SQUARE_INDEX, Move, State,
)  # fmt: skip

#: Where a player reads the notation, in every installation (error texts cite it).
SEE = "adjudicator rules q-turn"

_SQ = r"([a-d][1-4])"
_TURN = rf"(?:(?:\+|,|;|&|/|turn(?:ing)?|rotat(?:e|ing))?{_SQ}|(?:\+|,|;|&|/)(-|0|no|none))?"
_DIR_WORDS = {
    "n": 0, "north": 0, "e": 1, "east": 1, "s": 2, "south": 2, "w": 3, "west": 3,
}  # fmt: skip
_AXIS_WORDS = {
    a + sep + b: axis
    for axis, (x, y) in enumerate((("n", "s"), ("e", "w")))
    for a, b in ((x, y), (y, x))
    for sep in ("", "-", "/")
}
_DIR = "(" + "|".join(sorted([*_DIR_WORDS, *_AXIS_WORDS], key=len, reverse=True)) + ")"
_GO_RE = re.compile(rf"(?:to|->|>)?{_SQ}{_TURN}")
_BOUNCE_RE = re.compile(rf"(?:bounce|x|\*)(?:off)?{_SQ}?{_TURN}")
_ORIENT_RE = re.compile(rf"(?:=|to|->|>)?{_DIR}{_TURN}")
_EXPECTED = (
    "expected a square (b2), a square and a disk to turn (b2+c3), bounce, "
    "a direction (N, E, S, W) or an axis (NS, EW)"
)


def parse_move(state: State | None, text: str) -> Move:
    """Read a move; case, spaces and a few separators and words are forgiven.

    >>> parse_move(None, "b2 + C3")
    Move(action=0, arg=5, turn=10)
    >>> parse_move(None, "bounce off c2")
    Move(action=1, arg=6, turn=-1)
    >>> parse_move(None, "east")
    Move(action=2, arg=1, turn=-1)
    """
    return _parse(text)


@lru_cache(maxsize=4096)
def _parse(text: str) -> Move:
    # A move reads the same in every position (nothing hidden can change how
    # it reads), so readings are cached.
    flat = "".join(text.split()).lower()
    if flat == "pass":
        return Move(PASS)
    m = _GO_RE.fullmatch(flat)
    if m is not None:
        return Move(GO, SQUARE_INDEX[m[1]], _turn_of(m[2]))
    m = _BOUNCE_RE.fullmatch(flat)
    if m is not None:
        return Move(BOUNCE, SQUARE_INDEX[m[1]] if m[1] else -1, _turn_of(m[2]))
    m = _ORIENT_RE.fullmatch(flat)
    if m is not None:
        word = m[1]
        arg = _DIR_WORDS[word] if word in _DIR_WORDS else 4 + _AXIS_WORDS[word]
        return Move(ORIENT, arg, _turn_of(m[2]))
    bad = next((t for t in re.findall(r"[a-z]\d+", flat) if t not in SQUARE_INDEX), None)
    if bad:
        if re.fullmatch(r"(?:to|->|>)?([a-d][05]|e[1-4])", flat):
            # A square just beyond the edge: what a player writes to leave the board.
            raise IllegalMoveError(
                f"{bad} is off the board: you may not move off the board "
                "(squares run from a1 to d4)",
                f"{TITLE}: {TURN}",
            )
        raise NotationError(f"no square {bad}: squares run from a1 to d4 ({SEE})")
    raise NotationError(f"cannot read this as a move: {_EXPECTED} ({SEE})")


def _turn_of(square: str | None) -> int:
    return SQUARE_INDEX[square] if square else -1


def format_move(state: State, move: Move) -> str:
    """The canonical notation: ``b2``, ``b2+c3``, ``bounce``, ``bounce+c3``,
    ``E``, ``NS+c3``. A turn of a Q-Turner changes nothing and is not written."""
    action, arg, turn = move
    if turn >= 0 and state.faces[turn] >= 0 and state.kinds[turn] == Q and _doubles(state, move):
        turn = -1
    suffix = "+" + SQUARES[turn] if turn >= 0 else ""
    if action == GO:
        return SQUARES[arg] + suffix
    if action == BOUNCE:
        return "bounce" + suffix
    if action == ORIENT:
        if arg >= 4:
            return AXES[arg - 4] + suffix
        seat = state.seat
        pos = state.tokens[seat] if seat >= 0 else -1
        if pos >= 0 and state.kinds[pos] == D and state.faces[pos] >= 0:
            return AXES[arg % 2] + suffix
        return DIRS[arg] + suffix
    return "pass"


def spell_refused(state: State, move: Move) -> str:
    """A refused move as its player meant it: canonical, but a bounce keeps the
    square it named (which is what is wrong with it).

    >>> spell_refused(None, parse_move(None, "x b1"))
    'bounce off b1'
    """
    canonical = format_move(state, move)
    if move.action == BOUNCE and move.arg >= 0:
        return f"bounce off {SQUARES[move.arg]}" + canonical.removeprefix("bounce")
    return canonical


def _doubles(state: State, move: Move) -> bool:
    """Whether ``move`` takes the action of a revealed Double Arrow (whose
    turn of a Q-Turner changes nothing, so is written as no turn)."""
    seat = state.seat
    if seat < 0:
        return False
    pos = state.tokens[seat]
    action, arg = move.action, move.arg
    if action == GO and not state.orienting:
        disk = arg
    elif (action == BOUNCE and not state.orienting) or (action == ORIENT and state.orienting):
        disk = pos
    else:
        return False
    return disk >= 0 and state.faces[disk] >= 0 and state.kinds[disk] == D
