"""Atlas: Enchanted Lands (J. Alex Kevern, Renegade Game Studios, 2017), 2-4 players.

Rule clauses are cited by the rule text's section headings ("Atlas: Play a
Card A"; the set-up steps by their numbers, "Atlas: Game Set Up 3"); the
notation and every ruling are in ``notation/atlas.md``.

Representation: a card is ``suit * 8 + number - 1``, suits in row order
(Dawn 0, Day 1, Sunset 2, Night 3). That number is also the card's place on
the board, row ``suit`` and column ``number``, since every card has exactly one
place. The board holds for each of the 32 places EMPTY (not played: in a hand,
in the draw pile, removed unseen or out of the game), UP or DOWN (flipped).
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
HAND_SIZE = 7  # Game Set Up 5
CHIPS = {2: 16, 3: 14, 4: 12}  # Game Set Up 2
REMOVED = {2: 2, 3: 1, 4: 2}  # Game Set Up 6
MARKS = "abcd"  # a player's chips on the drawn board, by seat
_COLOURS = ("35", "33", "31", "34")  # Dawn magenta, Day yellow, Sunset red, Night blue

CARD_TEXT = tuple(f"{c % NUMBERS + 1}{SUITS[c // NUMBERS]}" for c in range(CARDS))
_CARD_INDEX = {text: c for c, text in enumerate(CARD_TEXT)}


def _clause(section: str) -> str:
    return f"Atlas: {section}"


def card_words(card: int) -> str:
    """``the 3 of Day``: a card as the rule text names it."""
    return f"the {card % NUMBERS + 1} of {SUIT_NAMES[card // NUMBERS]}"


class Move(NamedTuple):
    """One card played, and the prediction placed on it (``side`` NONE: none).

    Fields in this order so that sorting moves sorts them as ``legal`` lists
    them: by card, then no prediction, then Time with 1-5 chips, then Place.
    """

    card: int
    side: int = NONE
    chips: int = 0


class Stack(NamedTuple):
    """Chips of one player on one card, all showing the same side."""

    card: int
    seat: int
    side: int
    chips: int


class State(msgspec.Struct, frozen=True):
    players: tuple[str, ...]
    board: tuple[int, ...]  # 32 places: EMPTY, UP or DOWN
    stacks: tuple[Stack, ...]  # sorted by card; at most one per card
    chips: tuple[int, ...]  # per seat, chips still in the player's possession
    hands: tuple[tuple[int, ...], ...]  # per seat, sorted
    deck: tuple[int, ...]  # the draw pile, top card first
    removed: tuple[int, ...]  # returned to the box unseen (Game Set Up 6), sorted
    seat: int  # seat to play, -1 once every hand is empty
    last: int  # the card played last, -1 before the first play
    played: int  # cards played so far (the 4-player starting cards not counted)
    unscored: tuple[int, ...]  # per seat, chips taken off face-up cards at the end


# --- setup ---------------------------------------------------------------------------


def _in_game(n: int) -> list[int]:
    """The cards of the game in their starting order (Game Set Up 3): Dawn 1-8, Day
    1-8, Sunset 1-8, Night 1-8, without the four 8s for 2 and 3 players."""
    return [c for c in range(CARDS) if n == 4 or c % NUMBERS != NUMBERS - 1]


# The 8s, set aside with 2 and 3 players (Game Set Up 3).
_OUT_OF_GAME = {
    n: tuple(CARD_TEXT[c] for c in range(CARDS) if c not in _in_game(n)) for n in PLAYERS
}


def starting_cards(seed: str) -> tuple[int, int]:
    """The two face-up cards of a 4-player game (Game Set Up 3).

    From the stream ``start``: a number below 32 picks the first card from the 32
    in starting order, a number below 31 the second from the 31 left (still in
    starting order); two cards of the same suit or number are put back and both
    drawn again, from the same stream.
    """
    chance = Chance(seed, "start")
    every = _in_game(4)
    while True:
        first = every[chance.below(CARDS)]
        rest = [c for c in every if c != first]
        second = rest[chance.below(CARDS - 1)]
        if first // NUMBERS != second // NUMBERS and first % NUMBERS != second % NUMBERS:
            return first, second


def setup(params: Mapping[str, Value], players: tuple[str, ...], seed: str) -> State:
    n = len(players)
    board = [EMPTY] * CARDS
    cards = _in_game(n)
    if n == 4:
        for c in starting_cards(seed):
            board[c] = UP
            cards.remove(c)
    # Game Set Up 5-7: shuffle, 7 cards each, then the cards removed unseen, then
    # the draw pile (empty with 4 players: 30 = 4 * 7 + 2).
    cards = shuffled(seed, "deck", cards)
    dealt = HAND_SIZE * n
    hands = tuple(tuple(sorted(cards[HAND_SIZE * i : HAND_SIZE * (i + 1)])) for i in range(n))
    cut = dealt + REMOVED[n]
    return State(
        players=players,
        board=tuple(board),
        stacks=(),
        chips=(CHIPS[n],) * n,
        hands=hands,
        deck=tuple(cards[cut:]),
        removed=tuple(sorted(cards[dealt:cut])),
        seat=0,
        last=-1,
        played=0,
        unscored=(0,) * n,
    )


def to_move(state: State) -> int | None:
    return None if state.seat < 0 else state.seat


# --- Time and Place (Explaining Time and Place, Play a Card) -------------------------------


def completes(board: tuple[int, ...], card: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """What playing ``card`` on ``board`` completes: the face-up cards of the Time
    and of the Place it forms, the card itself included (each empty if none).

    Both are judged on the board as the card lands, before anything flips.
    A Time is the stretch of the card's row through it, face-down cards bridged
    and empty places ending it, when it holds at least 4 face-up cards. Only the
    stretch through the new card need be looked at: every other stretch was
    judged when its last card came, and flips only ever remove face-up cards.
    A Place is the card's column when all four cards are on the board and at
    most one is face down (the same argument: only the new card's column can
    have just become full).
    """
    row = card - card % NUMBERS
    lo = hi = card
    while lo > row and board[lo - 1]:
        lo -= 1
    while hi < row + NUMBERS - 1 and board[hi + 1]:
        hi += 1
    time: tuple[int, ...] = ()
    if hi - lo >= 3:  # fewer than 4 places cannot hold 4 face-up cards
        run = tuple(c for c in range(lo, hi + 1) if c == card or board[c] == UP)
        if len(run) >= 4:
            time = run
    place: tuple[int, ...] = ()
    column = [card % NUMBERS + NUMBERS * s for s in range(4)]
    others = [board[c] for c in column if c != card]
    if EMPTY not in others and others.count(DOWN) <= 1:
        place = tuple(c for c in column if c == card or board[c] == UP)
    return time, place


# --- moves ---------------------------------------------------------------------------------


def legal_moves(state: State) -> tuple[Move, ...]:
    seat = state.seat
    if seat < 0:
        return ()
    board = state.board
    bets = range(1, min(MAX_BET, state.chips[seat]) + 1)
    moves = []
    for card in state.hands[seat]:
        moves.append(Move(card))
        time, place = completes(board, card)
        if not time and not place:
            moves += [Move(card, side, k) for side in (TIME, PLACE) for k in bets]
    return tuple(moves)


def _illegal(reason: str, section: str) -> IllegalMoveError:
    return IllegalMoveError(reason, _clause(section))


def _not_held(state: State, card: int) -> IllegalMoveError:
    """Why the player to move cannot play ``card``, told from public facts only."""
    if not 0 <= card < CARDS:
        return _illegal("there is no such card", "Play a Card")
    if state.board[card]:
        return _illegal(f"{card_words(card)} is already on the board", "Play a Card")
    if len(state.players) < 4 and card % NUMBERS == NUMBERS - 1:
        return _illegal(
            f"the 8s are out of the game with {len(state.players)} players", "Game Set Up 3"
        )
    return _illegal(
        f"{state.players[state.seat]} does not hold {card_words(card)}", "Play a Card"
    )


def _completed(time: tuple[int, ...], place: tuple[int, ...]) -> str:
    return " and ".join(w for w, c in (("a Time", time), ("a Place", place)) if c)


def apply(state: State, move: Move) -> State:
    seat = state.seat
    if seat < 0:
        raise _illegal("the game is over: every hand is empty", "End of Game and Final Scoring")
    card, side, chips = move
    hand = state.hands[seat]
    if card not in hand:
        raise _not_held(state, card)
    board = state.board
    time, place = completes(board, card)
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
            raise _illegal(
                f"a prediction is 1 to {MAX_BET} chips, not {chips}", "Play a Card B"
            )
        have = state.chips[seat]
        if chips > have:
            left = "no chips" if not have else f"only {have} chip{'s' * (have != 1)}"
            raise _illegal(f"{state.players[seat]} has {left} left", "Play a Card B")
    new = list(board)
    new[card] = UP
    stacks = state.stacks
    if time or place:
        # Play a Card A: the completed cards flip; chips predicting what was
        # completed stay, as scored, and the others are discarded for good.
        for c in time:
            new[c] = DOWN
        for c in place:
            new[c] = DOWN
        stacks = tuple(
            s
            for s in stacks
            if not (s.card in time and s.side != TIME or s.card in place and s.side != PLACE)
        )
    supply = state.chips
    if side:
        stacks = tuple(sorted((*stacks, Stack(card, seat, side, chips))))
        supply = (*supply[:seat], supply[seat] - chips, *supply[seat + 1 :])
    k = hand.index(card)
    rest = hand[:k] + hand[k + 1 :]
    deck = state.deck
    if deck:
        # Draw a Card: the top card of the draw pile, automatically.
        rest = tuple(sorted((*rest, deck[0])))
        deck = deck[1:]
    hands = (*state.hands[:seat], rest, *state.hands[seat + 1 :])
    n = len(hands)
    # Play continues clockwise; a player with no card left is passed over (this
    # cannot happen with the rule text's deal, see ruling R13).
    nxt = next((s % n for s in range(seat + 1, seat + n + 1) if hands[s % n]), -1)
    unscored = state.unscored
    if nxt < 0:
        # End of Game: chips still on face-up cards are removed unscored.
        lost = [0] * n
        for s in stacks:
            if new[s.card] == UP:
                lost[s.seat] += s.chips
        stacks = tuple(s for s in stacks if new[s.card] == DOWN)
        unscored = tuple(lost)
    return _replace(
        state,
        board=tuple(new),
        stacks=stacks,
        chips=supply,
        hands=hands,
        deck=deck,
        seat=nxt,
        last=card,
        played=state.played + 1,
        unscored=unscored,
    )


# --- notation ------------------------------------------------------------------------------

_SUIT_WORDS = {
    "dawn": 0, "w": 0,
    "day": 1, "d": 1,
    "sunset": 2, "sun": 2, "s": 2,
    "night": 3, "n": 3,
}  # fmt: skip
_SIDE_WORDS = {"time": TIME, "t": TIME, "place": PLACE, "p": PLACE}
_SUIT = "(" + "|".join(sorted(_SUIT_WORDS, key=len, reverse=True)) + ")"
_SIDE = "(time|place|t|p)"
_SEP = r"(?:[+:/,;&_-]|with|and)?"
_CHIPS = r"(\d{1,3})(?:x|chips?)?(?:on|for)?"
_CARD_RE = re.compile(rf"(?:(\d)(?:of)?{_SUIT}|{_SUIT}(\d))")
_BET_RE = re.compile(rf"{_SEP}(?:{_CHIPS}{_SIDE}|{_SIDE}(\d{{1,3}}))")
_NO_SIDE_RE = re.compile(rf"{_SEP}{_CHIPS}")
_NO_CHIPS_RE = re.compile(rf"{_SEP}{_SIDE}")
_EXPECTED = (
    "expected a card, number then suit (3D is the 3 of Day; suits W Dawn, D Day, "
    "S Sunset, N Night), then optionally a prediction such as +2T (2 chips on Time) "
    "or +1P (1 chip on Place)"
)


def parse_move(state: State | None, text: str) -> Move:
    """Read a move; case, spaces, suit and side names and a few separators are
    forgiven. It never looks at the position, so it reveals nothing.

    >>> parse_move(None, "3D+2T")
    Move(card=10, side=1, chips=2)
    >>> parse_move(None, "3 of day, 2 chips on time")
    Move(card=10, side=1, chips=2)
    """
    return _parse(text)


@lru_cache(maxsize=4096)
def _parse(text: str) -> Move:
    # A move reads the same in every position, so readings are cached.
    flat = "".join(text.split()).lower()
    m = _CARD_RE.match(flat)
    if m is None:
        raise NotationError(f"cannot read this as a move: {_EXPECTED} ({NOTATION})")
    number = int(m[1] or m[4])
    suit = _SUIT_WORDS[m[2] or m[3]]
    rest = flat[m.end() :]
    if not 1 <= number <= NUMBERS:
        raise NotationError(
            f"there is no {number} of {SUIT_NAMES[suit]}: numbers run from 1 to 8 ({NOTATION})"
        )
    card = suit * NUMBERS + number - 1
    if not rest:
        return Move(card)
    bet = _BET_RE.fullmatch(rest)
    if bet is not None:
        side = _SIDE_WORDS[bet[2] or bet[3]]
        return Move(card, side, int(bet[1] or bet[4]))
    if (half := _NO_SIDE_RE.fullmatch(rest)) is not None:
        options = tuple(f"{CARD_TEXT[card]}+{int(half[1])}{s}" for s in "TP")
        raise AmbiguousMoveError(
            f"a prediction is for Time or for Place; say which: {options[0]} or {options[1]}",
            _clause("Play a Card B"),
            options,
        )
    if _NO_CHIPS_RE.fullmatch(rest):
        raise NotationError(
            f"say how many chips (1 to 5) the prediction is, as in {CARD_TEXT[card]}+2T "
            f"({NOTATION})"
        )
    raise NotationError(f"cannot read this as a move: {_EXPECTED} ({NOTATION})")


_TEXTS: dict[Move, str] = {}


def format_move(state: State | None, move: Move) -> str:
    """The canonical notation: ``3D`` for the card alone, ``3D+2T`` with 2 chips on
    Time, ``3D+1P`` with 1 chip on Place."""
    text = _TEXTS.get(move)
    if text is None:
        card, side, chips = move
        text = CARD_TEXT[card] + (f"+{chips}{SIDES[side]}" if side or chips else "")
        if len(_TEXTS) < 10_000:  # odd moves typed by hand must not grow it without end
            _TEXTS[move] = text
    return text


# --- scoring (End of Game and Final Scoring) -------------------------------------------------


class _Tally(NamedTuple):
    scored: list[list[int]]  # per seat, the chips of each stack on a face-down card
    riding: list[list[int]]  # per seat, the chips of each stack still on a face-up card


def _tally(state: State) -> _Tally:
    n = len(state.players)
    scored: list[list[int]] = [[] for _ in range(n)]
    riding: list[list[int]] = [[] for _ in range(n)]
    for s in state.stacks:
        (scored if state.board[s.card] == DOWN else riding)[s.seat].append(s.chips)
    return _Tally(scored, riding)


def _plural(k: int, word: str) -> str:
    return f"{k} {word}{'s' * (k != 1)}"


def _ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def _stacks_words(chips: list[int]) -> str:
    if not chips:
        return "no stack"
    if len(chips) == 1:
        return f"1 stack ({_plural(chips[0], 'chip')})"
    sizes = " + ".join(str(c) for c in chips)
    return f"{_plural(len(chips), 'stack')} ({sizes} = {_plural(sum(chips), 'chip')})"


def standing(state: State) -> Outcome:
    players = state.players
    n = len(players)
    over = state.seat < 0
    tally = _tally(state)
    score = [sum(c) + len(c) for c in tally.scored]
    stacks = [len(c) for c in tally.scored]
    # Most points; ties to the most stacks; still tied, the place is shared.
    order = sorted(range(n), key=lambda p: (-score[p], -stacks[p], p))
    key = [(score[p], stacks[p]) for p in order]
    places = [1] * n
    for i in range(1, n):
        places[i] = places[i - 1] if key[i] == key[i - 1] else i + 1
    details = []
    for p in range(n):
        line = (
            f"{players[p]}: {_stacks_words(tally.scored[p])} on face-down cards - "
            f"{_plural(sum(tally.scored[p]), 'point')} for chips + "
            f"{_plural(stacks[p], 'point')} for stacks = {_plural(score[p], 'point')}"
        )
        if not over and tally.riding[p]:
            line += f"; {_stacks_words(tally.riding[p])} still on face-up cards"
        details.append(line)
    if over and any(state.unscored):
        lost = ", ".join(f"{players[p]} {state.unscored[p]}" for p in range(n) if state.unscored[p])
        details.append(f"chips left on face-up cards at the end, removed unscored: {lost}")
    for i in range(n - 1):
        hi, lo = order[i], order[i + 1]
        if score[hi] != score[lo]:
            continue
        if stacks[hi] != stacks[lo]:
            details.append(
                f"{players[hi]} and {players[lo]} both have {_plural(score[hi], 'point')}; "
                f"{players[hi]} ranks higher with more stacks ({stacks[hi]} to {stacks[lo]}) "
                f"({END_CLAUSE})"
            )
        else:
            details.append(
                f"{players[hi]} and {players[lo]} both have {_plural(score[hi], 'point')} and "
                f"{_plural(stacks[hi], 'stack')}: they share {_ordinal(places[i])} place "
                f"({END_CLAUSE})"
            )
    standings = tuple(
        Standing(player=players[p], score=score[p], place=places[i]) for i, p in enumerate(order)
    )
    winners = tuple(players[p] for i, p in enumerate(order) if places[i] == 1)
    return Outcome(standings=standings, winners=winners, details=tuple(details))


def outcome(state: State) -> Outcome | None:
    return standing(state) if state.seat < 0 else None


# --- views and rendering -------------------------------------------------------------------


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
    board = state.board
    return View(
        viewer=None if seat is None else state.players[seat],
        players=state.players,
        to_move=None if state.seat < 0 else state.players[state.seat],
        face_up=tuple(CARD_TEXT[c] for c in range(CARDS) if board[c] == UP),
        face_down=tuple(CARD_TEXT[c] for c in range(CARDS) if board[c] == DOWN),
        out_of_game=_OUT_OF_GAME[n],
        last=None if state.last < 0 else CARD_TEXT[state.last],
        stacks=tuple(
            StackView(
                card=CARD_TEXT[s.card],
                owner=state.players[s.seat],
                side=SIDE_NAMES[s.side],
                chips=s.chips,
                scored=board[s.card] == DOWN,
            )
            for s in state.stacks
        ),
        chips=state.chips,
        hand=None if seat is None else tuple(CARD_TEXT[c] for c in state.hands[seat]),
        hand_sizes=tuple(len(h) for h in state.hands),
        draw_pile=len(state.deck),
        removed=len(state.removed),
        played=state.played,
    )


def redeal(state: State, seat: int | None, seed: str) -> State:
    """Everything ``seat`` cannot see dealt again: the other hands, the draw pile
    and the removed cards, shuffled together with the stream ``redeal`` and
    dealt back in the same sizes."""
    hidden_seats = [p for p in range(len(state.players)) if p != seat]
    pool = [c for p in hidden_seats for c in state.hands[p]] + list(state.deck) + list(state.removed)
    pool = shuffled(seed, "redeal", sorted(pool))
    hands = list(state.hands)
    at = 0
    for p in hidden_seats:
        size = len(hands[p])
        hands[p] = tuple(sorted(pool[at : at + size]))
        at += size
    deck = tuple(pool[at : at + len(state.deck)])
    at += len(state.deck)
    return _replace(state, hands=tuple(hands), deck=deck, removed=tuple(sorted(pool[at:])))


def _paint_card(text: str, style: Style) -> str:
    return style.paint(text, _COLOURS[SUITS.index(text[-1])])


def render(v: View, style: Style) -> str:
    """The board as 4 suit rows by 8 number columns, each place showing its card
    (face up, face down or not played) over the stack of chips on it; then the
    draw pile, the players, their chips and the viewer's hand."""
    if style.unicode:
        h, bar, down, arrow = "─", "│", "▓▓", "→"
        top, mid, bot = ("┌", "┬", "┐"), ("├", "┼", "┤"), ("└", "┴", "┘")
    else:
        h, bar, down, arrow = "-", "|", "##", ">"
        top = mid = bot = ("+", "+", "+")
    width = 5
    up, flipped, out = set(v.face_up), set(v.face_down), set(v.out_of_game)
    stacks = {s.card: s for s in v.stacks}
    seat_of = {name: i for i, name in enumerate(v.players)}

    def rule(ends: tuple[str, str, str]) -> str:
        return " " * 7 + ends[0] + ends[1].join([h * width] * NUMBERS) + ends[2]

    lines = [" " * 8 + "".join(f"{n:^{width}} " for n in range(1, NUMBERS + 1)).rstrip()]
    lines.append(rule(top))
    for suit, name in enumerate(SUIT_NAMES):
        cards, chips = [], []
        for number in range(1, NUMBERS + 1):
            text = f"{number}{SUITS[suit]}"
            if text in up:
                shown = _paint_card(text, style)
                cell = f"[{shown}] " if v.last == text else f" {shown}  "
            elif text in flipped:
                cell = f" {style.paint(down, '2')}  "
            elif text in out:
                cell = " --  "
            else:
                cell = " " * width
            cards.append(cell)
            s = stacks.get(text)
            chips.append(
                f" {MARKS[seat_of[s.owner]]}{s.chips}{s.side[0]} " if s else " " * width
            )
        lines.append(f"{name:<7}{bar}" + bar.join(cards) + bar)
        lines.append(" " * 7 + bar + bar.join(chips) + bar)
        lines.append(rule(mid if suit < 3 else bot))
    if len(v.players) == 4:
        notes = ["No draw pile with 4 players"]
    else:
        notes = [f"Draw pile: {_plural(v.draw_pile, 'card')}" if v.draw_pile else "Draw pile: empty"]
    notes.append(f"{v.removed} removed unseen")
    if v.out_of_game:
        notes.append("the 8s are out of the game (--)")
    dot = "·" if style.unicode else "-"
    lines.append(f"  {dot}  ".join(notes))
    lines.append(f"{down} face down.  a2T: a's 2 chips on Time (P: Place), scored once face down.")
    lines.append("")
    width_name = max(len(p) for p in v.players)
    for p, name in enumerate(v.players):
        mine = [s for s in v.stacks if s.owner == name and s.scored]
        score = sum(s.chips for s in mine) + len(mine)
        riding = sum(s.chips for s in v.stacks if s.owner == name and not s.scored)
        mark = arrow if v.to_move == name else " "
        if v.hand is not None and v.viewer == name:
            hand = "hand " + (" ".join(_paint_card(c, style) for c in v.hand) or "empty")
        else:
            size = v.hand_sizes[p]
            hand = f"hand of {_plural(size, 'card')}" if size else "hand empty"
        lines.append(
            f"{mark} {MARKS[p]} {name:<{width_name}}  score {score:>2}  "
            f"chips: {v.chips[p]:>2} left, {riding:>2} riding  {dot}  {hand}"
        )
    return "\n".join(lines)
