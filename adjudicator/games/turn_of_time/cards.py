"""Turn of Time: the components. The four seasons, the sixteen cards, the
squares the notation names, and a move.

A season is 0-3 in seasonal order (Spring, Summer, Fall, Winter). A card on
the table is ``face * 4 + back`` (its *code*); a card in hand is its two
seasons, lower first (its *kind*).

The grid floats, so squares are named on a fixed 7x7 frame (files a-g, ranks
1-7) whose centre d4 holds the first card; any 4x4 box around d4 fits in it.
A square is ``row * 7 + col``.
"""

from __future__ import annotations

from typing import NamedTuple

TITLE = "Turn of Time"
SEASONS = ("Sp", "Su", "Fa", "Wi")
SEASON_NAMES = ("Spring", "Summer", "Fall", "Winter")
DIRS = "nesw"
FILES = "abcdefg"
SIZE = 7
CENTRE = 3 * SIZE + 3  # d4
CARDS = 16
SQUARES = tuple(f"{FILES[i % SIZE]}{i // SIZE + 1}" for i in range(SIZE * SIZE))
SQUARE_INDEX = {name: i for i, name in enumerate(SQUARES)}
# Squares in the order of their names (a1, a2, ..., g7), the order of listings.
BY_NAME = tuple(sorted(range(SIZE * SIZE), key=lambda i: SQUARES[i]))

# The board has one extra, always empty, entry OFF: neighbours off the frame
# point to it, so looking a neighbour up needs no bounds check.
OFF = SIZE * SIZE


def _neighbours(i: int) -> tuple[int, int, int, int]:
    r, c = divmod(i, SIZE)
    return (
        i + SIZE if r < SIZE - 1 else OFF,
        i + 1 if c < SIZE - 1 else OFF,
        i - SIZE if r > 0 else OFF,
        i - 1 if c > 0 else OFF,
    )


#: The squares north, east, south and west of each square (OFF off the frame).
NEIGHBOURS = tuple(_neighbours(i) for i in range(SIZE * SIZE))
ROW_COL = tuple(divmod(i, SIZE) for i in range(SIZE * SIZE))


def kind(a: int, b: int) -> int:
    """The card with seasons a and b, as held in a hand."""
    return a * 4 + b if a <= b else b * 4 + a


def flip(code: int) -> int:
    """The card turned over: its back shows."""
    return (code & 3) * 4 + (code >> 2)


FLIPPED = tuple(flip(c) for c in range(16))
KIND = tuple(kind(c >> 2, c & 3) for c in range(16))  # card code -> kind in hand
KINDS = tuple(sorted(set(KIND)))
# The directions (0-3 for n, e, s, w) of each 4-bit mask, in that order.
MASK_DIRS = tuple(tuple(d for d in range(4) if m >> d & 1) for m in range(16))


def season_set(s: int) -> list[int]:
    """A season's set: its single card and its double with each other season (3)."""
    return [kind(s, t) for t in range(4)]


# Every card of the game: 4 singles and two of each of the 6 pairs (1. COMPONENTS).
DECK = tuple(sorted(k for s in range(4) for k in season_set(s)))


def card_name(face: int, back: int) -> str:
    """'FaSp': the face shown, then the back."""
    return SEASONS[face] + SEASONS[back]


class Move(NamedTuple):
    """A card placed with ``face`` up on ``square``, meeting neighbours in ``order``.

    ``order`` lists directions (0-3 for n, e, s, w); it is empty when the order
    of meetings does not change the outcome.
    """

    face: int
    back: int
    square: int
    order: tuple[int, ...] = ()
