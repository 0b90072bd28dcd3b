"""Time Palatrix (Taiki Shinzawa, 2019), 3 or 4 players.

A trick-taking game in which every player has a board of 3 locations (4 on
the back side) and places cards one at a time, clockwise, onto empty
locations of their own board; a location's tricks are resolved only when
every board is full. Rule clauses are cited by the rule text's section
headings ("Time Palatrix: Trick Placement"); the notation and every ruling
are in ``notation/time-palatrix.md``.

Representation: a card is ``suit * 16 + rank`` with the suits 0-3 in the
rule text's order (pink, orange, green, blue; pink is trump) and ranks 1-12.
Locations are 0-based here and 1-based in the notation. Seats are the log's
player order, which is clockwise.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from typing import NamedTuple

import msgspec
from msgspec.structs import replace as _replace

from ..chance import Chance, shuffled
from ..engine import Outcome, Param, Standing, Style, Value
from ..errors import AmbiguousMoveError, IllegalMoveError, NotationError

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
_SUIT_COLOURS = ("35", "33", "32", "34")  # pink magenta, orange yellow, green, blue


def _ranks(players: int) -> int:
    """PREPARATION: with 3 players the 10 to 12 of each suit go back in the box."""
    return 9 if players == 3 else 12


def _deck(players: int) -> tuple[int, ...]:
    """Every card of the game in the deal's starting order: P1..P12, O1.., G1.., B1.."""
    ranks = _ranks(players)
    return tuple(s * 16 + r for s in range(4) for r in range(1, ranks + 1))


CARD_NAMES = {s * 16 + r: f"{SUITS[s]}{r}" for s in range(4) for r in range(1, 13)}


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


class State(msgspec.Struct, frozen=True):
    players: tuple[str, ...]
    seed: str  # later hands are dealt from it
    locations: int
    hand_no: int  # 0-based hand being played; len(players) once the game is over
    start: int  # the start player (holds the large yellow pawn)
    seat: int  # seat to move, -1 once the game is over
    bidding: bool  # the bidding phase of the hand is on
    hands: tuple[tuple[int, ...], ...]  # per seat, sorted cards
    bids: tuple[int, ...]  # per seat, -1 before the player has bid
    spares: tuple[bool, ...]  # per seat: took the orange spare chip
    boards: tuple[tuple[int, ...], ...]  # per seat, per location: card or -1
    follow: tuple[int, ...]  # per location: seat of the card that set its follow suit, -1 none
    round_no: int  # 0-based placement round of the hand
    placed: int  # cards placed in this round
    tricks: tuple[int, ...]  # per seat, tricks won in this hand
    scores: tuple[int, ...]
    # Every trick resolved so far: (hand, round, location, lead, winner, card of each seat).
    record: tuple[tuple[int, ...], ...]
    # Every player's scoring of every finished hand: (hand, seat, bid, spare, tricks, points).
    results: tuple[tuple[int, ...], ...]


# --- setup -----------------------------------------------------------------------------


@lru_cache(maxsize=256)
def _deal(seed: str, players: int, hand_no: int) -> tuple[tuple[int, ...], ...]:
    """BIDDING: "Shuffle the cards well and deal 12 to each player". The deck in
    its starting order is shuffled with the label ``deal/<hand>`` (1-based) and
    seat i takes the cards at positions 12i to 12i + 11."""
    deck = shuffled(seed, f"deal/{hand_no + 1}", _deck(players))
    return tuple(
        tuple(sorted(deck[HAND_CARDS * i : HAND_CARDS * (i + 1)])) for i in range(players)
    )


def _rounds(locations: int) -> int:
    """GAME FLOW and VARIANT: 4 placement rounds with 3 locations, 3 with 4."""
    return HAND_CARDS // locations


def setup(params: Mapping[str, Value], players: tuple[str, ...], seed: str) -> State:
    n = len(players)
    locations = int(params["locations"])
    # BIDDING: "Once you have determined a start player in any appropriate manner":
    # drawn from the seed.
    start = Chance(seed, "start").below(n)
    return State(
        players=players,
        seed=seed,
        locations=locations,
        hand_no=0,
        start=start,
        seat=start,
        bidding=True,
        hands=_deal(seed, n, 0),
        bids=(-1,) * n,
        spares=(False,) * n,
        boards=((-1,) * locations,) * n,
        follow=(-1,) * locations,
        round_no=0,
        placed=0,
        tricks=(0,) * n,
        scores=(0,) * n,
        record=(),
        results=(),
    )


