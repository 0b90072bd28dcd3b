"""Turn of Time: the tables and shortcuts behind the fast paths, against the plain definitions.

``tables.bin`` (package data) must be exactly what ``build_tables.py`` writes
from the rules, and what it says about every signature must be what the plain
definition of the canonical moves (``rules.ways``) and of the largest
group say. The written-out shuffle and the scoring must give what
``chance.shuffled`` and the plain scoring of 6 give. Reading the tables
waits for the first move played or listed: importing the game does not.
"""

from __future__ import annotations

import itertools
import random
import subprocess
import sys
from pathlib import Path

import pytest

from adjudicator.engine import Outcome, Standing
from adjudicator.games.turn_of_time import GAME, build_tables, cards, fast, rules, tables

ROOT = Path(__file__).resolve().parent.parent


def test_the_shipped_tables_are_those_the_rules_give():
    """Regenerated in memory from the plain definitions, byte for byte."""
    with open(tables.TABLES_FILE, "rb") as f:
        shipped = f.read()
    assert build_tables.tables() == shipped, "run: python -m adjudicator.games.turn_of_time.build_tables"


def test_the_tables_ship_with_the_package():
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert '"games/turn_of_time/tables.bin"' in pyproject


@pytest.mark.parametrize("part", range(4))
def test_every_signature_lists_and_plays_the_canonical_ways(part):
    """For every signature (a quarter per case) and every card code: the
    moves listed are the canonical ways of ``rules.ways``, in order, and each
    plays as it says; every other order is refused."""
    tables.load()
    every = tuple(range(16))
    for sig in range(part, tables.SIGS, 4):
        block = [0, *((),) * 16]
        tables.fill(block, cards.CENTRE * tables.SIGS + sig, every)
        # block(), which legal_moves fills its cache with, is fill() written out.
        elsewhere = (sig % cards.OFF) * tables.SIGS + sig
        filled = [0, *((),) * 16]
        tables.fill(filled, elsewhere, every)
        tables.BLOCKS.pop(elsewhere, None)
        assert tables.block(elsewhere) == tuple(filled[1:]), sig
        dirs = tuple(d for d in range(4) if tables.digits(sig)[d])
        for kind in cards.KINDS:
            choices = build_tables.canonical(kind, sig)
            for code in {kind, cards.flip(kind)}:
                face = code >> 2
                want = {
                    order: (final, cards.MASK_DIRS[turned])
                    for (final, turned), (f, order) in choices.items()
                    if f == face
                }
                orders = [m.order for m in block[code + 1]]
                assert orders == sorted(want), (sig, code)
                for order in [(), *itertools.permutations(dirs)]:
                    got = tables.result(code, tables.ORDER_ID[order], sig)
                    assert got == want.get(order, False), (sig, code, order)


def _largest_by_search(cards: int) -> int:
    """The largest group of a 4x4 mask (bit 4 * row + column), by search."""
    seen: set[int] = set()
    best = 0
    for start in range(16):
        if cards >> start & 1 and start not in seen:
            stack, size = [start], 0
            seen.add(start)
            while stack:
                i = stack.pop()
                size += 1
                r, c = divmod(i, 4)
                for rr, cc in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                    j = rr * 4 + cc
                    if 0 <= rr < 4 and 0 <= cc < 4 and cards >> j & 1 and j not in seen:
                        seen.add(j)
                        stack.append(j)
            best = max(best, size)
    return best


def test_the_largest_groups_are_those_found_by_search():
    tables.load()
    assert all(tables.GROUP[m] == _largest_by_search(m) for m in range(1 << 16))


def test_importing_the_game_reads_no_table():
    code = (
        "from adjudicator.games.turn_of_time import GAME as g, tables; "
        "assert tables.ROW_OF is None and g.fast is not None and tables.ROW_OF is None; "
        "s = g.setup({'absent-doubles': 'own-season', 'goal': 'dominance'}, ('a', 'b'), 'x'); "
        "assert tables.ROW_OF is None; g.legal_moves(s); assert tables.ROW_OF is not None"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT, timeout=120)


def _score_plain(counts, groups, owners, season_order, players, tie_order) -> Outcome:
    """6. END OF GAME as first written (rules version 2), the reference of tables.score."""
    n = len(players)
    if tie_order == "seasons":
        turn = {s: (i, i) for i, s in enumerate(season_order)}
    else:
        turn = {s: (owners[s] if owners[s] >= 0 else n, i) for i, s in enumerate(season_order)}
    ranked = sorted(range(4), key=lambda s: (-counts[s], -groups[s], turn[s]))
    points = {s: 4 - i for i, s in enumerate(ranked)}
    ordinal = ("0th", "1st", "2nd", "3rd", "4th")
    names = cards.SEASON_NAMES
    details = []
    for i, s in enumerate(ranked):
        who = players[owners[s]] if owners[s] >= 0 else "nobody"
        details.append(
            f"{ordinal[i + 1]} {names[s]} ({who}): {counts[s]} face up, "
            f"largest group {groups[s]} - {points[s]} point{'s' * (points[s] != 1)}"
        )
    for hi, lo in zip(ranked, ranked[1:]):
        if counts[hi] != counts[lo]:
            continue
        if groups[hi] != groups[lo]:
            why = f"a larger largest group ({groups[hi]} to {groups[lo]})"
        elif owners[lo] < 0:
            why = (f"equal largest groups ({groups[hi]}), and {names[lo]} belongs "
                   "to nobody, so it comes last in turn order")
        elif owners[hi] == owners[lo] and tie_order != "seasons":
            why = (f"equal largest groups ({groups[hi]}); both are {players[owners[hi]]}'s, "
                   "so the order changes no score (the one drawn first ranks first)")
        else:
            why = f"equal largest groups ({groups[hi]}), and it is earlier in turn order"
        details.append(
            f"{names[hi]} ranks above {names[lo]}: both {counts[hi]} face up, "
            f"{why} (Turn of Time 6)"
        )
    scores = [0] * n
    best_rank = [4] * n
    for i, s in enumerate(ranked):
        if owners[s] >= 0:
            scores[owners[s]] += points[s]
            best_rank[owners[s]] = min(best_rank[owners[s]], i)
    seats = sorted(range(n), key=lambda p: (-scores[p], best_rank[p]))
    if n == 2 and scores[0] == scores[1]:
        w, lose = seats
        details.append(
            f"{players[w]} and {players[lose]} both have {scores[w]} points; "
            f"{players[w]} holds the higher-ranked season ({names[ranked[best_rank[w]]]}, "
            f"{ordinal[best_rank[w] + 1]})"
        )
    standings = tuple(
        Standing(player=players[p], score=scores[p], place=i + 1) for i, p in enumerate(seats)
    )
    return Outcome(standings=standings, winners=(players[seats[0]],), details=tuple(details))


