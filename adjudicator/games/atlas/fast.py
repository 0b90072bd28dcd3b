"""Atlas's unchecked paths, for speed only (the engine's Accelerator).

Validation replays every move of every log, so :func:`fast_apply` (the text
of a move to the next state) does only what a play needs, from a table of
every text that can be canonical, and :func:`fast_play` plays a whole log's
texts at once and builds only the last state. Both give exactly the states
:func:`.rules.apply` gives and take exactly the legal moves written in their
canonical notation (tests/test_atlas_fast.py compares them move by move);
anything else is None, and the checked path says what is wrong.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import NamedTuple

from ...chance import first_words, limit
from ...engine import Value
from .cards import ALL_MOVES, CARDS, MAX_BET, NUMBERS, PLAYERS, TIME, Move
from .notation import CANONICAL, format_move
from .rules import GEOMETRY, Stack, State, completes, dealt, ended, next_with_cards


def fast_setup(params: Mapping[str, Value], players: tuple[str, ...], seed: str) -> State | None:
    """:func:`.rules.setup`, with the two starting cards of a 4-player game
    taken from the first block of their stream at once (four tries fit in
    it); None for a deal that needs a fifth try or a word that a draw below
    31 puts back, which :func:`.rules.starting_cards` then draws one by one.

    >>> from adjudicator.games.atlas.rules import setup
    >>> names = ("ann", "bob", "cy", "dee")
    >>> fast_setup({}, names, "doc") == setup({}, names, "doc")
    True
    """
    if len(players) != 4:
        return dealt(players, seed, None)
    starting = starting_from(first_words(seed, "start"))
    return None if starting is None else dealt(players, seed, starting)


def starting_from(words: Sequence[int]) -> tuple[int, int] | None:
    """The starting cards (Game Set Up 3) as :func:`.rules.starting_cards`
    draws them from a stream whose first words are ``words``, pair by pair:
    a number below 32 for the first card, below 31 for the second; None
    when no pair of ``words`` is taken, or a word would be put back."""
    for k in range(0, len(words) - 1, 2):
        first, second = words[k], words[k + 1]
        if first >= _FIRST_LIMIT or second >= _SECOND_LIMIT:
            return None  # below() puts the word back: the stream decides
        first %= CARDS
        second %= CARDS - 1
        second += second >= first  # the 31 others, still in starting order
        if first // NUMBERS != second // NUMBERS and first % NUMBERS != second % NUMBERS:
            return first, second
    return None


_FIRST_LIMIT, _SECOND_LIMIT = limit(CARDS), limit(CARDS - 1)


class _Entry(NamedTuple):
    """What playing one move needs to know of it, worked out once."""

    card: int
    bit: int  # 1 << card
    side: int  # of the prediction: NONE, TIME or PLACE
    chips: int  # of the prediction, 0 if none
    stacks: tuple[Stack, ...]  # the prediction's stack, by seat; () if none
    row: int  # the 8 bits of the card's row (as in rules.GEOMETRY)
    below_row: int  # every bit below the card's row
    others: int  # the other three places of the card's column


def _entry(move: Move) -> _Entry:
    card, side, chips = move
    stacks = tuple(Stack(card, s, side, chips) for s in range(max(PLAYERS))) if side else ()
    return _Entry(card, 1 << card, side, chips, stacks, *GEOMETRY[card][1:])


#: Every move that can be legal, by its canonical spelling (352, made once).
_BY_TEXT: dict[str, _Entry] = {text: _entry(move) for text, move in CANONICAL.items()}


def fast_apply(state: State, text: str) -> State | None:
    """The state after the move written ``text`` if that is the canonical
    notation of a legal move here, else None (then the checked path says why).

    The hot path of validation and self-play, so each kind of play builds its
    state at once, and what is rare (a player passed over, chips discarded,
    the end of the game) is left to other functions.

    >>> from adjudicator.games.atlas.rules import setup
    >>> start = setup({}, ("ann", "bob"), "doc")
    >>> fast_apply(start, "2D+1T").stacks, fast_apply(start, "2d+1t"), fast_apply(start, "7W")
    ((Stack(card=9, seat=0, side=1, chips=1),), None, None)
    """
    entry = _BY_TEXT.get(text)
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
        nxt = next_with_cards(hands, seat)  # -1: every hand is empty
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
    return after if nxt >= 0 else ended(after)


def _discarded(stacks: tuple[Stack, ...], wrong: int) -> tuple[Stack, ...]:
    """The stacks not on the cards of the mask ``wrong``."""
    return tuple([s for s in stacks if not wrong >> s.card & 1])


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

    >>> from adjudicator.games.atlas.rules import setup
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
            nxt = next_with_cards(hands, seat)
        seat = nxt
    if not seats:
        return seats, state
    if seat >= 0:
        return seats, State(
            state.players, up, down, tuple(stacks.values()), on_time, on_place, tuple(supply),
            tuple(hands), deck[drawn:], state.removed, seat, card, state.played + len(seats),
            state.unscored,
        )  # fmt: skip
    # The last play (End of Game), as rules.ended says: chips still on face-up
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


def fast_step(state: State, move: Move) -> tuple[str, State] | None:
    """None: a move at a time (the bots' search) takes the checked path;
    self-play plays whole games with :func:`fast_game`."""
    return None


def fast_game(
    state: State, pick: Callable[[int], int], limit: int | None = None
) -> tuple[list[str], list[int], State]:
    """Self-play at once: from ``state``, at each position the move
    ``legal_moves(state)[pick(len(legal_moves(state)))]``, spelled as
    ``format_move`` spells it and played as ``apply`` plays it, until the
    game ends or ``limit`` moves are played. The texts, the seats that
    played them and the state after the last.

    The moves are counted as :func:`.rules.legal_moves` lists them, card by
    card in row order: a card that completes a Time or a Place alone, any
    other alone, then with 1 to k chips on Time, then on Place (k: the
    player's chips, at most 5); only the one picked is made, from the table
    of every canonical text, and played as :func:`fast_play` plays it, the
    position in local variables. The few lines of a play are written out in
    both on purpose: one helper called by both cost fast_play 2% (measured),
    and each is held to the checked path on its own. The tests compare the
    whole game with the checked loop (legal_moves, format_move, apply), from
    every point of it.

    >>> from adjudicator.chance import Chance
    >>> from adjudicator.games.atlas.rules import setup
    >>> start = setup({}, ("ann", "bob"), "doc")
    >>> texts, seats, after = fast_game(start, Chance("doc", "simulate").below, 3)
    >>> texts, seats, after.played
    (['4N+2T', '7W+3P', '2N+5P'], [0, 1, 0], 3)
    """
    texts: list[str] = []
    seats: list[int] = []
    seat = state.seat
    if seat < 0 or (limit is not None and limit <= 0):
        return texts, seats, state
    left = -1 if limit is None else limit  # moves still to play (-1: to the end)
    up, down = state.up, state.down
    stacks = {s[0]: s for s in state.stacks} if state.stacks else {}
    pop = stacks.pop
    on_time, on_place = state.on_time, state.on_place
    supply = list(state.chips)
    hands = list(state.held)
    deck = state.deck
    size = len(deck)
    drawn = 0
    card = state.last
    n = len(hands)
    following = _FOLLOWING[n]
    plays, geometry = _PLAYS, GEOMETRY
    while seat >= 0 and left:
        hand = hands[seat]
        bets = min(MAX_BET, supply[seat])
        occupied = up | down
        # Each card of the hand, ascending (row order), and whether it
        # completes a Time or a Place (completes() as legal_moves writes it).
        cards: list[tuple[int, bool]] = []
        total = 0
        rest = hand
        while rest:
            low = rest & -rest
            rest ^= low
            c = low.bit_length() - 1
            bit, row, below_row, others = geometry[c]
            done = False
            showing = up & row
            if showing.bit_count() >= 3:
                stretch = (occupied | bit) & row
                above = stretch >> c
                end = (~above & (above + 1)).bit_length() + c - 1
                start = (~stretch & (bit - 1) | below_row).bit_length()
                done = ((showing | bit) & ((1 << end) - (1 << start))).bit_count() >= 4
            if not done and occupied & others == others:
                done = not (f := down & others) & (f - 1)
            cards.append((c, done))
            total += 1 if done else 1 + 2 * bets
        k = pick(total)
        for c, done in cards:  # noqa: B007 (the card of the move picked, after the loop)
            count = 1 if done else 1 + 2 * bets
            if k < count:
                break
            k -= count
        # Its place among the card's moves: alone, Time 1..bets, Place 1..bets.
        text, entry = plays[11 * c + (k if k <= bets else k - bets + MAX_BET)]
        card_, bit, side, chips, new, row, below_row, others = entry
        if side:  # a prediction: the card completes nothing
            supply[seat] -= chips
            stacks[card_] = new[seat]
            if side == TIME:
                on_time |= bit
            else:
                on_place |= bit
            up |= bit
        elif done:  # Play a Card A: what it completes flips (as fast_play)
            time, place = completes(up, down, card_)
            flips = time | place
            up = (up | bit) & ~flips
            down |= flips
            wrong = on_time & place | on_place & time
            if wrong:
                on_time &= ~wrong
                on_place &= ~wrong
                while wrong:
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
        texts.append(text)
        seats.append(seat)
        card = card_
        left -= 1
        if not hands[nxt := following[seat]]:
            nxt = next_with_cards(hands, seat)
        seat = nxt
    after = State(
        state.players, up, down, tuple(stacks.values()), on_time, on_place, tuple(supply),
        tuple(hands), deck[drawn:], state.removed, seat, card, state.played + len(seats),
        state.unscored,
    )  # fmt: skip
    return texts, seats, after if seat >= 0 else ended(after)


#: Every move by its place in ALL_MOVES (11 a card): its text and its entry.
_PLAYS = tuple((text, _BY_TEXT[text]) for text in (format_move(None, m) for m in ALL_MOVES))