def to_move(state: State) -> int | None:
    return None if state.seat < 0 else state.seat


# --- moves -----------------------------------------------------------------------------

_BIDS = tuple(Bid(t, s) for t in range(MAX_BID + 1) for s in (False, True))


def _may_place(state: State, hand: tuple[int, ...], card: int, location: int) -> bool:
    """TRICK PLACEMENT: an empty location; if another player has already placed
    there this round, its follow suit must be followed if the player can."""
    if state.boards[state.seat][location] >= 0:
        return False
    setter = state.follow[location]
    if setter < 0:
        return True
    suit = state.boards[setter][location] >> 4
    return card >> 4 == suit or all(c >> 4 != suit for c in hand)


def _locations_for(state: State, card: int) -> list[int]:
    hand = state.hands[state.seat]
    return [loc for loc in range(state.locations) if _may_place(state, hand, card, loc)]


def legal_moves(state: State) -> tuple[Move, ...]:
    if state.seat < 0:
        return ()
    if state.bidding:
        return _BIDS
    hand = state.hands[state.seat]
    return tuple(
        Place(card, loc)
        for card in hand  # sorted: suits in the order P, O, G, B, then by rank
        for loc in range(state.locations)
        if _may_place(state, hand, card, loc)
    )


def _where(loc: int) -> str:
    return f"location {loc + 1} ({PAWNS[loc]})"


def apply(state: State, move: Move) -> State:
    seat = state.seat
    if seat < 0:
        n = len(state.players)
        raise IllegalMoveError(f"the game is over: all {n} hands have been played", NEXT_HAND)
    if type(move) is Bid:
        return _apply_bid(state, move)
    return _apply_place(state, move)


def _apply_bid(state: State, move: Bid) -> State:
    seat = state.seat
    if not state.bidding:
        raise IllegalMoveError(
            "the bids of this hand are made; now place a card, e.g. G7-2", GAME_FLOW
        )
    tricks, spare = move
    if tricks > MAX_BID:
        raise IllegalMoveError(
            f"a bid is 0 to {MAX_BID} tricks: a hand has only {HAND_CARDS} tricks", BIDDING
        )
    n = len(state.players)
    bids = (*state.bids[:seat], tricks, *state.bids[seat + 1 :])
    spares = (*state.spares[:seat], spare, *state.spares[seat + 1 :])
    nxt = (seat + 1) % n
    # Everyone bids once, clockwise from the start player; then the start
    # player places the first card.
    return _replace(state, bids=bids, spares=spares, seat=nxt, bidding=nxt != state.start)


def _apply_place(state: State, move: Place) -> State:
    seat = state.seat
    card, loc = move
    if state.bidding:
        raise IllegalMoveError(
            f"the hand begins with the bids: {state.players[seat]} bids now, e.g. 3 or 3+",
            GAME_FLOW,
        )
    hand = state.hands[seat]
    if card not in hand:
        name = CARD_NAMES[card]
        if card & 15 > _ranks(len(state.players)):
            raise IllegalMoveError(
                f"there is no {name} with 3 players: the 10 to 12 of each suit are out of the game",
                PREPARATION,
            )
        raise IllegalMoveError(f"{state.players[seat]} holds no {name}", PLACEMENT)
    if loc < 0:
        loc = _only_location(state, card)
    if loc >= state.locations:
        raise IllegalMoveError(
            f"there is no location {loc + 1}: the boards are played on the "
            f"{'front side, with 3' if state.locations == 3 else 'back side, with 4'} locations",
            VARIANT,
        )
    board = state.boards[seat]
    if board[loc] >= 0:
        raise IllegalMoveError(
            f"{_where(loc)} of {state.players[seat]}'s board already holds "
            f"{CARD_NAMES[board[loc]]}",
            PLACEMENT,
        )
    follow = state.follow
    setter = follow[loc]
    if setter < 0:
        # The first card on this location this round takes its pawn: it sets the follow suit.
        follow = (*follow[:loc], seat, *follow[loc + 1 :])
    else:
        suit = state.boards[setter][loc] >> 4
        if card >> 4 != suit and any(c >> 4 == suit for c in hand):
            raise IllegalMoveError(
                f"the follow suit of {_where(loc)} is {SUIT_NAMES[suit]} "
                f"(set by {state.players[setter]}'s {CARD_NAMES[state.boards[setter][loc]]}) "
                f"and {state.players[seat]} holds {SUIT_NAMES[suit]}: follow it there "
                "or place on another empty location",
                PLACEMENT,
            )
    k = hand.index(card)
    hands = (*state.hands[:seat], hand[:k] + hand[k + 1 :], *state.hands[seat + 1 :])
    board = (*board[:loc], card, *board[loc + 1 :])
    boards = (*state.boards[:seat], board, *state.boards[seat + 1 :])
    n = len(state.players)
    placed = state.placed + 1
    if placed < n * state.locations:
        return _replace(
            state, hands=hands, boards=boards, follow=follow, placed=placed, seat=(seat + 1) % n
        )
    return _resolve(state, hands, boards)


