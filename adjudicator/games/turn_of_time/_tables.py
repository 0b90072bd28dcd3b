"""Turn of Time: the tables behind the fast paths, worked out from the rules.

``tables.bin`` (beside this module, shipped as package data) is what
``rules`` reads when a fast path first needs it; its layout is described
there ("the canonical moves, fast: the tables"). This module writes it from
the plain definitions: the canonical ways of placing a card from
``rules._choose`` (``rules._direct`` settles the plain cases first, which
is quicker and gives the same bytes), the largest group of cards by a flood
fill. A test checks that the shipped file is exactly what it writes. After
a change to the rules or to the layout, write it again with

    python -m adjudicator.games.turn_of_time._tables
"""

from __future__ import annotations

import struct
import sys
from array import array
from itertools import permutations

from .rules import (
    _KIND,
    _MAGIC,
    _MASK_DIRS,
    _ORDER_ID,
    _REL_CODES,
    _ROW,
    _SIGS,
    _TABLES_FILE,
    _choose,
    _digits,
    _direct,
    _direct_canonical,
)


def _row(code: int, sig: int) -> bytes:
    """The row of a card placed as ``code`` among neighbours ``sig``."""
    digits = _digits(sig)
    dirs = tuple(d for d in range(4) if digits[d])
    row = bytearray(_ROW)
    row[0] = sum(1 << d for d in dirs)
    res = _direct(code, sig)
    canonical = None if res is None else _direct_canonical(code, sig, res)
    if res is not None and canonical is not None:  # one result, whatever the order
        if canonical:
            row[1] = 1 + (res >> 4 != code) * 16 + (res & 15)
        return bytes(row)
    orders = list(permutations(dirs))  # lexicographic, as in the row
    for (final, turned), (face, order) in _choose(_KIND[code], sig).canon.items():
        if face == code >> 2:
            row[2 + orders.index(order) if order else 1] = 1 + (final != code) * 16 + turned
    return bytes(row)


def _orders_of(row: bytes) -> tuple[tuple[int, ...], ...]:
    """The canonical orders a row lists, in the order of the listing: ``((),)``
    for one move written without an order, ``()`` for no move."""
    if row[1]:
        return ((),)
    perms = permutations(_MASK_DIRS[row[0]])
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
    for code in _REL_CODES:
        for sig in range(_SIGS):
            row_of.append(rows.setdefault(_row(code, sig), len(rows)))
    if sys.byteorder != "little":
        row_of.byteswap()
    groups = bytes(_largest(cards) for cards in range(1 << 16))
    # The tuples of orders the rows list, numbered: ((),) is 0 and () is 1,
    # the others in the order the rows first list them.
    sets = {((),): 0, (): 1}
    row_set = array("H", [sets.setdefault(_orders_of(row), len(sets)) for row in rows])
    if sys.byteorder != "little":
        row_set.byteswap()
    listed = b"".join(bytes([len(s), *(_ORDER_ID[o] for o in s)]) for s in list(sets)[2:])
    return (
        _MAGIC + row_of.tobytes() + groups + struct.pack("<HH", len(rows), len(sets))
        + b"".join(rows) + row_set.tobytes() + listed
    )


def main() -> None:
    data = tables()
    with open(_TABLES_FILE, "wb") as f:
        f.write(data)
    print(f"wrote {_TABLES_FILE}: {len(data)} bytes")


if __name__ == "__main__":
    main()
