"""Turn of Time: the tables the listing, the scoring and the fast paths read.

What a placement does depends only on the card, the order of meetings and
the neighbours' *signature* (below). The canonical ways of every such
placement (what :func:`rules.ways` gives), and the largest group of every
set of cards in a 4x4 box, are worked out beforehand from the rules by
``build_tables.py`` and shipped in ``tables.bin``, read when first needed
(not at import: a command that plays no move starts sooner). What is made
from them as met (the moves of a square among given neighbours, a deal's
lines of the scoring) is kept in bounded memos.

:func:`rules.legal_moves` lists from here, :func:`rules.standing` scores
from here, and ``fast.py`` plays from here; the tests hold all of it to the
plain definitions of ``rules``.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from itertools import permutations
from operator import itemgetter
from typing import Any

from ...engine import Outcome, Standing
from .cards import (
    CENTRE,
    FLIPPED,
    MASK_DIRS,
    NEIGHBOURS,
    OFF,
    SEASON_NAMES,
    SEASONS,
    SIZE,
    SQUARES,
    TITLE,
    Move,
    flip,
)

# --- signatures -----------------------------------------------------------------
#
# A meeting depends on a neighbouring card only through the season it shows
# and whether it is a double: turning a single card over changes nothing (R2).
# So the neighbours of a square are summed up in one number, their
# *signature*: a base-9 digit per direction (n, e, s, w), 0 for no card, else
# 1 + 2 * face + (1 if a double).

SIGS = 9**4
WEIGHTS = (729, 81, 9, 1)


def digit(code: int) -> int:
    """A card's digit in a signature (0: no card)."""
    return 0 if code < 0 else 1 + 2 * (code >> 2) + ((code >> 2) != (code & 3))


# Per direction, a card's share of the signature, indexed by the card on the
# square: an empty square (-1, and OFF) reads the last entry, which is 0.
SIG_N, SIG_E, SIG_S, SIG_W = (tuple(digit(c) * w for c in (*range(16), -1)) for w in WEIGHTS)


def signature(board: Sequence[int], square: int) -> int:
    n, e, s, w = NEIGHBOURS[square]
    return SIG_N[board[n]] + SIG_E[board[e]] + SIG_S[board[s]] + SIG_W[board[w]]


