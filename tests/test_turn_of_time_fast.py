"""Turn of Time: the fast paths against the checked path.

``fast_apply`` (the validation hot path) must accept exactly the canonical
notation of a legal move and give exactly the state ``apply`` gives; the
memo tables behind it and behind ``legal_moves`` must agree with the plain
definition of the canonical moves (``rules.ways``). Random games with
fixed seeds, move by move, with texts that are not canonical or not legal
at that position.
"""

from __future__ import annotations

import itertools
import random

import msgspec
import pytest

from adjudicator.chance import Chance
from adjudicator.errors import MoveError
from adjudicator.games.turn_of_time import GAME, build_tables, cards, fast, rules, tables
from adjudicator.games.turn_of_time.cards import Move, SQUARES

NAMES = ("ann", "bob", "cy", "dee")


def checked(state, text: str):
    """The state after ``text`` by the checked path (parse, apply, format),
    or None where a log entry ``text`` would be refused."""
    try:
        move = GAME.parse_move(state, text)
        after = GAME.apply(state, move)
        canonical = GAME.format_move(state, move)
    except MoveError:
        return None
    return after if canonical == text else None


def variants(text: str) -> list[str]:
    """Ways of writing near ``text``: other spellings, faces, orders and squares."""
    card, _, rest = text.partition("-")
    square, _, order = rest.partition(":")
    turned = card[2:] + card[:2]
    f, r = square[0], int(square[1:])
    near = [f"{chr(ord(f) + df)}{r + dr}" for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1))]
    out = [text.lower(), text.upper(), f" {text}", text.replace("-", ""), f"{card}/{square}",
           f"{turned}-{square}", f"{card}-{square}:n", f"{card}-{square}:nesw",
           f"{card}-{square}:", f"{card}-{square}:nn", f"{card}-{square}:x"]
    out += [f"{card}-{sq}" for sq in near] + [f"{turned}-{sq}" for sq in near]
    if order:
        out += [f"{card}-{square}", f"{card}-{square}:{order[::-1]}",
                f"{turned}-{square}:{order}", f"{card}-{square}:{order[1:]}"]
        out += [f"{card}-{square}:{''.join(p)}" for p in itertools.permutations(order)]
    return out


GAMES = [(n, seed, params) for n in (1, 2, 3, 4) for seed in range(6)
         for params in ({}, {"absent-doubles": "example"} if n == 3 else {"goal": "balance"})]


