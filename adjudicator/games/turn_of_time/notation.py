"""Turn of Time notation: reading moves as typed, writing them canonically.

The grammar, the canonical spelling and the tolerant input are specified in
``notation/turn-of-time.md``.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache

from ...errors import NotationError
from .cards import DIRS, SQUARE_INDEX, Move, kind
from .rules import State, around, meet, neighbours, outcomes, spell, ways

#: Where a player reads the notation, in every installation (error texts cite it).
SEE = "adjudicator rules turn-of-time"

_SEASON_WORDS = {
    "spring": 0, "sp": 0,
    "summer": 1, "su": 1,
    "fall": 2, "autumn": 2, "fa": 2, "au": 2,
    "winter": 3, "wi": 3,
}  # fmt: skip
_S = "(" + "|".join(sorted(_SEASON_WORDS, key=len, reverse=True)) + ")"


@cache
def _patterns() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """A move, and half a move (one season), compiled when first needed, not
    at import: replaying a log in canonical notation reads no move this way."""
    return (
        re.compile(rf"{_S}/?{_S}[-@]?([a-z])(\d+)(?:[:/]?([a-z]+))?"),
        re.compile(rf"{_S}[-@]?[a-z]\d+.*"),
    )


def parse_move(state: State | None, text: str) -> Move:
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
        raise NotationError(f"cannot read this as a move: {hint} ({SEE})")
    face, back = _SEASON_WORDS[m[1]], _SEASON_WORDS[m[2]]
    square = SQUARE_INDEX.get(m[3] + m[4])
    if square is None:
        raise NotationError(
            f"no square {m[3]}{m[4]}: squares run from a1 to g7 with the first card on d4 ({SEE})"
        )
    order: tuple[int, ...] = ()
    if m[5]:
        if any(ch not in DIRS for ch in m[5]):
            raise NotationError(
                f"the order of meetings {m[5]!r} must use the directions n, e, s and w ({SEE})"
            )
        if len(set(m[5])) != len(m[5]):
            raise NotationError(
                f"the order of meetings {m[5]!r} names a direction twice ({SEE})"
            )
        order = tuple(DIRS.index(ch) for ch in m[5])
    return Move(face, back, square, order)


def format_move(state: State, move: Move) -> str:
    """The canonical notation: the way of reaching the move's result that is
    written first (see :func:`rules.ways`); a move whose result is not
    settled (an order of meetings that is needed and missing, or that does
    not name each neighbour once) is written as typed."""
    face, back, square, order = move
    cards = around(state.board, square)
    code = face * 4 + back
    if order:
        if sorted(order) != list(neighbours(cards)):
            return spell(face, back, square, order)
        result = meet(code, cards, order)
    else:
        results = outcomes(code, cards)
        if len(results) > 1:
            return spell(face, back, square, order)
        result = next(iter(results))
    shown, order = ways(kind(face, back), cards)[result]
    return spell(shown, face + back - shown, square, order)


def spell_refused(state: State, move: Move) -> str:
    """A refused move as typed: its card with the face named first, its
    square and the order of meetings it names."""
    return spell(*move)
