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
:func:`legal_moves`, :func:`format_move` and :func:`fast_apply`. What a
placement does depends only on the card, the order of meetings and the
neighbours' *signature* (see below); the canonical ways of every such
placement, and the largest group of every set of cards, are worked out
beforehand from the plain definitions and shipped in ``tables.bin``
(written by ``_tables.py``), read when a fast path first needs them (not at
import). The few memos left are keyed by what recurs (squares and
signatures, deals, rankings) and bounded.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping, Sequence
from functools import lru_cache
from itertools import permutations
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
        perm = tuple(shuffled(seed, "seasons", (0, 1, 2, 3)))
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
# that are refused or not written canonically, and the tables of the fast
# paths (below) are worked out from it.


class _Meetings:
    """Every order of meetings of one placement: the directions holding a
    card (in n, e, s, w order), each order's result (placed card, flipped
    mask) and the first order giving each distinct result."""

    __slots__ = ("dirs", "result", "reps")

    def __init__(
        self,
        dirs: tuple[int, ...],
        result: dict[tuple[int, ...], tuple[int, int]],
        reps: tuple[tuple[int, ...], ...],
    ) -> None:
        self.dirs, self.result, self.reps = dirs, result, reps


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
    m = _MEETINGS[key] = _Meetings(dirs, result, tuple(rep_of.values()))
    return m


class _Choices:
    """Every distinct result of placing a card (both faces, every order):
    each face's meetings, each result's canonical (face, order), and those
    canonical ways in turn."""

    __slots__ = ("meets", "canon", "reps")

    def __init__(
        self,
        meets: dict[int, _Meetings],
        canon: dict[tuple[int, int], tuple[int, tuple[int, ...]]],
        reps: tuple[tuple[int, tuple[int, ...]], ...],
    ) -> None:
        self.meets, self.canon, self.reps = meets, canon, reps


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


def _step(code: int, digit: int) -> int:
    """A card showing ``code`` meets a neighbour of ``digit``: the card after,
    times 2, plus 1 if the neighbour is a double and is turned over (4, 5.3)."""
    q, double = (digit - 1) >> 1, (digit - 1) & 1
    beat = ((code >> 2) - q) % 4  # 1: it flips the neighbour, 3: is flipped, 2: both
    turned = beat in (1, 2) and double
    return (_flip(code) if beat in (2, 3) else code) * 2 + turned


# The signatures with exactly one neighbour, and its direction.
_ONE_NEIGHBOUR = {v * w: d for d, w in enumerate(_WEIGHTS) for v in range(1, 9)}
_STEPS: list[tuple[tuple[int, ...], ...]] = []  # _step by card and digit, made when first used


def _direct(code: int, sig: int) -> int | None:
    """The one result of placing ``code`` among neighbours ``sig``, as card
    after * 16 + mask of the directions turned over, when it is plain that
    every order of meetings gives it: a card no neighbour flips (it meets
    them all with the face it shows; a single card is never flipped to
    another season), or a card with one neighbour. None when the orders
    must be tried (the tables' generator then asks _choose)."""
    if not _STEPS:
        _STEPS.append(tuple(tuple(_step(c, v) if v else c * 2 for v in range(9)) for c in range(16)))
    row = _STEPS[0][code]  # an absent neighbour (digit 0) leaves the card as it is
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


# --- the canonical moves, fast: the tables -----------------------------------------
#
# Listing, applying and reading moves need only the canonical ways of
# placing a card among given neighbours. Seasons form a cycle, so turning
# the card and every neighbour on by the same number of seasons turns every
# result the same way; and the canonical choice does not depend on which
# season is which (of the notation's preferences the 3rd never decides: the
# two faces of a card end up showing different seasons, so the 2nd has told
# them apart). So every card placed is one of five *relative* cards turned
# on by 0-3 seasons: the single Sp/Sp, Sp/Su and Su/Sp (neighbouring
# seasons) or Sp/Fa and Fa/Sp (opposite ones); its neighbours are turned
# back with it.
#
# A relative card among a signature has a *row* of _ROW bytes: the mask of
# the directions holding a card, then what writing the move without an
# order does, then what each order of those directions does (their
# permutations in lexicographic order, so in the order of the listing):
# 0 when that is not the canonical way of writing a move, else 1 + 16 * (1
# if the card ends up turned over) + the mask of the directions of the
# neighbours it turns over. Rows repeat: each is stored once and numbered.
#
# The canonical orders a row lists form a tuple of orders: ((),) for one
# move written without an order, () for no move, else each order in the
# listing's order. Few such tuples occur (491), so they are numbered, ((),)
# as 0 and () as 1, and the moves made from them are shared.
#
# The file tables.bin beside this module holds, after _MAGIC (numbers are
# little-endian): the number of the row of each relative card and
# signature (5 x _SIGS, 2 bytes each); the largest connected group of each
# mask of cards in a 4x4 box (2**16 bytes; 4 bits a row, for scoring); the
# number of rows and of tuples of orders (2 bytes each); the rows; the
# number of each row's tuple of orders (2 bytes a row); then the tuples
# from the third on, each as its length (1 byte) and the number of each
# of its orders in _ORDERS (1 byte each). It is
# worked out from the plain definition above by _tables.py (a test checks
# the shipped file against it) and read when a fast path first needs it,
# never at import: a command that plays no move starts sooner.

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
_REL_CODES = (0, 1, 4, 2, 8)  # the relative cards, in the order of the file
# Per card code: the place of its relative card in _REL_CODES, and its turn.
_REL_INDEX = tuple(_REL_CODES.index(_TURN_CODE[-_CLASS[c][1]][c]) for c in range(16))
_ROW = 26  # bytes a row: the mask, no order, then at most 4! orders
_MAGIC = b"turn-of-time tables 2\n"
_TABLES_FILE = os.path.join(os.path.dirname(__file__), "tables.bin")

