"""Atlas rules: the state, the deal, legal moves, playing a card, the score,
what each player sees, and a state consistent with what one saw. Rule clauses
are cited by the rule text's section headings ("Atlas: Play a Card A"; the
set-up steps by their numbers, "Atlas: Game Set Up 3"); every ruling is in
``notation/atlas.md``.

Sets of cards are bit masks (bit ``c`` for card ``c``): the board's face-up
and face-down cards, each hand, the cards carrying a prediction of Time or of
Place. So a Time or a Place is judged, and a play made, with a few integer
operations instead of walks over 32 places.

Everything here is checked: :func:`apply` says why a move is illegal. The
unchecked paths of validation and self-play are in :mod:`.fast`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import NamedTuple

import msgspec
from msgspec.structs import replace as _replace

from ...chance import Chance, shuffled
from ...engine import Outcome, Standing, Value
from ...errors import IllegalMoveError
from .cards import (
    ALL_MOVES, CARD_INDEX, CARD_TEXT, CARDS, DOWN, EMPTY, END_CLAUSE, MAX_BET, NUMBERS, PLACE,
    PLAYERS, SIDE_NAMES, TIME, UP, Move, card_words, clause, plural,
)  # fmt: skip

HAND_SIZE = 7  # Game Set Up 5
CHIPS = {2: 16, 3: 14, 4: 12}  # Game Set Up 2
REMOVED = {2: 2, 3: 1, 4: 2}  # Game Set Up 6


class Stack(NamedTuple):
    """Chips of one player on one card, all showing the same side."""

    card: int
    seat: int
    side: int
    chips: int


class State(msgspec.Struct, frozen=True, gc=False):
    players: tuple[str, ...]
    up: int  # the cards face up on the board: bit c for card c
    down: int  # the cards face down (flipped); a card not on the board is in neither
    stacks: tuple[Stack, ...]  # in the order they were placed; at most one per card
    on_time: int  # the cards carrying a stack that predicts Time (a mask)
    on_place: int  # the cards carrying a stack that predicts Place
    chips: tuple[int, ...]  # per seat, chips still in the player's possession
    held: tuple[int, ...]  # per seat, the cards in the player's hand (a mask)
    deck: tuple[int, ...]  # the draw pile, top card first
    removed: tuple[int, ...]  # returned to the box unseen (Game Set Up 6), sorted
    seat: int  # seat to play, -1 once every hand is empty
    last: int  # the card played last, -1 before the first play
    played: int  # cards played so far (the 4-player starting cards not counted)
    unscored: tuple[int, ...]  # per seat, chips taken off face-up cards at the end

    @property
    def hands(self) -> tuple[tuple[int, ...], ...]:
        """Per seat, the cards in the player's hand, sorted."""
        return tuple(cards_of(h) for h in self.held)

    @property
    def board(self) -> tuple[int, ...]:
        """The 32 places, card by card: EMPTY, UP or DOWN."""
        up, down = self.up, self.down
        return tuple(
            UP if up >> c & 1 else DOWN if down >> c & 1 else EMPTY for c in range(CARDS)
        )


def mask(cards: Iterable[int]) -> int:
    """The bit mask of some cards (card numbers)."""
    out = 0
    for c in cards:
        out |= 1 << c
    return out


def cards_of(bits: int) -> tuple[int, ...]:
    """The cards of a mask, in row order."""
    return tuple(c for c in range(CARDS) if bits >> c & 1)


# --- setup ---------------------------------------------------------------------------


def _in_game(n: int) -> list[int]:
    """The cards of the game in their starting order (Game Set Up 3): Dawn 1-8, Day
    1-8, Sunset 1-8, Night 1-8, without the four 8s for 2 and 3 players."""
    return [c for c in range(CARDS) if n == 4 or c % NUMBERS != NUMBERS - 1]


# The 8s, set aside with 2 and 3 players (Game Set Up 3).
_OUT_OF_GAME = {
    n: tuple(CARD_TEXT[c] for c in range(CARDS) if c not in _in_game(n)) for n in PLAYERS
}
_IN_GAME = {n: _in_game(n) for n in PLAYERS}