def _only_location(state: State, card: int) -> int:
    """The location of a card typed without one: the only one where it may go."""
    where = _locations_for(state, card)
    if len(where) == 1:
        return where[0]
    name = CARD_NAMES[card]
    if not where:
        raise IllegalMoveError(
            f"{name} may go on no empty location: each follow suit there must be followed",
            PLACEMENT,
        )
    options = tuple(f"{name}-{loc + 1}" for loc in where)
    raise AmbiguousMoveError(
        f"{name} may go on several locations; add one: " + " or ".join(options),
        PLACEMENT,
        options,
    )


def trick_winner(cards: tuple[int, ...], lead: int) -> int:
    """TRICK RESOLUTION: the highest trump (pink) wins; if none was played, the
    highest card of the suit the lead player played. The follow suit of the
    location plays no role."""
    trumps = [c for c in cards if c >> 4 == PINK]
    if trumps:
        return cards.index(max(trumps))
    suit = cards[lead] >> 4
    return cards.index(max(c for c in cards if c >> 4 == suit))


def _resolve(state: State, hands: tuple[tuple[int, ...], ...], boards) -> State:
    """Every board is full: resolve the tricks location by location. The start
    player leads the first; each trick's winner leads the next; the last
    trick's winner becomes the start player (TRICK RESOLUTION)."""
    n = len(state.players)
    lead = state.start
    tricks = list(state.tricks)
    record = list(state.record)
    for loc in range(state.locations):
        cards = tuple(boards[p][loc] for p in range(n))
        winner = trick_winner(cards, lead)
        tricks[winner] += 1
        record.append((state.hand_no, state.round_no, loc, lead, winner, *cards))
        lead = winner
    start = lead
    empty_boards = ((-1,) * state.locations,) * n
    no_follow = (-1,) * state.locations
    round_no = state.round_no + 1
    if round_no < _rounds(state.locations):
        return _replace(
            state,
            hands=hands,
            boards=empty_boards,
            follow=no_follow,
            round_no=round_no,
            placed=0,
            tricks=tuple(tricks),
            record=tuple(record),
            start=start,
            seat=start,
        )
    # SCORE CALCULATION, then the next hand (or the end of the game).
    results = list(state.results)
    scores = list(state.scores)
    for p in range(n):
        points = hand_points(state.bids[p], state.spares[p], tricks[p])
        scores[p] += points
        results.append((state.hand_no, p, state.bids[p], int(state.spares[p]), tricks[p], points))
    hand_no = state.hand_no + 1
    over = hand_no == n
    return _replace(
        state,
        hand_no=hand_no,
        start=start,
        seat=-1 if over else start,
        bidding=not over,
        hands=hands if over else _deal(state.seed, n, hand_no),
        bids=(-1,) * n,
        spares=(False,) * n,
        boards=empty_boards,
        follow=no_follow,
        round_no=0,
        placed=0,
        tricks=(0,) * n,
        scores=tuple(scores),
        record=tuple(record),
        results=tuple(results),
    )


