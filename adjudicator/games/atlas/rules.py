"""Atlas rules: the state, the deal, legal moves, playing a card, the score
and what each player sees. Rule clauses are cited by the rule text's section
headings ("Atlas: Play a Card A"; the set-up steps by their numbers, "Atlas:
Game Set Up 3"); every ruling is in ``notation/atlas.md``.

Sets of cards are bit masks (bit ``c`` for card ``c``): the board's face-up
and face-down cards, each hand, the cards carrying a prediction of Time or of
Place. So a Time or a Place is judged, and a play made, with a few integer
operations instead of walks over 32 places. Validation replays every move of
every log, so :func:`fast_apply` (the text of a move to the next state) does
only what a play needs; :func:`apply` runs the very same code and, when it
refuses, works out why; :func:`fast_play` plays a whole log's texts at once
and builds only the last state. The deal, also made for every log, is
:func:`chance.shuffled`, which reads the seed's stream in blocks.
"""

from __future__ import annotations

import struct
from collections.abc import Iterable, Mapping, Sequence
from hashlib import sha256
from typing import NamedTuple

import msgspec
from msgspec.structs import replace as _replace

from ...chance import DOMAIN, Chance, shuffled
from ...engine import Outcome, Standing, Value
from ...errors import IllegalMoveError
from .cards import (
    ALL_MOVES, CARD_TEXT, CARDS, DOWN, EMPTY, END_CLAUSE, MAX_BET, NUMBERS, PLACE, PLAYERS,
    SIDE_NAMES, TIME, UP, Move, card_words, clause as _clause, plural as _plural,
)  # fmt: skip
from .notation import CANONICAL

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


def _starting_cards(seed: str) -> tuple[int, int]:
    """starting_cards(seed), read from the stream's first block at once (the
    tests compare the two): four draws, enough for 99 deals in 100."""
    prefix = DOMAIN + b"\x00" + seed.encode("utf-8") + b"\x00start\x00"
    words = _BLOCK.unpack(sha256(prefix + bytes(8)).digest())
    for k in range(0, 8, 2):
        if words[k + 1] >= _LIMIT[CARDS - 1]:
            break  # a rejected word (32 divides 2**32: the first never is)
        first = words[k] % CARDS
        second = words[k + 1] % (CARDS - 1)
        second += second >= first
        if first // NUMBERS != second // NUMBERS and first % NUMBERS != second % NUMBERS:
            return first, second
    return starting_cards(seed)


_BITS = tuple(1 << c for c in range(CARDS))
_WORD = 1 << 32
_LIMIT = tuple(_WORD - _WORD % n if n else 0 for n in range(CARDS + 1))
_BLOCK = struct.Struct(">8I")
def setup(params: Mapping[str, Value], players: tuple[str, ...], seed: str) -> State:
    n = len(players)
    up = 0
    cards = _IN_GAME[n]
    if n == 4:
        first, second = _starting_cards(seed)
        up = 1 << first | 1 << second
        cards = cards.copy()
        cards.remove(first)
        cards.remove(second)
    # Game Set Up 5-7: shuffle, 7 cards each, then the cards removed unseen, then
    # the draw pile (empty with 4 players: 30 = 4 * 7 + 2).
    cards = shuffled(seed, "deck", cards)
    dealt = HAND_SIZE * n
    bits = _BITS.__getitem__
    held = tuple([sum(map(bits, cards[k : k + HAND_SIZE])) for k in range(0, dealt, HAND_SIZE)])
    cut = dealt + REMOVED[n]
    return State(
        players, up, 0, (), 0, 0, (CHIPS[n],) * n, held, tuple(cards[cut:]),
        tuple(sorted(cards[dealt:cut])), 0, -1, 0, (0,) * n,
    )  # fmt: skip


def to_move(state: State) -> int | None:
    seat = state.seat
    return None if seat < 0 else seat


# --- Time and Place (Explaining Time and Place, Play a Card) -------------------------------

