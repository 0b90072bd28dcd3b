"""The rules of Time Palatrix: the state, the deal, the bids, placing cards,
resolving the tricks, scoring, and what each player may see.

Rule clauses are cited by the rule text's section headings ("Time Palatrix:
Trick Placement"); every ruling is in ``notation/time-palatrix.md``. The
representation of cards and moves is in :mod:`.cards`; the unchecked paths
that replay and self-play take for speed are in :mod:`.fast`.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Mapping, Sequence
from itertools import groupby
from operator import itemgetter

import msgspec
from msgspec.structs import replace

from ...chance import Chance, shuffled
from ...engine import Outcome, Standing, Value
from ...errors import AmbiguousMoveError, IllegalMoveError
from .cards import (
    BIDDING, BIDS, CARD_NAMES, CARDS, GAME_FLOW, HAND_CARDS, MAX_BID, NEXT_HAND, PAWNS, PINK,
    PLACEMENT, PLACES, PREPARATION, SUIT_NAMES, VARIANT, Bid, Move, Place, bid_text, location_name,
)  # fmt: skip


class State(msgspec.Struct, frozen=True, gc=False):
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


# --- setup and the deal ------------------------------------------------------------------


def ranks(players: int) -> int:
    """PREPARATION: with 3 players the 10 to 12 of each suit go back in the box."""
    return 9 if players == 3 else 12


def deck(players: int) -> tuple[int, ...]:
    """Every card of the game in the deal's starting order: P1..P12, O1.., G1.., B1.."""
    top = ranks(players)
    return tuple(s * 16 + r for s in range(4) for r in range(1, top + 1))


def deal(seed: str, players: int, hand_no: int) -> tuple[tuple[int, ...], ...]:
    """BIDDING: "Shuffle the cards well and deal 12 to each player". The deck in
    its starting order is shuffled with the label ``deal/<hand>`` (1-based) and
    seat i takes the cards at positions 12i to 12i + 11."""
    cards = shuffled(seed, f"deal/{hand_no + 1}", deck(players))
    return tuple(
        tuple(sorted(cards[HAND_CARDS * seat : HAND_CARDS * (seat + 1)])) for seat in range(players)
    )


def rounds(locations: int) -> int:
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
        hands=deal(seed, n, 0),
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


# --- legal moves -------------------------------------------------------------------------


def _holds(hand: tuple[int, ...], suit: int) -> bool:
    """Whether a (sorted) hand holds a card of ``suit``."""
    i = bisect_left(hand, suit << 4)
    return i < len(hand) and hand[i] >> 4 == suit


def _must_follow(state: State, hand: tuple[int, ...], location: int) -> int:
    """TRICK PLACEMENT: the suit a card placed on ``location`` must be, or -1 for
    any. "If another player has previously played a card on the color where
    you'd like to play a card, then you must play a card of the same suit as
    the follow color if you can; otherwise, any card may be played." """
    setter = state.follow[location]
    if setter < 0:
        return -1
    suit = state.boards[setter][location] >> 4
    return suit if _holds(hand, suit) else -1


def locations_for(state: State, card: int) -> list[int]:
    """The empty locations of the player to move where ``card`` may go."""
    hand = state.hands[state.seat]
    board = state.boards[state.seat]
    return [
        loc
        for loc in range(state.locations)
        if board[loc] < 0 and _must_follow(state, hand, loc) in (-1, card >> 4)
    ]


def legal_moves(state: State) -> tuple[Move, ...]:
    """Every bid while the bids are made; then each card of the hand on each
    empty location where it may go, by card (suits P, O, G, B, then rank) and
    then by location."""
    seat = state.seat
    if seat < 0:
        return ()
    if state.bidding:
        return BIDS
    hand = state.hands[seat]
    boards = state.boards
    board = boards[seat]
    # Per suit, the locations a card of that suit may go to: _must_follow
    # written out, once per location (self-play asks at every move).
    open_to: tuple[list[int], ...] = ([], [], [], [])
    for loc, setter in enumerate(state.follow):
        if board[loc] < 0:
            if setter >= 0:
                suit = boards[setter][loc] >> 4
                if _holds(hand, suit):
                    open_to[suit].append(loc)
                    continue
            for where in open_to:
                where.append(loc)
    return tuple([PLACES[card][loc] for card in hand for loc in open_to[card >> 4]])


