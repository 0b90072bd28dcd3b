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
        limit = _WORD - _WORD % n
        while True:
            w = self.word()
            if w < limit:
                return w % n

    def shuffle(self, items: Sequence[T]) -> list[T]:
        """A new list with ``items`` in Fisher-Yates order (last position first)."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out

    def choice(self, items: Sequence[T]) -> T:
        """One of ``items``, chosen uniformly."""
        return items[self.below(len(items))]


def shuffled(seed: str, label: str, items: Sequence[T]) -> list[T]:
    """Shorthand for ``Chance(seed, label).shuffle(items)``."""
    return Chance(seed, label).shuffle(items)