def starting_cards(seed: str) -> tuple[int, int]:
    """The two face-up cards of a 4-player game (Game Set Up 3).

    From the stream ``start``: a number below 32 picks the first card from the 32
    in starting order, a number below 31 the second from the 31 left (still in
    starting order); two cards of the same suit or number are put back and both
    drawn again, from the same stream.
    """
    chance = Chance(seed, "start")
    while True:
        first = chance.below(CARDS)
        second = chance.below(CARDS - 1)
        second += second >= first  # the 31 others, still in starting order
        if first // NUMBERS != second // NUMBERS and first % NUMBERS != second % NUMBERS:
            return first, second


def setup(params: Mapping[str, Value], players: tuple[str, ...], seed: str) -> State:
    # Game Set Up 3: with 4 players, two cards face up on the board first.
    return dealt(players, seed, starting_cards(seed) if len(players) == 4 else None)


def dealt(players: tuple[str, ...], seed: str, starting: tuple[int, int] | None) -> State:
    """The deal once the ``starting`` cards of a 4-player game are drawn
    (None with 2 and 3 players): Game Set Up 3-7."""
    n = len(players)
    up = 0
    cards = _IN_GAME[n]
    if starting is not None:
        first, second = starting
        up = 1 << first | 1 << second
        cards = cards.copy()
        cards.remove(first)
        cards.remove(second)
    # Game Set Up 5-7: shuffle, 7 cards each, then the cards removed unseen, then
    # the draw pile (empty with 4 players: 30 = 4 * 7 + 2).
    cards = shuffled(seed, "deck", cards)
    in_hands = HAND_SIZE * n
    held = tuple([mask(cards[k : k + HAND_SIZE]) for k in range(0, in_hands, HAND_SIZE)])
    cut = in_hands + REMOVED[n]
    return State(
        players, up, 0, (), 0, 0, (CHIPS[n],) * n, held, tuple(cards[cut:]),
        tuple(sorted(cards[in_hands:cut])), 0, -1, 0, (0,) * n,
    )  # fmt: skip


def to_move(state: State) -> int | None:
    seat = state.seat
    return None if seat < 0 else seat


# --- Time and Place (Explaining Time and Place, Play a Card) -------------------------------

#: For each card: its bit, its row's 8 bits, every bit below its row, and the
#: other three places of its column.
GEOMETRY = tuple(
    (1 << c, 0xFF << (c & 0x18), (1 << (c & 0x18)) - 1, 0x01010101 << (c & 7) & ~(1 << c))
    for c in range(CARDS)
)


def completes(up: int, down: int, card: int) -> tuple[int, int]:
    """What playing ``card`` completes on the board ``up``/``down``: the masks of
    the face-up cards of the Time and of the Place it forms, the card itself
    included (each 0 if none).

    Both are judged on the board as the card lands, before anything flips.
    A Time is the stretch of the card's row through it, face-down cards bridged
    and empty places ending it, when it holds at least 4 face-up cards. Only the
    stretch through the new card need be looked at: every other stretch was
    judged when its last card came, and flips only ever remove face-up cards.
    A Place is the card's column when all four cards are on the board and at
    most one is face down (the same argument: only the new card's column can
    have just become full).
    """
    bit, row, _, others = GEOMETRY[card]
    time = place = 0
    showing = up & row
    if showing.bit_count() >= 3:  # else the card cannot make 4 face up
        run = (showing | bit) & stretch(up, down, card)
        if run.bit_count() >= 4:
            time = run
    if (up | down) & others == others:
        flipped = down & others
        if not flipped & (flipped - 1):  # at most one face down
            place = up & others | bit
    return time, place


