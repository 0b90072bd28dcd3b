"""The vocabulary the rules, the notation, the text and the pictures share:
the game's names and rule clauses, the cards, the locations, and a move with
its canonical spelling.

Representation: a card is ``suit * 16 + rank`` with the suits 0-3 in the
rule text's order (pink, orange, green, blue; pink is trump) and ranks 1-12,
so ``card >> 4`` is its suit. Locations are 0-based here and 1-based in the
notation. Seats are the log's player order, which is clockwise.
"""

from __future__ import annotations

from typing import NamedTuple

from ...engine import Param

ID = "time-palatrix"
TITLE = "Time Palatrix"
PLAYERS = (3, 4)
NOTATION = "notation/time-palatrix.md"

PREPARATION = f"{TITLE}: Preparation"
GAME_FLOW = f"{TITLE}: Game Flow"
BIDDING = f"{TITLE}: Bidding"
PLACEMENT = f"{TITLE}: Trick Placement"
RESOLUTION = f"{TITLE}: Trick Resolution"
SCORING = f"{TITLE}: Score Calculation"
NEXT_HAND = f"{TITLE}: Start of the Next Hand and End of the Game"
VARIANT = f"{TITLE}: Variant"
TURN_CLAUSE = PLACEMENT  # "beginning with the start player and proceeding clockwise"
END_CLAUSE = NEXT_HAND

PARAMS = (
    Param(
        "locations",
        3,
        "locations on each player board: 3 (the front side: 4 placement rounds "
        "per hand) or 4 (the back side, the variant: 3 placement rounds per hand)",
        choices=(3, 4),
    ),
)

SUITS = ("P", "O", "G", "B")
SUIT_NAMES = ("pink", "orange", "green", "blue")
PINK = 0  # the trump suit
PAWNS = ("black", "red", "yellow", "blue")  # the pawn (and colour) of each location
HAND_CARDS = 12  # cards dealt to each player; also the tricks of a hand
MAX_BID = HAND_CARDS

CARD_NAMES = {s * 16 + r: f"{SUITS[s]}{r}" for s in range(4) for r in range(1, 13)}
#: And back: the card each name stands for ("G7" -> 39).
CARDS = {name: card for card, name in CARD_NAMES.items()}


def location_name(loc: int) -> str:
    """A location (0-based) in words: ``location 1 (black)``."""
    return f"location {loc + 1} ({PAWNS[loc]})"


class Bid(NamedTuple):
    """A bid of ``tricks`` purple chips, with the orange spare chip or not."""

    tricks: int
    spare: bool = False


class Place(NamedTuple):
    """``card`` placed on ``location`` (0-based) of the player's own board.

    ``location`` is -1 when the player did not say where: the card then goes
    to the only location where it may go, or the move is ambiguous.
    """

    card: int
    location: int


Move = Bid | Place

#: Every bid a player may make, in the order ``legal`` lists them: 0, 0+, 1, 1+, ...
BIDS = tuple(Bid(t, s) for t in range(MAX_BID + 1) for s in (False, True))
#: ``PLACES[card][location]``: one shared Place per card and location.
PLACES = {card: tuple(Place(card, loc) for loc in range(4)) for card in CARD_NAMES}


def bid_text(tricks: int, spare: bool) -> str:
    """A bid as written: ``3``, or ``3+`` with the spare chip."""
    return f"{tricks}{'+' if spare else ''}"


#: The canonical spelling of every bid and of every card on a location: ``3+``,
#: ``G7-2``. Two tables, as a Bid and a Place can be equal tuples.
BID_TEXT: dict[Bid, str] = {b: bid_text(*b) for b in BIDS}
PLACE_TEXT: dict[Place, str] = {
    place: f"{CARD_NAMES[place.card]}-{place.location + 1}"
    for row in PLACES.values()
    for place in row
}
#: And back: the move each canonical spelling stands for.
CANONICAL: dict[str, Move] = {text: move for move, text in BID_TEXT.items()}
CANONICAL.update((text, move) for move, text in PLACE_TEXT.items())
