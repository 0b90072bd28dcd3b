"""Atlas notation: reading a move as typed, and writing it canonically.

``3D`` plays the 3 of Day; ``3D+2T`` plays it with 2 chips on Time, ``6N+5P``
the 6 of Night with 5 chips on Place. The grammar, the tolerant forms and the
order of ``legal`` are in ``notation/atlas.md``.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ...errors import AmbiguousMoveError, NotationError
from .cards import (
    ALL_MOVES, CARD_TEXT, NUMBERS, PLACE, SIDES, SUIT_NAMES, TIME, Move, clause,
)  # fmt: skip

#: Where a player reads the notation, in every installation (error texts cite it).
SEE = "adjudicator rules atlas"

_SUIT_WORDS = {
    "dawn": 0, "w": 0,
    "day": 1, "d": 1,
    "sunset": 2, "sun": 2, "s": 2,
    "night": 3, "n": 3,
}  # fmt: skip
_SIDE_WORDS = {"time": TIME, "t": TIME, "place": PLACE, "p": PLACE}
_SUIT = "(" + "|".join(sorted(_SUIT_WORDS, key=len, reverse=True)) + ")"
_SIDE = "(time|place|t|p)"
_SEP = r"(?:[+:/,;&_-]|with|and)?"
_CHIPS = r"(\d{1,3})(?:x|chips?)?(?:on|for)?"
_CARD_RE = re.compile(rf"(?:(\d)(?:of)?{_SUIT}|{_SUIT}(\d))")
_BET_RE = re.compile(rf"{_SEP}(?:{_CHIPS}{_SIDE}|{_SIDE}(\d{{1,3}}))")
_NO_SIDE_RE = re.compile(rf"{_SEP}{_CHIPS}")
_NO_CHIPS_RE = re.compile(rf"{_SEP}{_SIDE}")
_EXPECTED = (
    "expected a card, number then suit (3D is the 3 of Day; suits W Dawn, D Day, "
    "S Sunset, N Night), then optionally a prediction such as +2T (2 chips on Time) "
    "or +1P (1 chip on Place)"
)


def parse_move(state: object, text: str) -> Move:
    """Read a move; case, spaces, suit and side names and a few separators are
    forgiven. It never looks at the position, so it reveals nothing.

    >>> parse_move(None, "3D+2T")
    Move(card=10, side=1, chips=2)
    >>> parse_move(None, "3 of day, 2 chips on time")
    Move(card=10, side=1, chips=2)
    """
    return _parse(text)


@lru_cache(maxsize=4096)
def _parse(text: str) -> Move:
    # A move reads the same in every position, so readings are cached.
    flat = "".join(text.split()).lower()
    m = _CARD_RE.match(flat)
    if m is None:
        raise NotationError(f"cannot read this as a move: {_EXPECTED} ({SEE})")
    number = int(m[1] or m[4])
    suit = _SUIT_WORDS[m[2] or m[3]]
    rest = flat[m.end() :]
    if not 1 <= number <= NUMBERS:
        raise NotationError(
            f"there is no {number} of {SUIT_NAMES[suit]}: numbers run from 1 to 8 ({SEE})"
        )
    card = suit * NUMBERS + number - 1
    if not rest:
        return Move(card)
    bet = _BET_RE.fullmatch(rest)
    if bet is not None:
        side = _SIDE_WORDS[bet[2] or bet[3]]
        return Move(card, side, int(bet[1] or bet[4]))
    if (half := _NO_SIDE_RE.fullmatch(rest)) is not None:
        options = tuple(f"{CARD_TEXT[card]}+{int(half[1])}{s}" for s in "TP")
        raise AmbiguousMoveError(
            f"a prediction is for Time or for Place; say which: {options[0]} or {options[1]}",
            clause("Play a Card B"),
            options,
        )
    if _NO_CHIPS_RE.fullmatch(rest):
        raise NotationError(
            f"say how many chips (1 to 5) the prediction is, as in {CARD_TEXT[card]}+2T "
            f"({SEE})"
        )
    raise NotationError(f"cannot read this as a move: {_EXPECTED} ({SEE})")


def _spell(move: Move) -> str:
    card, side, chips = move
    return CARD_TEXT[card] + (f"+{chips}{SIDES[side]}" if side or chips else "")


#: Every move that can be legal, by its canonical spelling: a card alone, or
#: with 1 to 5 chips on Time or on Place (352 in all).
CANONICAL: dict[str, Move] = {_spell(m): m for m in ALL_MOVES}
_TEXTS: dict[Move, str] = {m: t for t, m in CANONICAL.items()}


def format_move(state: object, move: Move) -> str:
    """The canonical notation: ``3D`` for the card alone, ``3D+2T`` with 2 chips on
    Time, ``3D+1P`` with 1 chip on Place."""
    text = _TEXTS.get(move)
    if text is None:
        # Only a move typed by hand that no position allows (7 chips, say)
        # gets here; it is spelled but not kept.
        text = _spell(move)
    return text


def spell_refused(state: object, move: Move) -> str:
    """A refused move as its player meant it: its canonical notation (nothing
    the player names is left out of it)."""
    return format_move(state, move)
