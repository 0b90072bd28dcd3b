"""Turn of Time: the rules. Setup, placement, flips, legal moves, apply,
scoring, views.

Rule clauses are cited by the rule card's own numbering ("5.1a"); the notation
and every ruling are in ``notation/turn-of-time.md``. The components (seasons,
cards, squares, a move) are in ``cards.py``.

Everything here is the plain definition. Two contract functions read
tables worked out from it beforehand, because they are on the hot paths of
self-play and validation: :func:`legal_moves` (the canonical ways of every
placement) and :func:`standing` (the largest groups, and the lines of 6);
the tables are in ``tables.py``, and the tests hold them to the definitions
here. The unchecked paths are in ``fast.py``.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache, lru_cache
from itertools import permutations

import msgspec

from ...chance import shuffled
from ...engine import Outcome, Param, Standing, Value
from ...errors import AmbiguousMoveError, IllegalMoveError
from . import tables
from .cards import (
    BY_NAME,
    CARDS,
    CENTRE,
    DECK,
    DIRS,
    NEIGHBOURS,
    OFF,
    ROW_COL,
    SEASON_NAMES,
    SEASONS,
    SIZE,
    SQUARE_INDEX,
    SQUARES,
    TITLE,
    Move,
    card_name,
    flip,
    kind,
    season_set,
)

ID = "turn-of-time"
PLAYERS = (1, 2, 3, 4)
TURN_CLAUSE = f"{TITLE} 5.1"
END_CLAUSE = f"{TITLE} 6"
NOTATION = "notation/turn-of-time.md"
# The rules version new logs are played under. 2 brought in ``tie_order``; a
# log pinned to 1 is played with its legacy value (notation: Rules versions).
RULES = 2

PARAMS = (
    Param(
        "absent-doubles",
        "own-season",
        "3 players: which of the absent season's double cards each player takes. "
        "own-season: the one with your season on its other side (the text); "
        "example: the one whose other side is the next present season after yours "
        "(the rule card's example)",
        choices=("own-season", "example"),
        applies="3 players",
    ),
    Param(
        "goal",
        "dominance",
        "solo: dominance (end with 7 or more connected cards of one season) or "
        "balance (end with exactly 4 of each season)",
        choices=("dominance", "balance"),
        applies="solo",
    ),
    Param(
        "tie_order",
        "players",
        "2 players: the last tie-break of 6, who was first in turn order. players: "
        "the players' turn order, so both of the first player's seasons come before "
        "the second player's (the text); seasons: the order the seasons were drawn "
        "(rules version 1)",
        choices=("players", "seasons"),
        applies="2 players",
        since=2,
        legacy="seasons",
    ),
)

Box = tuple[int, int, int, int]  # the rows and columns the cards span: r0, r1, c0, c1


class State(msgspec.Struct, frozen=True, gc=False):
    # gc=False: a state holds tuples of numbers and strings, never a cycle, so
    # the garbage collector need not track it (validation makes one per log).
    players: tuple[str, ...]
    goal: str
    tie_order: str  # 6, 2 players: "players" or "seasons" (the parameter)
    owners: tuple[int, ...]  # season -> seat, -1 for nobody (3 players)
    season_order: tuple[int, ...]  # seasons in turn order, a season nobody owns last
    board: tuple[int, ...]  # 49 squares and OFF: -1 empty, else face * 4 + back
    hands: tuple[tuple[int, ...], ...]  # per seat, sorted card kinds
    deck: tuple[int, ...]  # solo: the shuffled deck, deck[0] drawn and to be placed
    placed: int  # cards on the table
    seat: int  # seat to move, -1 once all 16 cards are placed
    box: Box
    last: int  # square of the card placed last, -1 before any


# --- 3. setup ---------------------------------------------------------------------

EMPTY = (-1,) * (OFF + 1)
NO_BOX = (SIZE, -1, SIZE, -1)  # the box of an empty table


def setup(params: Mapping[str, Value], players: tuple[str, ...], seed: str) -> State:
    n = len(players)
    owners: tuple[int, ...]
    order: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]
    if n == 1:
        # 7. SOLO RULES: all 16 cards in one shuffled deck.
        deck = tuple(shuffled(seed, "deck", DECK))
        owners, order, hands, first = (0, 0, 0, 0), (0, 1, 2, 3), ((),), -1
    else:
        perm = seasons_drawn(seed)
        owners, order, hands, first = deal(n, perm, str(params["absent-doubles"]))
        deck = ()
    board = EMPTY
    if first >= 0:  # 5.1: with 3 players the undrawn single season card is placed first
        board = EMPTY[:CENTRE] + (first * 5,) + EMPTY[CENTRE + 1 :]
    return State(
        players=players,
        goal=str(params["goal"]),
        tie_order=str(params.get("tie_order", "players")),
        owners=owners,
        season_order=order,
        board=board,
        hands=hands,
        deck=deck,
        placed=1 if first >= 0 else 0,
        seat=0,
        box=(3, 3, 3, 3) if first >= 0 else NO_BOX,
        last=CENTRE if first >= 0 else -1,
    )


def seasons_drawn(seed: str) -> tuple[int, ...]:
    """3. SETUP: the seasons are drawn at random, in this order. With 2 to 4
    players the rest of the deal follows from it (:func:`deal`), the
    players and the parameters."""
    return tuple(shuffled(seed, "seasons", (0, 1, 2, 3)))


@cache
def deal(
    n: int, perm: tuple[int, ...], absent_doubles: str
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[tuple[int, ...], ...], int]:
    """Owners, turn order of the seasons, hands and the season of the first card
    (-1: none) when the seasons are drawn in the order ``perm`` (3. SETUP)."""
    owners = [-1] * 4
    hands: list[list[int]] = [[] for _ in range(n)]
    if n == 2:
        # "As 4 players but with 2 season sets each": seats alternate seasons.
        for i, s in enumerate(perm):
            owners[s] = i % 2
            hands[i % 2] += season_set(s)
    else:
        for i in range(n):
            owners[perm[i]] = i
            hands[i] += season_set(perm[i])
    first = -1
    if n == 3:
        first = absent = perm[3]
        for i in range(3):
            own = perm[i]
            if absent_doubles == "example":
                other = next(t for t in ((own + k) % 4 for k in (1, 2, 3)) if t != absent)
            else:
                other = own
            hands[i].append(kind(absent, other))
    return tuple(owners), perm, tuple(tuple(sorted(h)) for h in hands), first


def to_move(state: State) -> int | None:
    return None if state.seat < 0 else state.seat


def playable(state: State) -> tuple[int, ...]:
    """The card kinds the player to move may place: their hand, or solo the card drawn (7)."""
    return state.deck[:1] if state.deck else state.hands[state.seat]


# --- 4. flipping seasons, 5.2 and 5.3: meetings -------------------------------------

Around = tuple[int, int, int, int]  # the cards north, east, south and west of a square; -1: none
# What a placement leaves around its square: the card placed, and the cards around it.
Result = tuple[int, Around]


def flips(x: int, y: int) -> bool:
    """4: a card showing season ``x`` flips one showing ``y``: Spring is
    flipped by Summer, Summer by Fall etc.; opposite seasons flip each other."""
    return (x - y) % 4 in (1, 2)


def around(board: tuple[int, ...], square: int) -> Around:
    n, e, s, w = NEIGHBOURS[square]
    return board[n], board[e], board[s], board[w]


def neighbours(cards: Around) -> tuple[int, ...]:
    """The directions holding a card, in n, e, s, w order."""
    return tuple(d for d in range(4) if cards[d] >= 0)


def meet(code: int, cards: Around, order: tuple[int, ...]) -> Result:
    """5.2, 5.3: the card ``code`` placed among ``cards`` meets each of them
    once, in ``order``. Each meeting checks which of the two seasons flip; the
    placed card meets the rest with its new side, and a flipped neighbour
    flips nothing (no chain reactions). A single card turned over shows the
    same season (its code does not change)."""
    cur = code
    after = list(cards)
    for d in order:
        mine, theirs = cur >> 2, cards[d] >> 2
        if flips(mine, theirs):
            after[d] = flip(cards[d])
        if flips(theirs, mine):
            cur = flip(cur)
    return cur, (after[0], after[1], after[2], after[3])


@lru_cache(maxsize=65_536)
def outcomes(code: int, cards: Around) -> dict[Result, tuple[int, ...]]:
    """Every result of placing ``code`` among ``cards``, each with the first
    order of meetings giving it (orders taken in lexicographic order, so n,
    e, s, w is the first)."""
    out: dict[Result, tuple[int, ...]] = {}
    for order in permutations(neighbours(cards)):
        out.setdefault(meet(code, cards, order), order)
    return out


@lru_cache(maxsize=65_536)
def ways(card: int, cards: Around) -> dict[Result, tuple[int, tuple[int, ...]]]:
    """Every distinct result of placing the card of kind ``card`` among
    ``cards``, with either face up and in any order, and the way it is
    written (the notation's canonical form): the face, and the order of
    meetings or ``()``.

    A result reached in several ways is written the shortest way (without an
    order if a face needs none), then with the face the card ends up
    showing, then with the face earlier in seasonal order, then with the
    first order.
    """
    a, b = card >> 2, card & 3
    candidates = []
    for face, back in ((a, b),) if a == b else ((a, b), (b, a)):
        results = outcomes(face * 4 + back, cards)
        for res, order in results.items():
            spelled = order if len(results) > 1 else ()
            candidates.append((len(spelled) > 0, face != res[0] >> 2, face, spelled, res))
    canon: dict[Result, tuple[int, tuple[int, ...]]] = {}
    for _, _, face, order, res in sorted(candidates):
        canon.setdefault(res, (face, order))
    return canon


def spell(face: int, back: int, square: int, order: tuple[int, ...]) -> str:
    """A move in the notation: ``FaSp-e5``, ``FaSp-e5:sw``."""
    text = f"{card_name(face, back)}-{SQUARES[square]}"
    return text + ":" + "".join(DIRS[d] for d in order) if order else text


# --- 5.1: placement ------------------------------------------------------------------


def spread(box: Box, square: int) -> Box:
    """The rows and columns the cards span once a card is on ``square``."""
    r, c = ROW_COL[square]
    r0, r1, c0, c1 = box
    return min(r, r0), max(r, r1), min(c, c0), max(c, c1)


def fits(box: Box) -> bool:
    """5.1b: the cards do not exceed a 4x4 grid."""
    return box[1] - box[0] <= 3 and box[3] - box[2] <= 3


def open_squares(board: tuple[int, ...], box: Box) -> list[int]:
    """The squares where a card may go next, in the order of their names:
    empty, next to a card (5.1a) and keeping the cards in a 4x4 grid (5.1b);
    d4 on an empty table."""
    if box[0] > box[1]:
        return [CENTRE]
    return [
        sq for sq in BY_NAME
        if board[sq] < 0 and neighbours(around(board, sq)) and fits(spread(box, sq))
    ]


def legal_moves(state: State) -> tuple[Move, ...]:
    """Every distinct move, sorted by face, back, square name and order:
    each card the player may place, either face up, on each open square, in
    each of its :func:`ways` there.

    Read from the tables (``tables.py``), which hold :func:`ways` for every
    neighbourhood.
    """
    seat = state.seat
    if seat < 0:
        return ()
    hand = state.deck[:1] if state.deck else state.hands[seat]  # playable(), inlined: a hot path
    return tables.listing(hand, state.board, state.box, state.placed == 0)


def _illegal(reason: str, clause: str) -> IllegalMoveError:
    return IllegalMoveError(reason, f"{TITLE} {clause}")


def apply(state: State, move: Move) -> State:
    seat = state.seat
    if seat < 0:
        raise _illegal("the game is over: all 16 cards are on the table", "6")
    face, back, sq, order = move
    code = face * 4 + back
    card = kind(face, back)
    if card not in playable(state):
        if state.deck:
            held = state.deck[0]
            raise _illegal(
                f"the card drawn is {card_name(held >> 2, held & 3)}, not {card_name(face, back)}",
                "7",
            )
        raise _illegal(f"{state.players[seat]} holds no {card_name(face, back)} card", "3")
    board = state.board
    if board[sq] >= 0:
        raise _illegal(f"{SQUARES[sq]} already holds a card", "5.1")
    cards = around(board, sq)
    dirs = neighbours(cards)
    if state.placed == 0:
        if sq != CENTRE:
            raise _illegal("the first card goes on d4, the centre of the notation's frame", "5.1a")
    elif not dirs:
        raise _illegal(f"{SQUARES[sq]} is not adjacent to any card", "5.1a")
    box = spread(state.box, sq)
    if not fits(box):
        raise _illegal(
            f"a card on {SQUARES[sq]} would spread the cards over "
            f"{box[1] - box[0] + 1} rows and {box[3] - box[2] + 1} columns, "
            "more than a 4x4 grid",
            "5.1b",
        )
    if order:
        if sorted(order) != list(dirs):
            named = ", ".join(DIRS[d] for d in dirs) or "none"
            raise _illegal(
                "the order of meetings must name each neighbouring card once "
                f"(neighbours of {SQUARES[sq]}: {named})",
                "5.2",
            )
        final, after = meet(code, cards, order)
    else:
        results = outcomes(code, cards)
        if len(results) > 1:
            canon = ways(card, cards)
            options = []
            for res in results:
                f, o = canon[res]
                options.append(spell(f, face + back - f, sq, o))
            raise AmbiguousMoveError(
                "the order of meetings changes the outcome; add it: " + " or ".join(options),
                f"{TITLE} 5.2",
                tuple(options),
            )
        final, after = next(iter(results))
    new = list(board)
    new[sq] = final
    for d in dirs:
        new[NEIGHBOURS[sq][d]] = after[d]
    placed = state.placed + 1
    deck, hands = state.deck, state.hands
    if deck:
        deck = deck[1:]
    else:
        hand = list(hands[seat])
        hand.remove(card)
        hands = (*hands[:seat], tuple(hand), *hands[seat + 1 :])
    return msgspec.structs.replace(
        state,
        board=tuple(new),
        hands=hands,
        deck=deck,
        placed=placed,
        seat=-1 if placed == CARDS else (seat + 1) % len(state.players),
        box=box,
        last=sq,
    )


# --- 6. end of game, 7. solo -------------------------------------------------------------


def tally(board: tuple[int, ...]) -> tuple[list[int], list[int]]:
    """Face-up cards per season, and each season's largest group of
    orthogonally adjacent cards showing it."""
    counts, groups = [0] * 4, [0] * 4
    seen: set[int] = set()
    for start in range(OFF):
        if board[start] < 0:
            continue
        season = board[start] >> 2
        counts[season] += 1
        if start in seen:
            continue
        stack, size = [start], 0
        seen.add(start)
        while stack:
            i = stack.pop()
            size += 1
            for j in NEIGHBOURS[i]:
                if j not in seen and board[j] >= 0 and board[j] >> 2 == season:
                    seen.add(j)
                    stack.append(j)
        groups[season] = max(groups[season], size)
    return counts, groups


def _score_solo(state: State, counts: list[int], groups: list[int]) -> Outcome:
    """7: dominance, 7 or more connected of one season; balance, 4 of each season."""
    best = max(range(4), key=lambda s: (groups[s], -s))
    dominance = groups[best] >= 7
    balance = all(c == 4 for c in counts)
    goal_met = dominance if state.goal == "dominance" else balance
    player = state.players[0]
    per_season = ", ".join(f"{SEASON_NAMES[s]} {counts[s]}" for s in range(4))
    details = (
        f"goal: {state.goal} ({TITLE} 7) - {'met' if goal_met else 'not met'}",
        f"dominance (7 or more connected of one season): largest group {groups[best]} "
        f"{SEASON_NAMES[best]} - {'met' if dominance else 'not met'}",
        f"balance (exactly 4 of each season): {per_season} - {'met' if balance else 'not met'}",
    )
    return Outcome(
        standings=(Standing(player=player, score=int(goal_met), place=1),),
        winners=(player,) if goal_met else (),
        details=details,
    )


def standing(state: State) -> Outcome:
    """6: the most seasons face up gets 4 points for its player, the 2nd most
    3 and so on; ties go to the larger largest group, then to the season
    first in turn order. With 2 players a tie on points goes to the holder of
    the higher-ranked season. 7 for solo.

    The tally and the lines of 6 are read from the tables (``tables.py``),
    which the tests hold to :func:`tally` and to 6 as written.
    """
    counts, groups = tables.tally(state.board, state.box)
    if len(state.players) == 1:
        return _score_solo(state, counts, groups)
    return tables.score(
        counts, groups, state.owners, state.season_order, state.players, state.tie_order
    )


def outcome(state: State) -> Outcome | None:
    return standing(state) if state.seat < 0 else None


# --- views ---------------------------------------------------------------------------------


class View(msgspec.Struct, frozen=True, kw_only=True):
    """What one player (or a spectator) sees. Turn of Time hides nothing but
    the order of the solo deck."""

    viewer: str | None
    players: tuple[str, ...]
    seasons: tuple[tuple[str, ...], ...]  # per seat, the seasons it plays for, as drawn
    unowned: tuple[str, ...]  # seasons nobody plays for (3 players)
    goal: str | None  # solo
    board: dict[str, str]  # square -> card, face first: {"d4": "FaSp"}
    last: str | None  # square of the card placed last
    open: tuple[str, ...]  # squares where the next card may go
    face_up: dict[str, int]  # season -> cards showing it
    largest_group: dict[str, int]
    hands: tuple[tuple[str, ...], ...]  # per seat (Turn of Time hands are open)
    drawn: str | None  # solo: the card to place now
    deck: int  # solo: cards left under it
    placed: int
    to_move: str | None


def _hand_names(hand: tuple[int, ...], own: set[int]) -> tuple[str, ...]:
    """A hand's cards, each with the holder's own season first."""
    out = []
    for card in hand:
        a, b = card >> 2, card & 3
        if b in own and a not in own:
            a, b = b, a
        out.append(card_name(a, b))
    return tuple(out)


def view(state: State, seat: int | None) -> View:
    n = len(state.players)
    counts, groups = tally(state.board)
    seasons = tuple(
        tuple(SEASONS[s] for s in state.season_order if state.owners[s] == p) for p in range(n)
    )
    if n == 1:
        seasons = (SEASONS,)
    drawn = None
    if state.deck:
        k = state.deck[0]
        drawn = card_name(k >> 2, k & 3)
    return View(
        viewer=None if seat is None else state.players[seat],
        players=state.players,
        seasons=seasons,
        unowned=tuple(SEASONS[s] for s in range(4) if state.owners[s] < 0),
        goal=state.goal if n == 1 else None,
        board={
            SQUARES[i]: card_name(c >> 2, c & 3)
            for i in BY_NAME
            if (c := state.board[i]) >= 0
        },
        last=SQUARES[state.last] if state.last >= 0 else None,
        open=tuple(SQUARES[sq] for sq in open_squares(state.board, state.box))
        if state.seat >= 0
        else (),
        face_up={SEASONS[s]: counts[s] for s in range(4)},
        largest_group={SEASONS[s]: groups[s] for s in range(4)},
        hands=tuple(
            _hand_names(h, {s for s in range(4) if state.owners[s] == p})
            for p, h in enumerate(state.hands)
        ),
        drawn=drawn,
        deck=max(0, len(state.deck) - 1),
        placed=state.placed,
        to_move=None if state.seat < 0 else state.players[state.seat],
    )


def _code(name: str) -> int:
    """'FaSp' -> 2 * 4 + 0."""
    return SEASONS.index(name[:2]) * 4 + SEASONS.index(name[2:4])


def consistent(v: View, params: Mapping[str, Value], seed: str) -> State:
    """A state ``v`` could have been cut from. Only the solo deck under the
    drawn card is hidden: its cards (those neither on the table nor drawn)
    are shuffled from ``seed``. The goal and the tie order are the game's
    ``params`` (a log pinned to rules version 1 has no ``tie_order``: its
    legacy value)."""
    players = v.players
    n = len(players)
    board = list(EMPTY)
    for name, card in v.board.items():
        board[SQUARE_INDEX[name]] = _code(card)
    owners: tuple[int, ...]
    order: tuple[int, ...]
    if n == 1:
        owners, order = (0, 0, 0, 0), (0, 1, 2, 3)
    else:
        seat_of = {SEASONS.index(s): p for p, own in enumerate(v.seasons) for s in own}
        owners = tuple(seat_of.get(s, -1) for s in range(4))
        # Drawn in turn: each seat's first season, then (2 players) each one's second.
        drawn_in_turn = [v.seasons[i % n][i // n] for i in range(len(seat_of))]
        order = tuple(SEASONS.index(s) for s in (*drawn_in_turn, *v.unowned))
    deck: tuple[int, ...] = ()
    if v.drawn is not None:
        rest = list(DECK)
        for code in (c for c in board if c >= 0):
            rest.remove(kind(code >> 2, code & 3))
        drawn = _code(v.drawn)
        rest.remove(kind(drawn >> 2, drawn & 3))
        deck = (kind(drawn >> 2, drawn & 3), *shuffled(seed, "consistent", rest))
    taken = [SQUARE_INDEX[name] for name in v.board]
    box = NO_BOX
    for sq in taken:
        box = spread(box, sq)
    return State(
        players=players,
        goal=str(params.get(PARAMS[1].name, v.goal or PARAMS[1].default)),
        tie_order=str(params.get(PARAMS[2].name, PARAMS[2].legacy)),
        owners=owners,
        season_order=order,
        board=tuple(board),
        hands=tuple(tuple(sorted(_kind_of(c) for c in hand)) for hand in v.hands),
        deck=deck,
        placed=v.placed,
        seat=-1 if v.to_move is None else players.index(v.to_move),
        box=box,
        last=-1 if v.last is None else SQUARE_INDEX[v.last],
    )


def _kind_of(name: str) -> int:
    code = _code(name)
    return kind(code >> 2, code & 3)


def redeal(state: State, seat: int | None, seed: str) -> State:
    """Only the order of the solo deck under the drawn card is hidden."""
    if len(state.deck) < 3:
        return state
    rest = shuffled(seed, "redeal", state.deck[1:])
    return msgspec.structs.replace(state, deck=(state.deck[0], *rest))