def hand_points(bid: int, spare: bool, tricks: int) -> int:
    """SCORE CALCULATION: 2 a trick for an exact bid without the spare chip; 1 a
    trick for taking the bid or one more with it; nothing otherwise."""
    if spare:
        return tricks if tricks in (bid, bid + 1) else 0
    return 2 * tricks if tricks == bid else 0


# --- notation --------------------------------------------------------------------------

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


def parse_move(state: State, text: str) -> Move:
    """Read a move; case, spaces and a few separators and words are forgiven.

    >>> parse_move(None, "green 7 on 2")
    Place(card=39, location=1)
    >>> parse_move(None, "bid 3 + spare")
    Bid(tricks=3, spare=True)
    """
    return _parse(text)


@lru_cache(maxsize=4096)
def _parse(text: str) -> Move:
    # A move reads the same in every position (and reads no hidden card), so
    # readings are cached.
    flat = " ".join(text.lower().split())
    m = _PLACE_RE.fullmatch(flat)
    if m is not None:
        suit, rank = _SUIT_WORDS[m[1]], int(m[2])
        if not 1 <= rank <= 12:
            hint = ""
            if len(m[2]) == 2 and not (m[3] or m[4]):
                hint = f"; write the location apart, as in {SUITS[suit]}{m[2][0]}-{m[2][1]}"
            raise NotationError(
                f"no card of rank {rank}: ranks run from 1 to 12{hint} ({NOTATION})"
            )
        if m[3]:
            loc = int(m[3]) - 1
            if not 0 <= loc <= 3:
                raise NotationError(
                    f"no location {loc + 1}: locations are 1 to 3, or 1 to 4 on the back "
                    f"side ({NOTATION})"
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
                f"{tricks}/{tricks + 1}; write {tricks}+ ({NOTATION})"
            )
        return Bid(tricks, spare)
    raise NotationError(
        "cannot read this as a move: expected a bid such as 3 or 3+ (with the spare chip), "
        f"or a card and a location such as G7-2 ({NOTATION})"
    )


_BID_TEXT = {b: f"{b.tricks}{'+' if b.spare else ''}" for b in _BIDS}
_PLACE_TEXT = {
    Place(card, loc): f"{name}-{loc + 1}" for card, name in CARD_NAMES.items() for loc in range(4)
}


def format_move(state: State, move: Move) -> str:
    """The canonical notation: ``3``, ``3+``, ``G7-2``. A card typed without a
    location is written with the only location it may go to; an impossible
    move is written as typed."""
    if type(move) is Bid:
        return _BID_TEXT.get(move) or f"{move.tricks}{'+' if move.spare else ''}"
    text = _PLACE_TEXT.get(move)
    if text is not None:
        return text
    card, loc = move
    if loc < 0 and state is not None and state.seat >= 0 and not state.bidding:
        if card in state.hands[state.seat]:
            where = _locations_for(state, card)
            if len(where) == 1:
                return _PLACE_TEXT[Place(card, where[0])]
    return CARD_NAMES[card] if loc < 0 else f"{CARD_NAMES[card]}-{loc + 1}"


# --- scoring -----------------------------------------------------------------------------


def _bid_text(bid: int, spare: bool) -> str:
    return f"{bid}{'+' if spare else ''}"


def _s(count: int, word: str) -> str:
    return f"{count} {word}{'s' * (count != 1)}"


def trick_reason(players: tuple[str, ...], cards: tuple[int, ...], lead: int, winner: int) -> str:
    """Why the winner of a trick won it, in words."""
    won = cards[winner]
    if won >> 4 == PINK:
        return f"{CARD_NAMES[won]}, the highest trump"
    who = "they" if winner == lead else players[lead]
    return f"{CARD_NAMES[won]}, the highest {SUIT_NAMES[won >> 4]}, the suit {who} led"


def _trick_line(state: State, row: tuple[int, ...]) -> str:
    hand, rnd, loc, lead, winner = row[:5]
    cards = row[5:]
    n = len(state.players)
    order = [(lead + i) % n for i in range(n)]
    played = ", ".join(f"{state.players[p]} {CARD_NAMES[cards[p]]}" for p in order[1:])
    number = rnd * state.locations + loc + 1
    return (
        f"hand {hand + 1}, trick {number} (round {rnd + 1}, location {loc + 1}, {PAWNS[loc]}): "
        f"{state.players[lead]} led {CARD_NAMES[cards[lead]]}, then {played}; "
        f"{state.players[winner]} wins with {trick_reason(state.players, cards, lead, winner)}"
    )


