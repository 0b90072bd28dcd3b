"""Turn of Time: the rules. State, setup, legal moves, apply, scoring, views.

Rule clauses are cited by the rule card's own numbering ("5.1a"); the notation
and every ruling are in ``notation/turn-of-time.md``.

Representation: the grid floats, so squares are named on a fixed 7x7 frame
(files a-g, ranks 1-7) whose centre d4 holds the first card; any 4x4 box
around d4 fits in it. A square is ``row * 7 + col``. A season is 0-3 in
seasonal order (Spring, Summer, Fall, Winter). A card on the table is
``face * 4 + back`` (its *code*); a card in hand is its two seasons, lower
first (its *kind*).

Speed: validating a log calls :func:`fast_play` once (:func:`fast_apply`
text after text, building only the last state), and self-play calls
:func:`legal_moves`, :func:`format_move` and :func:`fast_apply`.
They rest on memos keyed by what a placement depends on (the card, the order
of meetings and the neighbours' *signature*, see below), never on whole
positions. The flat tables the hot paths read are filled from tables of the
same problems turned back to their class's card (a quarter as many keys, so
a process that has never seen a game soon finds them filled), and those are
worked out directly in the plain cases (:func:`_direct`) and by trying the
orders of meetings otherwise. Every memo is bounded.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from itertools import chain, permutations
from operator import itemgetter
from typing import NamedTuple

import msgspec
from msgspec.structs import replace as _replace

from ...chance import shuffled
from ...engine import Outcome, Param, Standing, Value
from ...errors import AmbiguousMoveError, IllegalMoveError

ID = "turn-of-time"
TITLE = "Turn of Time"
PLAYERS = (1, 2, 3, 4)
TURN_CLAUSE = "Turn of Time 5.1"
END_CLAUSE = "Turn of Time 6"
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

SEASONS = ("Sp", "Su", "Fa", "Wi")
SEASON_NAMES = ("Spring", "Summer", "Fall", "Winter")
DIRS = "nesw"
FILES = "abcdefg"
SIZE = 7
CENTRE = 3 * SIZE + 3  # d4
CARDS = 16
SQUARES = tuple(f"{FILES[i % SIZE]}{i // SIZE + 1}" for i in range(SIZE * SIZE))
_SQUARE_INDEX = {name: i for i, name in enumerate(SQUARES)}
# Squares in the order of their names (a1, a2, ..., g7), the order of listings.
_BY_NAME = tuple(sorted(range(SIZE * SIZE), key=lambda i: SQUARES[i]))


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
_KIND = tuple(_kind(c >> 2, c & 3) for c in range(16))  # card code -> kind in hand
_KINDS = tuple(sorted(set(_KIND)))
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
    box: tuple[int, int, int, int]  # rows and columns spanned: r0, r1, c0, c1
    last: int  # square of the card placed last, -1 before any


# --- setup ---------------------------------------------------------------------

_EMPTY = (-1,) * (OFF + 1)
# The board with the single card of season s on d4 (3 players, 5.1).
_STARTED = tuple(_EMPTY[:CENTRE] + (s * 5,) + _EMPTY[CENTRE + 1 :] for s in range(4))


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
    # 5.1: with 3 players the undrawn single season card is placed first.
    return State(
        players=players,
        goal=str(params["goal"]),
        tie_order=str(params.get("tie_order", "players")),
        owners=owners,
        season_order=order,
        board=_STARTED[first] if first >= 0 else _EMPTY,
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
#
# A meeting depends on a neighbouring card only through the season it shows
# and whether it is a double: turning a single card over changes nothing (R2).
# So the neighbours of a square are summed up in one number, their
# *signature*: a base-9 digit per direction (n, e, s, w), 0 for no card, else
# 1 + 2 * face + (1 if a double).

_SIGS = 9**4
_WEIGHTS = (729, 81, 9, 1)


def _digit(code: int) -> int:
    return 0 if code < 0 else 1 + 2 * (code >> 2) + ((code >> 2) != (code & 3))


# Per direction, a card's share of the signature, indexed by the card on the
# square: an empty square (-1, and OFF) reads the last entry, which is 0.
_SIG_N, _SIG_E, _SIG_S, _SIG_W = (
    tuple(_digit(c) * w for c in (*range(16), -1)) for w in _WEIGHTS
)


def _signature(board: tuple[int, ...], square: int) -> int:
    n, e, s, w = NEIGHBOURS[square]
    return _SIG_N[board[n]] + _SIG_E[board[e]] + _SIG_S[board[s]] + _SIG_W[board[w]]


def _digits(sig: int) -> tuple[int, int, int, int]:
    return (sig // 729, sig // 81 % 9, sig // 9 % 9, sig % 9)


# The plain definition: every order of meetings tried, and the ways of
# reaching each result compared as the notation says. It speaks for moves
# that are refused or not written canonically; the fast tables below are
# checked against it by the tests.


class _Meetings(NamedTuple):
    dirs: tuple[int, ...]  # directions holding a card, in n, e, s, w order
    result: dict[tuple[int, ...], tuple[int, int]]  # order -> (placed card, flipped mask)
    reps: tuple[tuple[int, ...], ...]  # the first order giving each distinct result
    rep_of: dict[tuple[int, int], tuple[int, ...]]


_MEETINGS: dict[int, _Meetings] = {}  # code * _SIGS + signature


def _meet_all(code: int, sig: int) -> _Meetings:
    """Every order of meetings of a card placed as ``code`` among neighbours ``sig``.

    Two orders have the same result when they leave the same cards on the
    table: turning over a single card shows the same season, so a flip of a
    single neighbour is not recorded in the result's mask.
    """
    key = code * _SIGS + sig
    m = _MEETINGS.get(key)
    if m is not None:
        return m
    if len(_MEETINGS) > 20_000:  # the checked path only: keep it small
        _MEETINGS.clear()
    digits = _digits(sig)
    dirs = tuple(d for d in range(4) if digits[d])
    faces = [(v - 1) >> 1 for v in digits]
    doubles = sum(1 << d for d in dirs if (digits[d] - 1) & 1)
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
    m = _MEETINGS[key] = _Meetings(dirs, result, tuple(rep_of.values()), rep_of)
    return m


class _Choices(NamedTuple):
    meets: dict[int, _Meetings]  # face shown -> its meetings
    canon: dict[tuple[int, int], tuple[int, tuple[int, ...]]]  # result -> (face, order)
    reps: tuple[tuple[int, tuple[int, ...]], ...]  # the canonical (face, order) of each result


_CHOICES: dict[int, _Choices] = {}  # kind * _SIGS + signature


def _choose(kind: int, sig: int) -> _Choices:
    """Every distinct result of placing a card of ``kind`` among neighbours ``sig``.

    Both faces and every order of meetings are tried. A result reached in
    several ways is written the shortest way (without an order if a face
    needs none), then with the face the card ends up showing, then with the
    face earlier in seasonal order, then with the first order.
    """
    key = kind * _SIGS + sig
    ch = _CHOICES.get(key)
    if ch is not None:
        return ch
    if len(_CHOICES) > 20_000:
        _CHOICES.clear()
    a, b = kind >> 2, kind & 3
    meets: dict[int, _Meetings] = {}
    ways = []
    for face, back in ((a, b),) if a == b else ((a, b), (b, a)):
        m = meets[face] = _meet_all(face * 4 + back, sig)
        for order in m.reps:
            spelled = order if len(m.reps) > 1 else ()
            res = m.result[order]
            ways.append((len(spelled) > 0, face != res[0] >> 2, face, spelled, res))
    canon: dict[tuple[int, int], tuple[int, tuple[int, ...]]] = {}
    for _, _, face, order, res in sorted(ways):
        canon.setdefault(res, (face, order))
    ch = _CHOICES[key] = _Choices(meets, canon, tuple(canon.values()))
    return ch


# --- the canonical moves, fast ------------------------------------------------------
#
# Listing, applying and reading moves need only the canonical ways of
# placing a card among given neighbours, worked out once per *relative*
# problem and shared. Seasons form a cycle, so turning the card and every
# neighbour on by the same number of seasons turns every result the same
# way; and the canonical choice does not depend on which season is which (of
# the notation's preferences the 3rd never decides: the two faces of a card
# end up showing different seasons, so the 2nd has told them apart). A card
# is then one of three classes, a single, a double of two neighbouring
# seasons or one of two opposite seasons, placed among the neighbours present,
# taken in n, e, s, w order.

_CLASS_CARDS = (0, 1, 2)  # a class's card: Sp/Sp, Sp/Su, Sp/Fa (face * 4 + back)


def _class_of(code: int) -> tuple[int, int]:
    """The class of a card, and the season its class's Spring is turned to."""
    a, b = code >> 2, code & 3
    if a > b:
        a, b = b, a
    gap = b - a
    return (0, a) if gap == 0 else (2, a) if gap == 2 else (1, a) if gap == 1 else (1, b)


