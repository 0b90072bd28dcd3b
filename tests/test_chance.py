"""The chance derivation must match notation/README.md exactly (its test vectors)."""

import hashlib

import pytest

from adjudicator import chance as chance_module
from adjudicator.chance import DOMAIN, Chance, shuffled


def test_block_zero_is_the_documented_digest() -> None:
    block = hashlib.sha256(DOMAIN + b"\x0042\x00deck\x00" + bytes(8)).hexdigest()
    assert block == "da670e63a0d1ca1606858970e05559a5f7314d9c79209f80d557f46dad078280"
    c = Chance("42", "deck")
    words = [c.word() for _ in range(8)]
    assert words == [int(block[i : i + 8], 16) for i in range(0, 64, 8)]


def test_words_continue_into_the_next_block() -> None:
    c = Chance("42", "deck")
    words = [c.word() for _ in range(9)]
    block1 = hashlib.sha256(DOMAIN + b"\x0042\x00deck\x00" + (1).to_bytes(8, "big")).digest()
    assert words[8] == int.from_bytes(block1[:4], "big")


def test_documented_vectors() -> None:
    c = Chance("42", "deck")
    assert [c.word() for _ in range(3)] == [3664186979, 2698103318, 109414768]
    assert Chance("42", "deck").below(6) == 5
    assert shuffled("example", "deck", range(10)) == [8, 6, 1, 0, 3, 9, 2, 5, 7, 4]
    assert shuffled("42", "seasons", range(4)) == [2, 1, 0, 3]


def test_rejection_sampling_skips_words_at_or_above_the_limit() -> None:
    # n = 3 * 2**30: limit = 2**32 - 2**30, so words >= 3 * 2**30 are rejected.
    n = 3 * 2**30
    c, probe = Chance("s", "l"), Chance("s", "l")
    words = []
    while len(words) < 50:
        words.append(probe.word())
    expected = []
    for w in words:
        if w < n:
            expected.append(w % n)
    got = [c.below(n) for _ in range(len(expected) - 1)]
    assert got == expected[: len(got)]
    assert any(w >= n for w in words), "the seed must exercise a rejection"


def test_labels_and_seeds_give_independent_streams() -> None:
    assert shuffled("1", "a", range(20)) != shuffled("1", "b", range(20))
    assert shuffled("1", "a", range(20)) != shuffled("2", "a", range(20))
    assert shuffled("1", "a", range(20)) == shuffled("1", "a", range(20))


def test_below_is_roughly_uniform() -> None:
    c = Chance("uniform", "test")
    counts = [0] * 6
    for _ in range(6000):
        counts[c.below(6)] += 1
    assert all(850 < k < 1150 for k in counts), counts