# --- moves -------------------------------------------------------------------------------


def apply(state: State, move: Move) -> State:
    seat = state.seat
    if seat < 0:
        n = len(state.players)
        raise IllegalMoveError(f"the game is over: all {n} hands have been played", NEXT_HAND)
    if isinstance(move, Bid):
        return _apply_bid(state, move)
    return _apply_place(state, move)


def _apply_bid(state: State, move: Bid) -> State:
    if not state.bidding:
        raise IllegalMoveError(
            "the bids of this hand are made; now place a card, e.g. G7-2", GAME_FLOW
        )
    tricks, spare = move
    if tricks > MAX_BID:
        raise IllegalMoveError(
            f"a bid is 0 to {MAX_BID} tricks: a hand has only {HAND_CARDS} tricks", BIDDING
        )
    seat = state.seat
    nxt = (seat + 1) % len(state.players)
    # Everyone bids once, clockwise from the start player; then the start
    # player places the first card.
    return replace(
        state,
        bids=_put(state.bids, seat, tricks),
        spares=_put(state.spares, seat, spare),
        seat=nxt,
        bidding=nxt != state.start,
    )


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
        if card & 15 > ranks(len(state.players)):
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
            f"{location_name(loc)} of {state.players[seat]}'s board already holds "
            f"{CARD_NAMES[board[loc]]}",
            PLACEMENT,
        )
    setter = state.follow[loc]
    if setter >= 0:
        suit = state.boards[setter][loc] >> 4
        if card >> 4 != suit and _holds(hand, suit):
            raise IllegalMoveError(
                f"the follow suit of {location_name(loc)} is {SUIT_NAMES[suit]} "
                f"(set by {state.players[setter]}'s {CARD_NAMES[state.boards[setter][loc]]}) "
                f"and {state.players[seat]} holds {SUIT_NAMES[suit]}: follow it there "
                "or place on another empty location",
                PLACEMENT,
            )
    hands = _put(state.hands, seat, tuple(c for c in hand if c != card))
    boards = _put(state.boards, seat, _put(board, loc, card))
    # The first card on a location this round takes its pawn: it sets the follow suit.
    follow = _put(state.follow, loc, seat) if setter < 0 else state.follow
    placed = state.placed + 1
    if placed < len(hands) * state.locations:
        return replace(state, hands=hands, boards=boards, follow=follow, placed=placed,
                       seat=(seat + 1) % len(hands))
    return _resolve(state, hands, boards)


def _put(items: tuple, i: int, value: object) -> tuple:
    """``items`` with item ``i`` replaced by ``value``."""
    return items[:i] + (value,) + items[i + 1 :]


def _only_location(state: State, card: int) -> int:
    """The location of a card typed without one: the only one where it may go."""
    where = locations_for(state, card)
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


# --- resolving the tricks ------------------------------------------------------------------


def strength(card: int, lead_suit: int) -> int:
    """TRICK RESOLUTION: what a card is worth in a trick whose lead player played
    ``lead_suit``: a trump more than any other card, then the lead suit by
    rank, any other suit nothing."""
    suit = card >> 4
    if suit == PINK:
        return 64 + card
    return card if suit == lead_suit else 0


def trick_winner(cards: tuple[int, ...], lead: int) -> int:
    """TRICK RESOLUTION: the highest trump (pink) wins; if none was played, the
    highest card of the suit the lead player played. The follow suit of the
    location plays no role. (Every card is unique: there is never a tie.)"""
    lead_suit = cards[lead] >> 4
    return cards.index(max(cards, key=lambda card: strength(card, lead_suit)))