def score_reason(bid: int, spare: bool, tricks: int) -> str:
    """How a hand's points came about, in words (SCORE CALCULATION)."""
    points = hand_points(bid, spare, tricks)
    if spare:
        if tricks not in (bid, bid + 1):
            return f"not {bid} or {bid + 1}: 0 points"
        if tricks == 0:
            return "within the spare chip, but no tricks: 0 points"
        return f"within the spare chip, 1 point a trick: {_s(points, 'point')}"
    if tricks != bid:
        return "missed: 0 points"
    if tricks == 0:
        return "exact, but no tricks: 0 points"
    return f"exact, 2 points a trick: {_s(points, 'point')}"


def _result_line(state: State, row: tuple[int, ...]) -> str:
    hand, seat, bid, spare, tricks, _ = row
    return (
        f"hand {hand + 1}: {state.players[seat]} bid {_bid_text(bid, bool(spare))} and took "
        f"{_s(tricks, 'trick')} - {score_reason(bid, bool(spare), tricks)}"
    )


def _ordinal(k: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(k, f"{k}th")


def standing(state: State) -> Outcome:
    n = len(state.players)
    over = state.seat < 0
    scores = state.scores
    seats = sorted(range(n), key=lambda p: -scores[p])  # stable: ties in seat order
    places = {}
    for i, p in enumerate(seats):
        # Tied players share a place; the next place skips as many as shared it.
        places[p] = places[seats[i - 1]] if i and scores[p] == scores[seats[i - 1]] else i + 1
    details: list[str] = []
    rows_by_hand: dict[int, list[tuple[int, ...]]] = {}
    for row in state.results:
        rows_by_hand.setdefault(row[0], []).append(row)
    for hand in range(state.hand_no):
        if over:
            details += [_trick_line(state, r) for r in state.record if r[0] == hand]
        details += [_result_line(state, r) for r in rows_by_hand.get(hand, ())]
    if over:
        won = [0] * n
        for row in state.results:
            won[row[1]] += row[4]
        details.append(
            "tricks won over the game (information only): "
            + ", ".join(f"{state.players[p]} {won[p]}" for p in range(n))
        )
        groups: dict[int, list[int]] = {}
        for p in seats:
            groups.setdefault(scores[p], []).append(p)
        for score, group in groups.items():
            if len(group) > 1:
                names = ", ".join(state.players[p] for p in group[:-1])
                details.append(
                    f"{names} and {state.players[group[-1]]} tie on {_s(score, 'point')} and "
                    f"share {_ordinal(places[group[0]])} place: a tie is not broken ({NEXT_HAND})"
                )
    else:
        bids = ", ".join(
            f"{state.players[p]} "
            + ("-" if state.bids[p] < 0 else _bid_text(state.bids[p], state.spares[p]))
            for p in range(n)
        )
        tricks = ", ".join(f"{state.players[p]} {state.tricks[p]}" for p in range(n))
        details.append(f"hand {state.hand_no + 1} of {n} in play: bids {bids}; tricks {tricks}")
    return Outcome(
        standings=tuple(
            Standing(player=state.players[p], score=scores[p], place=places[p]) for p in seats
        ),
        winners=tuple(state.players[p] for p in seats if over and places[p] == 1),
        details=tuple(details),
    )


def outcome(state: State) -> Outcome | None:
    return standing(state) if state.seat < 0 else None


# --- views and rendering -------------------------------------------------------------------


class Trick(msgspec.Struct, frozen=True, kw_only=True):
    """One resolved trick, as everybody saw it."""

    hand: int  # 1-based
    number: int  # 1 to 12 within the hand
    round: int  # 1-based placement round
    location: int  # 1-based
    lead: str
    cards: tuple[str, ...]  # per seat
    winner: str
    why: str


class HandResult(msgspec.Struct, frozen=True, kw_only=True):
    """The scoring of one finished hand, per seat."""

    hand: int  # 1-based
    bids: tuple[str, ...]
    tricks: tuple[int, ...]
    points: tuple[int, ...]


class View(msgspec.Struct, frozen=True, kw_only=True):
    """What one player (or a spectator) sees: every board, bid, trick and
    score, the number of cards in each hand, and only their own hand."""

    viewer: str | None
    players: tuple[str, ...]
    locations: int
    hand: int  # 1-based hand in play (the last one once the game is over)
    hands_in_game: int  # one per player
    round: int  # 1-based placement round of the hand (0 during the bidding)
    rounds: int
    phase: str  # "bidding", "placement" or "over"
    start_player: str
    to_move: str | None
    bids: tuple[str | None, ...]  # per seat: "3", "3+", or None before they bid
    tricks: tuple[int, ...]  # per seat, tricks won in this hand
    scores: tuple[int, ...]
    cards_in_hand: tuple[int, ...]  # per seat
    my_cards: tuple[str, ...] | None  # the viewer's own hand; None for a spectator
    boards: tuple[tuple[str | None, ...], ...]  # per seat, per location
    follow: tuple[str | None, ...]  # per location: its follow suit this round
    follow_set_by: tuple[str | None, ...]  # per location: who placed the first card there
    tricks_played: tuple[Trick, ...]  # this hand's tricks, or the last hand's before any
    results: tuple[HandResult, ...]



VIEW = View  # the type of a view, to read one back from a view file

def view(state: State, seat: int | None) -> View:
    n = len(state.players)
    over = state.seat < 0
    hand_no = state.hand_no - 1 if over else state.hand_no
    # This hand's tricks; at the start of a hand, those of the hand just ended,
    # so that the resolution that ended it stays in view.
    shown = [r for r in state.record if r[0] == hand_no] or [
        r for r in state.record if r[0] == hand_no - 1
    ]
    tricks = tuple(
        Trick(
            hand=r[0] + 1,
            number=r[1] * state.locations + r[2] + 1,
            round=r[1] + 1,
            location=r[2] + 1,
            lead=state.players[r[3]],
            cards=tuple(CARD_NAMES[c] for c in r[5:]),
            winner=state.players[r[4]],
            why=trick_reason(state.players, r[5:], r[3], r[4]),
        )
        for r in shown
    )
    results = tuple(
        HandResult(
            hand=h + 1,
            bids=tuple(_bid_text(r[2], bool(r[3])) for r in rows),
            tricks=tuple(r[4] for r in rows),
            points=tuple(r[5] for r in rows),
        )
        for h in range(state.hand_no)
        if (rows := [r for r in state.results if r[0] == h])
    )
    return View(
        viewer=None if seat is None else state.players[seat],
        players=state.players,
        locations=state.locations,
        hand=hand_no + 1,
        hands_in_game=n,
        round=0 if state.bidding or over else state.round_no + 1,
        rounds=_rounds(state.locations),
        phase="over" if over else "bidding" if state.bidding else "placement",
        start_player=state.players[state.start],
        to_move=None if over else state.players[state.seat],
        bids=tuple(
            None if b < 0 else _bid_text(b, s) for b, s in zip(state.bids, state.spares)
        ),
        tricks=state.tricks,
        scores=state.scores,
        cards_in_hand=tuple(len(h) for h in state.hands),
        my_cards=None if seat is None else tuple(CARD_NAMES[c] for c in state.hands[seat]),
        boards=tuple(tuple(CARD_NAMES.get(c) for c in b) for b in state.boards),
        follow=tuple(
            None if s < 0 else SUIT_NAMES[state.boards[s][loc] >> 4]
            for loc, s in enumerate(state.follow)
        ),
        follow_set_by=tuple(None if s < 0 else state.players[s] for s in state.follow),
        tricks_played=tricks,
        results=results,
    )


def redeal(state: State, seat: int | None, seed: str) -> State:
    """The other players' hands shuffled together and dealt back in their sizes."""
    n = len(state.players)
    others = [p for p in range(n) if p != seat]
    pool = shuffled(seed, "redeal", [c for p in others for c in state.hands[p]])
    hands = list(state.hands)
    for p in others:
        k = len(hands[p])
        hands[p], pool = tuple(sorted(pool[:k])), pool[k:]
    return _replace(state, hands=tuple(hands))


def _paint_card(name: str | None, style: Style) -> str:
    if name is None:
        return ""
    return style.paint(name, _SUIT_COLOURS[SUITS.index(name[0])])


def render(v: View, style: Style) -> str:
    """The boards as a table (one row a player), then the hand, tricks and scores."""
    dot = " · " if style.unicode else " - "
    if v.phase == "over":
        head = [f"Game over after {v.hands_in_game} hands"]
    else:
        head = [f"Hand {v.hand} of {v.hands_in_game}"]
        head.append("bidding" if v.phase == "bidding" else f"round {v.round} of {v.rounds}")
    head += [f"start player: {v.start_player}", "trump: pink"]
    lines = [dot.join(head), ""]

    # Each cell is (plain text, painted text): widths come from the plain text.
    locs = range(v.locations)
    header = [("player", "player")] + [(f"{i + 1} {PAWNS[i]}",) * 2 for i in locs]
    header += [(h, h) for h in ("bid", "tricks", "score", "cards")]
    arrow = "→" if style.unicode else ">"
    rows = []
    for p, name in enumerate(v.players):
        mark = (arrow if v.to_move == name else " ") + ("*" if v.start_player == name else " ")
        row = [(mark + name,) * 2]
        row += [(b or "", _paint_card(b, style)) for b in v.boards[p]]
        bid = v.bids[p] if v.bids[p] is not None else "-"
        row += [(str(x),) * 2 for x in (bid, v.tricks[p], v.scores[p], v.cards_in_hand[p])]
        rows.append(row)
    follow = [("follow", "follow")]
    for loc in locs:
        suit, by = v.follow[loc], v.follow_set_by[loc]
        if suit is None:
            follow.append(("", ""))
        else:
            colour = _SUIT_COLOURS[SUIT_NAMES.index(suit)]
            follow.append((f"{suit} ({by})", f"{style.paint(suit, colour)} ({by})"))
    follow += [("", "")] * 4
    widths = [max(len(r[i][0]) for r in [header, *rows, follow]) for i in range(len(header))]
    if style.unicode:
        h, bar = "─", "│"
        top, mid, bot = ("┌", "┬", "┐"), ("├", "┼", "┤"), ("└", "┴", "┘")
    else:
        h, bar = "-", "|"
        top = mid = bot = ("+", "+", "+")

    def rule(ends: tuple[str, str, str]) -> str:
        return ends[0] + ends[1].join(h * (w + 2) for w in widths) + ends[2]

    def line(cells: list[tuple[str, str]]) -> str:
        return bar + bar.join(
            f" {painted}{' ' * (w - len(plain))} " for (plain, painted), w in zip(cells, widths)
        ) + bar

    lines += [rule(top), line(header), rule(mid)]
    lines += [line(r) for r in rows]
    lines += [rule(mid), line(follow), rule(bot)]
    lines.append(f"{arrow} to move   * start player (leads the first trick)")
    lines.append("")
    if v.my_cards is not None:
        cards = " ".join(_paint_card(c, style) for c in v.my_cards) or "(empty)"
        lines.append(f"{v.viewer}'s hand: {cards}")
    if v.tricks_played:
        # One line a trick, a column a player; the lead player's card in brackets.
        width = max(3, *(len(name) for name in v.players)) + 2
        names = "".join(f" {name:<{width}}" for name in v.players)
        lines.append(f"Tricks of hand {v.tricks_played[0].hand}:".ljust(17) + names.rstrip())
        for t in v.tricks_played:
            cells = []
            for name, c in zip(v.players, t.cards):
                text = f"[{c}]" if name == t.lead else f" {c} "
                cells.append(text.replace(c, _paint_card(c, style)) + " " * (width + 1 - len(text)))
            why = "highest trump" if t.cards[v.players.index(t.winner)][0] == SUITS[PINK] else (
                "highest of the lead suit"
            )
            where = f"{t.number:>4} {PAWNS[t.location - 1]}"
            lines.append(f"{where:<17}" + "".join(cells) + f"{arrow} {t.winner} ({why})")
    if v.results:
        lines.append("Scores by hand (bid/tricks taken = points):")
        for r in v.results:
            lines.append(f"  hand {r.hand}: " + ", ".join(
                f"{name} {b}/{t} = {pts}"
                for name, b, t, pts in zip(v.players, r.bids, r.tricks, r.points)
            ))
    return "\n".join(lines).rstrip()