def stretch(up: int, down: int, card: int) -> int:
    """The places of the stretch of ``card``'s row through it, as the card
    lands on the board ``up``/``down`` (a mask): from the highest empty place
    below the card (or the row's start) to the lowest empty place above it
    (or the row's end), both left out, face-down cards bridging it."""
    bit, row, below_row, _ = GEOMETRY[card]
    occupied = (up | down | bit) & row
    above = occupied >> card
    end = (~above & (above + 1)).bit_length() + card - 1
    start = (~occupied & (bit - 1) | below_row).bit_length()
    return (1 << end) - (1 << start)


# --- moves ---------------------------------------------------------------------------------

# Each card's legal moves, in the order of ``legal``, by the chips the player
# may bet (0 to 5): the card alone, then Time with 1..k chips, then Place.
_CARD_MOVES: tuple[tuple[tuple[Move, ...], ...], ...] = tuple(
    tuple(
        (ALL_MOVES[11 * c],) + ALL_MOVES[11 * c + 1 : 11 * c + 1 + k]
        + ALL_MOVES[11 * c + 6 : 11 * c + 6 + k]
        for c in range(CARDS)
    )
    for k in range(MAX_BET + 1)
)  # fmt: skip


#: For each 8-bit mask of a row, the columns (0-7) it holds, in order.
_COLUMNS: list[tuple[int, ...]] = [()]
for _k in range(NUMBERS):
    _COLUMNS += [cols + (_k,) for cols in _COLUMNS]
#: For each card, the other three places of its column (as in GEOMETRY).
_OTHERS = tuple(g[3] for g in GEOMETRY)


def legal_moves(state: State) -> tuple[Move, ...]:
    seat = state.seat
    if seat < 0:
        return ()
    up = state.up
    down = state.down
    occupied = up | down
    alone = _CARD_MOVES[0]
    betting = _CARD_MOVES[min(MAX_BET, state.chips[seat])]
    others_of = _OTHERS
    moves: list[Move] = []
    hand = state.held[seat]
    # Row by row (a hand holds few cards of a row), completes() written out
    # as a yes or no (self-play lists the moves of every position): only a
    # row with 3 face-up cards can make a Time.
    for base in (0, 8, 16, 24):
        columns = _COLUMNS[hand >> base & 0xFF]
        if not columns:
            continue
        showing = up >> base & 0xFF
        timed = showing.bit_count() >= 3
        occupied_row = occupied >> base & 0xFF
        for col in columns:
            card = base + col
            if timed:
                bit = 1 << col
                stretch = occupied_row | bit
                above = stretch >> col
                end = (~above & (above + 1)).bit_length() + col - 1
                start = (~stretch & (bit - 1)).bit_length()
                if ((showing | bit) & ((1 << end) - (1 << start))).bit_count() >= 4:
                    moves += alone[card]
                    continue
            others = others_of[card]
            if occupied & others == others and not (f := down & others) & (f - 1):
                moves += alone[card]
            else:
                moves += betting[card]
    return tuple(moves)


def _illegal(reason: str, section: str) -> IllegalMoveError:
    return IllegalMoveError(reason, clause(section))


def _completed(time: int, place: int) -> str:
    return " and ".join(w for w, c in (("a Time", time), ("a Place", place)) if c)