_CLASS = tuple(_class_of(c) for c in range(16))  # by card code
# _TURN_CODE[t][code]: a card turned on by t seasons (t = -1 turns back one).
_TURN_CODE = tuple(
    tuple(((c >> 2) + t) % 4 * 4 + ((c & 3) + t) % 4 for c in range(16)) for t in range(4)
)
# _BACK_DIGIT[t][digit]: a neighbour's signature digit, turned back by t seasons.
_BACK_DIGIT = tuple(
    (0, *(1 + 2 * ((((v - 1) >> 1) - t) % 4) + ((v - 1) & 1) for v in range(1, 9)))
    for t in range(4)
)


def _step(code: int, digit: int) -> int:
    """A card showing ``code`` meets a neighbour of ``digit``: the card after,
    times 2, plus 1 if the neighbour is a double and is turned over (4, 5.3)."""
    q, double = (digit - 1) >> 1, (digit - 1) & 1
    beat = ((code >> 2) - q) % 4  # 1: it flips the neighbour, 3: is flipped, 2: both
    turned = beat in (1, 2) and double
    return (_flip(code) if beat in (2, 3) else code) * 2 + turned


_STEP = tuple(tuple(_step(c, v) if v else c * 2 for v in range(9)) for c in range(16))


# The signatures with exactly one neighbour, and its direction.
_ONE_NEIGHBOUR = {v * w: d for d, w in enumerate(_WEIGHTS) for v in range(1, 9)}


