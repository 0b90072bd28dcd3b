"""All randomness of a game, derived from the log's seed.

The derivation is specified in ``notation/README.md`` ("Chance") so that a
program in another language reproduces every shuffle and draw. In short: a
stream of SHA-256 blocks over (domain, seed, label, counter), read as 32-bit
big-endian words; a number below ``n`` by rejection sampling; shuffles by
Fisher-Yates from the last position down. Nothing here depends on Python's
``random`` module or on the Python version.
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

DOMAIN = b"adjudicator/chance/v1"
_WORD = 1 << 32
_WORDS = struct.Struct(">8I")  # a SHA-256 block as eight big-endian words
#: The most blocks shuffled() hashes at once: lists of up to 8 * 6 + 1 items.
SHORTCUT_BLOCKS = 6


class Chance:
    """A deterministic stream of random choices for one ``label`` of one ``seed``.

    >>> Chance("42", "deck").below(6)
    5
    """

    __slots__ = ("_prefix", "_counter", "_words")

    def __init__(self, seed: str, label: str) -> None:
        self._prefix = (
            DOMAIN + b"\x00" + seed.encode("utf-8") + b"\x00" + label.encode("utf-8") + b"\x00"
        )
        self._counter = 0
        self._words: list[int] = []

    def word(self) -> int:
        """The next unsigned 32-bit word of the stream."""
        if not self._words:
            block = hashlib.sha256(self._prefix + self._counter.to_bytes(8, "big")).digest()
            self._counter += 1
            # Reversed so that pop() yields the words in block order.
            self._words = list(_WORDS.unpack(block))[::-1]
        return self._words.pop()

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``; always consumes at least one word."""
        if not 1 <= n <= _WORD:
            raise ValueError(f"below() needs 1 <= n <= 2**32, got {n}")
        limit = _WORD - _WORD % n  # (limit(n), without the call)
        while True:
            left = self._words  # word(), without the call while the block lasts
            w = left.pop() if left else self.word()
            if w < limit:
                return w % n

    def shuffle(self, items: Sequence[T]) -> list[T]:
        """A new list with ``items`` in Fisher-Yates order (last position first)."""
        out = list(items)
        count = len(out) - 1
        if count < 1:
            return out
        # The words of a shuffle are read at once. A word w is rejected by
        # below(n) only if w >= 2**32 - 2**32 % n > 2**32 - n, so when no word
        # is at or above 2**32 - count none is, for any n up to count + 1;
        # otherwise (about once in 2**32 / count**2 shuffles) the words go back
        # and below() reads them one by one.
        words = self._take(count)
        if max(words) >= _WORD - count:
            self._words += words[::-1]
            for i in range(count, 0, -1):
                j = self.below(i + 1)
                out[i], out[j] = out[j], out[i]
            return out
        for i, w in zip(range(count, 0, -1), words):
            j = w % (i + 1)
            out[i], out[j] = out[j], out[i]
        return out

    def _take(self, count: int) -> list[int]:
        """The next ``count`` words, as ``count`` calls of word() give them."""
        left = self._words  # reversed: the next word last
        if len(left) >= count:
            taken = left[len(left) - count :][::-1]
            del left[len(left) - count :]
            return taken
        blocks = (count - len(left) + 7) // 8
        first = self._counter
        prefix = self._prefix
        self._counter = first + blocks
        words = left[::-1]
        if blocks == 1:
            words += _WORDS.unpack(hashlib.sha256(prefix + first.to_bytes(8, "big")).digest())
        else:
            data = b"".join([hashlib.sha256(prefix + k.to_bytes(8, "big")).digest()
                             for k in range(first, first + blocks)])
            words += struct.unpack(f">{8 * blocks}I", data)
        self._words = words[count:][::-1]
        return words[:count]

    def choice(self, items: Sequence[T]) -> T:
        """One of ``items``, chosen uniformly."""
        return items[self.below(len(items))]


def first_words(seed: str, label: str) -> tuple[int, ...]:
    """The first eight words of the stream ``label`` of ``seed`` (its first
    block), in the order ``Chance(seed, label).word()`` gives them: for a
    fast path that takes its few draws at once (and checks them itself
    against what ``below`` would put back)."""
    prefix = b"\x00".join((DOMAIN, seed.encode("utf-8"), label.encode("utf-8"), b""))
    return _WORDS.unpack(hashlib.sha256(prefix + _FIRST).digest())


def limit(n: int) -> int:
    """The first word ``Chance.below(n)`` puts back: a draw below ``n``
    takes a word ``w`` as ``w % n`` only if ``w < limit(n)``."""
    return _WORD - _WORD % n


def shuffled(seed: str, label: str, items: Sequence[T]) -> list[T]:
    """``Chance(seed, label).shuffle(items)``: the same list, made faster.

    Every log validated is dealt first, so this is on the path of validation.
    A shuffle that opens its stream reads its words from the stream's first
    blocks, hashed at once, and takes every draw from its word; when a word
    might be rejected (about once in 2**32 / (8 * len(items)) shuffles), or
    for long lists, Chance reads them as the notation says. The tests compare
    the two, rejections included.
    """
    out = list(items)
    count = len(out) - 1
    if count < 1:
        return out
    blocks = (count + 7) // 8
    if blocks > len(_SHUFFLE):
        return Chance(seed, label).shuffle(items)
    prefix = b"\x00".join((DOMAIN, seed.encode("utf-8"), label.encode("utf-8"), b""))
    unpack, counters = _SHUFFLE[blocks - 1]
    if blocks == 1:
        data = hashlib.sha256(prefix + _FIRST).digest()
    else:
        sha256 = hashlib.sha256
        data = b"".join([sha256(prefix + c).digest() for c in counters])
    words = unpack(data)
    # A word below(n) might reject, for some n <= count + 1 <= 49, only if it
    # is at least 2**32 - 49: its first three bytes are all 0xff. Those are
    # looked for in the blocks first (any three in a row: a superset).
    if b"\xff\xff\xff" in data and max(words) >= _WORD - count:
        return Chance(seed, label).shuffle(items)
    # (A plain loop: cheaper here than zip and map over ranges, whose
    # objects cost more than a short shuffle's few steps.)
    i = count
    for w in words[:count]:
        j = w % (i + 1)
        out[i], out[j] = out[j], out[i]
        i -= 1
    return out


#: For shuffles of up to 8 * k + 1 items, k = 1..SHORTCUT_BLOCKS: how to read
#: the words of the stream's first k blocks at once, and those blocks'
#: counters as hashed.
_SHUFFLE = tuple((struct.Struct(f">{8 * k}I").unpack,
                  tuple(c.to_bytes(8, "big") for c in range(k)))
                 for k in range(1, SHORTCUT_BLOCKS + 1))
_FIRST = (0).to_bytes(8, "big")  # the counter of the first block