#: For each card: its bit, its row's 8 bits, every bit below its row, and the
#: other three places of its column.
_GEOMETRY = tuple(
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
    bit, row, below_row, others = _GEOMETRY[card]
    time = place = 0
    showing = up & row
    if showing.bit_count() >= 3:  # else the card cannot make 4 face up
        occupied = (up | down | bit) & row
        # The stretch: from the highest empty place below the card (or the
        # row's start) to the lowest empty place above it (or the row's end).
        above = occupied >> card
        end = (~above & (above + 1)).bit_length() + card - 1
        start = (~occupied & (bit - 1) | below_row).bit_length()
        run = (showing | bit) & ((1 << end) - (1 << start))
        if run.bit_count() >= 4:
            time = run
    if (up | down) & others == others:
        flipped = down & others
        if not flipped & (flipped - 1):  # at most one face down
            place = up & others | bit
    return time, place


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
#: For each card, the other three places of its column (as in _GEOMETRY).
_OTHERS = tuple(g[3] for g in _GEOMETRY)


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
    # (as in _advance) as a yes or no: only a row with 3 face-up cards can
    # make a Time.
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
    return IllegalMoveError(reason, _clause(section))


def _not_held(state: State, card: int) -> IllegalMoveError:
    """Why the player to move cannot play ``card``, told from public facts only."""
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


def _completed(time: int, place: int) -> str:
    return " and ".join(w for w, c in (("a Time", time), ("a Place", place)) if c)


def apply(state: State, move: Move) -> State:
    after = _advance(state, move, _BY_MOVE)
    if after is None:
        raise _refusal(state, move)
    return after


def _refusal(state: State, move: Move) -> IllegalMoveError:
    """Why ``move`` is not legal in ``state``: the first rule it breaks."""
    seat = state.seat
    if seat < 0:
        return _illegal("the game is over: every hand is empty", "End of Game and Final Scoring")
    card, side, chips = move
    if not (0 <= card < CARDS and state.held[seat] >> card & 1):
        return _not_held(state, card)
    time, place = completes(state.up, state.down, card)
    if time or place:
        return _illegal(
            f"{card_words(card)} completes {_completed(time, place)}: "
            "no prediction may be placed on it",
            "Play a Card A",
        )
    if side not in (TIME, PLACE):
        return _illegal("a prediction is for Time or for Place", "Play a Card B")
    if not 1 <= chips <= MAX_BET:
        return _illegal(f"a prediction is 1 to {MAX_BET} chips, not {chips}", "Play a Card B")
    have = state.chips[seat]
    left = "no chips" if not have else f"only {have} chip{'s' * (have != 1)}"
    return _illegal(f"{state.players[seat]} has {left} left", "Play a Card B")


class _Entry(NamedTuple):
    """What playing one move needs to know of it, worked out once."""

    card: int
    bit: int  # 1 << card
    side: int  # of the prediction: NONE, TIME or PLACE
    chips: int  # of the prediction, 0 if none
    stacks: tuple[Stack, ...]  # the prediction's stack, by seat; () if none
    row: int  # the 8 bits of the card's row (as in _GEOMETRY)
    below_row: int  # every bit below the card's row
    others: int  # the other three places of the card's column


def _entry(move: Move) -> _Entry:
    card, side, chips = move
    stacks = tuple(Stack(card, s, side, chips) for s in range(max(PLAYERS))) if side else ()
    return _Entry(card, 1 << card, side, chips, stacks, *_GEOMETRY[card][1:])


#: Every move that can be legal, by its canonical spelling and by its Move
#: (352 of each, made once): the fast and the checked path share them.
_BY_TEXT: dict[str, _Entry] = {text: _entry(move) for text, move in CANONICAL.items()}
_BY_MOVE: dict[Move, _Entry] = {move: _BY_TEXT[text] for text, move in CANONICAL.items()}


def _advance(
    state: State, key: str | Move, table: Mapping[object, _Entry] = _BY_TEXT
) -> State | None:
    """The state after the move ``key`` of ``table`` if it is legal here, else None.

    This is :func:`fast_apply`: a text is found only if it is the canonical
    spelling of a move. :func:`apply` gives a Move (and the table of Moves),
    and says why when the answer is None. The hot path of validation and
    self-play, so :func:`completes` is written out here, each kind of play
    builds its state at once, and what is rare (a player passed over, chips
    discarded, the end of the game) is left to other functions."""
    entry = table.get(key)
    if entry is None:
        return None  # not canonical, or no position allows it (7 chips, say)
    card, bit, side, chips, new, _, _, _ = entry
    seat = state.seat
    held = state.held
    hand = held[seat]  # once the game is over (seat -1), every hand is empty
    if not hand & bit:
        return None
    up = state.up
    down = state.down
    time, place = completes(up, down, card)
    if side and (time or place):
        return None  # Play a Card A: no prediction on a card that completes
    hands = list(held)
    deck = state.deck
    if deck:
        # Draw a Card: the top card of the draw pile, automatically.
        hands[seat] = hand ^ bit | 1 << deck[0]
        deck = deck[1:]
    else:
        hands[seat] = hand ^ bit
    # Play continues clockwise; a player with no card left is passed over.
    nxt = (seat + 1) % len(hands)
    if not hands[nxt]:
        nxt = _next_with_cards(hands, seat)  # -1: every hand is empty
    if side:
        supply = state.chips
        have = supply[seat]
        if chips > have:
            return None  # Play a Card B: not more chips than the player has
        left = list(supply)
        left[seat] = have - chips
        if side == TIME:
            after = State(
                state.players, up | bit, down, state.stacks + (new[seat],), state.on_time | bit,
                state.on_place, tuple(left), tuple(hands), deck, state.removed, nxt, card,
                state.played + 1, state.unscored,
            )  # fmt: skip
        else:
            after = State(
                state.players, up | bit, down, state.stacks + (new[seat],), state.on_time,
                state.on_place | bit, tuple(left), tuple(hands), deck, state.removed, nxt, card,
                state.played + 1, state.unscored,
            )  # fmt: skip
    elif time or place:
        # Play a Card A: the completed cards flip; chips predicting what was
        # completed stay, as scored, and the others are discarded for good.
        flips = time | place
        stacks = state.stacks
        on_time = state.on_time
        on_place = state.on_place
        wrong = on_time & place | on_place & time
        if wrong:
            stacks = _discarded(stacks, wrong)
            on_time &= ~wrong
            on_place &= ~wrong
        after = State(
            state.players, (up | bit) & ~flips, down | flips, stacks, on_time, on_place,
            state.chips, tuple(hands), deck, state.removed, nxt, card, state.played + 1,
            state.unscored,
        )  # fmt: skip
    else:
        after = State(
            state.players, up | bit, down, state.stacks, state.on_time, state.on_place,
            state.chips, tuple(hands), deck, state.removed, nxt, card, state.played + 1,
            state.unscored,
        )  # fmt: skip
    return after if nxt >= 0 else _ended(after)


def _discarded(stacks: tuple[Stack, ...], wrong: int) -> tuple[Stack, ...]:
    """The stacks not on the cards of the mask ``wrong``."""
    return tuple([s for s in stacks if not wrong >> s.card & 1])


def _next_with_cards(hands: list[int], seat: int) -> int:
    """The seat after ``seat``, clockwise, that still holds a card; -1 if none
    does. A player with no card left is passed over (this cannot happen with
    the rule text's deal, see ruling R13)."""
    n = len(hands)
    return next((s % n for s in range(seat + 2, seat + n + 1) if hands[s % n]), -1)


def _ended(state: State) -> State:
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


#: The engine's fast path: the state after the move written ``text`` if that
#: is the canonical notation of a legal move here, else None.
fast_apply = _advance


def fast_play(state: State, texts: Sequence[str]) -> tuple[list[int], State]:
    """:func:`fast_apply` over a whole log at once: ``texts`` played in turn
    from ``state`` for as long as each is the canonical notation of a legal
    move. The seats that played them, one per text played, and the state
    after the last; fewer seats than texts when ``texts[len(seats)]`` is
    refused (the checked path then says why).

    The state after every text is exactly :func:`fast_apply`'s (the tests
    compare the two move by move), but only the last is built: between
    moves the position lives in local variables and lists changed in place,
    which takes a third off the cost of a move (the stacks live in a dict by
    their cards, in the order they were placed, so that a completion discards
    the few it must by their cards). Whether each text was
    written by the player whose seat it lists is for the caller to check.

    >>> start = setup({}, ("ann", "bob"), "doc")
    >>> seats, after = fast_play(start, ["2D+1T", "5D", "7w", "7W"])
    >>> seats, after == fast_apply(fast_apply(start, "2D+1T"), "5D")
    ([0, 1], True)
    """
    up, down = state.up, state.down
    # The stacks by their cards, in the order they were placed (a dict keeps
    # it): a completion discards the few stacks of its mask by their cards.
    stacks = {s[0]: s for s in state.stacks} if state.stacks else {}
    pop = stacks.pop
    on_time, on_place = state.on_time, state.on_place
    supply = list(state.chips)
    hands = list(state.held)
    deck = state.deck
    size = len(deck)
    drawn = 0  # cards taken from the top of the draw pile so far
    seat = state.seat
    card = state.last
    seats: list[int] = []
    record = seats.append
    table = _BY_TEXT
    n = len(hands)
    following = _FOLLOWING[n]
    for text in texts:
        try:
            entry = table[text]
        except KeyError:
            break  # not canonical, or no position allows it
        card_, bit, side, chips, new, row, below_row, others = entry
        hand = hands[seat]  # once the game is over (seat -1), every hand is empty
        if not hand & bit:
            break
        # completes(), written out: a Time only in a row with 3 cards face up,
        # a Place only in a full column.
        showing = up & row
        time = place = 0
        if showing.bit_count() >= 3:
            occupied = (up | down | bit) & row
            above = occupied >> card_
            end = (~above & (above + 1)).bit_length() + card_ - 1
            start = (~occupied & (bit - 1) | below_row).bit_length()
            run = (showing | bit) & ((1 << end) - (1 << start))
            if run.bit_count() >= 4:
                time = run
        if (up | down) & others == others and not (f := down & others) & (f - 1):
            place = up & others | bit
        if side:
            if time or place:
                break  # Play a Card A: no prediction on a card that completes
            have = supply[seat]
            if chips > have:
                break  # Play a Card B: not more chips than the player has
            supply[seat] = have - chips
            stacks[card_] = new[seat]
            if side == TIME:
                on_time |= bit
            else:
                on_place |= bit
            up |= bit
        elif time or place:
            flips = time | place
            up = (up | bit) & ~flips
            down |= flips
            wrong = on_time & place | on_place & time
            if wrong:
                on_time &= ~wrong
                on_place &= ~wrong
                while wrong:  # each card of the mask carries a stack
                    low = wrong & -wrong
                    pop(low.bit_length() - 1, None)
                    wrong ^= low
        else:
            up |= bit
        if drawn < size:
            hands[seat] = hand ^ bit | 1 << deck[drawn]
            drawn += 1
        else:
            hands[seat] = hand ^ bit
        record(seat)
        card = card_
        if not hands[nxt := following[seat]]:
            nxt = _next_with_cards(hands, seat)
        seat = nxt
    if not seats:
        return seats, state
    if seat >= 0:
        return seats, State(
            state.players, up, down, tuple(stacks.values()), on_time, on_place, tuple(supply),
            tuple(hands), deck[drawn:], state.removed, seat, card, state.played + len(seats),
            state.unscored,
        )  # fmt: skip
    # The last play (End of Game), as _ended says: chips still on face-up
    # cards are removed unscored.
    lost = [0] * n
    kept = []
    for s in stacks.values():
        if down >> s[0] & 1:
            kept.append(s)
        elif up >> s[0] & 1:
            lost[s[1]] += s[3]
    return seats, State(
        state.players, up, down, tuple(kept), on_time & down, on_place & down, tuple(supply),
        tuple(hands), (), state.removed, -1, card, state.played + len(seats), tuple(lost),
    )  # fmt: skip


#: For each number of players, the seat after each seat, clockwise.
_FOLLOWING = {n: tuple((s + 1) % n for s in range(n)) for n in range(1, max(PLAYERS) + 1)}


# --- scoring (End of Game and Final Scoring) -------------------------------------------------


class _Counted(dict[int, str]):
    """Counted words, each made once: ``_Counted("point")[2] == "2 points"``."""

    def __init__(self, word: str) -> None:
        super().__init__()
        self.word = word

    def __missing__(self, k: int) -> str:
        text = self[k] = _plural(k, self.word)
        return text


_POINTS, _CHIPS, _STACKS = _Counted("point"), _Counted("chip"), _Counted("stack")


def _stacks_words(chips: list[int]) -> str:
    k = len(chips)
    if k > 1:
        return f"{_STACKS[k]} ({' + '.join(map(str, chips))} = {_CHIPS[sum(chips)]})"
    return f"1 stack ({_CHIPS[chips[0]]})" if k else "no stack"


def _ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def _scored_line(chips: tuple[int, ...]) -> tuple[tuple[int, int], str]:
    """For a player's stacks on face-down cards (their chips, in row order of
    the cards): the rank (score, stacks) and the line of the details after
    the player's name. Kept: the same few stacks recur from game to game."""
    points = sum(chips)
    stacks = len(chips)
    score = points + stacks
    line = (
        f": {_stacks_words(list(chips))} on face-down cards - {_POINTS[points]} for chips + "
        f"{_POINTS[stacks]} for stacks = {_POINTS[score]}"
    )
    if len(_SCORED) >= 10_000:  # bound what a stream of odd games can take
        _SCORED.clear()
    known = _SCORED[chips] = ((score, stacks), line)
    return known


_SCORED: dict[tuple[int, ...], tuple[tuple[int, int], str]] = {}


def standing(state: State) -> Outcome:
    # Validation scores every log it replays: each player's line is kept by
    # the chips of their scored stacks, which recur from game to game.
    players = state.players
    n = len(players)
    over = state.seat < 0
    # Per seat (4 lists, whatever the number of players), the chips of each
    # stack on a face-down card (scored) and on a face-up card (riding), in
    # row order of the cards.
    scored: list[list[int]] = [[], [], [], []]
    riding: list[list[int]] = [[], [], [], []]
    down = state.down
    for card, seat, _, chips in sorted(state.stacks):
        (scored if down >> card & 1 else riding)[seat].append(chips)
    known = _SCORED.get
    lines = [known(chips := tuple(scored[p])) or _scored_line(chips) for p in range(n)]
    rank = [line[0] for line in lines]
    # Most points; ties to the most stacks (a stable sort keeps seat order);
    # still tied, the place is shared.
    order = sorted(range(n), key=rank.__getitem__, reverse=True)
    places = [1] * n
    for i in range(1, n):
        places[i] = places[i - 1] if rank[order[i]] == rank[order[i - 1]] else i + 1
    details = [players[p] + lines[p][1] for p in range(n)]
    if over:
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
                f"{players[hi]} and {players[lo]} both have {_POINTS[score]}; "
                f"{players[hi]} ranks higher with more stacks ({stacks} to {low_stacks}) "
                f"({END_CLAUSE})"
            )
        else:
            details.append(
                f"{players[hi]} and {players[lo]} both have {_POINTS[score]} and "
                f"{_STACKS[stacks]}: they share {_ordinal(places[i])} place "
                f"({END_CLAUSE})"
            )
    standings = tuple([
        Standing(player=players[p], score=rank[p][0], place=place)
        for p, place in zip(order, places)
    ])  # fmt: skip
    winners = tuple(map(players.__getitem__, order[: places.count(1)]))
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


VIEW = View  # the type of a view, to read one back from a view file


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