def _resolve(state: State, hands: tuple[tuple[int, ...], ...],
             boards: tuple[tuple[int, ...], ...]) -> State:
    """Every board is full: resolve the tricks location by location. The start
    player leads the first; each trick's winner leads the next; the last
    trick's winner becomes the start player (TRICK RESOLUTION)."""
    hand_no, round_no, lead = state.hand_no, state.round_no, state.start
    tricks = list(state.tricks)
    rows = []
    for loc in range(state.locations):
        cards = tuple(board[loc] for board in boards)
        winner = trick_winner(cards, lead)
        rows.append((hand_no, round_no, loc, lead, winner, *cards))
        tricks[winner] += 1
        lead = winner
    return after_round(state, hands, tricks, state.record + tuple(rows), lead)


def after_round(state: State, hands: tuple[tuple[int, ...], ...], tricks: list[int],
                record: tuple[tuple[int, ...], ...], lead: int,
                deal_hand: Callable[[str, int, int], tuple[tuple[int, ...], ...]] = deal) -> State:
    """The state once a round's tricks are resolved (``tricks`` won so far
    this hand, ``record`` with the round's rows, ``lead`` the last trick's
    winner): the next round, or the hand scored and the next hand dealt (by
    ``deal_hand``, :func:`deal` or a memo of it), or the end of the game."""
    n = len(hands)
    hand_no, round_no = state.hand_no, state.round_no + 1
    empty_boards = ((-1,) * state.locations,) * n
    if round_no < rounds(state.locations):
        return replace(
            state,
            hands=hands,
            boards=empty_boards,
            follow=(-1,) * state.locations,
            round_no=round_no,
            placed=0,
            tricks=tuple(tricks),
            record=record,
            start=lead,
            seat=lead,
        )
    # SCORE CALCULATION, then the next hand (or the end of the game).
    scored = hand_results(hand_no, state.bids, state.spares, tricks)
    scores = tuple(score + row[5] for score, row in zip(state.scores, scored))
    hand_no += 1
    over = hand_no == n
    return replace(
        state,
        hand_no=hand_no,
        start=lead,
        seat=-1 if over else lead,
        bidding=not over,
        hands=hands if over else deal_hand(state.seed, n, hand_no),
        bids=(-1,) * n,
        spares=(False,) * n,
        boards=empty_boards,
        follow=(-1,) * state.locations,
        round_no=0,
        placed=0,
        tricks=(0,) * n,
        scores=scores,
        record=record,
        results=state.results + tuple(scored),
    )


def hand_points(bid: int, spare: bool, tricks: int) -> int:
    """SCORE CALCULATION: 2 a trick for an exact bid without the spare chip; 1 a
    trick for taking the bid or one more with it; nothing otherwise."""
    if spare:
        return tricks if tricks in (bid, bid + 1) else 0
    return 2 * tricks if tricks == bid else 0


def hand_results(hand_no: int, bids: Sequence[int], spares: Sequence[bool],
                 tricks: Sequence[int]) -> list[tuple[int, ...]]:
    """SCORE CALCULATION of a hand: the results' row of each seat, (hand,
    seat, bid, spare chip, tricks, points)."""
    return [
        (hand_no, p, bid, int(spare), took, hand_points(bid, spare, took))
        for p, (bid, spare, took) in enumerate(zip(bids, spares, tricks))
    ]


# --- scoring -----------------------------------------------------------------------------


def _s(count: int, word: str) -> str:
    return f"{count} {word}{'s' * (count != 1)}"


def trick_reason(players: tuple[str, ...], cards: tuple[int, ...], lead: int, winner: int) -> str:
    """Why the winner of a trick won it, in words."""
    won = cards[winner]
    if won >> 4 == PINK:
        return f"{CARD_NAMES[won]}, the highest trump"
    who = "they" if winner == lead else players[lead]
    return f"{CARD_NAMES[won]}, the highest {SUIT_NAMES[won >> 4]}, the suit {who} led"