def _one_by_one(chance: Chance, items: list) -> list:
    """Fisher-Yates as the derivation states it: one below() per position."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = chance.below(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def test_shuffle_reads_the_stream_as_below_does() -> None:
    """shuffle() reads a shuffle's words at once; the order it gives and the
    words left for what follows are those of one below() per position."""
    import random

    rng = random.Random("shuffle")
    for k in range(300):
        seed = f"s{k}"
        fast, slow = Chance(seed, "deck"), Chance(seed, "deck")
        for _ in range(4):
            skip = rng.randrange(10)  # start anywhere in a block
            assert [fast.word() for _ in range(skip)] == [slow.word() for _ in range(skip)]
            items = list(range(rng.randrange(60)))
            assert fast.shuffle(items) == _one_by_one(slow, items)
        assert [fast.word() for _ in range(20)] == [slow.word() for _ in range(20)]


def test_shuffle_after_a_rejected_word() -> None:
    """A word at or above the limit of below(n) is thrown away (rejection
    sampling). Real streams almost never hold one for small n, so the words
    of the stream are set by hand: the shuffle must still read on as
    below() does."""
    for top in (2**32 - 1, 2**32 - 5, 2**32 - 20):
        for where in (0, 3, 7, 8, 12):
            fast, slow = Chance("r", "deck"), Chance("r", "deck")
            for c in (fast, slow):
                words = [c.word() for _ in range(16)]
                words[where] = top
                c._words = words[::-1]  # what word() reads next, last first
            items = list(range(17))
            assert fast.shuffle(items) == _one_by_one(slow, items), (top, where)
            assert [fast.word() for _ in range(12)] == [slow.word() for _ in range(12)]


def test_shuffled_is_the_shuffle_of_a_fresh_stream() -> None:
    """chance.shuffled reads a fresh stream's first blocks at once (every deal
    of every game comes through it): the order is that of one below() per
    position, for every length, the games' decks (16, 28, 32, 36 and 48 cards)
    and lists too long for the shortcut included."""
    for k in range(120):
        seed = f"deal/{k}" if k % 3 else "\u00fcn\u00efcode" * k
        for size in (*range(20), 24, 25, 28, 32, 33, 36, 41, 48, 49, 50, 64, 80):
            items = [f"card{i}" for i in range(size)]
            for label in ("deck", "redeal"):
                assert shuffled(seed, label, items) == _one_by_one(Chance(seed, label), items), \
                    (seed, label, size)


class _Rigged:
    """hashlib with every block of the stream starting with a given word."""

    def __init__(self, word: int) -> None:
        self.first = word.to_bytes(4, "big")

    def sha256(self, data: bytes):  # noqa: ANN201 - a hashlib object
        rigged = self.first + hashlib.sha256(data).digest()[4:]

        class _Digest:
            def digest(self) -> bytes:
                return rigged

        return _Digest()


@pytest.mark.parametrize("word", [2**32 - 1, 2**32 - 3, 2**32 - 40, 2**32 - 41])
def test_shuffled_reads_on_after_a_rejected_word(monkeypatch, word: int) -> None:
    """A word at or above the limit of below(n) is thrown away and the next
    read: too rare in real streams, so every block is made to start with such
    a word. shuffled must leave the shortcut and read on as below() does."""
    monkeypatch.setattr(chance_module, "hashlib", _Rigged(word))
    for size in (2, 3, 4, 9, 16, 17, 28, 32, 40, 41, 48):
        for seed in ("a", "b", "c"):
            items = list(range(size))
            assert shuffled(seed, "deck", items) == _one_by_one(Chance(seed, "deck"), items), \
                (word, size, seed)


def test_no_word_below_the_shortcuts_bound_is_ever_rejected() -> None:
    """The bound shuffled() trusts: below(n) rejects a word w only when
    w >= 2**32 - 2**32 % n, and for a shuffle of count + 1 items (draws of
    n = 2 to count + 1) no such limit is under 2**32 - count."""
    for count in range(1, 8 * chance_module.SHORTCUT_BLOCKS + 1):
        assert 2**32 - count <= min(2**32 - 2**32 % n for n in range(2, count + 2))


def test_first_words_are_the_streams_first_block() -> None:
    """chance.first_words: the first eight words of a stream, in the order
    word() gives them (a fast setup reads its few draws from them)."""
    for k in range(60):
        seed = f"first/{k}" if k % 4 else "\u00e9" * k
        for label in ("start", "deck", "seasons"):
            c = Chance(seed, label)
            assert chance_module.first_words(seed, label) == tuple(c.word() for _ in range(8))


@pytest.mark.parametrize("n", [1, 2, 3, 31, 32, 49, 1000, 2**31 + 1, 2**32])
def test_limit_is_the_first_word_below_puts_back(monkeypatch, n: int) -> None:
    """below(n) takes a word under limit(n) and puts back one at limit(n):
    every block is made to start with the word tried."""
    for word, taken in ((chance_module.limit(n) - 1, True), (chance_module.limit(n), False)):
        if word >= 2**32:
            continue  # n divides 2**32: no word is put back
        monkeypatch.setattr(chance_module, "hashlib", _Rigged(word))
        c = Chance("limit", "x")
        first = c.below(n)
        assert (first == word % n and c._counter == 1 and len(c._words) == 7) is taken, (n, word)
