"""The vocabulary the rules, the notation and the pictures share: the game's
names and rule clauses, the cards and their places, the sides of a
prediction, and a move.

Representation: a card is ``suit * 8 + number - 1``, suits in row order
(Dawn 0, Day 1, Sunset 2, Night 3). That number is also the card's place on
the board, row ``suit`` and column ``number``, since every card has exactly one
place. The board holds for each of the 32 places EMPTY (not played: in a hand,
in the draw pile, removed unseen or out of the game), UP or DOWN (flipped).
"""

from __future__ import annotations

from typing import NamedTuple

from ...engine import Param

ID = "atlas"
TITLE = "Atlas: Enchanted Lands"
PLAYERS = (2, 3, 4)
PARAMS: tuple[Param, ...] = ()
TURN_CLAUSE = "Atlas: Gameplay"
END_CLAUSE = "Atlas: End of Game and Final Scoring"
NOTATION = "notation/atlas.md"

SUITS = "WDSN"  # Dawn (daWn: D is Day's), Day, Sunset, Night: the rows, top to bottom
SUIT_NAMES = ("Dawn", "Day", "Sunset", "Night")
NUMBERS = 8
CARDS = 32
EMPTY, UP, DOWN = 0, 1, 2
NONE, TIME, PLACE = 0, 1, 2  # the side of a prediction
SIDES = ("", "T", "P")
SIDE_NAMES = ("", "Time", "Place")
MAX_BET = 5  # Play a Card B: "up to five chips"
MARKS = "abcd"  # a player's chips on the drawn board, by seat

CARD_TEXT = tuple(f"{c % NUMBERS + 1}{SUITS[c // NUMBERS]}" for c in range(CARDS))
CARD_INDEX = {text: c for c, text in enumerate(CARD_TEXT)}


def clause(section: str) -> str:
    return f"Atlas: {section}"


def card_words(card: int) -> str:
    """``the 3 of Day``: a card as the rule text names it."""
    return f"the {card % NUMBERS + 1} of {SUIT_NAMES[card // NUMBERS]}"


def plural(k: int, word: str) -> str:
    return f"{k} {word}{'s' * (k != 1)}"


class Move(NamedTuple):
    """One card played, and the prediction placed on it (``side`` NONE: none).

    Fields in this order so that sorting moves sorts them as ``legal`` lists
    them: by card, then no prediction, then Time with 1-5 chips, then Place.
    """

    card: int
    side: int = NONE
    chips: int = 0


#: Every move that can ever be legal, in the order ``legal`` lists them: for
#: each card in row order, the card alone, then Time with 1 to 5 chips, then
#: Place with 1 to 5 (11 a card). Shared, so that no move is built twice.
ALL_MOVES: tuple[Move, ...] = tuple(
    m
    for card in range(CARDS)
    for m in (
        Move(card),
        *(Move(card, side, k) for side in (TIME, PLACE) for k in range(1, MAX_BET + 1)),
    )
)
