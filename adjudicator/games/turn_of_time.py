"""Turn of Time (Nicholas Hjelmberg, Nova Suecia Games), solo and 2-4 players.

Rule clauses are cited by the rule card's own numbering ("5.1a"); the notation
and every ruling are in ``notation/turn-of-time.md``.

Representation: the grid floats, so squares are named on a fixed 7x7 frame
(files a-g, ranks 1-7) whose centre d4 holds the first card; any 4x4 box
around d4 fits in it. A square is ``row * 7 + col``. A season is 0-3 in
seasonal order (Spring, Summer, Fall, Winter). A card on the table is
``face * 4 + back``; a card in hand is its two seasons, lower first.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from itertools import permutations
from typing import NamedTuple

import msgspec
from msgspec.structs import replace as _replace

from ..chance import shuffled
from ..engine import Outcome, Param, Standing, Style, Value
from ..errors import AmbiguousMoveError, IllegalMoveError, NotationError

ID = "turn-of-time"
TITLE = "Turn of Time"
PLAYERS = (1, 2, 3, 4)
TURN_CLAUSE = "Turn of Time 5.1"
END_CLAUSE = "Turn of Time 6"
NOTATION = "notation/turn-of-time.md"

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
)

SEASONS = ("Sp", "Su", "Fa", "Wi")
SEASON_NAMES = ("Spring", "Summer", "Fall", "Winter")
DIRS = "nesw"
FILES = "abcdefg"
SIZE = 7
CENTRE = 3 * SIZE + 3  # d4
CARDS = 16
SQUARES = tuple(f"{FILES[i % SIZE]}{i // SIZE + 1}" for i in range(SIZE * SIZE))
_SQUARE_INDEX = {name: i for i, name in enumerate(SQUARES)}
_COLOURS = ("32", "33", "31", "36")  # Spring green, Summer yellow, Fall red, Winter cyan


# The board has one extra, always empty, entry OFF: neighbours off the frame
# point to it, so looking a neighbour up needs no bounds check.
OFF = SIZE * SIZE


def _neighbours(i: int) -> tuple[int, int, int, int]:
    r, c = divmod(i, SIZE)
    return (
        i + SIZE if r < SIZE - 1 else OFF,
        i + 1 if c < SIZE - 1 else OFF,
        i - SIZE if r > 0 else OFF,
        i - 1 if c > 0 else OFF,
    )


NEIGHBOURS = tuple(_neighbours(i) for i in range(SIZE * SIZE))
_ROW_COL = tuple(divmod(i, SIZE) for i in range(SIZE * SIZE))


def _kind(a: int, b: int) -> int:
    """The card with seasons a and b, as held in a hand."""
    return a * 4 + b if a <= b else b * 4 + a


def _flip(code: int) -> int:
    return (code & 3) * 4 + (code >> 2)


_FLIPPED = tuple(_flip(c) for c in range(16))
_MASK_DIRS = tuple(tuple(d for d in range(4) if m >> d & 1) for m in range(16))


def _season_set(s: int) -> list[int]:
    """A season's set: its single card and its double with each other season (3)."""
    return [_kind(s, t) for t in range(4)]


# Every card of the game: 4 singles and two of each of the 6 pairs (1. COMPONENTS).
DECK = tuple(sorted(k for s in range(4) for k in _season_set(s)))


class Move(NamedTuple):
    """A card placed with ``face`` up on ``square``, meeting neighbours in ``order``.

    ``order`` lists directions (0-3 for n, e, s, w); it is empty when the order
    of meetings does not change the outcome.
    """

    face: int
    back: int
    square: int
    order: tuple[int, ...] = ()


class State(msgspec.Struct, frozen=True):
    players: tuple[str, ...]
    goal: str
    owners: tuple[int, ...]  # season -> seat, -1 for nobody (3 players)
    season_order: tuple[int, ...]  # seasons in turn order, a season nobody owns last
    board: tuple[int, ...]  # 49 squares and OFF: -1 empty, else face * 4 + back
    hands: tuple[tuple[int, ...], ...]  # per seat, sorted card kinds
    deck: tuple[int, ...]  # solo: the shuffled deck, deck[0] drawn and to be placed
    placed: int  # cards on the table
    seat: int  # seat to move, -1 once all 16 cards are placed
    box: tuple[int, int, int, int]  # rows and columns spanned: r0, r1, c0, c1
    last: int  # square of the card placed last, -1 before any


