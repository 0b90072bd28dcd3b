"""Turn of Time: writing ``tables.bin``, worked out from the rules.

``tables.bin`` (beside this module, shipped as package data) is what
``tables.py`` reads when first needed; its layout is described there. This
module writes it from the plain definitions: the canonical ways of placing a
card from :func:`rules.ways` (:func:`direct` settles the plain cases first,
which is quicker and gives the same bytes), the largest group of cards by a
flood fill. A test checks that the shipped file is exactly what it writes.
After a change to the rules or to the layout, write it again with

    python -m adjudicator.games.turn_of_time.build_tables
"""

from __future__ import annotations

import struct
import sys
from array import array
from itertools import permutations

from .cards import FLIPPED, KIND, MASK_DIRS, flip
from .rules import outcomes, ways
from .tables import MAGIC, ORDER_ID, REL_CODES, ROW, SIGS, TABLES_FILE, digits, neighbours_of

# A placement's result as a row states it: the card it ends up as, and the
# mask of the directions of the neighbours it turns over (a single card
# turned over shows the same season, so it is not counted as turned).
Placed = tuple[int, int]


def _placed(sig: int, result: tuple[int, tuple[int, ...]]) -> Placed:
    before = neighbours_of(sig)
    final, after = result
    return final, sum(1 << d for d in range(4) if after[d] != before[d])


def results(code: int, sig: int) -> set[Placed]:
    """Every result of placing ``code`` among neighbours ``sig`` (:func:`rules.outcomes`)."""
    return {_placed(sig, r) for r in outcomes(code, neighbours_of(sig))}


def canonical(card: int, sig: int) -> dict[Placed, tuple[int, tuple[int, ...]]]:
    """:func:`rules.ways` of the card of kind ``card`` among neighbours ``sig``."""
    return {_placed(sig, r): way for r, way in ways(card, neighbours_of(sig)).items()}


def _step(code: int, digit: int) -> int:
    """A card showing ``code`` meets a neighbour of ``digit``: the card after,
    times 2, plus 1 if the neighbour is a double and is turned over (4, 5.3)."""
    q, double = (digit - 1) >> 1, (digit - 1) & 1
    beat = ((code >> 2) - q) % 4  # 1: it flips the neighbour, 3: is flipped, 2: both
    turned = beat in (1, 2) and double
    return (flip(code) if beat in (2, 3) else code) * 2 + turned


# The signatures with exactly one neighbour, and its direction.
_ONE_NEIGHBOUR = {v * w: d for d, w in enumerate((729, 81, 9, 1)) for v in range(1, 9)}
_STEPS = tuple(tuple(_step(c, v) if v else c * 2 for v in range(9)) for c in range(16))


def direct(code: int, sig: int) -> int | None:
    """The one result of placing ``code`` among neighbours ``sig``, as card
    after * 16 + mask of the directions turned over, when it is plain that
    every order of meetings gives it: a card no neighbour flips (it meets
    them all with the face it shows; a single card is never flipped to
    another season), or a card with one neighbour. None when the orders
    must be tried."""
    row = _STEPS[code]  # an absent neighbour (digit 0) leaves the card as it is
    n, e, s, w = row[sig // 729], row[sig // 81 % 9], row[sig // 9 % 9], row[sig % 9]
    if n >> 1 == e >> 1 == s >> 1 == w >> 1 == code:
        return code * 16 + (n & 1) + (e & 1) * 2 + (s & 1) * 4 + (w & 1) * 8
    d = _ONE_NEIGHBOUR.get(sig)
    if d is None:
        return None
    step = (n, e, s, w)[d]
    return (step >> 1) * 16 + ((step & 1) << d)


def direct_canonical(code: int, sig: int, res: int) -> bool | None:
    """Whether placing ``code`` among neighbours ``sig`` without an order,
    with the one result ``res`` (from :func:`direct`), is the canonical way
    of reaching it (None: the orders must be tried). Only a way without an
    order ending on the face it shows comes before it: the other face, if
    that too has the one result ``res``."""
    if res >> 6 == code >> 2:  # it ends on the face shown: nothing comes before it
        return True
    other = direct(FLIPPED[code], sig)
    return None if other is None else other != res


def _row(code: int, sig: int) -> bytes:
    """The row of a card placed as ``code`` among neighbours ``sig``."""
    dirs = tuple(d for d in range(4) if digits(sig)[d])
    row = bytearray(ROW)
    row[0] = sum(1 << d for d in dirs)
    res = direct(code, sig)
    plain = None if res is None else direct_canonical(code, sig, res)
    if res is not None and plain is not None:  # one result, whatever the order
        if plain:
            row[1] = 1 + (res >> 4 != code) * 16 + (res & 15)
        return bytes(row)
    orders = list(permutations(dirs))  # lexicographic, as in the row
    for (final, turned), (face, order) in canonical(KIND[code], sig).items():
        if face == code >> 2:
            row[2 + orders.index(order) if order else 1] = 1 + (final != code) * 16 + turned
    return bytes(row)


def _orders_of(row: bytes) -> tuple[tuple[int, ...], ...]:
    """The canonical orders a row lists, in the order of the listing: ``((),)``
    for one move written without an order, ``()`` for no move."""
    if row[1]:
        return ((),)
    perms = permutations(MASK_DIRS[row[0]])
    return tuple(p for i, p in enumerate(perms) if row[2 + i])


def _largest(cards: int) -> int:
    """The largest connected group of a mask of cards in a 4x4 box, 4 bits a row."""
    # Spread to 5 bits a row: the 5th bit of a row is never set, so shifting a
    # mask by 1 never carries a card into the next row.
    spread = sum(1 << (i // 4 * 5 + i % 4) for i in range(16) if cards >> i & 1)
    best = 0
    rest = spread
    while rest:
        group = rest & -rest
        while True:  # grow the group by its orthogonal neighbours among the cards
            grown = (group | group << 5 | group >> 5 | group << 1 | group >> 1) & spread
            if grown == group:
                break
            group = grown
        best = max(best, group.bit_count())
        rest ^= group
    return best


def tables() -> bytes:
    """The contents of tables.bin."""
    rows: dict[bytes, int] = {}
    row_of = array("H")
    for code in REL_CODES:
        for sig in range(SIGS):
            row_of.append(rows.setdefault(_row(code, sig), len(rows)))
    if sys.byteorder != "little":
        row_of.byteswap()
    groups = bytes(_largest(cards) for cards in range(1 << 16))
    # The tuples of orders the rows list, numbered: ((),) is 0 and () is 1,
    # the others in the order the rows first list them.
    sets: dict[tuple[tuple[int, ...], ...], int] = {((),): 0, (): 1}
    row_set = array("H", [sets.setdefault(_orders_of(row), len(sets)) for row in rows])
    if sys.byteorder != "little":
        row_set.byteswap()
    listed = b"".join(bytes([len(s), *(ORDER_ID[o] for o in s)]) for s in list(sets)[2:])
    return (
        MAGIC + row_of.tobytes() + groups + struct.pack("<HH", len(rows), len(sets))
        + b"".join(rows) + row_set.tobytes() + listed
    )


def main() -> None:
    data = tables()
    with open(TABLES_FILE, "wb") as f:
        f.write(data)
    print(f"wrote {TABLES_FILE}: {len(data)} bytes")


if __name__ == "__main__":
    main()