# The words of the details that do not depend on the players, written once:
# a trick's heading by (hand, round, location, locations) and why a card won.
_HEADINGS = {
    (hand, rnd, loc, locations): (
        f"hand {hand + 1}, trick {rnd * locations + loc + 1} "
        f"(round {rnd + 1}, location {loc + 1}, {PAWNS[loc]}): "
    )
    for locations in (3, 4)
    for hand in range(4)
    for rnd in range(HAND_CARDS // locations)
    for loc in range(locations)
}
_TRUMP_WINS = {c: f"{name}, the highest trump" for c, name in CARD_NAMES.items()}
_SUIT_WINS = {c: f"{name}, the highest {SUIT_NAMES[c >> 4]}, the suit " for c, name in CARD_NAMES.items()}


_NAMES = tuple(CARD_NAMES.get(c, "") for c in range(64))  # a card's name by its number
# _OTHERS[n][lead]: the other seats of a trick in the order they follow the lead.
_OTHERS = {n: tuple(tuple((lead + i) % n for i in range(1, n)) for lead in range(n)) for n in (3, 4)}


def _trick_lines(state: State, rows: tuple[tuple[int, ...], ...]) -> list[str]:
    """The tricks of the record ``rows`` in words: who led what, every card,
    who won and why. (The details of a finished game are rebuilt at every
    validation, so this is written for speed: one string a line.)"""
    players = state.players
    locations = state.locations
    others = _OTHERS[len(players)]
    three = len(players) == 3
    names = _NAMES
    out = []
    for row in rows:
        lead, winner = row[3], row[4]
        cards = row[5:]
        won = cards[winner]
        if won >> 4 == PINK:
            why = _TRUMP_WINS[won]
        else:
            why = f"{_SUIT_WINS[won]}{'they' if winner == lead else players[lead]} led"
        if three:
            a, b = others[lead]
            then = f"{players[a]} {names[cards[a]]}, {players[b]} {names[cards[b]]}"
        else:
            a, b, c = others[lead]
            then = (
                f"{players[a]} {names[cards[a]]}, {players[b]} {names[cards[b]]}, "
                f"{players[c]} {names[cards[c]]}"
            )
        out.append(
            f"{_HEADINGS[row[0], row[1], row[2], locations]}{players[lead]} led "
            f"{names[cards[lead]]}, then {then}; {players[winner]} wins with {why}"
        )
    return out


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


def _scored(bid: int, spare: bool, tricks: int) -> str:
    return (
        f"bid {bid_text(bid, spare)} and took {_s(tricks, 'trick')} - "
        f"{score_reason(bid, spare, tricks)}"
    )


# Every scoring of a hand in words, by (bid, spare chip, tricks taken).
_SCORED: dict[tuple[int, int, int], str] = {
    (bid, spare, tricks): _scored(bid, spare, tricks)
    for bid in range(MAX_BID + 1)
    for spare in (False, True)
    for tricks in range(HAND_CARDS + 1)
}


def _ordinal(k: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(k, f"{k}th")


_HAND = itemgetter(0)  # the hand of a record or a results row


def standing(state: State) -> Outcome:
    players = state.players
    n = len(players)
    over = state.seat < 0
    scores = state.scores
    seats = sorted(range(n), key=scores.__getitem__, reverse=True)  # stable: ties in seat order
    places: dict[int, int] = {}
    for i, p in enumerate(seats):
        # Tied players share a place; the next place skips as many as shared it.
        places[p] = places[seats[i - 1]] if i and scores[p] == scores[seats[i - 1]] else i + 1
    details: list[str] = []
    # The record and the results are in the order of the hands.
    results = state.results
    tricks_of = {hand: tuple(rows) for hand, rows in groupby(state.record, _HAND)} if over else {}
    scored_of = {hand: tuple(rows) for hand, rows in groupby(results, _HAND)}
    for hand in range(state.hand_no):
        if over:
            details += _trick_lines(state, tricks_of.get(hand, ()))
        for _, seat, bid, spare, tricks, _ in scored_of.get(hand, ()):
            details.append(f"hand {hand + 1}: {players[seat]} {_SCORED[bid, spare, tricks]}")
    if over:
        won = [0] * n
        for row in results:
            won[row[1]] += row[4]
        details.append(
            "tricks won over the game (information only): "
            + ", ".join(f"{players[p]} {won[p]}" for p in range(n))
        )
        groups: dict[int, list[int]] = {}
        for p in seats:
            groups.setdefault(scores[p], []).append(p)
        for score, group in groups.items():
            if len(group) > 1:
                names = ", ".join(players[p] for p in group[:-1])
                details.append(
                    f"{names} and {players[group[-1]]} tie on {_s(score, 'point')} and "
                    f"share {_ordinal(places[group[0]])} place: a tie is not broken ({NEXT_HAND})"
                )
    else:
        bids = ", ".join(
            f"{players[p]} "
            + ("-" if state.bids[p] < 0 else bid_text(state.bids[p], state.spares[p]))
            for p in range(n)
        )
        took = ", ".join(f"{players[p]} {state.tricks[p]}" for p in range(n))
        details.append(f"hand {state.hand_no + 1} of {n} in play: bids {bids}; tricks {took}")
    return Outcome(
        standings=tuple(
            Standing(player=players[p], score=scores[p], place=places[p]) for p in seats
        ),
        winners=tuple(players[p] for p in seats if over and places[p] == 1),
        details=tuple(details),
    )


def outcome(state: State) -> Outcome | None:
    return standing(state) if state.seat < 0 else None


# --- views -----------------------------------------------------------------------------


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
            bids=tuple(bid_text(r[2], bool(r[3])) for r in rows),
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
        rounds=rounds(state.locations),
        phase="over" if over else "bidding" if state.bidding else "placement",
        start_player=state.players[state.start],
        to_move=None if over else state.players[state.seat],
        bids=tuple(
            None if b < 0 else bid_text(b, s) for b, s in zip(state.bids, state.spares)
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


def consistent(v: View, params: Mapping[str, Value], seed: str) -> State:
    """A state ``v`` could have been cut from: what the view shows as it is,
    and the hands the viewer cannot see dealt from ``seed`` out of the cards
    of this hand that the view does not show (a spectator sees no hand).
    Tricks of earlier hands are not in a view: the state's record holds
    only those the view shows; later hands are dealt from ``seed``."""
    players = v.players
    n = len(players)
    seat = None if v.viewer is None else players.index(v.viewer)
    over = v.phase == "over"
    hand_no = v.hand if over else v.hand - 1
    boards = tuple(tuple(-1 if c is None else CARDS[c] for c in board) for board in v.boards)
    record = tuple(
        (t.hand - 1, t.round - 1, t.location - 1, players.index(t.lead),
         players.index(t.winner), *(CARDS[c] for c in t.cards))
        for t in v.tricks_played
    )
    mine = () if v.my_cards is None else tuple(sorted(CARDS[c] for c in v.my_cards))
    # Every card is dealt at the start of a hand: those the view does not show
    # are in the hands it does not show.
    shown = set(mine) | {c for board in boards for c in board if c >= 0}
    shown |= {c for row in record if row[0] == hand_no for c in row[5:]}
    pool = shuffled(seed, "consistent", [c for c in deck(n) if c not in shown])
    hands = []
    for p, count in enumerate(v.cards_in_hand):
        if p == seat:
            hands.append(mine)
        else:
            hands.append(tuple(sorted(pool[:count])))
            pool = pool[count:]
    bids = tuple(-1 if b is None else int(b.rstrip("+")) for b in v.bids)
    return State(
        players=players,
        seed=seed,
        locations=v.locations,
        hand_no=hand_no,
        start=players.index(v.start_player),
        seat=-1 if v.to_move is None else players.index(v.to_move),
        bidding=v.phase == "bidding",
        hands=tuple(hands),
        bids=bids,
        spares=tuple(b is not None and b.endswith("+") for b in v.bids),
        boards=boards,
        follow=tuple(-1 if p is None else players.index(p) for p in v.follow_set_by),
        round_no=v.round - 1 if v.phase == "placement" else 0,
        placed=sum(c >= 0 for board in boards for c in board),
        tricks=v.tricks,
        scores=v.scores,
        record=record,
        results=tuple(
            (r.hand - 1, p, int(r.bids[p].rstrip("+")), int(r.bids[p].endswith("+")),
             r.tricks[p], r.points[p])
            for r in v.results
            for p in range(n)
        ),
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
    return replace(state, hands=tuple(hands))


