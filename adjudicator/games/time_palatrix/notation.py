"""Reading and writing Time Palatrix moves (``notation/time-palatrix.md``).

Strict out, forgiving in: :func:`format_move` writes the canonical ``3``,
``3+`` or ``G7-2``; :func:`parse_move` forgives case, spaces, full words and a
few separators.
"""

from __future__ import annotations

import re

from ...errors import NotationError
from .cards import BID_TEXT, CARD_NAMES, PLACE_TEXT, SUITS, Bid, Move, Place, bid_text
from .rules import State, locations_for

#: Where a player reads the notation, in every installation (error texts cite it).
SEE = "adjudicator rules time-palatrix"

_SUIT_WORDS = {
    "pink": 0, "p": 0,
    "orange": 1, "o": 1,
    "green": 2, "g": 2,
    "blue": 3, "b": 3,
}  # fmt: skip
_LOCATION_WORDS = {"black": 0, "red": 1, "yellow": 2, "blue": 3}
_SUIT = "(" + "|".join(sorted(_SUIT_WORDS, key=len, reverse=True)) + ")"
_SEP = r"(?:\s*(?:[-@:>/,]|on|to)\s*|\s+)"
_PLACE_RE = re.compile(
    rf"{_SUIT}\s*(\d{{1,2}})(?:{_SEP}(\d)|{_SEP}?(black|red|yellow|blue))?"
)
_BID_RE = re.compile(
    r"(?:bid\s*)?(\d{1,2})\s*(\+\s*(?:1|spare)?|spare|(?:/|-|or)\s*(\d{1,2}))?"
)


def parse_move(state: State | None, text: str) -> Move:
    """Read a move; case, spaces and a few separators and words are forgiven.

    A move reads the same in every position: a card typed without a location
    reads with location -1, and the rules place it on the only location
    where it may go, or refuse it as ambiguous.

    >>> parse_move(None, "green 7 on 2")
    Place(card=39, location=1)
    >>> parse_move(None, "bid 3 + spare")
    Bid(tricks=3, spare=True)
    """
    flat = " ".join(text.lower().split())
    m = _PLACE_RE.fullmatch(flat)
    if m is not None:
        suit, rank = _SUIT_WORDS[m[1]], int(m[2])
        if not 1 <= rank <= 12:
            hint = ""
            if len(m[2]) == 2 and not (m[3] or m[4]):
                hint = f"; write the location apart, as in {SUITS[suit]}{m[2][0]}-{m[2][1]}"
            raise NotationError(
                f"no card of rank {rank}: ranks run from 1 to 12{hint} ({SEE})"
            )
        if m[3]:
            loc = int(m[3]) - 1
            if not 0 <= loc <= 3:
                raise NotationError(
                    f"no location {loc + 1}: locations are 1 to 3, or 1 to 4 on the back "
                    f"side ({SEE})"
                )
        elif m[4]:
            loc = _LOCATION_WORDS[m[4]]
        else:
            loc = -1
        return Place(suit * 16 + rank, loc)
    m = _BID_RE.fullmatch(flat)
    if m is not None:
        tricks = int(m[1])
        spare = m[2] is not None
        if m[3] is not None and int(m[3]) != tricks + 1:
            raise NotationError(
                "a bid with the spare chip covers two counts in a row, as in "
                f"{tricks}/{tricks + 1}; write {tricks}+ ({SEE})"
            )
        return Bid(tricks, spare)
    raise NotationError(
        "cannot read this as a move: expected a bid such as 3 or 3+ (with the spare chip), "
        f"or a card and a location such as G7-2 ({SEE})"
    )


def format_move(state: State | None, move: Move) -> str:
    """The canonical notation: ``3``, ``3+``, ``G7-2``. A card typed without a
    location is written with the only location it may go to; an impossible
    move is written as typed."""
    if isinstance(move, Bid):
        return BID_TEXT.get(move) or bid_text(*move)
    text = PLACE_TEXT.get(move)
    if text is not None:
        return text
    card, loc = move
    if (loc < 0 and state is not None and state.seat >= 0 and not state.bidding
            and card in state.hands[state.seat]):
        where = locations_for(state, card)
        if len(where) == 1:
            return PLACE_TEXT[Place(card, where[0])]
    return CARD_NAMES[card] if loc < 0 else f"{CARD_NAMES[card]}-{loc + 1}"


def spell_refused(state: State, move: Move) -> str:
    """A move the rules refuse, as its player meant it: its canonical notation
    (a card typed without a location is written without one)."""
    return format_move(state, move)