def apply(state: State, move: Move) -> State:
    """Play a Card, then Draw a Card; play continues clockwise."""
    seat = state.seat
    if seat < 0:
        raise _illegal("the game is over: every hand is empty", "End of Game and Final Scoring")
    card, side, chips = move
    if not (0 <= card < CARDS and state.held[seat] >> card & 1):
        raise _not_held(state, card)
    time, place = completes(state.up, state.down, card)
    if side or chips:
        if time or place:
            raise _illegal(
                f"{card_words(card)} completes {_completed(time, place)}: "
                "no prediction may be placed on it",
                "Play a Card A",
            )
        if side not in (TIME, PLACE):
            raise _illegal("a prediction is for Time or for Place", "Play a Card B")
        if not 1 <= chips <= MAX_BET:
            raise _illegal(f"a prediction is 1 to {MAX_BET} chips, not {chips}", "Play a Card B")
        have = state.chips[seat]
        if chips > have:
            left = "no chips" if not have else f"only {plural(have, 'chip')}"
            raise _illegal(f"{state.players[seat]} has {left} left", "Play a Card B")
    bit = 1 << card
    up, down = state.up | bit, state.down
    stacks, on_time, on_place, supply = state.stacks, state.on_time, state.on_place, state.chips
    if side:
        # Play a Card B: chips from the player's supply, stacked on the card
        # played with the side predicted showing.
        supply = (*supply[:seat], supply[seat] - chips, *supply[seat + 1 :])
        stacks += (Stack(card, seat, side, chips),)
        if side == TIME:
            on_time |= bit
        else:
            on_place |= bit
    elif time or place:
        # Play a Card A: the completed cards flip; chips predicting what was
        # completed stay, as scored, and the others are discarded for good.
        flips = time | place
        up &= ~flips
        down |= flips
        wrong = on_time & place | on_place & time
        stacks = tuple(s for s in stacks if not wrong >> s.card & 1)
        on_time &= ~wrong
        on_place &= ~wrong
    # Draw a Card: the top card of the draw pile, automatically.
    hands = list(state.held)
    hands[seat] ^= bit
    deck = state.deck
    if deck:
        hands[seat] |= 1 << deck[0]
        deck = deck[1:]
    nxt = next_with_cards(hands, seat)
    after = State(
        state.players, up, down, stacks, on_time, on_place, supply, tuple(hands), deck,
        state.removed, nxt, card, state.played + 1, state.unscored,
    )  # fmt: skip
    return after if nxt >= 0 else ended(after)


def _not_held(state: State, card: int) -> IllegalMoveError:
    """Why the player to move cannot play ``card``, told from public facts only
    (ruling R17: the same words wherever the card is, unless it is public)."""
    if not 0 <= card < CARDS:
        return _illegal("there is no such card", "Play a Card")
    if (state.up | state.down) >> card & 1:
        return _illegal(f"{card_words(card)} is already on the board", "Play a Card")
    if len(state.players) < 4 and card % NUMBERS == NUMBERS - 1:
        return _illegal(
            f"the 8s are out of the game with {len(state.players)} players", "Game Set Up 3"
        )
    return _illegal(
        f"{state.players[state.seat]} does not hold {card_words(card)}", "Play a Card"
    )


def next_with_cards(hands: list[int], seat: int) -> int:
    """The seat after ``seat``, clockwise, that still holds a card; -1 if none
    does. A player with no card left is passed over (this cannot happen with
    the rule text's deal, see ruling R13)."""
    n = len(hands)
    for step in range(1, n + 1):
        if hands[(seat + step) % n]:
            return (seat + step) % n
    return -1


def ended(state: State) -> State:
    """The state of the last play (End of Game), every hand and so the draw
    pile empty: chips still on face-up cards are removed unscored."""
    up, down = state.up, state.down
    lost = [0] * len(state.held)
    for s in state.stacks:
        if up >> s.card & 1:
            lost[s.seat] += s.chips
    kept = tuple([s for s in state.stacks if down >> s.card & 1])
    return _replace(
        state, stacks=kept, on_time=state.on_time & down, on_place=state.on_place & down,
        deck=(), seat=-1, unscored=tuple(lost),
    )  # fmt: skip


# --- scoring (End of Game and Final Scoring) -------------------------------------------------


def _stacks_words(chips: Sequence[int]) -> str:
    k = len(chips)
    if k > 1:
        return f"{plural(k, 'stack')} ({' + '.join(map(str, chips))} = {plural(sum(chips), 'chip')})"
    return f"1 stack ({plural(chips[0], 'chip')})" if k else "no stack"


def _ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


