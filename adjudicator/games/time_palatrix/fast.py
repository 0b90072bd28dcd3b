"""Time Palatrix for speed: the unchecked paths of replay and self-play
(:class:`adjudicator.engine.Accelerator`).

Nothing here is a rule. Each function gives exactly the state that
:mod:`.rules` gives (``apply``, ``trick_winner``, the resolution of a round),
and tests/test_time_palatrix_fast.py holds them to it move by move: a legal
move's state, and ``None`` for every text the checked path refuses or does
not write so. The speed comes from tables made once (each canonical text's
card, location and suit; each seat's tuple rebuilt without slicing; each
card's worth by lead suit), from memoised deals, and, in :func:`fast_play`,
from a position kept in lists and bit sets for a whole log.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from msgspec.structs import replace

from ...engine import Value
from .cards import BID_TEXT, CARD_NAMES, HAND_CARDS, PLACE_TEXT, Bid, Move
from .rules import State, after_round, deal, deck, hand_results, strength

#: Every log validated is dealt again, hand by hand: the deals are memoised.
dealt = lru_cache(maxsize=256)(deal)
#: The deck of each player count, in the order fast_play rebuilds hands.
DECKS = {n: deck(n) for n in (3, 4)}

#: Each canonical text of a card on a location: (card, location, suit); of a
#: bid: (tricks, spare chip).
PLACE_READINGS = {text: (card, loc, card >> 4) for (card, loc), text in PLACE_TEXT.items()}
BID_READINGS = {text: bid for bid, text in BID_TEXT.items()}

# SET[size][i](t, x): the tuple t of that size with item i replaced by x.
# Boards, hands, bids and follow suits are rebuilt this way at every move;
# written out, it is quicker than slicing.
SET: dict[int, tuple[Callable[[tuple, Any], tuple], ...]] = {
    3: (
        lambda t, x: (x, t[1], t[2]),
        lambda t, x: (t[0], x, t[2]),
        lambda t, x: (t[0], t[1], x),
    ),
    4: (
        lambda t, x: (x, t[1], t[2], t[3]),
        lambda t, x: (t[0], x, t[2], t[3]),
        lambda t, x: (t[0], t[1], x, t[3]),
        lambda t, x: (t[0], t[1], t[2], x),
    ),
}
#: NEXT[players][seat]: the seat clockwise after it.
NEXT = {n: tuple((seat + 1) % n for seat in range(n)) for n in (3, 4)}
#: STRENGTHS[lead suit][card]: rules.strength as a tuple indexed by the card.
STRENGTHS = tuple(
    tuple(strength(c, lead) if c in CARD_NAMES else 0 for c in range(64)) for lead in range(4)
)


def fast_apply(state: State, text: str) -> State | None:
    """The state after the move written ``text`` if that is the canonical
    notation of a legal move here, else None (the checked path says why).

    The checks of ``rules.apply`` without their messages, and the placement
    written out.
    """
    place = PLACE_READINGS.get(text)
    if place is None:
        bid = BID_READINGS.get(text)
        # Not bidding: placing, or the game is over.
        if bid is None or not state.bidding:
            return None
        return _bid(state, state.seat, bid[0], bid[1])
    seat = state.seat
    if state.bidding or seat < 0:
        return None
    card, loc, suit = place
    hand = state.hands[seat]
    board = state.boards[seat]
    try:
        at_loc = SET[state.locations][loc]  # IndexError: no such location on this side
        if board[loc] >= 0:
            return None
        k = hand.index(card)  # ValueError: not in the hand
    except (IndexError, ValueError):
        return None
    follow = state.follow
    setter = follow[loc]
    if setter < 0:
        follow = at_loc(follow, seat)
    else:
        lead = state.boards[setter][loc] >> 4
        if suit != lead:
            i = bisect_left(hand, lead << 4)  # the hand is sorted: does it hold the suit?
            if i < len(hand) and hand[i] >> 4 == lead:
                return None
    # _place written out: this is the hot path of validation and self-play.
    hand = hand[:k] + hand[k + 1 :]
    board = at_loc(board, card)
    hands = state.hands
    boards = state.boards
    if len(hands) == 3:
        if seat == 0:
            hands, boards, nxt = (hand, hands[1], hands[2]), (board, boards[1], boards[2]), 1
        elif seat == 1:
            hands, boards, nxt = (hands[0], hand, hands[2]), (boards[0], board, boards[2]), 2
        else:
            hands, boards, nxt = (hands[0], hands[1], hand), (boards[0], boards[1], board), 0
        last = 9 if len(board) == 3 else 12  # the placements of a round
    else:
        if seat == 0:
            hands = (hand, hands[1], hands[2], hands[3])
            boards, nxt = (board, boards[1], boards[2], boards[3]), 1
        elif seat == 1:
            hands = (hands[0], hand, hands[2], hands[3])
            boards, nxt = (boards[0], board, boards[2], boards[3]), 2
        elif seat == 2:
            hands = (hands[0], hands[1], hand, hands[3])
            boards, nxt = (boards[0], boards[1], board, boards[3]), 3
        else:
            hands = (hands[0], hands[1], hands[2], hand)
            boards, nxt = (boards[0], boards[1], boards[2], board), 0
        last = 12 if len(board) == 3 else 16
    placed = state.placed + 1
    if placed < last:
        return replace(state, hands=hands, boards=boards, follow=follow, placed=placed, seat=nxt)
    return _resolve(state, hands, boards)


def fast_setup(params: Mapping[str, Value], players: tuple[str, ...], seed: str) -> State | None:
    """None: the rules' setup is the only one (validation and self-play
    take it as it is)."""
    return None


def fast_step(state: State, move: Move) -> tuple[str, State] | None:
    """``(format_move(state, move), apply(state, move))`` for a legal move,
    else None: the canonical text, played by :func:`fast_apply`."""
    text = BID_TEXT.get(move) if isinstance(move, Bid) else PLACE_TEXT.get(move)
    if text is None:
        return None
    after = fast_apply(state, text)
    return None if after is None else (text, after)


def fast_game(
    state: State, pick: Callable[[int], int], limit: int | None = None
) -> tuple[list[str], list[int], State] | None:
    """None: self-play plays move by move (:func:`fast_step`)."""
    return None


def _bid(state: State, seat: int, tricks: int, spare: bool) -> State:
    """The state after a legal bid."""
    bids = state.bids
    at_seat = SET[len(bids)][seat]
    nxt = seat + 1
    if nxt == len(bids):
        nxt = 0
    return replace(
        state,
        bids=at_seat(bids, tricks),
        spares=at_seat(state.spares, spare),
        seat=nxt,
        bidding=nxt != state.start,
    )


def round_tricks(boards: Sequence[Sequence[int]], lead: int, hand_no: int, round_no: int,
                 tricks: list[int]) -> tuple[list[tuple[int, ...]], int]:
    """The resolution of a full round, as rules resolves it: the record's row
    of each location's trick, (hand, round, location, lead, winner, card of
    each seat), and the last winner; ``tricks`` (per seat) counts the tricks
    won. rules.trick_winner written out for 3 and 4 players."""
    rows: list[tuple[int, ...]] = []
    if len(boards) == 3:
        b0, b1, b2 = boards
        for loc in range(len(b0)):
            worth = STRENGTHS[boards[lead][loc] >> 4]
            c0, c1, c2 = b0[loc], b1[loc], b2[loc]
            x, y, z = worth[c0], worth[c1], worth[c2]
            winner = (0 if x > z else 2) if x > y else (1 if y > z else 2)
            rows.append((hand_no, round_no, loc, lead, winner, c0, c1, c2))
            tricks[winner] += 1
            lead = winner
    else:
        b0, b1, b2, b3 = boards
        for loc in range(len(b0)):
            worth = STRENGTHS[boards[lead][loc] >> 4]
            c0, c1, c2, c3 = b0[loc], b1[loc], b2[loc], b3[loc]
            winner, best = 0, worth[c0]
            if worth[c1] > best:
                winner, best = 1, worth[c1]
            if worth[c2] > best:
                winner, best = 2, worth[c2]
            if worth[c3] > best:
                winner = 3
            rows.append((hand_no, round_no, loc, lead, winner, c0, c1, c2, c3))
            tricks[winner] += 1
            lead = winner
    return rows, lead


def _resolve(state: State, hands: tuple[tuple[int, ...], ...],
             boards: tuple[tuple[int, ...], ...]) -> State:
    """Every board is full: the state rules' resolution gives (the tricks
    resolved here, the rest by :func:`rules.after_round` with the memoised deal)."""
    hand_no, round_no = state.hand_no, state.round_no
    tricks = list(state.tricks)
    rows, start = round_tricks(boards, state.start, hand_no, round_no, tricks)
    return after_round(state, hands, tricks, state.record + tuple(rows), start, dealt)


#: fast_play's reading of a card on a location: (card, location, suit, the
#: card's bit); BITS[card] is that bit and SUIT_BITS[suit] the bits of a suit.
BITS = tuple(1 << card for card in range(64))
SUIT_BITS = tuple(0xFFFF << (16 * suit) for suit in range(4))
PLAYS = {text: (card, loc, suit, BITS[card]) for text, (card, loc, suit) in PLACE_READINGS.items()}


def fast_play(state: State, texts: Sequence[str]) -> tuple[list[int], State]:
    """:func:`fast_apply` over a whole log at once: ``texts`` played in turn
    from ``state`` for as long as each is the canonical notation of a legal
    move. The seats that played them, one per text played, and the state
    after the last; fewer seats than texts when ``texts[len(seats)]`` is
    refused (the checked path then says why).

    The state after the last text is exactly :func:`fast_apply`'s (the tests
    compare the two move by move), but no state is built in between: the
    position lives in lists changed in place, and each hand in a bit set (bit
    ``card`` for each card held), which about halves the cost of a move. Whether
    each text was written by the player whose seat it lists is for the caller
    to check.

    >>> from .rules import setup
    >>> start = setup({"locations": 3}, ("ann", "bob", "cy"), "105")
    >>> seats, after = fast_play(start, ["6", "3+", "3", "B9-3", "13"])
    >>> one_by_one = start
    >>> for text in ["6", "3+", "3", "B9-3"]:
    ...     one_by_one = fast_apply(one_by_one, text)
    >>> seats, after == one_by_one
    ([0, 1, 2, 0], True)
    """
    n = len(state.players)
    locations = state.locations
    last = n * locations  # the placements of a round
    per_hand = HAND_CARDS // locations  # the rounds of a hand
    after = NEXT[n]
    seat, start, bidding = state.seat, state.start, state.bidding
    hand_no, round_no, placed = state.hand_no, state.round_no, state.placed
    hands = [sum(map(BITS.__getitem__, hand)) for hand in state.hands]
    boards = [list(board) for board in state.boards]
    follow = list(state.follow)
    bids, spares = list(state.bids), list(state.spares)
    tricks, scores = list(state.tricks), list(state.scores)
    record: list[tuple[int, ...]] = []
    results: list[tuple[int, ...]] = []
    seats: list[int] = []
    played = seats.append
    for text in texts:
        place = PLAYS.get(text)
        if place is None:
            bid = BID_READINGS.get(text)
            if bid is None or not bidding:  # not bidding: placing, or the game is over
                break
            bids[seat], spares[seat] = bid
            played(seat)
            seat = after[seat]
            bidding = seat != start  # every player has bid once: the start player places
            continue
        card, loc, suit, bit = place
        if bidding or seat < 0 or loc >= locations:
            break
        board = boards[seat]
        hand = hands[seat]
        if board[loc] >= 0 or not hand & bit:
            break
        setter = follow[loc]
        if setter < 0:
            follow[loc] = seat  # the first card on this location sets its follow suit
        else:
            lead = boards[setter][loc] >> 4
            if suit != lead and hand & SUIT_BITS[lead]:
                break  # the follow suit must be followed when held
        hands[seat] = hand ^ bit
        board[loc] = card
        played(seat)
        placed += 1
        if placed < last:
            seat = after[seat]
            continue
        # The round is full: as _resolve.
        rows, start = round_tricks(boards, start, hand_no, round_no, tricks)
        record += rows
        boards = [[-1] * locations for _ in range(n)]
        follow = [-1] * locations
        placed = 0
        round_no += 1
        seat = start
        if round_no < per_hand:
            continue
        scored = hand_results(hand_no, bids, spares, tricks)
        results += scored
        scores = [score + row[5] for score, row in zip(scores, scored)]
        hand_no += 1
        round_no = 0
        tricks, bids, spares = [0] * n, [-1] * n, [False] * n
        if hand_no == n:
            seat, bidding = -1, False
        else:
            hands = [sum(map(BITS.__getitem__, hand)) for hand in dealt(state.seed, n, hand_no)]
            bidding = True
    if not seats:
        return seats, state
    cards = DECKS[n]
    return seats, State(
        players=state.players,
        seed=state.seed,
        locations=locations,
        hand_no=hand_no,
        start=start,
        seat=seat,
        bidding=bidding,
        hands=tuple([tuple([c for c in cards if hand >> c & 1]) for hand in hands]),
        bids=tuple(bids),
        spares=tuple(spares),
        boards=tuple(map(tuple, boards)),
        follow=tuple(follow),
        round_no=round_no,
        placed=placed,
        tricks=tuple(tricks),
        scores=tuple(scores),
        record=state.record + tuple(record),
        results=state.results + tuple(results),
    )