def _direct(code: int, sig: int) -> int | None:
    """The one result of placing ``code`` among neighbours ``sig``, as card
    after * 16 + mask of the directions turned over, when it is plain that
    every order of meetings gives it: a card no neighbour flips (it meets
    them all with the face it shows; a single card is never flipped to
    another season), or a card with one neighbour. None when the orders
    must be tried (see _relative)."""
    row = _STEP[code]  # an absent neighbour (digit 0) leaves the card as it is
    n, e, s, w = row[sig // 729], row[sig // 81 % 9], row[sig // 9 % 9], row[sig % 9]
    if n >> 1 == e >> 1 == s >> 1 == w >> 1 == code:
        return code * 16 + (n & 1) + (e & 1) * 2 + (s & 1) * 4 + (w & 1) * 8
    d = _ONE_NEIGHBOUR.get(sig)
    if d is None:
        return None
    step = (n, e, s, w)[d]
    return (step >> 1) * 16 + ((step & 1) << d)


def _direct_canonical(code: int, sig: int, res: int) -> bool | None:
    """Whether placing ``code`` among neighbours ``sig`` without an order,
    with the one result ``res`` (from _direct), is the canonical way of
    reaching it (None: the orders must be tried). Only a way without an order
    ending on the face it shows comes before it: the other face, if that
    too has the one result ``res``."""
    if res >> 6 == code >> 2:  # it ends on the face shown: nothing comes before it
        return True
    other = _direct(_FLIPPED[code], sig)
    return None if other is None else other != res


_PERMS = tuple(tuple(permutations(range(k))) for k in range(5))


def _results(
    code: int, digits: tuple[int, ...], perms: tuple[tuple[int, ...], ...]
) -> dict[int, tuple[int, ...]]:
    """Each distinct result (card after * 16 + mask of the positions turned
    over) of meeting neighbours ``digits`` in the orders ``perms`` (by
    position, lexicographic), with the first order giving it."""
    first: dict[int, tuple[int, ...]] = {}
    step = _STEP
    for perm in perms:
        cur, mask = code, 0
        for i in perm:
            turn = step[cur][digits[i]]
            cur = turn >> 1
            mask |= (turn & 1) << i
        res = cur * 16 + mask
        if res not in first:  # lexicographic: the first order of a result is its rep
            first[res] = perm
    return first


# Neighbours a card of a class meets alike: digits whose meetings (_STEP)
# with the class's card and with it turned over are the same, so that the
# canonical ways among them are the same. _ALIKE[cls][digit] is the lowest
# digit meeting the class's card as ``digit`` does: _RELATIVE is keyed by
# those, and a game never seen before finds more of it filled.
_ALIKE = tuple(
    tuple(
        min(e for e in range(1, 9) if _STEP[card][e] == _STEP[card][d]
            and _STEP[_flip(card)][e] == _STEP[_flip(card)][d]) if d else 0
        for d in range(9)
    )
    for card in _CLASS_CARDS
)


class _Relative(NamedTuple):
    outcome: dict[tuple[int, tuple[int, ...]], tuple[int, int]]  # way -> (card after, turned)
    listing: tuple[tuple[int, tuple[tuple[int, ...], ...]], ...]  # (code, its orders sorted)


_RELATIVE: dict[tuple[int, tuple[int, ...]], _Relative] = {}


def _relative(cls: int, digits: tuple[int, ...]) -> _Relative:
    """The canonical ways of placing the card of class ``cls`` among neighbours
    whose signature digits are ``digits`` (those present, in n, e, s, w
    order): each way's (code, order) with the card it ends up as and the mask
    of the neighbours it turns over, orders and masks by position in
    ``digits``; and per code its orders, sorted. At most 3 x (1 + 8 + 8**2 +
    8**3 + 8**4) entries."""
    card = _CLASS_CARDS[cls]
    codes = (card,) if cls == 0 else (card, _FLIPPED[card])
    perms = _PERMS[len(digits)]
    # The ways in the notation's order of preference: without an order, then
    # ending on the face shown, then the earlier face (the lower code), then
    # the first order; the first way to each result is the canonical one.
    groups: tuple[list, list, list, list] = ([], [], [], [])
    for code in codes:
        # A single card shows the same season whatever it meets: one order will do.
        first = _results(code, digits, perms[:1] if cls == 0 else perms)
        face = code >> 2
        if len(first) == 1:
            for res in first:
                groups[face != res >> 6].append((code, (), res))
        else:
            for res, perm in first.items():
                groups[2 + (face != res >> 6)].append((code, perm, res))
    outcome: dict[tuple[int, tuple[int, ...]], tuple[int, int]] = {}
    listed: dict[int, list[tuple[int, ...]]] = {code: [] for code in codes}
    seen = set()
    for group in groups:
        for code, perm, res in group:
            if res not in seen:
                seen.add(res)
                outcome[code, perm] = (res >> 4, res & 15)
                listed[code].append(perm)
    listing = tuple([(code, tuple(sorted(perms))) for code, perms in listed.items()])
    return _Relative(outcome, listing)


def _relative_of(cls: int, digits: tuple[int, ...]) -> _Relative:
    """``_relative(cls, digits)``, kept: worked out once for neighbours met alike."""
    key = (cls, tuple(map(_ALIKE[cls].__getitem__, digits)))
    rel = _RELATIVE.get(key)
    if rel is None:
        if len(_RELATIVE) > 20_000:  # never: at most 3 x (1 + 7 + 7**2 + 7**3 + 7**4) keys
            _RELATIVE.clear()
        rel = _RELATIVE[key] = _relative(*key)
    return rel


# A set of directions holding a card, as a bit mask (bit d: direction d):
# the directions, each order naming exactly them as positions among them
# (by order number; None: it names others), and each mask of positions as
# directions.
_PRESENT = tuple(tuple(d for d in range(4) if m >> d & 1) for m in range(16))

# Every order of meetings a move can name, numbered; 0 is no order.
_ORDERS: tuple[tuple[int, ...], ...] = ((),) + tuple(
    p for k in range(1, 5) for p in sorted(permutations(range(4), k))
)
_ORDER_ID = {order: i for i, order in enumerate(_ORDERS)}
_SUFFIX = tuple(":" + "".join(DIRS[d] for d in order) if order else "" for order in _ORDERS)
_ORDER_TEXT = {text[1:]: i for i, text in enumerate(_SUFFIX) if text}
_NORDERS = len(_ORDERS)
_PERM_OF = tuple(
    tuple(
        () if not order
        else tuple(_PRESENT[m].index(d) for d in order) if sorted(order) == list(_PRESENT[m])
        else None
        for order in _ORDERS
    )
    for m in range(16)
)
_POSITIONS_DIRS = tuple(
    tuple(tuple(_PRESENT[m][i] for i in _MASK_DIRS[k] if i < len(_PRESENT[m])) for k in range(16))
    for m in range(16)
)
_PERM_DIRS = tuple(
    {perm: tuple(_PRESENT[m][i] for i in perm) for perm in ((), *_PERMS[len(_PRESENT[m])])}
    for m in range(16)
)

# Per signature, worked out as met: the mask of directions holding a card and
# the digits of those cards.
_SIG_INFO: list[tuple[int, tuple[int, ...]] | None] = [None] * _SIGS


def _sig_info(sig: int) -> tuple[int, tuple[int, ...]]:
    n, e, s, w = _digits(sig)
    present = (n > 0) | (e > 0) << 1 | (s > 0) << 2 | (w > 0) << 3
    info = _SIG_INFO[sig] = (present, tuple([v for v in (n, e, s, w) if v]))
    return info


# _TURNED_SIGS[t][sig]: the signature with every neighbour turned back by t
# seasons (-1: not worked out yet).
_TURNED_SIGS = ([*range(_SIGS)], *([-1] * _SIGS for _ in range(3)))


def _turn_sig(sig: int, t: int) -> int:
    """The signature with every neighbour turned back by ``t`` seasons."""
    back = _BACK_DIGIT[t]
    out = _TURNED_SIGS[t][sig] = (
        back[sig // 729] * 729 + back[sig // 81 % 9] * 81 + back[sig // 9 % 9] * 9 + back[sig % 9]
    )
    return out


# What a card placed as ``code`` among neighbours ``sig`` with the order
# numbered ``oid`` does, when that is the canonical way of writing it: the
# card it ends up as and the directions of the neighbours it turns over.
# False when that way of writing it is not canonical (or names the wrong
# neighbours). Keyed (code * _NORDERS + oid) * _SIGS + sig. Worked out from
# the same table for the problem turned back to its class's card (_REL_OUTCOMES,
# keyed alike), which a game never seen before is far likelier to find filled.
_OUTCOMES: dict[int, tuple[int, tuple[int, ...]] | bool] = {}
_REL_OUTCOMES: dict[int, tuple[int, tuple[int, ...]] | bool] = {}


def _outcome(key: int) -> tuple[int, tuple[int, ...]] | bool:
    """The entry of ``_OUTCOMES`` for ``key``, worked out and kept."""
    if len(_OUTCOMES) > 200_000:  # bound the memory a stream of odd logs can take
        _OUTCOMES.clear()
    rest, sig = divmod(key, _SIGS)
    code, oid = divmod(rest, _NORDERS)
    t = _CLASS[code][1]
    rel_sig = _TURNED_SIGS[t][sig]
    if rel_sig < 0:
        rel_sig = _turn_sig(sig, t)
    rel_key = (_TURN_CODE[-t][code] * _NORDERS + oid) * _SIGS + rel_sig
    rel = _REL_OUTCOMES.get(rel_key)
    if rel is None:
        rel = _rel_outcome(rel_key)
    out = _OUTCOMES[key] = (_TURN_CODE[t][rel[0]], rel[1]) if rel else False
    return out


def _rel_outcome(key: int) -> tuple[int, tuple[int, ...]] | bool:
    """The entry of ``_REL_OUTCOMES`` for ``key``, worked out and kept."""
    if len(_REL_OUTCOMES) > 200_000:
        _REL_OUTCOMES.clear()
    rest, sig = divmod(key, _SIGS)
    code, oid = divmod(rest, _NORDERS)
    res = _direct(code, sig)
    if res is not None:  # one result, in every order: no order is written
        canonical = False if oid else _direct_canonical(code, sig, res)
        if canonical is not None:
            plain = _REL_OUTCOMES[key] = (res >> 4, _MASK_DIRS[res & 15]) if canonical else False
            return plain
    present, digits = _SIG_INFO[sig] or _sig_info(sig)
    perm = _PERM_OF[present][oid]
    out: tuple[int, tuple[int, ...]] | bool = False
    if perm is not None:
        cls = _CLASS[code][0]
        rel = _relative_of(cls, digits)
        found = rel.outcome.get((code, perm))
        if found is not None:
            out = (found[0], _POSITIONS_DIRS[present][found[1]])
    _REL_OUTCOMES[key] = out
    return out


# --- moves ---------------------------------------------------------------------------

# The squares where a card may go next, for the rows and columns the cards
# span (5.1b), in the order of their names: each as (square, n, e, s, w).
_CANDIDATES: dict[tuple[int, int, int, int], tuple[tuple[int, int, int, int, int], ...]] = {}


def _candidates(box: tuple[int, int, int, int]) -> tuple[tuple[int, int, int, int, int], ...]:
    r0, r1, c0, c1 = box
    if r0 > r1:  # an empty table: the first card goes on d4
        out = ((CENTRE, *NEIGHBOURS[CENTRE]),)
    else:
        rows = range(max(r1 - 3, r0 - 1, 0), min(r0 + 3, r1 + 1, SIZE - 1) + 1)
        cols = range(max(c1 - 3, c0 - 1, 0), min(c0 + 3, c1 + 1, SIZE - 1) + 1)
        out = tuple((i, *NEIGHBOURS[i]) for c in cols for r in rows for i in (r * SIZE + c,))
    _CANDIDATES[box] = out  # at most 8**4 boxes
    return out


def _open_squares(
    board: tuple[int, ...], box: tuple[int, int, int, int]
) -> list[tuple[int, int, int, int, int]]:
    """Empty squares next to a card where the cards still fit a 4x4 box
    (5.1a, 5.1b), in the order of their names; d4 on an empty table. Each
    as (square, n, e, s, w)."""
    cands = _CANDIDATES.get(box) or _candidates(box)
    if box[0] > box[1]:
        return list(cands)
    return [
        x for x in cands
        if board[x[0]] < 0
        and (board[x[1]] >= 0 or board[x[2]] >= 0 or board[x[3]] >= 0 or board[x[4]] >= 0)
    ]


# The canonical orders of each card code among neighbours ``sig``, in the
# order of the listing, as the number of that tuple of orders in _ORDER_SETS
# (-1: not worked out yet); keyed sig * 16 + code. Few tuples of orders
# occur (most are one move without an order, or none), so the moves built
# from them are shared by every signature that has them.
_SIG_ORDERS: list[int] = [-1] * (_SIGS * 16)
_ORDER_SETS: list[tuple[tuple[int, ...], ...]] = [((),), ()]
_ORDER_SET_ID: dict[tuple[tuple[int, ...], ...], int] = {((),): 0, (): 1}
_ORDER_SET_ONE, _ORDER_SET_NONE = 0, 1  # one move without an order; no move


def _sig_orders(sig: int, kind: int) -> None:
    """Work out the orders of both faces of a card of ``kind``."""
    cls, t = _CLASS[kind]
    turn = _TURN_CODE[t]
    rel_sig = _TURNED_SIGS[t][sig]
    if rel_sig < 0:
        rel_sig = _turn_sig(sig, t)
    rel_key = cls * _SIGS + rel_sig
    found = _REL_ORDERS.get(rel_key) or _rel_orders(rel_key)
    for code, i in found:
        _SIG_ORDERS[sig * 16 + turn[code]] = i


# The same for the problem turned back to the class's card: (code, number of
# its tuple of orders) for the card and the card turned over; keyed
# class * _SIGS + signature.
_REL_ORDERS: dict[int, tuple[tuple[int, int], ...]] = {}


def _rel_orders(key: int) -> tuple[tuple[int, int], ...]:
    cls, sig = divmod(key, _SIGS)
    card = _CLASS_CARDS[cls]
    codes = (card,) if cls == 0 else (card, _FLIPPED[card])
    found = []
    for code in codes:  # first the plain cases: one result per face, no order
        res = _direct(code, sig)
        canonical = None if res is None else _direct_canonical(code, sig, res)
        if canonical is None:
            break
        found.append((code, _ORDER_SET_ONE if canonical else _ORDER_SET_NONE))
    else:
        out = _REL_ORDERS[key] = tuple(found)
        return out
    present, digits = _SIG_INFO[sig] or _sig_info(sig)
    spelled = _PERM_DIRS[present]
    rel = _relative_of(cls, digits)
    found = []
    for code, perms in rel.listing:  # orders by position sort as the directions do
        orders = tuple([spelled[perm] for perm in perms])
        i = _ORDER_SET_ID.get(orders)
        if i is None:
            i = _ORDER_SET_ID[orders] = len(_ORDER_SETS)
            _ORDER_SETS.append(orders)
        found.append((code, i))
    out = _REL_ORDERS[key] = tuple(found)
    return out


# The legal moves on one square, per card code: [codes done as a bit mask,
# the moves of code 0, ..., of code 15], each in the order of the listing.
# Filled as hands need them; keyed square * _SIGS + signature.
_BLOCKS: dict[int, list] = {}
# The moves of a card code on a square with a tuple of orders, keyed
# (order set * 16 + code) * OFF + square.
_MOVES: dict[int, tuple[Move, ...]] = {}
_new_move = tuple.__new__  # Move(...) without the keyword handling of a named tuple


def _fill(block: list, key: int, codes: tuple[int, ...]) -> None:
    """Fill in the moves of the card ``codes`` on ``block``."""
    sq, sig = divmod(key, _SIGS)
    base = sig * 16
    done = block[0]
    for code in codes:
        if not done >> code & 1:
            i = _SIG_ORDERS[base + code]
            if i < 0:
                _sig_orders(sig, _KIND[code])
                i = _SIG_ORDERS[base + code]
            k = (i * 16 + code) * OFF + sq
            moves = _MOVES.get(k)
            if moves is None:
                if len(_MOVES) > 50_000:
                    _MOVES.clear()
                face, back = code >> 2, code & 3
                moves = _MOVES[k] = tuple(
                    [_new_move(Move, (face, back, sq, o)) for o in _ORDER_SETS[i]]
                )
            block[code + 1] = moves
            done |= 1 << code
    block[0] = done


# Per hand: the bit mask of its card codes (both faces of each card), the
# codes ascending, and a getter of their columns from the blocks transposed.
_HAND_CODES: dict[tuple[int, ...], tuple[int, tuple[int, ...], Callable]] = {}
_chain = chain.from_iterable


def _hand_codes(hand: tuple[int, ...]) -> tuple[int, tuple[int, ...], Callable]:
    if len(_HAND_CODES) > 10_000:
        _HAND_CODES.clear()
    codes = tuple(sorted({c for k in hand for c in (k, _flip(k))}))
    if len(codes) > 1:
        columns = itemgetter(*(c + 1 for c in codes))
    else:  # with one index an itemgetter gives the item, not a tuple of it
        columns = lambda blocks, i=codes[0] + 1: (blocks[i],)  # noqa: E731
    out = _HAND_CODES[hand] = (sum(1 << c for c in codes), codes, columns)
    return out


def legal_moves(state: State) -> tuple[Move, ...]:
    """Every distinct move, sorted by face, back, square name and order."""
    seat = state.seat
    if seat < 0:
        return ()
    hand = state.deck[:1] if state.deck else state.hands[seat]
    need, codes, columns = _HAND_CODES.get(hand) or _hand_codes(hand)
    board = state.board
    box = state.box
    if state.placed == 0:  # 5.1a: the first card goes anywhere, written d4
        keys = [CENTRE * _SIGS]
    else:  # the open squares of _open_squares, with their neighbours' signatures
        keys = []
        for sq, n, e, s, w in _CANDIDATES.get(box) or _candidates(box):
            if board[sq] < 0:
                sig = _SIG_N[board[n]] + _SIG_E[board[e]] + _SIG_S[board[s]] + _SIG_W[board[w]]
                if sig:
                    keys.append(sq * _SIGS + sig)
    blocks = []
    for key in keys:
        block = _BLOCKS.get(key)
        if block is None:
            if len(_BLOCKS) > 60_000:  # a few MB: a list of 17 per square and signature
                _BLOCKS.clear()
            block = _BLOCKS[key] = [0, *((),) * 16]
        if need & ~block[0]:
            _fill(block, key, codes)
        blocks.append(block)
    # The moves code by code, square by square: the blocks transposed.
    return tuple(_chain(_chain(columns(list(zip(*blocks))))))


def _illegal(reason: str, clause: str) -> IllegalMoveError:
    return IllegalMoveError(reason, f"{TITLE} {clause}")


def _card_name(face: int, back: int) -> str:
    return SEASONS[face] + SEASONS[back]


def apply(state: State, move: Move) -> State:
    face, back, sq, order = move
    oid = _ORDER_ID.get(order)
    if oid is not None and 0 <= face < 4 and 0 <= back < 4 and 0 <= sq < OFF:
        # A legal move written canonically takes the fast path.
        after = fast_apply(state, _BASE[face * 4 + back][sq] + _SUFFIX[oid])
        if after is not None:
            return after
    # Otherwise check it step by step: to say what is wrong, or to play a
    # spelling the notation forgives (the other face, an order not needed).
    return _apply_checked(state, move)


def _apply_checked(state: State, move: Move) -> State:
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
    sig = _signature(board, sq)
    if state.placed == 0:
        if sq != CENTRE:
            raise _illegal(
                "the first card goes on d4, the centre of the notation's frame", "5.1a"
            )
        box = (r, r, c, c)
    else:
        if not sig:
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
    meet = _meet_all(code, sig)
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
            canon = _choose(kind, sig).canon
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
    nbrs = NEIGHBOURS[sq]
    for d in _MASK_DIRS[mask]:
        j = nbrs[d]
        new[j] = _FLIPPED[new[j]]
    placed = state.placed + 1
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
        seat=-1 if placed == CARDS else (seat + 1) % len(state.players),
        box=box,
        last=sq,
    )


# --- moves as text ---------------------------------------------------------------------

_BASE = tuple(
    tuple(f"{SEASONS[c >> 2]}{SEASONS[c & 3]}-{sq}" for sq in SQUARES) for c in range(16)
)


def _spell(face: int, order: tuple[int, ...], seasons: int, square: int) -> str:
    """The notation of a card of two seasons summing to ``seasons`` shown as ``face``."""
    text = _BASE[face * 4 + seasons - face][square]
    return text + ":" + "".join(DIRS[d] for d in order) if order else text


# Canonical move texts read back: text -> (kind, square, the card and order
# turned back to the class's card as a key of _REL_OUTCOMES, the seasons it
# was turned back by, the square's neighbours, its row and column). Those
# without an order are made here, those with one as they are met: never
# more than 16 x 49 x _NORDERS entries.
_Known = tuple[int, int, int, int, tuple[int, int, int, int], int, int]
_TEXTS: dict[str, _Known] = {
    _BASE[code][sq]: (
        _KIND[code],
        sq,
        _TURN_CODE[-_CLASS[code][1]][code] * _NORDERS * _SIGS,
        _CLASS[code][1],
        NEIGHBOURS[sq],
        *_ROW_COL[sq],
    )
    for code in range(16)
    for sq in range(SIZE * SIZE)
}
# _SIG_SHARES[t]: the shares of the signature per direction, as _SIG_N, ...,
# of each card turned back by t seasons.
_SIG_SHARES = tuple(
    tuple(tuple(_digit(c if c < 0 else _TURN_CODE[-t][c]) * w for c in (*range(16), -1))
          for w in _WEIGHTS)
    for t in range(4)
)


def _decode(text: str) -> _Known | None:
    head, colon, tail = text.partition(":")
    known = _TEXTS.get(head)
    oid = _ORDER_TEXT.get(tail)
    if not colon or known is None or oid is None:
        return None
    kind, sq, okey, t, nbrs, r, c = known
    out = _TEXTS[text] = (kind, sq, okey + oid * _SIGS, t, nbrs, r, c)
    return out


# A hand, and what is left of it once each of its cards is played.
_DROPS: dict[tuple[int, ...], dict[int, tuple[int, ...]]] = {}


def _drops(hand: tuple[int, ...]) -> dict[int, tuple[int, ...]]:
    if len(_DROPS) > 10_000:
        _DROPS.clear()
    out = _DROPS[hand] = {k: hand[:i] + hand[i + 1 :] for i, k in reversed(list(enumerate(hand)))}
    return out


def fast_apply(state: State, text: str) -> State | None:
    """The state after the move written ``text``, if that is the canonical
    notation of a legal move here; otherwise None (``apply`` says why).
    ``fast_apply(state, "FaSp-e5:sw")``; ``"fasp-e5 sw"`` gives None.

    The hot path of validation: every check of ``apply``, in its cheapest
    form, and the new state built at once.
    """
    known = _TEXTS.get(text) or _decode(text)
    if known is None:
        return None
    kind, sq, okey, t, nbrs, r, c = known
    seat = state.seat
    board = state.board
    if seat < 0 or board[sq] >= 0:
        return None
    n, e, s, w = nbrs
    # The placement turned back to the class's card: far fewer keys to meet.
    sig_n, sig_e, sig_s, sig_w = _SIG_SHARES[t]
    sig = sig_n[board[n]] + sig_e[board[e]] + sig_s[board[s]] + sig_w[board[w]]
    key = okey + sig
    res = _REL_OUTCOMES.get(key)
    if res is None:
        res = _rel_outcome(key)
    if not res:  # not canonical, or the order names other neighbours (5.2)
        return None
    if sig:  # 5.1a: next to a card; 5.1b: the cards still fit a 4x4 box
        r0, r1, c0, c1 = state.box
        if r < r0:
            r0 = r
        elif r > r1:
            r1 = r
        if c < c0:
            c0 = c
        elif c > c1:
            c1 = c
        if r1 - r0 > 3 or c1 - c0 > 3:
            return None
        box = (r0, r1, c0, c1)
    elif state.placed == 0 and sq == CENTRE:
        box = (r, r, c, c)
    else:
        return None
    deck = state.deck
    hands = state.hands
    if deck:  # 7: the card drawn
        if deck[0] != kind:
            return None
        deck = deck[1:]
    else:  # 3: a card of one's own
        hand = hands[seat]
        drops = _DROPS.get(hand) or _drops(hand)
        if kind not in drops:
            return None
        rest = list(hands)
        rest[seat] = drops[kind]
        hands = tuple(rest)
    final, flips = res
    new = list(board)
    new[sq] = _TURN_CODE[t][final]
    for d in flips:
        j = nbrs[d]
        new[j] = _FLIPPED[new[j]]
    placed = state.placed + 1
    return _replace(
        state,
        board=tuple(new),
        hands=hands,
        deck=deck,
        placed=placed,
        seat=-1 if placed == CARDS else (seat + 1) % len(state.players),
        box=box,
        last=sq,
    )


def fast_play(state: State, texts: Sequence[str]) -> tuple[list[int], State]:
    """:func:`fast_apply` over a whole log at once: ``texts`` played in turn
    from ``state`` for as long as each is the canonical notation of a legal
    move. The seats that played them, one per text played, and the state
    after the last; fewer seats than texts when ``texts[len(seats)]`` is
    refused (the checked path then says why).

    The state after every text is exactly :func:`fast_apply`'s (the tests
    compare the two move by move), but only the last is built: between moves
    the board is a list changed in place and the rest lives in local
    variables. Whether each text was written by the player whose seat it
    lists is for the caller to check.

    >>> start = setup({"absent-doubles": "own-season", "goal": "dominance"}, ("ann", "bob"), "doc")
    >>> seats, after = fast_play(start, ["SpSu-d4", "FaWi-d5", "SpSp-x9"])
    >>> seats, after == fast_apply(fast_apply(start, "SpSu-d4"), "FaWi-d5")
    ([0, 1], True)
    """
    board = list(state.board)
    hands = list(state.hands)
    deck = state.deck
    size = len(deck)
    drawn = 0  # solo: cards taken from the deck so far
    seat = state.seat
    placed = state.placed
    r0, r1, c0, c1 = state.box
    last = state.last
    n_players = len(state.players)
    seats: list[int] = []
    record = seats.append
    known_texts, outcomes, shares, turn = _TEXTS, _REL_OUTCOMES, _SIG_SHARES, _TURN_CODE
    for text in texts:
        known = known_texts.get(text) or _decode(text)
        if known is None:
            break
        kind, sq, okey, t, nbrs, r, c = known
        if seat < 0 or board[sq] >= 0:
            break
        n, e, s, w = nbrs
        sig_n, sig_e, sig_s, sig_w = shares[t]
        sig = sig_n[board[n]] + sig_e[board[e]] + sig_s[board[s]] + sig_w[board[w]]
        key = okey + sig
        res = outcomes.get(key)
        if res is None:
            res = _rel_outcome(key)
        if not res:  # not canonical, or the order names other neighbours (5.2)
            break
        if sig:  # 5.1a: next to a card; 5.1b: the cards still fit a 4x4 box
            top = r if r < r0 else r0
            bottom = r if r > r1 else r1
            left = c if c < c0 else c0
            right = c if c > c1 else c1
            if bottom - top > 3 or right - left > 3:
                break
        elif placed == 0 and sq == CENTRE:
            top = bottom = r
            left = right = c
        else:
            break
        if drawn < size:  # 7: the card drawn
            if deck[drawn] != kind:
                break
            drawn += 1
        else:  # 3: a card of one's own
            hand = hands[seat]
            drops = _DROPS.get(hand) or _drops(hand)
            if kind not in drops:
                break
            hands[seat] = drops[kind]
        final, flips = res
        board[sq] = turn[t][final]
        for d in flips:
            j = nbrs[d]
            board[j] = _FLIPPED[board[j]]
        r0, r1, c0, c1 = top, bottom, left, right
        placed += 1
        last = sq
        record(seat)
        seat = -1 if placed == CARDS else (seat + 1) % n_players
    if not seats:
        return seats, state
    after = _replace(
        state,
        board=tuple(board),
        hands=tuple(hands),
        deck=deck[drawn:],
        placed=placed,
        seat=seat,
        box=(r0, r1, c0, c1),
        last=last,
    )
    return seats, after


# --- scoring (6, 7) ------------------------------------------------------------------------


# The squares of a box (the rows and columns the cards span), each with its
# bit in a mask of the box read row by row, 5 bits a row: the 5th bit of a
# row is never set, so shifting a mask by 1 never carries a card into the
# next row.
_BOX_BITS: dict[tuple[int, int, int, int], tuple[tuple[int, int], ...]] = {}


def _box_bits(box: tuple[int, int, int, int]) -> tuple[tuple[int, int], ...]:
    r0, r1, c0, c1 = box
    out = _BOX_BITS[box] = tuple(
        (r * SIZE + c, 1 << ((r - r0) * 5 + c - c0))
        for r in range(r0, r1 + 1)
        for c in range(c0, c1 + 1)
    )
    return out


# The largest connected group of a mask of cards, as met (masks repeat).
_LARGEST: dict[int, int] = {0: 0}


def _largest(cards: int) -> int:
    best = 0
    rest = cards
    while rest:
        group = rest & -rest
        while True:  # grow the group by its orthogonal neighbours among the cards
            grown = (group | group << 5 | group >> 5 | group << 1 | group >> 1) & cards
            if grown == group:
                break
            group = grown
        size = group.bit_count()
        if size > best:
            best = size
        rest ^= group
    if len(_LARGEST) > 100_000:
        _LARGEST.clear()
        _LARGEST[0] = 0
    _LARGEST[cards] = best
    return best


def _tally(
    board: tuple[int, ...], box: tuple[int, int, int, int]
) -> tuple[list[int], list[int]]:
    """Face-up cards per season and each season's largest connected group.

    Only the squares inside ``box`` (the rows and columns the cards span) can
    hold cards, so only they are visited.
    """
    masks = [0, 0, 0, 0]
    for i, bit in _BOX_BITS.get(box) or _box_bits(box):
        c = board[i]
        if c >= 0:
            masks[c >> 2] |= bit
    # A group's size does not change when the cards move together: each mask
    # is looked up moved to bit 0, so a game never seen before finds more
    # of them known.
    get = _LARGEST.get
    moved = [m >> ((m & -m).bit_length() - 1) if m else 0 for m in masks]
    return (
        [m.bit_count() for m in masks],
        [g if (g := get(m)) is not None else _largest(m) for m in moved],
    )


_ORDINALS = ("0th", "1st", "2nd", "3rd", "4th")


def _ordinal(n: int) -> str:
    return _ORDINALS[n]


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
        tuple(counts), tuple(groups), state.owners, state.season_order, state.players,
        state.tie_order,
    )