# Validation scores every log it replays, and the same few stacks recur from
# game to game: each player's line is kept by their scored stacks' chips.
@lru_cache(maxsize=4096)
def _scored_line(chips: tuple[int, ...]) -> str:
    """A player's line of the details, after their name, for the chips of
    their stacks on face-down cards (in row order of the cards)."""
    points, stacks = sum(chips), len(chips)
    return (
        f": {_stacks_words(chips)} on face-down cards - {plural(points, 'point')} for chips + "
        f"{plural(stacks, 'point')} for stacks = {plural(points + stacks, 'point')}"
    )


def standing(state: State) -> Outcome:
    """1 point a chip and 1 a stack on face-down cards (correct predictions);
    ties to the most stacks; still tied, the place is shared (ruling R15)."""
    players = state.players
    n = len(players)
    # Per seat, the chips of each stack on a face-down card (scored) and on a
    # face-up card (riding), in row order of the cards.
    scored: list[list[int]] = [[] for _ in range(n)]
    riding: list[list[int]] = [[] for _ in range(n)]
    down = state.down
    for card, seat, _, chips in sorted(state.stacks):
        (scored if down >> card & 1 else riding)[seat].append(chips)
    rank = [(sum(chips) + len(chips), len(chips)) for chips in scored]
    # Most points; ties to the most stacks (a stable sort keeps seat order).
    order = sorted(range(n), key=rank.__getitem__, reverse=True)
    places = [1] * n
    for i in range(1, n):
        places[i] = places[i - 1] if rank[order[i]] == rank[order[i - 1]] else i + 1
    details = [players[p] + _scored_line(tuple(scored[p])) for p in range(n)]
    if state.seat < 0:
        unscored = state.unscored
        if any(unscored):
            lost = ", ".join([f"{players[p]} {unscored[p]}" for p in range(n) if unscored[p]])
            details.append(f"chips left on face-up cards at the end, removed unscored: {lost}")
    else:
        for p in range(n):
            if riding[p]:
                details[p] += f"; {_stacks_words(riding[p])} still on face-up cards"
    for i in range(n - 1):
        hi, lo = order[i], order[i + 1]
        score, stacks = rank[hi]
        low_score, low_stacks = rank[lo]
        if score != low_score:
            continue
        if stacks != low_stacks:
            details.append(
                f"{players[hi]} and {players[lo]} both have {plural(score, 'point')}; "
                f"{players[hi]} ranks higher with more stacks ({stacks} to {low_stacks}) "
                f"({END_CLAUSE})"
            )
        else:
            details.append(
                f"{players[hi]} and {players[lo]} both have {plural(score, 'point')} and "
                f"{plural(stacks, 'stack')}: they share {_ordinal(places[i])} place "
                f"({END_CLAUSE})"
            )
    standings = tuple(
        [Standing(player=players[p], score=rank[p][0], place=place) for p, place in zip(order, places)]
    )
    winners = tuple([players[p] for p in order[: places.count(1)]])
    return Outcome(standings=standings, winners=winners, details=tuple(details))


def outcome(state: State) -> Outcome | None:
    return standing(state) if state.seat < 0 else None


# --- views ---------------------------------------------------------------------------------


class StackView(msgspec.Struct, frozen=True, kw_only=True):
    """A stack of chips as everybody sees it."""

    card: str  # "3D"
    owner: str
    side: str  # "Time" or "Place"
    chips: int
    scored: bool  # on a face-down card: a correct prediction


class View(msgspec.Struct, frozen=True, kw_only=True):
    """What one player (or a spectator) sees: the board, every stack of chips,
    every player's chips, and the sizes of the hands and of the draw pile, but
    only the viewer's own hand; never the order of the draw pile or the cards
    removed unseen."""

    viewer: str | None
    players: tuple[str, ...]
    to_move: str | None
    face_up: tuple[str, ...]  # cards showing, in row order
    face_down: tuple[str, ...]  # flipped cards, in row order
    out_of_game: tuple[str, ...]  # the 8s, with 2 and 3 players
    last: str | None  # the card played last
    stacks: tuple[StackView, ...]  # in row order of their cards
    chips: tuple[int, ...]  # per seat, chips in the player's possession
    hand: tuple[str, ...] | None  # the viewer's own hand; None for a spectator
    hand_sizes: tuple[int, ...]
    draw_pile: int
    removed: int  # cards returned to the box unseen
    played: int


