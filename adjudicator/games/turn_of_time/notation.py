"""Turn of Time notation: reading moves as typed, writing them canonically.

The grammar, the canonical spelling and the tolerant input are specified in
``notation/turn-of-time.md``.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ...errors import NotationError
from .rules import (
    _NORDERS,
    _ORDER_ID,
    _SIG_E,
    _SIG_N,
    _SIG_S,
    _SIG_W,
    _SIGS,
    _SQUARE_INDEX,
    DIRS,
    NEIGHBOURS,
    NOTATION,
    Move,
    State,
    _choose,
    _text,
    _written,
)

_SEASON_WORDS = {
    "spring": 0, "sp": 0,
    "summer": 1, "su": 1,
    "fall": 2, "autumn": 2, "fa": 2, "au": 2,
    "winter": 3, "wi": 3,
}  # fmt: skip
_S = "(" + "|".join(sorted(_SEASON_WORDS, key=len, reverse=True)) + ")"


@lru_cache(maxsize=None)
def _patterns() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """A move, and half a move (one season), compiled when first needed, not
    at import: replaying a log in canonical notation reads no move this way."""
    return (
        re.compile(rf"{_S}/?{_S}[-@]?([a-z])(\d+)(?:[:/]?([a-z]+))?"),
        re.compile(rf"{_S}[-@]?[a-z]\d+.*"),
    )


def parse_move(state: State, text: str) -> Move:
    """Read a move; case, spaces and a few separators are forgiven.

    >>> parse_move(None, "FaSp-c3:nw")
    Move(face=2, back=0, square=16, order=(0, 3))
    >>> parse_move(None, "fall/spring c3")
    Move(face=2, back=0, square=16, order=())
    """
    return _parse(text)


@lru_cache(maxsize=4096)
def _parse(text: str) -> Move:
    # A move reads the same in every position, so readings are cached.
    flat = "".join(text.split()).lower()
    move, half = _patterns()
    m = move.fullmatch(flat)
    if m is None:
        if half.fullmatch(flat):
            hint = "a card has two sides: give the face shown, then the back (FaFa for the single Fall card)"
        else:
            hint = "expected the face and back seasons, then the square, as in FaSp-c3 or FaSp-c3:nw"
        raise NotationError(f"cannot read this as a move: {hint} ({NOTATION})")
    face, back = _SEASON_WORDS[m[1]], _SEASON_WORDS[m[2]]
    square = _SQUARE_INDEX.get(m[3] + m[4])
    if square is None:
        raise NotationError(
            f"no square {m[3]}{m[4]}: squares run from a1 to g7 with the first card on d4 ({NOTATION})"
        )
    order: tuple[int, ...] = ()
    if m[5]:
        if any(ch not in DIRS for ch in m[5]):
            raise NotationError(
                f"the order of meetings {m[5]!r} must use the directions n, e, s and w ({NOTATION})"
            )
        if len(set(m[5])) != len(m[5]):
            raise NotationError(
                f"the order of meetings {m[5]!r} names a direction twice ({NOTATION})"
            )
        order = tuple(DIRS.index(ch) for ch in m[5])
    return Move(face, back, square, order)




# (code * _NORDERS + order id) * _SIGS + signature -> canonical code and order suffix
_SPELLED: dict[int, tuple[int, str]] = {}


def format_move(state: State, move: Move) -> str:
    """The canonical notation: the way of reaching the move's result that is
    written first (see ``_choose``); an impossible move is written as typed."""
    face, back, sq, order = move
    board = state.board
    oid = _ORDER_ID.get(order)
    if oid is not None:
        text = _written(board, face * 4 + back, sq, oid)
        if text is not None:
            return text  # written canonically already
    n, e, s, w = NEIGHBOURS[sq]
    sig = _SIG_N[board[n]] + _SIG_E[board[e]] + _SIG_S[board[s]] + _SIG_W[board[w]]
    if oid is None:  # an order no move can have (a direction twice): written as typed
        code, suffix = _canonical(face, back, order, sig)
        return _text(code, sq) + suffix
    key = ((face * 4 + back) * _NORDERS + oid) * _SIGS + sig
    spelled = _SPELLED.get(key)
    if spelled is None:
        if len(_SPELLED) > 200_000:  # bound the memory a stream of odd logs can take
            _SPELLED.clear()
        spelled = _SPELLED[key] = _canonical(face, back, order, sig)
    code, suffix = spelled
    return _text(code, sq) + suffix


def _canonical(
    face: int, back: int, order: tuple[int, ...], sig: int
) -> tuple[int, str]:
    """The card code and order suffix of the canonical spelling (memoised above)."""
    kind = face * 4 + back if face <= back else back * 4 + face
    ch = _choose(kind, sig)
    meet = ch.meets[face]
    res = meet.result.get(order or meet.dirs)
    if res is not None and (order or len(meet.reps) == 1):
        face, order = ch.canon[res]
        back = (kind >> 2) + (kind & 3) - face
    return face * 4 + back, (":" + "".join(DIRS[d] for d in order)) if order else ""