# Every order of meetings a move can name, numbered; 0 is no order.
_ORDERS: tuple[tuple[int, ...], ...] = ((),) + tuple(
    p for k in range(1, 5) for p in sorted(permutations(range(4), k))
)
_ORDER_ID = {order: i for i, order in enumerate(_ORDERS)}
_NORDERS = len(_ORDERS)
_SUFFIX = tuple(":" + "".join(DIRS[d] for d in order) if order else "" for order in _ORDERS)
# A result read in a row: (1 if the card ends up turned over, the directions
# of the neighbours it turns over); None for 0, not a canonical way of writing.
_RESULTS = (None, *((f, _MASK_DIRS[m]) for f in (0, 1) for m in range(16)))

# Read from tables.bin by _load: the row number of (relative card, signature),
# the rows, and the largest group of each 4x4 mask of cards. Made with them:
# what is read in a row for each order (_ORDER_AT[oid]: its place in a row
# and the mask of its directions, 0 for no order; _ORDER_PARTS, the same by
# the order's text), the shares of the signature per direction of each card
# turned back by t seasons (_SIG_SHARES[t], as _SIG_N, ...), each move's
# text without its order (_BASE[code][square]) and its entry of _TEXTS.
_ROW_OF: Sequence[int] | None = None
_ROWS = b""
_GROUP = b""
_ROW_SET: Sequence[int] = ()  # the number of each row's tuple of orders
_ORDER_SETS: list[tuple[tuple[int, ...], ...]] = []  # the tuples of orders, numbered
_ORDER_AT: tuple[tuple[int, int], ...] = ()
_ORDER_PARTS: dict[str, tuple[int, int]] = {}
_SIG_SHARES: tuple[tuple[tuple[int, ...], ...], ...] = ()
_BASE: tuple[tuple[str, ...], ...] = ()