@lru_cache(maxsize=4096)
def _score(
    counts: tuple[int, ...],
    groups: tuple[int, ...],
    owners: tuple[int, ...],
    season_order: tuple[int, ...],
    players: tuple[str, ...],
    tie_order: str,
) -> Outcome:
    """6. END OF GAME, from the tally alone (memoised: games end alike often)."""
    n = len(players)
    # 6: most face up, then the larger largest group, then earlier in turn order:
    # the players' (a season nobody owns last, a player's two seasons in the
    # order drawn), or with tie_order "seasons" the order the seasons were
    # drawn. Both are the same order unless two players share the seasons.
    if tie_order == "seasons":
        turn = {s: (i, i) for i, s in enumerate(season_order)}
    else:
        turn = {s: (owners[s] if owners[s] >= 0 else n, i) for i, s in enumerate(season_order)}
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
        elif owners[hi] == owners[lo] and tie_order != "seasons":
            why = (f"equal largest groups ({groups[hi]}); both are {players[owners[hi]]}'s, "
                   "so the order changes no score (the one drawn first ranks first)")
        else:
            why = f"equal largest groups ({groups[hi]}), and it is earlier in turn order"
        details.append(
            f"{SEASON_NAMES[hi]} ranks above {SEASON_NAMES[lo]}: both {counts[hi]} face up, "
            f"{why} ({TITLE} 6)"
        )
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
            for i in _BY_NAME
            if (c := state.board[i]) >= 0
        },
        last=SQUARES[state.last] if state.last >= 0 else None,
        open=tuple(SQUARES[o[0]] for o in _open_squares(state.board, state.box))
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


def redeal(state: State, seat: int | None, seed: str) -> State:
    """Only the order of the solo deck under the drawn card is hidden."""
    if len(state.deck) < 3:
        return state
    rest = shuffled(seed, "redeal", state.deck[1:])
    return msgspec.structs.replace(state, deck=(state.deck[0], *rest))