@pytest.mark.parametrize(("n", "seed", "params"), GAMES)
def test_fast_apply_agrees_with_the_checked_path(n, seed, params):
    p = {"absent-doubles": "own-season", "goal": "dominance", **params}
    state = GAME.setup(p, NAMES[:n] if n > 1 else ("sol",), f"fast-{seed}")
    rng = random.Random(f"{n}/{seed}/{params}")
    pool: list[str] = []
    while True:
        legal = [GAME.format_move(state, m) for m in GAME.legal_moves(state)]
        texts = set(legal) | set(pool)
        for text in legal[:: max(1, len(legal) // 8)]:
            texts.update(variants(text))
        for text in sorted(texts):
            want = checked(state, text)
            got = fast.fast_apply(state, text)
            assert got == want, (text, got, want)
            if want is not None:
                assert text in legal, text
        if not legal:
            break
        for text in legal:
            assert fast.fast_apply(state, text) == GAME.apply(state, GAME.parse_move(state, text))
        pool = (pool + legal[:: max(1, len(legal) // 6)])[-60:]
        state = GAME.apply(state, GAME.parse_move(state, rng.choice(legal)))
    assert GAME.outcome(state) is not None


def test_fast_apply_refuses_garbage_and_finished_games():
    state = GAME.setup({"absent-doubles": "own-season", "goal": "dominance"}, NAMES, "0")
    for text in ("", "d4", "SuWi", "SuWi-d4 ", "SuWi-d4:", "SuWi-h9", "SuWi-d44", "Xx-d4"):
        assert fast.fast_apply(state, text) is None, text
    assert fast.fast_apply(state, "SuWi-d4") == GAME.apply(state, GAME.parse_move(state, "SuWi-d4"))
    over = msgspec.structs.replace(state, seat=-1)
    assert fast.fast_apply(over, "SuWi-d4") is None


def canonical_by_definition(kind: int, sig: int) -> dict:
    """(code, order) -> (card after, directions turned over), from ``rules.ways``."""
    out = {}
    for (final, mask), (face, order) in build_tables.canonical(kind, sig).items():
        back = (kind >> 2) + (kind & 3) - face
        out[face * 4 + back, order] = (final, cards.MASK_DIRS[mask])
    return out


def signatures() -> list[int]:
    """Every signature with at most two neighbours, and a sample of the others."""
    small = [s for s in range(tables.SIGS) if sum(d > 0 for d in tables.digits(s)) <= 2]
    large = [s for s in range(tables.SIGS) if s not in set(small)]
    return small + random.Random("sigs").sample(large, 600)


def fresh_memos() -> None:
    """Empty every memo behind the fast paths and read their tables again
    from the shipped file (tables.bin), so what a test reads comes from the
    file, as in a process that has never seen a game."""
    tables.BLOCKS.clear()
    tables.load()
    fast.prepare()


def test_fast_tables_agree_with_the_definition_of_canonical_moves():
    fresh_memos()
    every = tuple(range(16))
    for sig in signatures():
        block = [0, *((),) * 16]
        tables.fill(block, cards.CENTRE * tables.SIGS + sig, every)
        for kind in cards.KINDS:
            want = canonical_by_definition(kind, sig)
            listed = {}
            for code in {kind, cards.flip(kind)}:
                orders = [m.order for m in block[code + 1]]
                assert orders == sorted(orders)
                for order in orders:
                    listed[code, order] = tables.result(code, tables.ORDER_ID[order], sig)
                # every other way of writing it is refused
                for oid, order in enumerate(tables.ORDERS):
                    if (code, order) not in want:
                        assert tables.result(code, oid, sig) is False, (kind, sig, code, order)
            assert listed == want, (kind, sig, tables.digits(sig))


def test_direct_results_are_those_of_every_order():
    """``build_tables.direct`` (the plain cases, worked out without trying the
    orders) gives a result only when every order of meetings gives that
    result, by the plain definition (``rules.outcomes``), and it decides
    every single card and every card with one neighbour."""
    for sig in signatures():
        ones = sum(d > 0 for d in tables.digits(sig)) <= 1
        for code in range(16):
            got = build_tables.direct(code, sig)
            results = build_tables.results(code, sig)
            if got is None:
                assert not ones and code >> 2 != code & 3, (code, sig)
                continue
            assert results == {(got >> 4, got & 15)}, (code, sig)


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_legal_moves_are_the_canonical_ways_on_the_open_squares(n):
    """The listing by definition: every canonical way of every card in hand on
    every open square, sorted by face, back, square name and order."""
    rng = random.Random(n)
    for seed in range(4):
        p = {"absent-doubles": "own-season", "goal": "dominance"}
        state = GAME.setup(p, NAMES[:n] if n > 1 else ("sol",), f"list-{seed}")
        while state.seat >= 0:
            hand = state.deck[:1] if state.deck else state.hands[state.seat]
            want = []
            for square in rules.open_squares(state.board, state.box):
                around = rules.around(state.board, square)
                for kind in set(hand):
                    for (face, back), order in (
                        ((f, (kind >> 2) + (kind & 3) - f), o)
                        for f, o in rules.ways(kind, around).values()
                    ):
                        want.append(Move(face, back, square, order))
            want.sort(key=lambda m: (m.face, m.back, SQUARES[m.square], m.order))
            legal = GAME.legal_moves(state)
            assert list(legal) == want
            state = GAME.apply(state, rng.choice(legal))



@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_fast_play_agrees_with_fast_apply_move_by_move(n):
    """``fast_play`` (a whole log's texts at once, the validation hot path)
    gives the seats and the state that ``fast_apply`` gives text after text,
    and stops at the first text it refuses: one not canonical, not legal
    there, or after the last card."""
    p = {"absent-doubles": "own-season", "goal": "dominance", "tie_order": "players"}
    names = NAMES[:n] if n > 1 else ("sol",)
    for seed in range(8):
        start = GAME.setup(p, names, f"play-{seed}")
        rng = random.Random(f"play/{n}/{seed}")
        state, texts, seats, states = start, [], [], [start]
        while state.seat >= 0:
            legal = [GAME.format_move(state, m) for m in GAME.legal_moves(state)]
            text = rng.choice(legal)
            texts.append(text)
            seats.append(state.seat)
            state = fast.fast_apply(state, text)
            states.append(state)
        for k in range(len(texts) + 1):
            assert fast.fast_play(start, texts[:k]) == (seats[:k], states[k]), k
        # A refused text stops the play there: the state before it, its seat not listed.
        for k in range(len(texts)):
            before = states[k]
            for bad in variants(texts[k]) + ["", "SpSp-d4", texts[k - 1] if k else "x"]:
                if fast.fast_apply(before, bad) is None:
                    got = fast.fast_play(start, texts[:k] + [bad] + texts[k + 1:])
                    assert got == (seats[:k], before), (k, bad)
        assert fast.fast_play(states[-1], texts[:1]) == ([], states[-1])  # the game is over


def move_variants(move: Move) -> list[Move]:
    """Moves near ``move``: the other face, other and impossible orders,
    neighbouring, taken and off-board squares, cards out of range."""
    face, back, sq, order = move
    out = [Move(back, face, sq, order), Move(face, back, sq, ()),
           Move(face, back, sq, (0,)), Move(face, back, sq, (0, 1, 2, 3)),
           Move(face, back, sq, (1, 1)), Move(face, back, sq, (4,)),
           Move(face, back, sq, order[::-1]), Move(face, back, sq, order[1:]),
           Move(4, back, sq, order), Move(face, -1, sq, order),
           Move(face, back, -1, order), Move(face, back, cards.OFF, order),
           Move(face, back, cards.CENTRE, order)]
    out += [Move(face, back, j, ()) for j in cards.NEIGHBOURS[sq] if j != cards.OFF]
    out += [Move(face, back, sq, p) for p in itertools.permutations(order)]
    return out


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_fast_step_is_format_and_apply(n):
    """``fast_step`` (self-play's hot path) spells and plays every listed
    move as ``format_move`` and ``apply`` do, and gives None for any other
    move: another face or order, a square taken or out of reach, a card
    out of range, a finished game."""
    p = {"absent-doubles": "own-season", "goal": "dominance", "tie_order": "players"}
    names = NAMES[:n] if n > 1 else ("sol",)
    for seed in range(6):
        state = GAME.setup(p, names, f"step-{seed}")
        rng = random.Random(f"step/{n}/{seed}")
        while state.seat >= 0:
            legal = GAME.legal_moves(state)
            for move in legal:
                assert fast.fast_step(state, move) == (GAME.format_move(state, move), GAME.apply(state, move))
            listed = set(legal)
            for move in move_variants(rng.choice(legal)):
                if move in listed:
                    continue
                # Every legal move in canonical form is listed: the rest is
                # for the checked path (a spelling forgiven, or refused).
                assert fast.fast_step(state, move) is None, move
            state = GAME.apply(state, rng.choice(legal))
        assert fast.fast_step(state, Move(0, 0, cards.CENTRE, ())) is None  # the game is over


@pytest.mark.parametrize("n", [1, 3, 4])
def test_no_fast_path_lets_the_cards_outgrow_a_4x4_box(n):
    """5.1b: a card next to a card but outside the 4x4 box the cards may
    still span is refused by fast_apply, fast_play and fast_step in every
    canonical spelling, as the checked path refuses it; at every position
    of random games, on every such square."""
    p = {"absent-doubles": "own-season", "goal": "dominance", "tie_order": "players"}
    names = NAMES[:n] if n > 1 else ("sol",)
    tried = 0
    for seed in range(6):
        state = GAME.setup(p, names, f"box-{seed}")
        rng = random.Random(f"box/{n}/{seed}")
        while state.seat >= 0:
            r0, r1, c0, c1 = state.box
            hand = state.deck[:1] if state.deck else state.hands[state.seat]
            for sq in range(cards.OFF):
                r, c = cards.ROW_COL[sq]
                near = any(state.board[j] >= 0 for j in cards.NEIGHBOURS[sq])
                if state.board[sq] >= 0 or not near:
                    continue
                if max(r, r1) - min(r, r0) <= 3 and max(c, c1) - min(c, c0) <= 3:
                    continue
                for kind in set(hand):
                    for code in {kind, cards.flip(kind)}:
                        for order in tables.ORDERS:
                            move = Move(code >> 2, code & 3, sq, order)
                            text = rules.spell(code >> 2, code & 3, sq, order)
                            tried += 1
                            assert fast.fast_apply(state, text) is None, text
                            assert fast.fast_play(state, [text]) == ([], state), text
                            assert fast.fast_step(state, move) is None, text
                            with pytest.raises(MoveError, match="5.1"):
                                GAME.apply(state, move)
            state = GAME.apply(state, rng.choice(GAME.legal_moves(state)))
    assert tried > 1000


def checked_game(state, pick, limit):
    """Self-play by the checked path, as match.simulate plays it without an
    accelerator: ``legal[pick(len(legal))]``, format_move, apply."""
    texts, seats = [], []
    while state.seat >= 0 and (limit is None or len(texts) < limit):
        legal = GAME.legal_moves(state)
        move = legal[pick(len(legal))]
        texts.append(GAME.format_move(state, move))
        seats.append(state.seat)
        state = GAME.apply(state, move)
    return texts, seats, state


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_fast_game_is_the_checked_loop(n):
    """``fast_game`` (self-play's hot path: a whole game, the open squares'
    moves kept from move to move) plays the game the checked loop plays with
    the same picks, text for text, seat for seat, to the same state: from
    the start and from every position of a game, to the end or for a few
    moves; a finished game or a limit of 0 plays nothing. Both values of
    each parameter; the memos read afresh from the shipped tables first."""
    fresh_memos()
    names = NAMES[:n] if n > 1 else ("sol",)
    for seed in range(24):
        p = {"absent-doubles": ("own-season", "example")[seed % 2],
             "goal": ("dominance", "balance")[seed % 2], "tie_order": ("players", "seasons")[seed % 2]}
        start = GAME.setup(p, names, f"whole-{seed}")
        texts, seats, end = checked_game(start, Chance(f"{n}/{seed}", "simulate").below, None)
        assert fast.fast_game(start, Chance(f"{n}/{seed}", "simulate").below) == (texts, seats, end)
        state = start
        for k, text in enumerate(texts):
            for limit in (None, 0, 1, 3):
                pick = f"{n}/{seed}/{k}/{limit}"
                want = checked_game(state, Chance(pick, "pick").below, limit)
                assert fast.fast_game(state, Chance(pick, "pick").below, limit) == want, (k, limit)
            state = GAME.apply(state, GAME.parse_move(state, text))
        assert fast.fast_game(end, Chance("over", "pick").below) == ([], [], end)


def test_fast_setup_keeps_a_deal_by_the_order_of_the_seasons():
    """fast_setup gives rules.setup's deal, kept by what it follows from: two
    seeds that draw the seasons in the same order share one State, while
    other players or parameters get their own; solo declines (None)."""
    base = {"absent-doubles": "own-season", "goal": "dominance", "tie_order": "players"}
    variants = [base, {**base, "absent-doubles": "example"}, {**base, "tie_order": "seasons"},
                {**base, "goal": "balance"}]
    for n in (2, 3, 4):
        seeds_of: dict[tuple[int, ...], list[str]] = {}
        for k in range(200):
            seed = f"kept/{k}"
            for params in variants:
                for names in (NAMES[:n], tuple(reversed(NAMES[:n]))):
                    fast_state = fast.fast_setup(params, names, seed)
                    assert fast_state == rules.setup(params, names, seed), (n, seed, params, names)
            seeds_of.setdefault(rules.seasons_drawn(seed), []).append(seed)
        assert len(seeds_of) == 24, "200 seeds draw every order of the four seasons"
        for first, second, *_ in seeds_of.values():
            # One after the other: the second finds what the first dealt or kept.
            assert fast.fast_setup(base, NAMES[:n], first) is fast.fast_setup(base, NAMES[:n], second)
    assert fast.fast_setup(base, NAMES[:1], "solo") is None