@pytest.mark.parametrize("n", [2, 3, 4])
def test_scoring_is_the_plain_scoring(n):
    """Every deal and both tie orders, tallies at random and full of ties."""
    rng = random.Random(n)
    players = ("ann", "bob", "cy", "dee")[:n]
    for perm in itertools.permutations(range(4)):
        for absent in ("own-season", "example"):
            owners, order, _, _ = rules.deal(n, perm, absent)
            for tie_order in ("players", "seasons"):
                for _ in range(60):
                    counts = [0] * 4
                    for _ in range(16):
                        counts[rng.randrange(4)] += 1
                    if rng.random() < 0.3:
                        counts = [4, 4, 4, 4]
                    groups = [rng.randint(min(c, 1), c) for c in counts]
                    if rng.random() < 0.5:
                        groups = [min(c, rng.choice((1, 2))) for c in counts]
                    args = (counts, groups, owners, order, players, tie_order)
                    assert tables.score(*args) == _score_plain(*args), args


def _tally_plain(board: tuple[int, ...]) -> tuple[list[int], list[int]]:
    """Face-up cards per season and each season's largest group, over the
    whole 7x7 frame, by search: the definition the tally is held to (as
    ``rules.tally`` is)."""
    counts, groups = [0] * 4, [0] * 4
    seen: set[int] = set()
    for start in range(cards.SIZE * cards.SIZE):
        if board[start] < 0:
            continue
        season = board[start] >> 2
        counts[season] += 1
        if start in seen:
            continue
        stack, size = [start], 0
        seen.add(start)
        while stack:
            i = stack.pop()
            size += 1
            for j in cards.NEIGHBOURS[i]:
                if j != cards.OFF and j not in seen and board[j] >= 0 and board[j] >> 2 == season:
                    seen.add(j)
                    stack.append(j)
        groups[season] = max(groups[season], size)
    return counts, groups


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_the_tally_is_the_plain_tally(n):
    """At every position of random games (and on the empty table), the face-up
    cards and largest groups the scoring reads from the box's window are
    those found by search over the whole frame; also on boards of random
    cards filling random boxes, up to all 16 squares."""
    rng = random.Random(f"tally/{n}")
    p = {"absent-doubles": "own-season", "goal": "dominance", "tie_order": "players"}
    names = ("ann", "bob", "cy", "dee")[:n] if n > 1 else ("sol",)
    for seed in range(12):
        state = GAME.setup(p, names, f"tally-{seed}")
        assert tables.tally(state.board, state.box) == _tally_plain(state.board)
        assert rules.tally(state.board) == _tally_plain(state.board)
        while state.seat >= 0:
            state = GAME.apply(state, rng.choice(GAME.legal_moves(state)))
            assert tables.tally(state.board, state.box) == _tally_plain(state.board)
            assert rules.tally(state.board) == _tally_plain(state.board)
    for _ in range(400):
        r0, c0 = rng.randrange(cards.SIZE), rng.randrange(cards.SIZE)
        r1, c1 = min(cards.SIZE - 1, r0 + rng.randrange(4)), min(cards.SIZE - 1, c0 + rng.randrange(4))
        board = list(rules.EMPTY)
        for r in range(r0, r1 + 1):
            for c in range(c0, c1 + 1):
                if rng.random() < 0.8:
                    board[r * cards.SIZE + c] = rng.randrange(16)
        board = tuple(board)
        assert tables.tally(board, (r0, r1, c0, c1)) == _tally_plain(board), (r0, r1, c0, c1)
        assert rules.tally(board) == _tally_plain(board)


def test_a_game_refused_and_replayed_after_the_tables_are_read_again():
    """Reading the tables again (as a new process would) changes nothing."""
    p = {"absent-doubles": "own-season", "goal": "dominance", "tie_order": "players"}
    state = GAME.setup(p, ("ann", "bob", "cy"), "again")
    texts = []
    while state.seat >= 0:
        text = GAME.format_move(state, GAME.legal_moves(state)[0])
        texts.append(text)
        state = fast.fast_apply(state, text)
    start = GAME.setup(p, ("ann", "bob", "cy"), "again")
    before = fast.fast_play(start, texts)
    tables.load()
    fast.prepare()
    assert fast.fast_play(start, texts) == before
    assert before[1] == state and GAME.outcome(state) is not None