# --- setup ---------------------------------------------------------------------


def setup(params: Mapping[str, Value], players: tuple[str, ...], seed: str) -> State:
    n = len(players)
    if n == 1:
        # 7. SOLO RULES: all 16 cards in one shuffled deck.
        deck = tuple(shuffled(seed, "deck", DECK))
        owners, order, hands, first = (0, 0, 0, 0), (0, 1, 2, 3), ((),), -1
    else:
        # 3. SETUP: the seasons are drawn at random.
        perm = tuple(shuffled(seed, "seasons", range(4)))
        owners, order, hands, first = _deal(n, perm, str(params["absent-doubles"]))
        deck = ()
    board = [-1] * (OFF + 1)
    if first >= 0:
        # 5.1: the undrawn single season card is placed on the table first.
        board[CENTRE] = first * 5
    return State(
        players=players,
        goal=str(params["goal"]),
        owners=owners,
        season_order=order,
        board=tuple(board),
        hands=hands,
        deck=deck,
        placed=1 if first >= 0 else 0,
        seat=0,
        box=(3, 3, 3, 3) if first >= 0 else (SIZE, -1, SIZE, -1),
        last=CENTRE if first >= 0 else -1,
    )


@lru_cache(maxsize=None)
def _deal(
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
            hands[i % 2] += _season_set(s)
    else:
        for i in range(n):
            owners[perm[i]] = i
            hands[i] += _season_set(perm[i])
    first = -1
    if n == 3:
        first = absent = perm[3]
        for i in range(3):
            own = perm[i]
            if absent_doubles == "example":
                other = next(t for t in ((own + k) % 4 for k in (1, 2, 3)) if t != absent)
            else:
                other = own
            hands[i].append(_kind(absent, other))
    return tuple(owners), perm, tuple(tuple(sorted(h)) for h in hands), first


def to_move(state: State) -> int | None:
    return None if state.seat < 0 else state.seat


# --- meetings (5.2, 5.3) ----------------------------------------------------------


class _Meetings(NamedTuple):
    dirs: tuple[int, ...]  # directions holding a card, in n, e, s, w order
    result: dict[tuple[int, ...], tuple[int, int]]  # order -> (placed card, flipped mask)
    reps: tuple[tuple[int, ...], ...]  # the first order giving each distinct result
    rep_of: dict[tuple[int, int], tuple[int, ...]]


_MEETINGS: dict[tuple[int, int, int, int, int], _Meetings] = {}


def _meet_all(code: int, around: tuple[int, int, int, int]) -> _Meetings:
    """Every order of meetings of a card placed as ``code`` with neighbours ``around``.

    ``around`` holds the neighbouring cards (n, e, s, w; -1 where empty). Two
    orders have the same result when they leave the same cards on the table:
    turning over a single card shows the same season, so it does not count.
    Memoised: validation meets the same few hundred cases again and again.
    """
    key = (code, *around)
    m = _MEETINGS.get(key)
    if m is not None:
        return m
    dirs = tuple(d for d in range(4) if around[d] >= 0)
    faces = [c >> 2 for c in around]
    doubles = sum(1 << d for d in dirs if around[d] >> 2 != around[d] & 3)
    result: dict[tuple[int, ...], tuple[int, int]] = {}
    rep_of: dict[tuple[int, int], tuple[int, ...]] = {}
    for order in permutations(dirs):  # lexicographic: the first of a result is its rep
        cur, mask = code, 0
        for d in order:
            p, q = cur >> 2, faces[d]
            beat = (p - q) % 4
            if beat == 1:  # 4: the later season flips the earlier one
                mask |= 1 << d
            elif beat == 3:  # the neighbour flips the placed card (5.3: use its new side)
                cur = _flip(cur)
            elif beat == 2:  # 4: opposite seasons flip each other
                mask |= 1 << d
                cur = _flip(cur)
        res = (cur, mask & doubles)
        result[order] = res
        rep_of.setdefault(res, order)
    m = _Meetings(dirs, result, tuple(rep_of.values()), rep_of)
    _MEETINGS[key] = m
    return m


class _Choices(NamedTuple):
    meets: dict[int, _Meetings]  # face shown -> its meetings
    canon: dict[tuple[int, int], tuple[int, tuple[int, ...]]]  # result -> (face, order)
    reps: tuple[tuple[int, tuple[int, ...]], ...]  # the canonical (face, order) of each result


_CHOICES: dict[tuple[int, int, int, int, int], _Choices] = {}


def _choose(kind: int, around: tuple[int, int, int, int]) -> _Choices:
    """Every distinct result of placing a card of ``kind`` among ``around``.

    Both faces and every order of meetings are tried. A result reached in
    several ways is written the shortest way (without an order if a face
    needs none), then with the face the card ends up showing, then with the
    face earlier in seasonal order, then with the first order.
    """
    key = (kind, *around)
    ch = _CHOICES.get(key)
    if ch is not None:
        return ch
    a, b = kind >> 2, kind & 3
    meets: dict[int, _Meetings] = {}
    ways = []
    for face, back in ((a, b),) if a == b else ((a, b), (b, a)):
        m = meets[face] = _meet_all(face * 4 + back, around)
        for order in m.reps:
            spelled = order if len(m.reps) > 1 else ()
            res = m.result[order]
            ways.append((len(spelled) > 0, face != res[0] >> 2, face, spelled, res))
    canon: dict[tuple[int, int], tuple[int, tuple[int, ...]]] = {}
    for _, _, face, order, res in sorted(ways):
        canon.setdefault(res, (face, order))
    ch = _CHOICES[key] = _Choices(meets, canon, tuple(canon.values()))
    return ch


def _around(board: tuple[int, ...], square: int) -> tuple[int, int, int, int]:
    n, e, s, w = NEIGHBOURS[square]
    return (board[n], board[e], board[s], board[w])


# --- moves ---------------------------------------------------------------------------


def _playable(state: State) -> tuple[int, ...]:
    return state.deck[:1] if state.deck else state.hands[state.seat]


def _open_squares(state: State) -> list[int]:
    """Empty squares adjacent to a card where the cards still fit a 4x4 box (5.1a, 5.1b)."""
    if state.placed == 0:
        return [CENTRE]
    r0, r1, c0, c1 = state.box
    board = state.board
    out = []
    for r in range(max(0, r1 - 3), min(SIZE - 1, r0 + 3) + 1):
        for c in range(max(0, c1 - 3), min(SIZE - 1, c0 + 3) + 1):
            i = r * SIZE + c
            if board[i] < 0 and any(board[j] >= 0 for j in NEIGHBOURS[i]):
                out.append(i)
    return out


def legal_moves(state: State) -> tuple[Move, ...]:
    if state.seat < 0:
        return ()
    squares = _open_squares(state)
    board = state.board
    around = [(sq, _around(board, sq)) for sq in squares]
    moves = []
    for kind in sorted(set(_playable(state))):
        other = (kind >> 2) + (kind & 3)
        for sq, faces in around:
            for face, order in _choose(kind, faces).reps:
                moves.append(Move(face, other - face, sq, order))
    moves.sort(key=lambda m: (m.face, m.back, SQUARES[m.square], m.order))
    return tuple(moves)


def _illegal(reason: str, clause: str) -> IllegalMoveError:
    return IllegalMoveError(reason, f"{TITLE} {clause}")


def _card_name(face: int, back: int) -> str:
    return SEASONS[face] + SEASONS[back]


def apply(state: State, move: Move) -> State:
    seat = state.seat
    if seat < 0:
        raise _illegal("the game is over: all 16 cards are on the table", "6")
    face, back, sq, order = move
    code = face * 4 + back
    kind = code if face <= back else back * 4 + face
    deck = state.deck
    playable = deck[:1] if deck else state.hands[seat]
    if kind not in playable:
        if deck:
            held = playable[0]
            raise _illegal(
                f"the card drawn is {_card_name(held >> 2, held & 3)}, not "
                f"{_card_name(face, back)}",
                "7",
            )
        raise _illegal(
            f"{state.players[seat]} holds no {_card_name(face, back)} card", "3"
        )
    board = state.board
    if board[sq] >= 0:
        raise _illegal(f"{SQUARES[sq]} already holds a card", "5.1")
    r, c = _ROW_COL[sq]
    n_, e_, s_, w_ = NEIGHBOURS[sq]
    around = (board[n_], board[e_], board[s_], board[w_])
    if state.placed == 0:
        if sq != CENTRE:
            raise _illegal(
                "the first card goes on d4, the centre of the notation's frame", "5.1a"
            )
        box = (r, r, c, c)
    else:
        if max(around) < 0:
            raise _illegal(f"{SQUARES[sq]} is not adjacent to any card", "5.1a")
        r0, r1, c0, c1 = state.box
        box = (r if r < r0 else r0, r if r > r1 else r1, c if c < c0 else c0, c if c > c1 else c1)
        if box[1] - box[0] > 3 or box[3] - box[2] > 3:
            raise _illegal(
                f"a card on {SQUARES[sq]} would spread the cards over "
                f"{box[1] - box[0] + 1} rows and {box[3] - box[2] + 1} columns, "
                "more than a 4x4 grid",
                "5.1b",
            )
    meet = _MEETINGS.get((code, *around)) or _meet_all(code, around)
    if order:
        res = meet.result.get(order)
        if res is None:
            named = ", ".join(DIRS[d] for d in meet.dirs) or "none"
            raise _illegal(
                "the order of meetings must name each neighbouring card once "
                f"(neighbours of {SQUARES[sq]}: {named})",
                "5.2",
            )
    else:
        if len(meet.reps) > 1:
            canon = _choose(kind, around).canon
            options = tuple(
                _spell(*canon[meet.result[rep]], face + back, sq) for rep in meet.reps
            )
            raise AmbiguousMoveError(
                "the order of meetings changes the outcome; add it: " + " or ".join(options),
                f"{TITLE} 5.2",
                options,
            )
        res = meet.result[meet.dirs]
    final, mask = res
    new = list(board)
    new[sq] = final
    if mask:
        nbrs = NEIGHBOURS[sq]
        for d in _MASK_DIRS[mask]:
            j = nbrs[d]
            new[j] = _FLIPPED[new[j]]
    placed = state.placed + 1
    n = len(state.players)
    if deck:
        deck, hands = deck[1:], state.hands
    else:
        hands = state.hands
        hand = hands[seat]
        k = hand.index(kind)
        hands = (*hands[:seat], hand[:k] + hand[k + 1 :], *hands[seat + 1 :])
    return _replace(
        state,
        board=tuple(new),
        hands=hands,
        deck=deck,
        placed=placed,
        seat=-1 if placed == CARDS else (seat + 1) % n,
        box=box,
        last=sq,
    )


# --- notation --------------------------------------------------------------------------

_SEASON_WORDS = {
    "spring": 0, "sp": 0,
    "summer": 1, "su": 1,
    "fall": 2, "autumn": 2, "fa": 2, "au": 2,
    "winter": 3, "wi": 3,
}  # fmt: skip
_S = "(" + "|".join(sorted(_SEASON_WORDS, key=len, reverse=True)) + ")"
_MOVE_RE = re.compile(
    rf"{_S}/?{_S}[-@]?([a-z])(\d+)(?:[:/]?([a-z]+))?"
)
_HALF_RE = re.compile(rf"{_S}[-@]?[a-z]\d+.*")


def parse_move(state: State, text: str) -> Move:
    """Read a move; case, spaces and a few separators are forgiven.

    >>> parse_move(None, "FaSp-c3:nw")
    Move(face=2, back=0, square=16, order=(0, 3))
    >>> parse_move(None, "fall/spring c3")
    Move(face=2, back=0, square=16, order=())
    """
    return _parse(text)


@lru_cache(maxsize=4096)
def _parse(text: str) -> Move:
    # A move reads the same in every position, so readings are cached.
    flat = "".join(text.split()).lower()
    m = _MOVE_RE.fullmatch(flat)
    if m is None:
        if _HALF_RE.fullmatch(flat):
            hint = "a card has two sides: give the face shown, then the back (FaFa for the single Fall card)"
        else:
            hint = "expected the face and back seasons, then the square, as in FaSp-c3 or FaSp-c3:nw"
        raise NotationError(f"cannot read this as a move: {hint} ({NOTATION})")
    face, back = _SEASON_WORDS[m[1]], _SEASON_WORDS[m[2]]
    square = _SQUARE_INDEX.get(m[3] + m[4])
    if square is None:
        raise NotationError(
            f"no square {m[3]}{m[4]}: squares run from a1 to g7 with the first card on d4 ({NOTATION})"
        )
    order: tuple[int, ...] = ()
    if m[5]:
        if any(ch not in DIRS for ch in m[5]):
            raise NotationError(
                f"the order of meetings {m[5]!r} must use the directions n, e, s and w ({NOTATION})"
            )
        if len(set(m[5])) != len(m[5]):
            raise NotationError(
                f"the order of meetings {m[5]!r} names a direction twice ({NOTATION})"
            )
        order = tuple(DIRS.index(ch) for ch in m[5])
    return Move(face, back, square, order)


_BASE = tuple(
    tuple(f"{SEASONS[c >> 2]}{SEASONS[c & 3]}-{sq}" for sq in SQUARES) for c in range(16)
)


def _spell(face: int, order: tuple[int, ...], seasons: int, square: int) -> str:
    """The notation of a card of two seasons summing to ``seasons`` shown as ``face``."""
    text = _BASE[face * 4 + seasons - face][square]
    return text + ":" + "".join(DIRS[d] for d in order) if order else text


_SPELLED: dict[tuple, tuple[int, str]] = {}


def format_move(state: State, move: Move) -> str:
    """The canonical notation: the way of reaching the move's result that is
    written first (see ``_choose``); an impossible move is written as typed."""
    face, back, sq, order = move
    board = state.board
    n, e, s, w = NEIGHBOURS[sq]
    key = (face * 4 + back, order, board[n], board[e], board[s], board[w])
    spelled = _SPELLED.get(key)
    if spelled is None:
        if len(_SPELLED) > 200_000:  # bound the memory a stream of odd logs can take
            _SPELLED.clear()
        spelled = _SPELLED[key] = _canonical(face, back, order, key[2:])  # type: ignore[arg-type]
    code, suffix = spelled
    return _BASE[code][sq] + suffix


def _canonical(
    face: int, back: int, order: tuple[int, ...], around: tuple[int, int, int, int]
) -> tuple[int, str]:
    """The card code and order suffix of the canonical spelling (memoised above)."""
    kind = face * 4 + back if face <= back else back * 4 + face
    ch = _choose(kind, around)
    meet = ch.meets[face]
    res = meet.result.get(order or meet.dirs)
    if res is not None and (order or len(meet.reps) == 1):
        face, order = ch.canon[res]
        back = (kind >> 2) + (kind & 3) - face
    return face * 4 + back, (":" + "".join(DIRS[d] for d in order)) if order else ""


# --- scoring (6, 7) ------------------------------------------------------------------------


def _tally(
    board: tuple[int, ...], box: tuple[int, int, int, int]
) -> tuple[list[int], list[int]]:
    """Face-up cards per season and each season's largest connected group.

    Only the squares inside ``box`` (the rows and columns the cards span) can
    hold cards, so only they are visited.
    """
    r0, r1, c0, c1 = box
    cards = [
        i
        for r in range(r0, r1 + 1)
        for i in range(r * SIZE + c0, r * SIZE + c1 + 1)
        if board[i] >= 0
    ]
    counts = [0] * 4
    groups = [0] * 4
    for i in cards:
        counts[board[i] >> 2] += 1
    unseen = set(cards)
    while unseen:
        start = unseen.pop()
        s = board[start] >> 2
        stack, size = [start], 0
        while stack:
            k = stack.pop()
            size += 1
            for j in NEIGHBOURS[k]:
                if j in unseen and board[j] >> 2 == s:
                    unseen.discard(j)
                    stack.append(j)
        if size > groups[s]:
            groups[s] = size
    return counts, groups


def _ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def _score_solo(state: State, counts: list[int], groups: list[int]) -> Outcome:
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
    counts, groups = _tally(state.board, state.box)
    if len(state.players) == 1:
        return _score_solo(state, counts, groups)
    return _score(
        tuple(counts), tuple(groups), state.owners, state.season_order, state.players
    )


@lru_cache(maxsize=4096)
def _score(
    counts: tuple[int, ...],
    groups: tuple[int, ...],
    owners: tuple[int, ...],
    season_order: tuple[int, ...],
    players: tuple[str, ...],
) -> Outcome:
    """6. END OF GAME, from the tally alone (memoised: games end alike often)."""
    turn = {s: i for i, s in enumerate(season_order)}
    # 6: most face up, then the larger largest group, then earlier in turn order
    # (a season nobody owns is last in season_order, so it loses that tie-break).
    ranked = sorted(range(4), key=lambda s: (-counts[s], -groups[s], turn[s]))
    points = {s: 4 - i for i, s in enumerate(ranked)}
    details = []
    for i, s in enumerate(ranked):
        owner = owners[s]
        who = players[owner] if owner >= 0 else "nobody"
        details.append(
            f"{_ordinal(i + 1)} {SEASON_NAMES[s]} ({who}): {counts[s]} face up, "
            f"largest group {groups[s]} - {points[s]} point{'s' * (points[s] != 1)}"
        )
    for hi, lo in zip(ranked, ranked[1:]):
        if counts[hi] != counts[lo]:
            continue
        if groups[hi] != groups[lo]:
            why = f"a larger largest group ({groups[hi]} to {groups[lo]})"
        elif owners[lo] < 0:
            why = (f"equal largest groups ({groups[hi]}), and {SEASON_NAMES[lo]} belongs "
                   "to nobody, so it comes last in turn order")
        else:
            why = f"equal largest groups ({groups[hi]}), and it is earlier in turn order"
        details.append(
            f"{SEASON_NAMES[hi]} ranks above {SEASON_NAMES[lo]}: both {counts[hi]} face up, "
            f"{why} ({TITLE} 6)"
        )
    n = len(players)
    scores = [0] * n
    best_rank = [4] * n
    for i, s in enumerate(ranked):
        owner = owners[s]
        if owner >= 0:
            scores[owner] += points[s]
            best_rank[owner] = min(best_rank[owner], i)
    # Two players: a tie on totals goes to the holder of the higher-ranked season.
    seats = sorted(range(n), key=lambda p: (-scores[p], best_rank[p]))
    if n == 2 and scores[0] == scores[1]:
        w, l = seats
        top = ranked[best_rank[w]]
        details.append(
            f"{players[w]} and {players[l]} both have {scores[w]} points; "
            f"{players[w]} holds the higher-ranked season ({SEASON_NAMES[top]}, "
            f"{_ordinal(best_rank[w] + 1)})"
        )
    standings = tuple(
        Standing(player=players[p], score=scores[p], place=i + 1)
        for i, p in enumerate(seats)
    )
    return Outcome(standings=standings, winners=(players[seats[0]],), details=tuple(details))


def outcome(state: State) -> Outcome | None:
    return standing(state) if state.seat < 0 else None


# --- views and rendering -------------------------------------------------------------------


class View(msgspec.Struct, frozen=True, kw_only=True):
    """What one player (or a spectator) sees. Turn of Time hides nothing but
    the order of the solo deck."""

    viewer: str | None
    players: tuple[str, ...]
    seasons: tuple[tuple[str, ...], ...]  # per seat, the seasons it plays for
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
    out = []
    for kind in hand:
        a, b = kind >> 2, kind & 3
        if b in own and a not in own:
            a, b = b, a
        out.append(_card_name(a, b))
    return tuple(out)



VIEW = View  # the type of a view, to read one back from a view file

def view(state: State, seat: int | None) -> View:
    n = len(state.players)
    counts, groups = _tally(state.board, state.box)
    seasons = tuple(
        tuple(SEASONS[s] for s in state.season_order if state.owners[s] == p) for p in range(n)
    )
    if n == 1:
        seasons = (SEASONS,)
    drawn = None
    if state.deck:
        k = state.deck[0]
        drawn = _card_name(k >> 2, k & 3)
    return View(
        viewer=None if seat is None else state.players[seat],
        players=state.players,
        seasons=seasons,
        unowned=tuple(SEASONS[s] for s in range(4) if state.owners[s] < 0),
        goal=state.goal if n == 1 else None,
        board={
            SQUARES[i]: _card_name(c >> 2, c & 3)
            for i, c in sorted(enumerate(state.board[:OFF]), key=lambda t: SQUARES[t[0]])
            if c >= 0
        },
        last=SQUARES[state.last] if state.last >= 0 else None,
        open=tuple(sorted(SQUARES[i] for i in _open_squares(state))) if state.seat >= 0 else (),
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


def redeal(state: State, seat: int | None, seed: str) -> State:
    """Only the order of the solo deck under the drawn card is hidden."""
    if len(state.deck) < 3:
        return state
    rest = shuffled(seed, "redeal", state.deck[1:])
    return msgspec.structs.replace(state, deck=(state.deck[0], *rest))


def _paint_card(card: str, style: Style) -> str:
    return style.paint(card[:2], _COLOURS[SEASONS.index(card[:2])]) + card[2:]


def render(v: View, style: Style) -> str:
    """The table as a grid of the squares still in play, then seasons and hands."""
    cells = {_SQUARE_INDEX[sq]: card for sq, card in v.board.items()}
    open_ = {_SQUARE_INDEX[s] for s in v.open}
    # The cards and the squares open to the next card; at least d4.
    shown = set(cells) | open_ or {CENTRE}
    r_lo, r_hi = min(i // SIZE for i in shown), max(i // SIZE for i in shown)
    c_lo, c_hi = min(i % SIZE for i in shown), max(i % SIZE for i in shown)
    if style.unicode:
        h, vbar, dot = "─", "│", "·"
        top, mid, bot = ("┌", "┬", "┐"), ("├", "┼", "┤"), ("└", "┴", "┘")
    else:
        h, vbar, dot = "-", "|", "."
        top = mid = bot = ("+", "+", "+")
    ncols = c_hi - c_lo + 1

    def rule(ends: tuple[str, str, str]) -> str:
        return "   " + ends[0] + ends[1].join([h * 6] * ncols) + ends[2]

    lines = ["    " + "".join(f"  {FILES[c]}    " for c in range(c_lo, c_hi + 1)).rstrip()]
    lines.append(rule(top))
    for r in range(r_hi, r_lo - 1, -1):
        row = []
        for c in range(c_lo, c_hi + 1):
            i = r * SIZE + c
            card = cells.get(i)
            if card is not None:
                text = _paint_card(card, style)
                row.append(f"[{text}]" if v.last == SQUARES[i] else f" {text} ")
            elif i in open_:
                row.append(f"  {dot}   ")
            else:
                row.append(" " * 6)
        lines.append(f"{r + 1:>2} {vbar}" + vbar.join(row) + vbar)
        lines.append(rule(mid if r > r_lo else bot))
    lines.append("")
    tally = "  ".join(
        f"{style.paint(SEASON_NAMES[i], _COLOURS[i])} {v.face_up[s]} (group {v.largest_group[s]})"
        for i, s in enumerate(SEASONS)
    )
    lines.append(f"Face up: {tally}")
    if v.goal is not None:
        lines.append(f"Goal: {v.goal}")
        if v.drawn is not None:
            lines.append(f"Drawn card: {_paint_card(v.drawn, style)} ({v.deck} left in the deck)")
    else:
        width = max(len(p) for p in v.players)
        arrow = "→" if style.unicode else ">"
        for p, name in enumerate(v.players):
            mark = arrow if v.to_move == name else " "
            seasons = ", ".join(SEASON_NAMES[SEASONS.index(s)] for s in v.seasons[p])
            hand = " ".join(_paint_card(c, style) for c in v.hands[p]) or "(empty)"
            lines.append(f"{mark} {name:<{width}}  {seasons:<14}  hand: {hand}")
        for s in v.unowned:
            lines.append(
                f"  {SEASON_NAMES[SEASONS.index(s)]} belongs to nobody; its single card started the grid"
            )
    return "\n".join(lines)
