"""Seating a round: who plays at which table, in which seat, and who sits out.

The method, in order:

1. **Table sizes.** The players are split into tables of the allowed sizes
   with as few byes as can be (none when some mix of sizes adds up), then as
   many tables of the preferred (first) size as can be: 10 players at
   ``[4, 3]`` play 4+3+3; 11 at ``[3]`` play 3+3+3 and two sit out.
2. **Round robin where it fits**: every table of one size ``k`` and no byes,
   with ``k*k`` players for a prime ``k`` (the lines of the affine plane of
   order ``k``: ``k + 1`` rounds in which every pair meets exactly once, 9
   players at 3-player tables in 4 rounds), or pairs (the circle method).
3. **Otherwise Swiss by score**: the byes go to the players with the fewest
   byes so far, then the lowest score; the others are listed by score and
   cut into tables in that order, then players of two tables are swapped
   while a swap lowers the round's cost: for each pair at one table, 100 x
   (meetings so far)^2, plus their distance in the score order; and for each
   table, 30 x the fewest first seats any of its players has had (a table
   of players who all sat first before must seat one of them first again).
   Meeting again is avoided first; among seatings as good, players of like
   score meet. The swapping starts from the score order and from seven
   shuffles of it (swaps alone get stuck), and the cheapest result is kept.
4. **Seat order** at every table: the order whose players have sat in those
   seats least often (the first seat counting most), so first seats go round.

Every tie is broken by a shuffle drawn from the tournament's seed and the
round's number, so the same file and results always seat the same round.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Mapping, Sequence

import msgspec

from .event import TournamentError

MEET = 100
FIRST = 30
#: Starts of the swapping: the score order and shuffles of it.
RESTARTS = 8


class Round(msgspec.Struct, frozen=True, kw_only=True):
    """A round's seating: each table's players in seat order, and the byes."""

    number: int
    tables: tuple[tuple[str, ...], ...]
    byes: tuple[str, ...] = ()
    method: str = "swiss"


def sizes(n: int, allowed: Sequence[int]) -> tuple[int, ...]:
    """The table sizes for ``n`` players: fewest byes, then most tables of
    the preferred sizes (in ``allowed``'s order), largest tables first.

    >>> sizes(10, [4, 3]), sizes(11, [3]), sizes(10, [4])
    ((4, 3, 3), (3, 3, 3), (4, 4))
    """
    best: tuple[tuple[int, ...], tuple[int, ...]] | None = None
    order = list(allowed)

    def search(i: int, left: int, counts: list[int]) -> None:
        nonlocal best
        if i == len(order):
            key = (left, tuple(-c for c in counts))
            if best is None or key < best[0]:
                best = (key, tuple(counts))  # type: ignore[assignment]
            return
        for c in range(left // order[i], -1, -1):
            search(i + 1, left - c * order[i], [*counts, c])

    search(0, n, [])
    assert best is not None
    counts = best[1]
    return tuple(sorted((s for s, c in zip(order, counts) for _ in range(c)), reverse=True))


def round_robin_fits(n: int, table: tuple[int, ...], rounds: int) -> bool:
    """Whether a round robin (every pair meets at most once) seats ``rounds`` rounds."""
    if not table or len(set(table)) != 1 or sum(table) != n:
        return False
    k = table[0]
    if k == 2:
        return n % 2 == 0 and rounds <= n - 1
    return n == k * k and _prime(k) and rounds <= k + 1


def _prime(k: int) -> bool:
    return k >= 2 and all(k % d for d in range(2, int(k ** 0.5) + 1))


def _round_robin(order: Sequence[str], k: int, r: int) -> list[list[str]]:
    """Round ``r`` (0-based) of the round robin of ``order``."""
    n = len(order)
    if k == 2:  # the circle method: the first stays, the others turn
        rest = list(order[1:])
        rest = rest[r % len(rest):] + rest[:r % len(rest)]
        ring = [order[0], *rest]
        return [[ring[i], ring[n - 1 - i]] for i in range(n // 2)]
    if r < k:  # the lines y = r*x + b of the affine plane of order k
        return [[order[x * k + (r * x + b) % k] for x in range(k)] for b in range(k)]
    return [[order[x * k + y] for y in range(k)] for x in range(k)]  # the lines x = c


def seat(players: Sequence[str], allowed: Sequence[int], number: int, seed: str, *,
         history: Sequence[Round] = (), scores: Mapping[str, float] | None = None,
         fmt: str = "auto", rounds: int = 1) -> Round:
    """Round ``number`` (1-based) of ``players``, after the rounds in ``history``."""
    scores = scores or {}
    table = sizes(len(players), allowed)
    if not table:
        raise TournamentError(f"{len(players)} players cannot fill a table of {min(allowed)}")
    fits = round_robin_fits(len(players), table, rounds)
    if fmt == "round-robin" and not fits:
        raise TournamentError(
            f"a round robin does not fit {len(players)} players at tables of {list(allowed)} "
            f"over {rounds} rounds (it needs k*k players for a prime k, or pairs); use "
            "format = \"swiss\" or \"auto\"")
    meetings = meetings_of(history)
    seats = seat_counts(history)
    if fits and fmt != "swiss":
        drawn = list(players)
        random.Random(f"{seed}:draw").shuffle(drawn)
        groups = _round_robin(drawn, table[0], number - 1)
        tables = [_order(g, seats, random.Random(f"{seed}:{number}:{i}")) for i, g in enumerate(groups)]
        return Round(number=number, tables=tuple(tables), method="round-robin")
    rng = random.Random(f"{seed}:{number}")
    shuffled = list(players)
    rng.shuffle(shuffled)
    draw = {p: i for i, p in enumerate(shuffled)}
    byes_had = {p: sum(p in r.byes for r in history) for p in players}
    out = len(players) - sum(table)
    resting = sorted(players, key=lambda p: (byes_had[p], scores.get(p, 0), draw[p]))[:out]
    playing = sorted((p for p in players if p not in resting),
                     key=lambda p: (-scores.get(p, 0), draw[p]))
    rank = {p: i for i, p in enumerate(playing)}
    def pair_cost(a: str, b: str) -> int:
        return MEET * meetings.get(_pair(a, b), 0) ** 2 + abs(rank[a] - rank[b])

    firsts = {p: seats.get(p, {}).get(0, 0) for p in players}

    def cost(group: Sequence[str]) -> int:
        # A table whose players have all sat first often must give the
        # first seat to one of them again: spread those who have not.
        return (sum(pair_cost(a, b) for a, b in itertools.combinations(group, 2))
                + FIRST * min(firsts[p] for p in group))

    best: list[list[str]] | None = None
    for start in range(RESTARTS):
        order = list(playing)
        if start:  # the score order first, then shuffles of it: swaps alone can get stuck
            rng.shuffle(order)
        groups = _improved(_cut(order, table), cost)
        if best is None or sum(map(cost, groups)) < sum(map(cost, best)):
            best = groups
    assert best is not None
    groups = best
    tables = [_order(g, seats, random.Random(f"{seed}:{number}:{i}")) for i, g in enumerate(groups)]
    return Round(number=number, tables=tuple(tables), byes=tuple(sorted(resting, key=lambda p: draw[p])),
                 method="swiss")


def _cut(order: Sequence[str], table: Sequence[int]) -> list[list[str]]:
    groups, start = [], 0
    for size in table:
        groups.append(list(order[start:start + size]))
        start += size
    return groups


def _improved(groups: list[list[str]], cost: Callable[[Sequence[str]], int]) -> list[list[str]]:
    """Players of two tables swapped while a swap lowers the cost."""
    for _ in range(100):  # each pass lowers the cost; a bound all the same
        better = False
        for gi, gj in itertools.combinations(range(len(groups)), 2):
            for i, j in itertools.product(range(len(groups[gi])), range(len(groups[gj]))):
                a, b = groups[gi], groups[gj]
                a2, b2 = [*a], [*b]
                a2[i], b2[j] = b[j], a[i]
                if cost(a2) + cost(b2) < cost(a) + cost(b):
                    groups[gi], groups[gj] = a2, b2
                    better = True
        if not better:
            break
    return groups


def _pair(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a < b else (b, a)


def meetings_of(history: Sequence[Round]) -> dict[tuple[str, str], int]:
    """How often each pair of players has sat at one table."""
    out: dict[tuple[str, str], int] = {}
    for r in history:
        for t in r.tables:
            for a, b in itertools.combinations(t, 2):
                out[_pair(a, b)] = out.get(_pair(a, b), 0) + 1
    return out


def seat_counts(history: Sequence[Round]) -> dict[str, dict[int, int]]:
    """How often each player has sat in each seat (0 first)."""
    out: dict[str, dict[int, int]] = {}
    for r in history:
        for t in r.tables:
            for i, p in enumerate(t):
                out.setdefault(p, {})[i] = out.setdefault(p, {}).get(i, 0) + 1
    return out


def _order(group: Sequence[str], seats: Mapping[str, Mapping[int, int]],
           rng: random.Random) -> tuple[str, ...]:
    """The seat order at a table that gives each seat to whoever sat in it least."""
    group = list(group)
    rng.shuffle(group)  # ties go by the draw
    size = len(group)

    def cost(order: Sequence[str]) -> int:
        return sum((seats.get(p, {}).get(i, 0) + 1) ** 2 * (size if i == 0 else 1)
                   for i, p in enumerate(order))

    return min(itertools.permutations(group), key=cost)


def balance(history: Sequence[Round], players: Sequence[str]) -> tuple[int, int]:
    """How even a seating is: the spread (most - least) of meetings over every
    pair of players, and of first seats over the players who played."""
    meet = meetings_of(history)
    counts = [meet.get(_pair(a, b), 0) for a, b in itertools.combinations(players, 2)]
    first = {p: 0 for p in players}
    for r in history:
        for t in r.tables:
            first[t[0]] += 1
    return max(counts) - min(counts), max(first.values()) - min(first.values())