def digits(sig: int) -> tuple[int, int, int, int]:
    return (sig // 729, sig // 81 % 9, sig // 9 % 9, sig % 9)


def neighbours_of(sig: int) -> tuple[int, int, int, int]:
    """Cards around a square (n, e, s, w; -1 for none) with signature ``sig``:
    for a double, the one whose back is the next season."""
    out = []
    for v in digits(sig):
        face, double = (v - 1) >> 1, (v - 1) & 1
        out.append(-1 if not v else face * 4 + (face + double) % 4)
    return out[0], out[1], out[2], out[3]


# --- the canonical moves: the file ---------------------------------------------------
#
# Seasons form a cycle, so turning the card and every neighbour on by the
# same number of seasons turns every result the same way; and the canonical
# choice does not depend on which season is which (of the notation's
# preferences the 3rd never decides: the two faces of a card end up showing
# different seasons, so the 2nd has told them apart). So every card placed
# is one of five *relative* cards turned on by 0-3 seasons: the single
# Sp/Sp, Sp/Su and Su/Sp (neighbouring seasons) or Sp/Fa and Fa/Sp
# (opposite ones); its neighbours are turned back with it.
#
# A relative card among a signature has a *row* of ROW bytes: the mask of
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
# tables.bin holds, after MAGIC (numbers are little-endian): the number of
# the row of each relative card and signature (5 x SIGS, 2 bytes each); the
# largest connected group of each mask of cards in a 4x4 box (2**16 bytes;
# 4 bits a row, for scoring); the number of rows and of tuples of orders (2
# bytes each); the rows; the number of each row's tuple of orders (2 bytes
# a row); then the tuples from the third on, each as its length (1 byte)
# and the number of each of its orders in ORDERS (1 byte each).


def _class_of(code: int) -> tuple[int, int]:
    """The class of a card, and the season its class's Spring is turned to."""
    a, b = code >> 2, code & 3
    if a > b:
        a, b = b, a
    gap = b - a
    return (0, a) if gap == 0 else (2, a) if gap == 2 else (1, a) if gap == 1 else (1, b)


CLASS = tuple(_class_of(c) for c in range(16))  # by card code
# TURN_CODE[t][code]: a card turned on by t seasons (t = -1 turns back one).
TURN_CODE = tuple(
    tuple(((c >> 2) + t) % 4 * 4 + ((c & 3) + t) % 4 for c in range(16)) for t in range(4)
)
REL_CODES = (0, 1, 4, 2, 8)  # the relative cards, in the order of the file
# Per card code: the place of its relative card in REL_CODES, and its turn.
REL_INDEX = tuple(REL_CODES.index(TURN_CODE[-CLASS[c][1]][c]) for c in range(16))
ROW = 26  # bytes a row: the mask, no order, then at most 4! orders
MAGIC = b"turn-of-time tables 2\n"
TABLES_FILE = os.path.join(os.path.dirname(__file__), "tables.bin")

# Every order of meetings a move can name, numbered; 0 is no order.
ORDERS: tuple[tuple[int, ...], ...] = ((),) + tuple(
    p for k in range(1, 5) for p in sorted(permutations(range(4), k))
)
ORDER_ID = {order: i for i, order in enumerate(ORDERS)}
NORDERS = len(ORDERS)
SUFFIX = tuple(":" + "".join("nesw"[d] for d in order) if order else "" for order in ORDERS)
# A result read in a row: (1 if the card ends up turned over, the directions
# of the neighbours it turns over); None for 0, not a canonical way of writing.
RESULTS = (None, *((f, MASK_DIRS[m]) for f in (0, 1) for m in range(16)))


# What is read in a row for each order: ORDER_AT[oid] is its place in a row
# and the mask of its directions (0 for no order); ORDER_PARTS, the same by
# the order's text.
_PLACES = {p: (2 + i, m) for m in range(1, 16) for i, p in enumerate(permutations(MASK_DIRS[m]))}
ORDER_AT = ((1, 0), *(_PLACES[order] for order in ORDERS[1:]))
ORDER_PARTS = dict(zip(SUFFIX, ORDER_AT))

# Read from tables.bin by load(): the row number of (relative card,
# signature), the rows, the number of each row's tuple of orders, and the
# largest group of each 4x4 mask of cards. Made with them: the shares of the signature per direction of each card turned back by t
# seasons (SIG_SHARES[t], as SIG_N, ...), each move's text without its order
# (BASE[code][square]) and the seasons of each row of the scoring window
# (ROW_SEASONS, see the tally). None and empty until read.
ROW_OF: Sequence[int] | None = None
ROWS = b""
GROUP = b""
ROW_SET: Sequence[int] = ()
ORDER_SETS: list[tuple[tuple[int, ...], ...]] = []  # the tuples of orders, numbered
SIG_SHARES: tuple[tuple[tuple[int, ...], ...], ...] = ()
BASE: tuple[tuple[str, ...], ...] = ()
ROW_SEASONS: tuple[int, ...] = ()


def load() -> None:
    """Read tables.bin and make what is read with it; start every memo afresh."""
    global ROW_OF, ROWS, GROUP, ROW_SET, SIG_SHARES, BASE, ROW_SEASONS
    try:
        with open(TABLES_FILE, "rb") as f:
            data = f.read()
    except OSError as e:
        raise RuntimeError(f"{TABLES_FILE} is missing from this installation: {e}") from None
    start = len(MAGIC)
    groups = start + 2 * len(REL_CODES) * SIGS
    counts = groups + (1 << 16)
    nrows = int.from_bytes(data[counts : counts + 2], "little")
    nsets = int.from_bytes(data[counts + 2 : counts + 4], "little")
    rows = counts + 4
    row_set = rows + nrows * ROW
    sets = row_set + 2 * nrows
    if data[:start] != MAGIC or len(data) < sets:
        raise RuntimeError(f"{TABLES_FILE} is not a table file of this version")
    view = memoryview(data)
    row_of: Any = view[start:groups].cast("H")
    row_sets: Any = view[row_set:sets].cast("H")
    if sys.byteorder != "little":  # the file is little-endian
        from array import array

        row_of, row_sets = array("H", row_of.tobytes()), array("H", row_sets.tobytes())
        row_of.byteswap()
        row_sets.byteswap()
    order_sets: list[tuple[tuple[int, ...], ...]] = [((),), ()]
    at = sets
    while at < len(data):
        end = at + 1 + data[at]
        order_sets.append(tuple([ORDERS[i] for i in data[at + 1 : end]]))
        at = end
    if len(order_sets) != nsets or at != len(data):
        raise RuntimeError(f"{TABLES_FILE} is not a table file of this version")
    SIG_SHARES = tuple(
        tuple((*(share[TURN_CODE[-t][c]] for c in range(16)), 0)
              for share in (SIG_N, SIG_E, SIG_S, SIG_W))
        for t in range(4)
    )
    BASE = tuple(tuple(f"{SEASONS[c >> 2]}{SEASONS[c & 3]}-{sq}" for sq in SQUARES) for c in range(16))
    ORDER_SETS[:] = order_sets
    ROW_SET = row_sets
    ROW_SEASONS = tuple(
        sum(1 << 16 * (d - 1) + k for k in range(4) if (d := row // 5**k % 5))
        for row in range(5**4)
    )
    # Worked out from the tables as met: start afresh.
    _SIG_SETS[:] = [None] * SIGS
    _PICK[:] = [None] * SIGS
    _ATOMS[:] = [None] * OFF
    _MOVE_AT.clear()
    BLOCKS.clear()
    GROUP = data[groups:counts]
    ROWS = data[rows:row_set]
    # A list: read on every move, and a list is read several times faster
    # than a memoryview (0.5 ms to make, once).
    ROW_OF = list(row_of)


# BACK_DIGIT[t][digit]: a neighbour's signature digit, turned back by t seasons.
_BACK_DIGIT = tuple(
    (0, *(1 + 2 * ((((v - 1) >> 1) - t) % 4) + ((v - 1) & 1) for v in range(1, 9)))
    for t in range(4)
)


def turn_sig(sig: int, t: int) -> int:
    """The signature with every neighbour turned back by ``t`` seasons."""
    if not t:
        return sig
    back = _BACK_DIGIT[t]
    return back[sig // 729] * 729 + back[sig // 81 % 9] * 81 + back[sig // 9 % 9] * 9 + back[sig % 9]


def result(code: int, oid: int, sig: int) -> tuple[int, tuple[int, ...]] | bool:
    """What a card placed as ``code`` among neighbours ``sig`` with the
    order numbered ``oid`` does, if that is the canonical way of writing it:
    the card it ends up as and the directions of the neighbours it turns
    over; False if it is not (or names the wrong neighbours)."""
    if ROW_OF is None:
        load()
    assert ROW_OF is not None
    row = ROW_OF[REL_INDEX[code] * SIGS + turn_sig(sig, CLASS[code][1])] * ROW
    place, mask = ORDER_AT[oid]
    res = None if mask and ROWS[row] != mask else RESULTS[ROWS[row + place]]
    if res is None:
        return False
    return (FLIPPED[code] if res[0] else code), res[1]


# --- the listing -----------------------------------------------------------------

# The squares where a card may go next, for the rows and columns the cards
# span (5.1b), in the order of their names: each as (square, n, e, s, w).
_CANDIDATES: dict[tuple[int, int, int, int], tuple[tuple[int, int, int, int, int], ...]] = {}


def _candidates(box: tuple[int, int, int, int]) -> tuple[tuple[int, int, int, int, int], ...]:
    r0, r1, c0, c1 = box
    if r0 > r1:  # an empty table: the first card goes on d4
        out: tuple[tuple[int, int, int, int, int], ...] = ((CENTRE, *NEIGHBOURS[CENTRE]),)
    else:
        rows = range(max(r1 - 3, r0 - 1, 0), min(r0 + 3, r1 + 1, SIZE - 1) + 1)
        cols = range(max(c1 - 3, c0 - 1, 0), min(c0 + 3, c1 + 1, SIZE - 1) + 1)
        out = tuple((i, *NEIGHBOURS[i]) for c in cols for r in rows for i in (r * SIZE + c,))
    _CANDIDATES[box] = out  # at most 8**4 boxes
    return out


# Per signature, the number of the tuple of canonical orders of each card
# code among such neighbours (None: not worked out yet).
_SIG_SETS: list[tuple[int, ...] | None] = [None] * SIGS


def _sig_sets(sig: int) -> tuple[int, ...]:
    if ROW_OF is None:
        load()
    assert ROW_OF is not None
    turned = [turn_sig(sig, t) for t in range(4)]
    row_of, row_set = ROW_OF, ROW_SET
    out = _SIG_SETS[sig] = tuple(
        [row_set[row_of[REL_INDEX[code] * SIGS + turned[CLASS[code][1]]]] for code in range(16)]
    )
    return out


_new_move = tuple.__new__  # Move(...) without the keyword handling of a named tuple


def fill(block: list[Any], key: int, codes: tuple[int, ...]) -> None:
    """The plain definition of a block (see BLOCKS): the moves of the card
    ``codes`` on the square and signature of ``key``, put in ``block`` at
    code + 1, each in the order of the listing."""
    sq, sig = divmod(key, SIGS)
    sets = _SIG_SETS[sig] or _sig_sets(sig)
    for code in codes:
        block[code + 1] = tuple(Move(code >> 2, code & 3, sq, o) for o in ORDER_SETS[sets[code]])
        block[0] |= 1 << code


# The moves of each card code on a square with each tuple of orders, per
# square: _ATOMS[square][set * 16 + code] (None: not made yet; None for a
# square not met yet). Made with the moves without an order and the empty
# tuples in place: most placements have one or the other.
_ATOMS: list[list[Any] | None] = [None] * OFF
# Per signature, what picks the 16 moves of a square and signature out of
# the square's _ATOMS, code by code (None: not made yet).
_PICK: list[Any] = [None] * SIGS


def _atoms(sq: int) -> list[Any]:
    out: list[Any] = [None] * (len(ORDER_SETS) * 16)
    for code in range(16):
        out[code] = (_move_at(code, sq, ()),)
        out[16 + code] = ()
    _ATOMS[sq] = out
    return out


# Every move made, keyed (code * OFF + square) * NORDERS + order number:
# one object per move, however many tuples of orders hold it (the moves
# kept are tracked by the garbage collector, which visits each one).
_MOVE_AT: dict[int, Move] = {}


def _move_at(code: int, sq: int, order: tuple[int, ...]) -> Move:
    key = (code * OFF + sq) * NORDERS + ORDER_ID[order]
    move = _MOVE_AT.get(key)
    if move is None:
        move = _MOVE_AT[key] = _new_move(Move, (code >> 2, code & 3, sq, order))
    return move


def _pick(sig: int) -> itemgetter[Any]:
    sets = _SIG_SETS[sig] or _sig_sets(sig)
    out = _PICK[sig] = itemgetter(*[i * 16 + code for code, i in enumerate(sets)])
    return out


# The legal moves on a square among a signature, for every card code: a
# tuple of 16, the moves of code 0, ..., 15, each in the order of the
# listing (the moves of fill). Kept as met, keyed square * SIGS + signature.
BLOCKS: dict[int, tuple[Any, ...]] = {}


def block(key: int) -> tuple[Any, ...]:
    """The entry of BLOCKS for ``key``, made and kept."""
    if len(BLOCKS) > 60_000:  # a few MB: a tuple of 16 per square and signature
        BLOCKS.clear()
    sq, sig = divmod(key, SIGS)
    pick = _PICK[sig] or _pick(sig)  # reads the tables first if need be
    atoms = _ATOMS[sq] or _atoms(sq)
    got = pick(atoms)
    if None in got:  # moves with orders not made yet on this square
        sets = _SIG_SETS[sig]
        assert sets is not None
        for code, moves in enumerate(got):
            if moves is None:
                atoms[sets[code] * 16 + code] = tuple(
                    [_move_at(code, sq, o) for o in ORDER_SETS[sets[code]]]
                )
        got = pick(atoms)
    BLOCKS[key] = got
    return got


# Per hand: its card codes (both faces of each card), ascending.
_HAND_CODES: dict[tuple[int, ...], tuple[int, ...]] = {}


def _hand_codes(hand: tuple[int, ...]) -> tuple[int, ...]:
    if len(_HAND_CODES) > 10_000:
        _HAND_CODES.clear()
    out = _HAND_CODES[hand] = tuple(sorted({c for k in hand for c in (k, flip(k))}))
    return out


def listing(
    hand: tuple[int, ...], board: tuple[int, ...], box: tuple[int, int, int, int], first: bool
) -> tuple[Move, ...]:
    """:func:`rules.legal_moves` of a player holding the card kinds ``hand``
    (``first``: no card is on the table yet)."""
    codes = _HAND_CODES.get(hand) or _hand_codes(hand)
    get = BLOCKS.get
    if first:  # 5.1a: the first card goes anywhere, written d4
        blocks = [get(CENTRE * SIGS) or block(CENTRE * SIGS)]
    else:  # the open squares, by their neighbours' signatures
        sig_n, sig_e, sig_s, sig_w = SIG_N, SIG_E, SIG_S, SIG_W
        blocks = []
        for sq, n, e, s, w in _CANDIDATES.get(box) or _candidates(box):
            if board[sq] < 0:
                sig = sig_n[board[n]] + sig_e[board[e]] + sig_s[board[s]] + sig_w[board[w]]
                if sig:
                    key = sq * SIGS + sig
                    blocks.append(get(key) or block(key))
    # The moves code by code, square by square: the blocks transposed.
    moves: list[Move] = []
    add = moves.extend
    for i in codes:
        for b in blocks:
            add(b[i])
    return tuple(moves)


# --- the tally and the scoring (6) ------------------------------------------------
#
# The tally reads the cards in a 4x4 window from the top left corner of the
# box (the rows and columns the cards span, never more than 4x4: 5.1b), a
# row of four at a time. A row's cards are one number, a base-5 digit a
# place (0 empty, else 1 + the season face up), summed from _FACE_AT; per
# such number, ROW_SEASONS holds each season's cards in the row as a 4-bit
# mask, season s at bit 16 * s. Shifted by 4 bits a row and combined, they
# give each season's mask of the box read row by row, 4 bits a row: its
# index in the table of largest groups (GROUP).
_FACE_AT = tuple(tuple([(1 + (c >> 2)) * 5**k for c in range(16)] + [0]) for k in range(4))
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


def tally(board: tuple[int, ...], box: tuple[int, int, int, int]) -> tuple[list[int], list[int]]:
    """Face-up cards per season and each season's largest connected group
    (:func:`rules.tally`), reading only the window of ``box``."""
    if ROW_OF is None:
        load()
    a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p = _WINDOWS.get(box) or _window(box)  # noqa: E741
    f0, f1, f2, f3 = _FACE_AT
    rows = ROW_SEASONS
    packed = (
        rows[f0[board[a]] + f1[board[b]] + f2[board[c]] + f3[board[d]]]
        | rows[f0[board[e]] + f1[board[f]] + f2[board[g]] + f3[board[h]]] << 4
        | rows[f0[board[i]] + f1[board[j]] + f2[board[k]] + f3[board[l]]] << 8
        | rows[f0[board[m]] + f1[board[n]] + f2[board[o]] + f3[board[p]]] << 12
    )
    m0, m1, m2, m3 = packed & 0xFFFF, packed >> 16 & 0xFFFF, packed >> 32 & 0xFFFF, packed >> 48
    group = GROUP
    return (
        [m0.bit_count(), m1.bit_count(), m2.bit_count(), m3.bit_count()],
        [group[m0], group[m1], group[m2], group[m3]],
    )


_ORDINALS = ("0th", "1st", "2nd", "3rd", "4th")
_NUMBERS = tuple(str(n) for n in range(17))

# Per deal (who owns which season, the order they were drawn in, the
# players, tie_order), what scoring needs besides the tally, worked out when
# first met (few deals recur: 24 orders of the seasons): each season's place
# in turn order (the last tie-break of 6), the seasons in turn order, and
# the start of each season's line of the details at each rank.
_DealScoring = tuple[tuple[int, ...], tuple[int, ...], tuple[tuple[str, ...], ...]]
_DEALS: dict[tuple[Any, ...], _DealScoring] = {}


def _deal_scoring(
    owners: tuple[int, ...], season_order: tuple[int, ...], players: tuple[str, ...], tie_order: str
) -> _DealScoring:
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
        tuple(f"{_ORDINALS[i + 1]} {SEASON_NAMES[s]} ({who[s]}): " for s in range(4))
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
        w, lose = seats
        tie = (
            best_rank[w],
            f"{players[w]} and {players[lose]} both have {scores[w]} points; "
            f"{players[w]} holds the higher-ranked season (",
            f", {_ORDINALS[best_rank[w] + 1]})",
        )
    standings = tuple(
        Standing(player=players[p], score=scores[p], place=i + 1)
        for i, p in enumerate(seats)
    )
    if len(_RANKINGS) > 10_000:
        _RANKINGS.clear()
    out = _RANKINGS[players, holders] = (standings, (players[seats[0]],), tie)
    return out


def score(
    counts: Sequence[int],
    groups: Sequence[int],
    owners: tuple[int, ...],
    season_order: tuple[int, ...],
    players: tuple[str, ...],
    tie_order: str,
) -> Outcome:
    """6. END OF GAME, from the tally alone (see :func:`rules.standing`).
    Not memoised: a game's tally, deal and players seldom recur, and what
    does (per deal, per ranking of the seasons) is kept above."""
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