def view(state: State, seat: int | None) -> View:
    n = len(state.players)
    up, down = state.up, state.down
    return View(
        viewer=None if seat is None else state.players[seat],
        players=state.players,
        to_move=None if state.seat < 0 else state.players[state.seat],
        face_up=tuple(CARD_TEXT[c] for c in range(CARDS) if up >> c & 1),
        face_down=tuple(CARD_TEXT[c] for c in range(CARDS) if down >> c & 1),
        out_of_game=_OUT_OF_GAME[n],
        last=None if state.last < 0 else CARD_TEXT[state.last],
        stacks=tuple(
            StackView(
                card=CARD_TEXT[s.card],
                owner=state.players[s.seat],
                side=SIDE_NAMES[s.side],
                chips=s.chips,
                scored=bool(down >> s.card & 1),
            )
            for s in sorted(state.stacks)
        ),
        chips=state.chips,
        hand=None if seat is None else tuple(CARD_TEXT[c] for c in cards_of(state.held[seat])),
        hand_sizes=tuple(h.bit_count() for h in state.held),
        draw_pile=len(state.deck),
        removed=len(state.removed),
        played=state.played,
    )


def redeal(state: State, seat: int | None, seed: str) -> State:
    """Everything ``seat`` cannot see dealt again: the other hands, the draw pile
    and the removed cards, shuffled together with the stream ``redeal`` and
    dealt back in the same sizes."""
    hidden = [p for p in range(len(state.players)) if p != seat]
    pool = [c for p in hidden for c in cards_of(state.held[p])] + [*state.deck, *state.removed]
    pool = shuffled(seed, "redeal", sorted(pool))
    held = list(state.held)
    at = 0
    for p in hidden:
        size = held[p].bit_count()
        held[p] = mask(pool[at : at + size])
        at += size
    deck = tuple(pool[at : at + len(state.deck)])
    at += len(state.deck)
    return _replace(state, held=tuple(held), deck=deck, removed=tuple(sorted(pool[at:])))


def consistent(view: View, params: Mapping[str, Value], seed: str) -> State:
    """A state that ``view`` shows exactly: the cards its viewer cannot see
    (the other hands, the draw pile, the cards removed unseen) dealt from
    ``seed`` in the sizes the view gives. The chips taken off face-up cards
    at the end are not in a view: none here.

    >>> start = setup({}, ("ann", "bob"), "doc")
    >>> view(consistent(view(start, 1), {}, "any"), 1) == view(start, 1)
    True
    """
    players = tuple(view.players)
    n = len(players)
    seat = None if view.viewer is None else players.index(view.viewer)
    up = mask(CARD_INDEX[c] for c in view.face_up)
    down = mask(CARD_INDEX[c] for c in view.face_down)
    own = mask(CARD_INDEX[c] for c in view.hand or ())
    seen = up | down | own
    pool = shuffled(seed, "consistent", [c for c in _IN_GAME[n] if not seen >> c & 1])
    held = []
    at = 0
    for p, size in enumerate(view.hand_sizes):
        if p == seat:
            held.append(own)
        else:
            held.append(mask(pool[at : at + size]))
            at += size
    deck = tuple(pool[at : at + view.draw_pile])
    stacks = tuple(
        Stack(CARD_INDEX[s.card], players.index(s.owner), SIDE_NAMES.index(s.side), s.chips)
        for s in view.stacks
    )
    return State(
        players, up, down, stacks, mask(s.card for s in stacks if s.side == TIME),
        mask(s.card for s in stacks if s.side == PLACE), tuple(view.chips), tuple(held), deck,
        tuple(sorted(pool[at + view.draw_pile :])), -1 if view.to_move is None else players.index(view.to_move),
        -1 if view.last is None else CARD_INDEX[view.last], view.played, (0,) * n,
    )  # fmt: skip