def _load() -> None:
    """Read tables.bin and make what the fast paths need with it."""
    global _ROW_OF, _ROWS, _GROUP, _ROW_SET, _ORDER_AT, _ORDER_PARTS, _SIG_SHARES, _BASE
    global _SPAN, _ROW_SEASONS
    try:
        with open(_TABLES_FILE, "rb") as f:
            data = f.read()
    except OSError as e:
        raise RuntimeError(f"{_TABLES_FILE} is missing from this installation: {e}") from None
    start = len(_MAGIC)
    groups = start + 2 * len(_REL_CODES) * _SIGS
    counts = groups + (1 << 16)
    nrows, nsets = int.from_bytes(data[counts : counts + 2], "little"), int.from_bytes(
        data[counts + 2 : counts + 4], "little"
    )
    rows = counts + 4
    row_set = rows + nrows * _ROW
    sets = row_set + 2 * nrows
    if data[:start] != _MAGIC or len(data) < sets:
        raise RuntimeError(f"{_TABLES_FILE} is not a table file of this version")
    view = memoryview(data)
    row_of, row_sets = view[start:groups].cast("H"), view[row_set:sets].cast("H")
    if sys.byteorder != "little":  # the file is little-endian
        from array import array

        row_of, row_sets = array("H", row_of.tobytes()), array("H", row_sets.tobytes())
        row_of.byteswap()
        row_sets.byteswap()
    order_sets = [((),), ()]
    at = sets
    while at < len(data):
        end = at + 1 + data[at]
        order_sets.append(tuple([_ORDERS[i] for i in data[at + 1 : end]]))
        at = end
    if len(order_sets) != nsets or at != len(data):
        raise RuntimeError(f"{_TABLES_FILE} is not a table file of this version")
    perms = [tuple(permutations(_MASK_DIRS[m])) for m in range(16)]
    order_at = []
    for order in _ORDERS:
        mask = sum(1 << d for d in order)
        order_at.append((2 + perms[mask].index(order) if order else 1, mask))
    shares = tuple(
        tuple((*(share[_TURN_CODE[-t][c]] for c in range(16)), 0)
              for share in (_SIG_N, _SIG_E, _SIG_S, _SIG_W))
        for t in range(4)
    )
    base = tuple(tuple(f"{SEASONS[c >> 2]}{SEASONS[c & 3]}-{sq}" for sq in SQUARES) for c in range(16))
    squares = [(sq, NEIGHBOURS[sq], *_ROW_COL[sq]) for sq in range(SIZE * SIZE)]
    for c in range(16):
        card = (_KIND[c], _REL_INDEX[c] * _SIGS, shares[_CLASS[c][1]], (c, _FLIPPED[c]), 1, 0)
        known = [card + square for square in squares]
        _TEXTS.update(zip(base[c], known))
        _KNOWN[c * OFF : (c + 1) * OFF] = known
    _ORDER_AT = tuple(order_at)
    _ORDER_PARTS = dict(zip(_SUFFIX, order_at))
    _SIG_SHARES = shares
    _BASE = base
    _ORDER_SETS[:] = order_sets
    _ROW_SET = row_sets
    _SPAN = tuple(
        -1 if max(i, last) - min(i, first) > 3 else min(i, first) * SIZE + max(i, last)
        for first in range(SIZE)
        for last in range(SIZE)
        for i in range(SIZE)
    )
    _ROW_SEASONS = tuple(
        sum(1 << 16 * (d - 1) + k for k in range(4) if (d := row // 5**k % 5))
        for row in range(5**4)
    )
    # Worked out from the tables as met: start afresh.
    _SIG_SETS[:] = [None] * _SIGS
    _PICK[:] = [None] * _SIGS
    _ATOMS[:] = [None] * OFF
    _MOVE_AT.clear()
    _BLOCKS.clear()
    _PLAYS.clear()
    _GROUP = data[groups:counts]
    _ROWS = data[rows:row_set]
    # A list: read on every move, and a list is read several times faster
    # than a memoryview (0.5 ms to make, once).
    _ROW_OF = list(row_of)


# _BACK_DIGIT[t][digit]: a neighbour's signature digit, turned back by t seasons.
_BACK_DIGIT = tuple(
    (0, *(1 + 2 * ((((v - 1) >> 1) - t) % 4) + ((v - 1) & 1) for v in range(1, 9)))
    for t in range(4)
)


def _turn_sig(sig: int, t: int) -> int:
    """The signature with every neighbour turned back by ``t`` seasons."""
    if not t:
        return sig
    back = _BACK_DIGIT[t]
    return back[sig // 729] * 729 + back[sig // 81 % 9] * 81 + back[sig // 9 % 9] * 9 + back[sig % 9]



def _outcome(key: int) -> tuple[int, tuple[int, ...]] | bool:
    """What a card placed as ``code`` among neighbours ``sig`` with the
    order numbered ``oid`` does, if that is the canonical way of writing it:
    the card it ends up as and the directions of the neighbours it turns
    over; False if it is not (or names the wrong neighbours). ``key`` is
    (code * _NORDERS + oid) * _SIGS + sig."""
    if _ROW_OF is None:
        _load()
    rest, sig = divmod(key, _SIGS)
    code, oid = divmod(rest, _NORDERS)
    row = _ROW_OF[_REL_INDEX[code] * _SIGS + _turn_sig(sig, _CLASS[code][1])] * _ROW
    place, mask = _ORDER_AT[oid]
    res = None if mask and _ROWS[row] != mask else _RESULTS[_ROWS[row + place]]
    if res is None:
        return False
    return (_FLIPPED[code] if res[0] else code), res[1]


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


# Per signature, the number of the tuple of canonical orders of each card
# code among such neighbours (None: not worked out yet).
_SIG_SETS: list[tuple[int, ...] | None] = [None] * _SIGS


def _sig_sets(sig: int) -> tuple[int, ...]:
    if _ROW_OF is None:
        _load()
    turned = [_turn_sig(sig, t) for t in range(4)]
    row_of, row_set = _ROW_OF, _ROW_SET
    out = _SIG_SETS[sig] = tuple(
        [row_set[row_of[_REL_INDEX[code] * _SIGS + turned[_CLASS[code][1]]]] for code in range(16)]
    )
    return out


_new_move = tuple.__new__  # Move(...) without the keyword handling of a named tuple


def _fill(block: list, key: int, codes: tuple[int, ...]) -> None:
    """The plain definition of a block (see _BLOCKS): the moves of the card
    ``codes`` on the square and signature of ``key``, put in ``block`` at
    code + 1, each in the order of the listing."""
    sq, sig = divmod(key, _SIGS)
    sets = _SIG_SETS[sig] or _sig_sets(sig)
    for code in codes:
        block[code + 1] = tuple(Move(code >> 2, code & 3, sq, o) for o in _ORDER_SETS[sets[code]])
        block[0] |= 1 << code


# The moves of each card code on a square with each tuple of orders, per
# square: _ATOMS[square][set * 16 + code] (None: not made yet; None for a
# square not met yet). Made with the moves without an order and the empty
# tuples in place: most placements have one or the other.
_ATOMS: list[list | None] = [None] * OFF
# Per signature, what picks the 16 moves of a square and signature out of
# the square's _ATOMS, code by code (None: not made yet).
_PICK: list = [None] * _SIGS


def _atoms(sq: int) -> list:
    out = [None] * (len(_ORDER_SETS) * 16)
    for code in range(16):
        out[code] = (_move_at(code, sq, ()),)
        out[16 + code] = ()
    _ATOMS[sq] = out
    return out


# Every move made, keyed (code * OFF + square) * _NORDERS + order number:
# one object per move, however many tuples of orders hold it (the moves
# kept are tracked by the garbage collector, which visits each one).
_MOVE_AT: dict[int, Move] = {}


def _move_at(code: int, sq: int, order: tuple[int, ...]) -> Move:
    key = (code * OFF + sq) * _NORDERS + _ORDER_ID[order]
    move = _MOVE_AT.get(key)
    if move is None:
        move = _MOVE_AT[key] = _new_move(Move, (code >> 2, code & 3, sq, order))
    return move


def _pick(sig: int) -> itemgetter:
    sets = _SIG_SETS[sig] or _sig_sets(sig)
    out = _PICK[sig] = itemgetter(*[i * 16 + code for code, i in enumerate(sets)])
    return out


# The legal moves on a square among a signature, for every card code: a
# tuple of 16, the moves of code 0, ..., 15, each in the order of the
# listing (the moves of _fill). Kept as met, keyed square * _SIGS + signature.
_BLOCKS: dict[int, tuple] = {}


def _block(key: int) -> tuple:
    """The entry of _BLOCKS for ``key``, made and kept."""
    if len(_BLOCKS) > 60_000:  # a few MB: a tuple of 16 per square and signature
        _BLOCKS.clear()
    sq, sig = divmod(key, _SIGS)
    pick = _PICK[sig] or _pick(sig)  # reads the tables first if need be
    atoms = _ATOMS[sq] or _atoms(sq)
    block = pick(atoms)
    if None in block:  # moves with orders not made yet on this square
        sets = _SIG_SETS[sig]
        for code, moves in enumerate(block):
            if moves is None:
                atoms[sets[code] * 16 + code] = tuple(
                    [_move_at(code, sq, o) for o in _ORDER_SETS[sets[code]]]
                )
        block = pick(atoms)
    _BLOCKS[key] = block
    return block


# Per hand: its card codes (both faces of each card), ascending.
_HAND_CODES: dict[tuple[int, ...], tuple[int, ...]] = {}


def _hand_codes(hand: tuple[int, ...]) -> tuple[int, ...]:
    if len(_HAND_CODES) > 10_000:
        _HAND_CODES.clear()
    out = _HAND_CODES[hand] = tuple(sorted({c for k in hand for c in (k, _flip(k))}))
    return out


def legal_moves(state: State) -> tuple[Move, ...]:
    """Every distinct move, sorted by face, back, square name and order."""
    seat = state.seat
    if seat < 0:
        return ()
    hand = state.deck[:1] if state.deck else state.hands[seat]
    codes = _HAND_CODES.get(hand) or _hand_codes(hand)
    get = _BLOCKS.get
    if state.placed == 0:  # 5.1a: the first card goes anywhere, written d4
        blocks = [get(CENTRE * _SIGS) or _block(CENTRE * _SIGS)]
    else:  # the open squares of _open_squares, by their neighbours' signatures
        board = state.board
        box = state.box
        sig_n, sig_e, sig_s, sig_w = _SIG_N, _SIG_E, _SIG_S, _SIG_W
        blocks = []
        for sq, n, e, s, w in _CANDIDATES.get(box) or _candidates(box):
            if board[sq] < 0:
                sig = sig_n[board[n]] + sig_e[board[e]] + sig_s[board[s]] + sig_w[board[w]]
                if sig:
                    key = sq * _SIGS + sig
                    blocks.append(get(key) or _block(key))
    # The moves code by code, square by square: the blocks transposed.
    moves: list[Move] = []
    add = moves.extend
    for i in codes:
        for block in blocks:
            add(block[i])
    return tuple(moves)


def _illegal(reason: str, clause: str) -> IllegalMoveError:
    return IllegalMoveError(reason, f"{TITLE} {clause}")


def _card_name(face: int, back: int) -> str:
    return SEASONS[face] + SEASONS[back]


def apply(state: State, move: Move) -> State:
    # A legal move written canonically takes the fast path. Otherwise check
    # it step by step: to say what is wrong, or to play a spelling the
    # notation forgives (the other face, an order not needed).
    step = fast_step(state, move)
    return _apply_checked(state, move) if step is None else step[1]


def fast_step(state: State, move: Move) -> tuple[str, State] | None:
    """``(format_move(state, move), apply(state, move))`` for a legal move
    in its canonical form (as :func:`legal_moves` lists them); None for any
    other move. Self-play's hot path: the move's text is spelled at once, and
    :func:`fast_apply` plays it only if it is the canonical notation of a
    legal move here, so the text is the one ``format_move`` gives."""
    step = _PLAYS.get(move) or _step_of(move)
    if step is None:
        return None
    known, place, mask, text = step
    after = _play(state, known, place, mask)
    return None if after is None else (text, after)


# Per move met: its entry of _KNOWN, its order's place in a row and mask
# (_ORDER_AT) and its text; legal_moves lists the same few moves again and
# again. Kept for moves some canonical text spells.
_PLAYS: dict[Move, tuple[_Known, int, int, str]] = {}


def _step_of(move: Move) -> tuple[_Known, int, int, str] | None:
    face, back, sq, order = move
    oid = _ORDER_ID.get(order)
    if oid is None or not (0 <= face < 4 and 0 <= back < 4 and 0 <= sq < OFF):
        return None
    if _ROW_OF is None:
        _load()
    code = face * 4 + back
    if len(_PLAYS) > 60_000:
        _PLAYS.clear()
    out = _PLAYS[move] = (_KNOWN[code * OFF + sq], *_ORDER_AT[oid], _BASE[code][sq] + _SUFFIX[oid])
    return out


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


def _text(code: int, sq: int) -> str:
    """The notation of placing ``code`` on ``sq``, without an order: ``FaSp-e5``."""
    if _ROW_OF is None:
        _load()
    return _BASE[code][sq]


def _spell(face: int, order: tuple[int, ...], seasons: int, square: int) -> str:
    """The notation of a card of two seasons summing to ``seasons`` shown as ``face``."""
    text = _text(face * 4 + seasons - face, square)
    return text + ":" + "".join(DIRS[d] for d in order) if order else text


def _written(board: tuple[int, ...], code: int, sq: int, oid: int) -> str | None:
    """The text of placing ``code`` on ``sq`` with the order numbered ``oid``
    if that is the canonical way of writing it among the neighbours on
    ``board`` (the square may be taken: only the neighbours are looked at);
    otherwise None."""
    if _ROW_OF is None:
        _load()
    sig_n, sig_e, sig_s, sig_w = _SIG_SHARES[_CLASS[code][1]]
    n, e, s, w = NEIGHBOURS[sq]
    sig = sig_n[board[n]] + sig_e[board[e]] + sig_s[board[s]] + sig_w[board[w]]
    row = _ROW_OF[_REL_INDEX[code] * _SIGS + sig] * _ROW
    place, mask = _ORDER_AT[oid]
    if mask and _ROWS[row] != mask:  # the order names other neighbours (5.2)
        return None
    return _BASE[code][sq] + _SUFFIX[oid] if _ROWS[row + place] else None


# Move texts in canonical form read back: text -> (kind, the first entry
# of its relative card's rows in _ROW_OF, the shares of the signature turned
# back as the card is (_SIG_SHARES), the card's code and the card turned
# over; its order's place in a row and mask (_ORDER_AT); the square, its
# neighbours, its row and column). Made by _load for the texts without an
# order; a text with one is read as its first 7 characters and the order.
_Known = tuple[
    int, int, tuple[tuple[int, ...], ...], tuple[int, int], int, int,
    int, tuple[int, int, int, int], int, int,
]
_TEXTS: dict[str, _Known] = {}
# The same entries by card code and square: _KNOWN[code * OFF + square].
_KNOWN: list[_Known] = [None] * (16 * OFF)  # type: ignore[list-item]


def _decode(text: str) -> _Known | None:
    """The entry of a text in canonical form (``FaSp-e5``, ``FaSp-e5:sw``);
    None for any other text."""
    if _ROW_OF is None:
        _load()
    head = _TEXTS.get(text[:7])  # the texts without an order, all 7 characters
    order = _ORDER_PARTS.get(text[7:])
    if head is None or order is None:
        return None
    return head[:4] + order + head[6:]


def fast_apply(state: State, text: str) -> State | None:
    """The state after the move written ``text``, if that is the canonical
    notation of a legal move here; otherwise None (``apply`` says why).
    ``fast_apply(state, "FaSp-e5:sw")``; ``"fasp-e5 sw"`` gives None.

    The hot path of validation: every check of ``apply``, in its cheapest
    form, and the new state built at once.
    """
    known = _TEXTS.get(text) or _decode(text)
    return None if known is None else _play(state, known, known[4], known[5])


def _play(state: State, known: _Known, place: int, mask: int) -> State | None:
    """:func:`fast_apply` of the text whose entry is ``known``, with the
    order read at ``place`` in a row and of directions ``mask`` (_ORDER_AT)."""
    kind, rows_at, shares, faces, _, _, sq, nbrs, r, c = known
    seat = state.seat
    board = state.board
    if seat < 0 or board[sq] >= 0:
        return None
    n, e, s, w = nbrs
    # The placement turned back to its relative card (see the tables).
    sig_n, sig_e, sig_s, sig_w = shares
    sig = sig_n[board[n]] + sig_e[board[e]] + sig_s[board[s]] + sig_w[board[w]]
    row = _ROW_OF[rows_at + sig] * _ROW
    if mask and _ROWS[row] != mask:  # the order names other neighbours (5.2)
        return None
    res = _RESULTS[_ROWS[row + place]]
    if res is None:  # not the canonical way of writing a move
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
        left = (_LEFT.get(hand) or _left(hand)).get(kind)
        if left is None:
            return None
        rest = list(hands)
        rest[seat] = left
        hands = tuple(rest)
    turned, flips = res
    new = list(board)
    new[sq] = faces[turned]
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


# Per hand: the hand left after playing each kind of card in it (few hands
# recur across games: a deal and the cards played from it).
_LEFT: dict[tuple[int, ...], dict[int, tuple[int, ...]]] = {}


def _left(hand: tuple[int, ...]) -> dict[int, tuple[int, ...]]:
    if len(_LEFT) > 20_000:
        _LEFT.clear()
    out = _LEFT[hand] = {k: hand[:i] + hand[i + 1 :] for i, k in enumerate(hand)}
    return out


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
    if _ROW_OF is None:
        _load()
    seat = state.seat
    placed = state.placed
    if seat < 0:
        return [], state
    board = list(state.board)
    hands = [list(hand) for hand in state.hands]
    deck = state.deck
    size = len(deck)
    drawn = 0  # solo: cards taken from the deck so far
    # The rows and the columns the cards span, each as a number of _SPAN.
    r0, r1, c0, c1 = state.box
    rspan, cspan = r0 * SIZE + r1, c0 * SIZE + c1
    span = _SPAN
    last = state.last
    n_players = len(state.players)
    following = _FOLLOWING[n_players]
    known_texts, order_parts = _TEXTS, _ORDER_PARTS
    row_of, rows, results, flipped = _ROW_OF, _ROWS, _RESULTS, _FLIPPED
    # At most the cards left are played: a text after the last is refused (6).
    for text in texts[: CARDS - placed] if len(texts) > CARDS - placed else texts:
        known = known_texts.get(text)
        if known is not None:
            kind, rows_at, shares, faces, place, mask, sq, nbrs, r, c = known
        else:  # with an order (as _decode reads it), or not in canonical form
            known = known_texts.get(text[:7])
            order = order_parts.get(text[7:])
            if known is None or order is None:
                break
            kind, rows_at, shares, faces, _, _, sq, nbrs, r, c = known
            place, mask = order
        if board[sq] >= 0:
            break
        n, e, s, w = nbrs
        sig_n, sig_e, sig_s, sig_w = shares
        sig = sig_n[board[n]] + sig_e[board[e]] + sig_s[board[s]] + sig_w[board[w]]
        row = row_of[rows_at + sig] * _ROW
        if mask and rows[row] != mask:  # the order names other neighbours (5.2)
            break
        res = results[rows[row + place]]
        if res is None:  # not the canonical way of writing a move
            break
        if sig:  # 5.1a: next to a card; 5.1b: the cards still fit a 4x4 box
            rspan_after, cspan_after = span[rspan * SIZE + r], span[cspan * SIZE + c]
            if rspan_after < 0 or cspan_after < 0:
                break
        elif placed == 0 and sq == CENTRE:
            rspan_after, cspan_after = r * SIZE + r, c * SIZE + c
        else:
            break
        if drawn < size:  # 7: the card drawn
            if deck[drawn] != kind:
                break
            drawn += 1
        else:  # 3: a card of one's own
            try:
                hands[seat].remove(kind)  # the hand stays sorted
            except ValueError:  # not in the hand
                break
        turned, flips = res
        board[sq] = faces[turned]
        for d in flips:
            j = nbrs[d]
            board[j] = flipped[board[j]]
        rspan, cspan = rspan_after, cspan_after
        placed += 1
        last = sq
        seat = following[seat]
    played = placed - state.placed
    if not played:
        return [], state
    after = _replace(
        state,
        board=tuple(board),
        hands=tuple([tuple(hand) for hand in hands]),
        deck=deck[drawn:],
        placed=placed,
        seat=-1 if placed == CARDS else seat,
        box=(*divmod(rspan, SIZE), *divmod(cspan, SIZE)),
        last=last,
    )
    # Seats take turns: the seats of the texts played follow from the first.
    return list(_TURNS[n_players][state.seat][:played]), after


# The rows (or the columns) the cards span, first and last as one number,
# first * SIZE + last: _SPAN[span * SIZE + i] is the span after a card in
# row (column) i, -1 where the cards would span more than 4 (5.1b).
# Made by _load (as _ROW_SEASONS below), not at import.
_SPAN: tuple[int, ...] = ()


# Per number of players: the seat after each seat, and the seats taking
# CARDS turns in a row from each seat.
_FOLLOWING = tuple(tuple((s + 1) % n for s in range(n)) if n else () for n in range(5))
_TURNS = tuple(
    tuple(tuple((s + k) % n for k in range(CARDS)) for s in range(n)) if n else ()
    for n in range(5)
)


# --- scoring (6, 7) ------------------------------------------------------------------------


# The tally reads the cards in a 4x4 window from the top left corner of the
# box (the rows and columns the cards span, never more than 4x4: 5.1b), a
# row of four at a time. A row's cards are one number, a base-5 digit a
# place (0 empty, else 1 + the season face up), summed from _FACE_AT; per
# such number, _ROW_SEASONS holds each season's cards in the row as a 4-bit
# mask, season s at bit 16 * s. Shifted by 4 bits a row and combined, they
# give each season's mask of the box read row by row, 4 bits a row: its
# index in the table of largest groups (_GROUP).
_FACE_AT = tuple(tuple([(1 + (c >> 2)) * 5**k for c in range(16)] + [0]) for k in range(4))
_ROW_SEASONS: tuple[int, ...] = ()
# Per box met: the 16 squares of its window, row by row (OFF off the frame).
_WINDOWS: dict[tuple[int, int, int, int], tuple[int, ...]] = {}


def _window(box: tuple[int, int, int, int]) -> tuple[int, ...]:
    r0, _, c0, _ = box
    out = _WINDOWS[box] = tuple(
        r * SIZE + c if r < SIZE and c < SIZE else OFF
        for r in range(r0, r0 + 4)
        for c in range(c0, c0 + 4)
    )
    return out


def _tally(
    board: tuple[int, ...], box: tuple[int, int, int, int]
) -> tuple[list[int], list[int]]:
    """Face-up cards per season and each season's largest connected group.

    Only the squares inside ``box`` (the rows and columns the cards span) can
    hold cards, so only its window is read (see above).
    """
    if _ROW_OF is None:
        _load()
    a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p = _WINDOWS.get(box) or _window(box)
    f0, f1, f2, f3 = _FACE_AT
    rows = _ROW_SEASONS
    packed = (
        rows[f0[board[a]] + f1[board[b]] + f2[board[c]] + f3[board[d]]]
        | rows[f0[board[e]] + f1[board[f]] + f2[board[g]] + f3[board[h]]] << 4
        | rows[f0[board[i]] + f1[board[j]] + f2[board[k]] + f3[board[l]]] << 8
        | rows[f0[board[m]] + f1[board[n]] + f2[board[o]] + f3[board[p]]] << 12
    )
    m0, m1, m2, m3 = packed & 0xFFFF, packed >> 16 & 0xFFFF, packed >> 32 & 0xFFFF, packed >> 48
    group = _GROUP
    return (
        [m0.bit_count(), m1.bit_count(), m2.bit_count(), m3.bit_count()],
        [group[m0], group[m1], group[m2], group[m3]],
    )


_ORDINALS = ("0th", "1st", "2nd", "3rd", "4th")
_NUMBERS = tuple(str(n) for n in range(CARDS + 1))


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
        counts, groups, state.owners, state.season_order, state.players, state.tie_order
    )


# Per deal (who owns which season, the order they were drawn in, the
# players, tie_order), what scoring needs besides the tally, worked out when
# first met (few deals recur: 24 orders of the seasons): each season's place
# in turn order (the last tie-break of 6), the seasons in turn order, and
# the start of each season's line of the details at each rank.
_DEALS: dict[tuple, tuple[tuple[int, ...], tuple[int, ...], tuple[tuple[str, ...], ...]]] = {}


def _deal_scoring(
    owners: tuple[int, ...], season_order: tuple[int, ...], players: tuple[str, ...], tie_order: str
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[tuple[str, ...], ...]]:
    n = len(players)
    # 6: earlier in turn order: the players' (a season nobody owns last, a
    # player's two seasons in the order drawn), or with tie_order "seasons"
    # the order the seasons were drawn. Both are the same order unless two
    # players share the seasons.
    if tie_order == "seasons":
        turn = {s: (i, i) for i, s in enumerate(season_order)}
    else:
        turn = {s: (owners[s] if owners[s] >= 0 else n, i) for i, s in enumerate(season_order)}
    in_turn = sorted(range(4), key=turn.__getitem__)
    who = [players[owners[s]] if owners[s] >= 0 else "nobody" for s in range(4)]
    heads = tuple(
        tuple(f"{_ordinal(i + 1)} {SEASON_NAMES[s]} ({who[s]}): " for s in range(4))
        for i in range(4)
    )
    if len(_DEALS) > 1_000:
        _DEALS.clear()
    out = _DEALS[owners, season_order, players, tie_order] = (
        tuple(in_turn.index(s) for s in range(4)),
        tuple(in_turn),
        heads,
    )
    return out


# Per players and the seats holding the seasons ranked best first (-1:
# nobody), what that decides alone (see _ranking): few such rankings occur.
_RankingEnd = tuple[tuple[Standing, ...], tuple[str, ...], tuple[int, str, str] | None]
_RANKINGS: dict[tuple[tuple[str, ...], tuple[int, ...]], _RankingEnd] = {}


def _ranking(players: tuple[str, ...], holders: tuple[int, ...]) -> _RankingEnd:
    """The standings and the winners when the seasons ranked best first are
    held by the seats ``holders``; and with 2 players on equal totals, the
    last line of the details, as the rank of the season that breaks the tie
    and the text before and after its name."""
    n = len(players)
    scores = [0] * n
    best_rank = [4] * n
    for i, owner in enumerate(holders):
        if owner >= 0:
            scores[owner] += 4 - i
            best_rank[owner] = min(best_rank[owner], i)
    # Two players: a tie on totals goes to the holder of the higher-ranked season.
    seats = sorted(range(n), key=lambda p: (-scores[p], best_rank[p]))
    tie = None
    if n == 2 and scores[0] == scores[1]:
        w, l = seats
        tie = (
            best_rank[w],
            f"{players[w]} and {players[l]} both have {scores[w]} points; "
            f"{players[w]} holds the higher-ranked season (",
            f", {_ordinal(best_rank[w] + 1)})",
        )
    standings = tuple(
        Standing(player=players[p], score=scores[p], place=i + 1)
        for i, p in enumerate(seats)
    )
    if len(_RANKINGS) > 10_000:
        _RANKINGS.clear()
    out = _RANKINGS[players, holders] = (standings, (players[seats[0]],), tie)
    return out


def _score(
    counts: Sequence[int],
    groups: Sequence[int],
    owners: tuple[int, ...],
    season_order: tuple[int, ...],
    players: tuple[str, ...],
    tie_order: str,
) -> Outcome:
    """6. END OF GAME, from the tally alone. Not memoised: a game's tally,
    deal and players seldom recur, and what does (per deal, per ranking of
    the seasons) is kept above."""
    place, in_turn, heads = (
        _DEALS.get((owners, season_order, players, tie_order))
        or _deal_scoring(owners, season_order, players, tie_order)
    )
    # 6: most face up, then the larger largest group, then earlier in turn
    # order: one number a season, ascending, with the season's place in turn
    # order in its lowest 2 bits (counts and groups are at most 16).
    c0, c1, c2, c3 = counts
    g0, g1, g2, g3 = groups
    p0, p1, p2, p3 = place
    k0, k1, k2, k3 = sorted(
        (p0 - 68 * c0 - 4 * g0, p1 - 68 * c1 - 4 * g1, p2 - 68 * c2 - 4 * g2, p3 - 68 * c3 - 4 * g3)
    )
    ranked = s0, s1, s2, s3 = in_turn[k0 & 3], in_turn[k1 & 3], in_turn[k2 & 3], in_turn[k3 & 3]
    first, second, third, fourth = heads
    num = _NUMBERS  # the numbers as text: formatting an int costs more
    details = [
        f"{first[s0]}{num[counts[s0]]} face up, largest group {num[groups[s0]]} - 4 points",
        f"{second[s1]}{num[counts[s1]]} face up, largest group {num[groups[s1]]} - 3 points",
        f"{third[s2]}{num[counts[s2]]} face up, largest group {num[groups[s2]]} - 2 points",
        f"{fourth[s3]}{num[counts[s3]]} face up, largest group {num[groups[s3]]} - 1 point",
    ]
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
    holders = (owners[s0], owners[s1], owners[s2], owners[s3])
    standings, winners, tie = _RANKINGS.get((players, holders)) or _ranking(players, holders)
    if tie is not None:
        rank, before, after = tie
        details.append(before + SEASON_NAMES[ranked[rank]] + after)
    return Outcome(standings=standings, winners=winners, details=tuple(details))


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
