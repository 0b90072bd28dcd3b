"""The bots (issue #23): players for every seat that decide from one view.

The rule a bot is held to is the referee's: it may know what its player
knows and nothing more. So the fairness test re-deals everything the seat
cannot see and requires the very same decision, for every game and player
count. The rest: decisions are legal and reproducible, the levels and a
program's own bot plug in through one signature, and the commands work.
Strength is measured by ``benchmarks/arena.py``, not here.
"""

from __future__ import annotations

import json
import math
import random
import sys
import types
from pathlib import Path

import jsonschema
import msgspec
import pytest
from typer.testing import CliRunner

from adjudicator import bots, games, log as logmod, match, selfplay
from adjudicator.bots import table as tables
from adjudicator.bots.values import MARGIN, values
from adjudicator.cli import app
from adjudicator.engine import Outcome, Standing
from adjudicator.errors import UsageError
from volume import seeds

ROOT = Path(__file__).resolve().parent.parent
NAMES = ("ann", "bob", "cy", "dee")
runner = CliRunner()

CASES = [(game_id, n) for game_id, game in games.GAMES.items() for n in game.players]


def every_position(game_id: str, n: int, label: str, games_: int):
    """Every position of ``games_`` games of uniformly random moves (the
    deals ``label-0``, ``label-1``, ...): each state and its legal moves."""
    game = games.get(game_id)
    params = {p.name: p.default for p in game.params}
    for k in range(games_):
        rng = random.Random(k)
        state = game.setup(params, NAMES[:n], f"{label}-{k}")
        while game.to_move(state) is not None:
            moves = game.legal_moves(state)
            yield state, moves
            state = game.apply(state, moves[rng.randrange(len(moves))])


def positions(game_id: str, n: int, seed: str, count: int = 3):
    """``count`` positions of a random game, spread over it, each with its
    state and the parameters (defaults)."""
    game = games.get(game_id)
    params = {p.name: p.default for p in game.params}
    state = game.setup(params, NAMES[:n], seed)
    rng = random.Random(seed)
    path = []
    while game.to_move(state) is not None:
        path.append(state)
        moves = game.legal_moves(state)
        state = game.apply(state, moves[rng.randrange(len(moves))])
    picks = [path[len(path) * k // (count + 1)] for k in range(1, count + 1)]
    return game, params, picks


# --- fair by construction --------------------------------------------------------------------


@pytest.mark.parametrize(("game_id", "n"), CASES)
@pytest.mark.parametrize("seed", seeds(1, 3))
def test_a_decision_is_the_same_whatever_the_seat_cannot_see(game_id: str, n: int,
                                                              seed: str) -> None:
    """Everything hidden from the mover is dealt again (the game's ``redeal``):
    the view is the same, so every bot must decide the same, to the values
    and visits of every move it weighed."""
    game, params, states = positions(game_id, n, seed)
    for level in ("search:40", "greedy", "random"):
        for k, state in enumerate(states):
            seat = game.to_move(state)
            other = game.redeal(state, seat, f"redeal-{seed}-{k}")
            assert game.view(other, seat) == game.view(state, seat)
            first = bots.move_for(game, state, params, NAMES[:n], level=level, seed="s")
            again = bots.move_for(game, other, params, NAMES[:n], level=level, seed="s")
            assert first == again, (level, k)
            d1 = bots.decide(game, params, NAMES[:n], game.view(state, seat), level=level,
                             seed="s")
            d2 = bots.decide(game, params, NAMES[:n], game.view(other, seat), level=level,
                             seed="s")
            assert d1 == d2
            assert d1.move == first


def test_a_bot_is_handed_the_view_and_never_the_state() -> None:
    game, params, (state, *_) = positions("atlas", 3, "1")
    seen: list[bots.Position] = []

    def spy(position: bots.Position) -> str:
        seen.append(position)
        return position.legal[0]

    bots.move_for(game, state, params, NAMES[:3], level=spy, seed="x")
    (position,) = seen
    assert position.view == game.view(state, position.seat)
    assert not any(value is state for value in vars(position).values())


# --- legal, reproducible, pluggable ----------------------------------------------------------


@pytest.mark.parametrize(("game_id", "n"), CASES)
def test_bots_play_whole_legal_games(game_id: str, n: int) -> None:
    """A game of bots is a valid log, and the same seeds give the same log."""
    seats = [bots.get("search:25"), bots.get("greedy"), bots.get("random"),
             bots.get("search:10")][:n]
    log, thoughts = selfplay.bot_game(game_id, NAMES[:n], "9", seats)
    rep = match.validate(log)
    assert rep.to_move() is None and log.result is not None
    assert len(thoughts) == len(log.moves)
    again, _ = selfplay.bot_game(game_id, NAMES[:n], "9", seats)
    assert logmod.encode(again) == logmod.encode(log)


def test_the_search_ranks_the_legal_moves_with_values() -> None:
    game, params, (state, *_) = positions("time-palatrix", 3, "2")
    seat = game.to_move(state)
    decision = bots.decide(game, params, NAMES[:3], game.view(state, seat),
                           level="search:300", seed="r")
    legal = {game.format_move(state, m) for m in game.legal_moves(state)}
    assert {r.move for r in decision.ranked} == legal
    assert decision.move == decision.ranked[0].move
    visits = [r.visits for r in decision.ranked]
    assert visits == sorted(visits, reverse=True)
    assert sum(visits) == decision.iterations == 300
    assert all(0.0 <= r.value <= 1.0 for r in decision.ranked if r.visits)


#: Decisions of ``search:120``: the move, the visits of the first four
#: ranked and the value of the first. The games other than Atlas as the
#: search made them at commit 92e4d26 (the code the arena measured Q-Turn
#: and 15 Days with); Atlas as its comment says. A change to the search for
#: one game's sake must leave the others as they are.
PINNED = {
    ("q-turn", 2): [("N", (44, 41, 35), 0.4), ("S", (10, 9, 9, 9), 0.445),
                    ("a3", (35, 31, 28, 26), 0.464286)],
    ("turn-of-time", 3): [("WiSp-f4", (5, 4, 4, 4), 0.577857),
                          ("SuWi-d2", (7, 7, 6, 6), 0.564286),
                          ("FaSp-g2:nw", (7, 7, 6, 6), 0.695918)],
    ("time-palatrix", 4): [("0+", (9, 7, 7, 6), 0.582063), ("3", (8, 8, 7, 7), 0.602619),
                           ("2+", (10, 7, 6, 6), 0.437619)],
    ("fifteen-days", 4): [("PSu2", (18, 17, 15, 15), 0.574362),
                          ("XSu6", (24, 20, 18, 17), 0.465358)],
    # Atlas at 2 and 4 players as the search decided before Atlas had a
    # play-out policy (commit ab109a0, the code the arena measured them
    # with); at 3 players with the policy (games/atlas/playout.py), as the
    # arena measured it.
    ("atlas", 2): [("5W+2T", (3, 3, 3, 3), 0.625592), ("2D+2T", (5, 4, 4, 4), 0.830595),
                   ("4W", (25, 23, 17, 15), 0.528847)],
    ("atlas", 3): [("1W", (3, 3, 3, 3), 0.612238), ("3D+1T", (10, 8, 7, 7), 0.696124),
                   ("5W", (30, 19, 17, 17), 0.771466)],
    ("atlas", 4): [("7D+2P", (3, 3, 2, 2), 0.412698), ("5N+3T", (6, 6, 5, 5), 0.501974),
                   ("1D+5T", (20, 16, 13, 11), 0.524284)],
}


@pytest.mark.parametrize(("game_id", "n"), list(PINNED))
def test_the_search_decides_as_the_arena_measured_it(game_id: str, n: int) -> None:
    game, params, states = positions(game_id, n, "pin")
    got = []
    for k, state in enumerate(states):
        seat = game.to_move(state)
        if len(game.legal_moves(state)) == 1:
            continue  # no search
        d = bots.decide(game, params, NAMES[:n], game.view(state, seat), level="search:120",
                        seed=f"pin{k}")
        got.append((d.move, tuple(r.visits for r in d.ranked[:4]), round(d.ranked[0].value, 6)))
    assert got == PINNED[game_id, n]


@pytest.mark.parametrize(("n", "has_policy"), [(2, False), (3, True)])
def test_a_play_out_policy_plays_the_searchers_own_seat_only(
        n: int, has_policy: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """The game's play-out policy (``GameSpec.playout``) is asked for the
    player count once, and where it gives one, the search's play-outs call
    it for the bot's own seat and for no other; the others play at random."""
    calls: list[tuple[int, int]] = []
    asked: list[int] = []
    game = games.get("atlas")

    def choose(state: object, moves: tuple, rng: random.Random) -> object:
        calls.append((game.to_move(state), len(moves)))
        return moves[rng.randrange(len(moves))]

    def policy(players: int) -> object:
        asked.append(players)
        return choose if has_policy else None

    fake = types.ModuleType("fake_playout")
    fake.policy = policy  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "fake_playout", fake)
    spec = msgspec.structs.replace(game, playout_module="fake_playout")
    _, params, (state, *_) = positions("atlas", n, "own")
    seat = game.to_move(state)
    legal = tuple(game.format_move(state, m) for m in game.legal_moves(state))
    from adjudicator.bots.search import Search

    Search(iterations=30)(bots.Position(spec, params, NAMES[:n], seat,
                                        game.view(state, seat), legal, "own"))
    assert asked == [n]
    if has_policy:
        assert calls and {s for s, _ in calls} == {seat}
    else:
        assert calls == []


def test_the_atlas_play_out_policy_is_the_one_fitted() -> None:
    """``games/atlas/playout.py`` is the softmax ``benchmarks/atlas_policy.py``
    fitted: its weights are the fit's file, each move's worth is the fit's
    features times its weights, and it draws the move the fit's sampler
    draws from the same generator, over every position of random games."""
    from adjudicator.games.atlas import playout

    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import atlas_policy  # type: ignore[import-not-found]
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    fitted = json.loads((ROOT / "benchmarks/results/atlas-3p-policy-weights.json").read_text())
    assert list(fitted) == list(atlas_policy.NAMES)
    weights = list(fitted.values())
    assert weights == [
        playout.COMPLETE, playout.MINE_KEPT, playout.MINE_LOST, playout.OTHERS_KEPT,
        playout.OTHERS_LOST, playout.ALONE, playout.PREDICT_TIME, playout.TIME_CHIPS,
        playout.ROW_UP, playout.ROW_DOWN, playout.STRETCH_UP, playout.PREDICT_PLACE,
        playout.PLACE_CHIPS, playout.COLUMN_ON, playout.COLUMN_DOWN, playout.LATE,
        playout.CHIPS_LATE, playout.POOR]
    game = games.get("atlas")
    assert game.playout is playout
    assert playout.policy(3) is playout.choose
    assert playout.policy(2) is None and playout.policy(4) is None
    positions_seen = 0
    for state, moves in every_position("atlas", 3, "fit", 20):
        fit = [sum(w * x for w, x in zip(weights, f, strict=True))
               for f in atlas_policy.features(state, moves)]
        assert playout.logits(state, moves) == pytest.approx(fit, abs=1e-12)
        mine, theirs = random.Random(positions_seen), random.Random(positions_seen)
        for _ in range(3):
            assert playout.choose(state, moves, mine) == atlas_policy.choose(
                state, moves, weights, theirs)
        positions_seen += 1
    assert positions_seen == 20 * 27


def test_what_the_atlas_policy_reads_is_what_the_rules_say() -> None:
    """The policy's inputs against the rules, computed another way: what a
    completion flips is what ``apply`` does to the stacks (kept on a card
    now face down, or discarded), and the lines of a card are counted on
    the board square by square, the stretch walked out from the card."""
    from adjudicator.games.atlas import playout
    from adjudicator.games.atlas.cards import CARDS, NUMBERS
    from adjudicator.games.atlas.rules import completes

    game = games.get("atlas")
    completions = 0
    for state, moves in every_position("atlas", 3, "reads", 12):
        me = state.seat
        faces_up = [bool(state.up >> c & 1) for c in range(CARDS)]
        faces_down = [bool(state.down >> c & 1) for c in range(CARDS)]
        up, down = faces_up.__getitem__, faces_down.__getitem__
        # Every card not on the board, in the mover's hand or not.
        for card in range(CARDS):
            if (state.up | state.down) >> card & 1:
                continue
            time, place = completes(state.up, state.down, card)
            if (time or place) and state.held[me] >> card & 1:
                after = game.apply(state, next(m for m in moves if m.card == card))
                kept_after = {s.card for s in after.stacks}
                sums = [0, 0, 0, 0]
                for s in state.stacks:
                    if (time | place) >> s.card & 1:
                        lost = s.card not in kept_after
                        sums[(0 if s.seat == me else 2) + lost] += s.chips + 1
                assert playout.flipped(state, time, place) == tuple(sums)
                completions += 1
            if time or place:
                continue
            row, col = divmod(card, NUMBERS)
            on_row = [row * NUMBERS + c for c in range(NUMBERS)]
            on_col = [r * NUMBERS + col for r in range(4) if r != row]
            stretch = 0
            for step in (-1, 1):
                c = card + step
                while 0 <= c - row * NUMBERS < NUMBERS and (up(c) or down(c)):
                    stretch += up(c)
                    c += step
            assert playout.lines(state, card) == (
                sum(map(up, on_row)), sum(map(down, on_row)), stretch,
                sum(up(c) or down(c) for c in on_col), sum(map(down, on_col)))
    assert completions > 50


def test_the_atlas_play_out_policy_draws_from_its_softmax() -> None:
    """Each move as often as its softmax weight says, one draw of the
    generator a move, and only moves of the list it is given."""
    from adjudicator.games.atlas import playout

    game, _, states = positions("atlas", 3, "soft", 4)
    for state in states:
        moves = game.legal_moves(state)
        logits = playout.logits(state, moves)
        top = max(logits)
        total = sum(math.exp(v - top) for v in logits)
        expected = {m: math.exp(v - top) / total for m, v in zip(moves, logits, strict=True)}
        rng, twin = random.Random(7), random.Random(7)
        counts: dict[object, int] = {}
        draws = 6000
        for _ in range(draws):
            move = playout.choose(state, moves, rng)
            twin.random()
            counts[move] = counts.get(move, 0) + 1
        assert rng.getstate() == twin.getstate()
        assert set(counts) <= set(moves)
        for move, p in expected.items():
            # Four standard deviations of a binomial share.
            assert abs(counts.get(move, 0) / draws - p) <= 4 * math.sqrt(p * (1 - p) / draws)


def test_the_exploration_constant_spreads_the_visits() -> None:
    """What ``benchmarks/arena.py --exploration C`` measures: without
    exploration, once each move has been tried, the search keeps to the best
    so far; with the standard constant it spreads its iterations wider."""
    from adjudicator.bots.search import Search

    game, params, (state, *_) = positions("atlas", 3, "4")
    seat = game.to_move(state)
    legal = tuple(game.format_move(state, m) for m in game.legal_moves(state))
    position = bots.Position(game, params, NAMES[:3], seat, game.view(state, seat), legal, "e")
    greedy = Search(iterations=200, exploration=0.0)(position)
    standard = Search(iterations=200)(position)
    assert greedy.ranked[0].visits > 2 * standard.ranked[0].visits

def test_a_budget_in_seconds_reads_an_injected_clock() -> None:
    from adjudicator.bots.search import Search

    game, params, (state, *_) = positions("atlas", 2, "3")
    ticks = iter(range(1000))
    search = Search(seconds=5, clock=lambda: float(next(ticks)))
    seat = game.to_move(state)
    legal = tuple(game.format_move(state, m) for m in game.legal_moves(state))
    decision = search(bots.Position(game, params, NAMES[:2], seat, game.view(state, seat),
                                    legal, "c"))
    # The clock is read once to set the deadline, then before each iteration
    # but the first: 0 starts, 5 ends, so five iterations ran.
    assert decision.iterations == 5


def test_levels_and_a_programs_own_bot(monkeypatch: pytest.MonkeyPatch) -> None:
    assert set(bots.LEVELS) == {"random", "greedy", "standard"}
    for bad in ("expert", "search:0", "search:x", "search:-1s", "nosuch.module:f"):
        with pytest.raises(UsageError):
            bots.get(bad)
    mine = types.ModuleType("my_agents")

    def last(position: bots.Position) -> str:
        return position.legal[-1]

    def cheat(position: bots.Position) -> str:
        return "a move nobody may play"

    mine.last, mine.cheat = last, cheat  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "my_agents", mine)
    game, params, (state, *_) = positions("q-turn", 2, "4")
    legal = [game.format_move(state, m) for m in game.legal_moves(state)]
    assert bots.move_for(game, state, params, NAMES[:2], level="my_agents:last") == legal[-1]
    with pytest.raises(UsageError, match="not one of the legal moves"):
        bots.move_for(game, state, params, NAMES[:2], level="my_agents:cheat")


def test_values_rank_the_table() -> None:
    def outcome(places: dict[str, int], winners: tuple[str, ...]) -> Outcome:
        return Outcome(standings=tuple(Standing(player=p, score=0, place=k)
                                       for p, k in places.items()),
                       winners=winners, details=())

    four = ("ann", "bob", "cy", "dee")
    # Level scores (no margin): the place and the win alone, squeezed
    # into [0.3, 0.7] by the margin's part.
    level = 1 - MARGIN

    def squeezed(results: list[float]) -> list[float]:
        return [level * r + MARGIN * 0.5 for r in results]

    got = values(outcome({"ann": 1, "bob": 2, "cy": 2, "dee": 4}, ("ann",)), four)
    assert got == pytest.approx(squeezed([1.0, 0.25, 0.25, 0.0]))
    shared = values(outcome({"ann": 1, "bob": 1}, ("ann", "bob")), ("ann", "bob"))
    assert shared == pytest.approx([0.5, 0.5])
    assert values(outcome({"ann": 1}, ()), ("ann",)) == [0.0]
    assert values(outcome({"ann": 1}, ("ann",)), ("ann",)) == [1.0]


def test_values_tell_a_wide_win_from_a_narrow_one() -> None:
    """The same places: the wider margin is worth more to the winner and
    less to the loser; any win is still worth more than any loss."""
    def scored(ann: int, bob: int) -> list[float]:
        first, second = sorted((("ann", ann), ("bob", bob)), key=lambda p: -p[1])
        return values(Outcome(standings=(Standing(player=first[0], score=first[1], place=1),
                                         Standing(player=second[0], score=second[1], place=2)),
                              winners=(first[0],), details=()), ("ann", "bob"))

    narrow, wide = scored(9, 8), scored(18, 2)
    assert wide[0] > narrow[0] > 0.5 > narrow[1] > wide[1]
    assert min(scored(1, 0)[0], scored(40, 39)[0]) > max(scored(0, 40)[0], scored(39, 40)[0])


def test_the_search_meets_the_solo_goal_more_often_than_chance() -> None:
    """Turn of Time solo (rule 7): a fixed set of deals, the search against
    uniformly random play."""
    met = {"search:150": 0, "random": 0}
    for level in met:
        for k in range(8):
            log, _ = selfplay.bot_game("turn-of-time", ("ann",), f"solo-{k}",
                                       [bots.get(level)], {"goal": "balance"})
            met[level] += bool(log.result.winners)
    assert met["search:150"] > met["random"] + 2, met


# --- a table of people and bots ----------------------------------------------------------------


def test_seats_of_names_the_bots() -> None:
    seats = tables.seats_of(["ann", "bot", "bot:search:50", "Bot"])
    assert [(s.name, s.level) for s in seats] == [
        ("ann", None), ("bot1", "standard"), ("bot2", "search:50"), ("bot3", "standard")]
    with pytest.raises(UsageError):
        tables.seats_of(["ann", "bot:nonsense"])


def test_a_person_plays_bots_to_the_end() -> None:
    seats = tables.seats_of(["ann", "bot:search:20", "bot:greedy"])
    table = tables.Table.new("atlas", seats, "t1")
    with pytest.raises(UsageError):
        table.play_bot()  # ann is first
    while (seat := table.to_move()) is not None:
        if seat.is_bot:
            assert table.play_bot() in {m.move for m in table.log.moves[-1:]}
        else:
            table.play(table.legal()[0].lower())  # typed in any case, recorded canonically
    rep = match.validate(table.log)
    assert rep.to_move() is None and table.log.result is not None
    assert [m.by for m in table.log.moves[:3]] == ["ann", "bot1", "bot2"]


# --- the commands ----------------------------------------------------------------------------


def run(*args: str, code: int = 0, input: str | None = None) -> str:
    r = runner.invoke(app, list(args), input=input)
    assert r.exit_code == code, (args, r.stdout, r.stderr)
    assert "Traceback" not in r.stderr
    return r.stdout + r.stderr


def test_hint_ranks_the_moves_and_its_json_follows_the_schema(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    run("new", "atlas", "-p", "ann,bob,cy", "-s", "4", "-o", str(path))
    out = run("hint", str(path), "--bot", "search:200", "--top", "3")
    lines = out.splitlines()
    assert lines[0].startswith("Hint for ann, move 1 (search:200: 200 iterations")
    ranked = [line for line in lines[1:-1] if not line.startswith("     ")]
    assert [line.split()[0] for line in ranked] == ["1.", "2.", "3."]
    # Each ranked move is said in words under it (issue #26).
    assert lines[2].startswith("     play the ")
    assert lines[-1].startswith("Best: ")
    again = run("hint", str(path), "--bot", "search:200", "--top", "3")
    assert again == out  # an iterations budget and a seed: the same hint
    data = json.loads(run("hint", str(path), "--bot", "search:200", "--json"))
    schema = json.loads((ROOT / "notation/schemas/hint.schema.json").read_text())
    jsonschema.Draft202012Validator(schema).validate(data)
    assert data["player"] == "ann" and data["best"] == data["moves"][0]["move"]
    legal = run("legal", str(path)).split()
    assert data["best"] in legal
    out = run("hint", str(path), "--as", "bob", code=1)
    assert out == "Error: it is ann's move, not bob's: a hint is for the player to move\n"
    run("hint", str(path), "--as", "zed", code=2)


def test_hint_reads_a_view_file_of_a_refereed_game(tmp_path: Path) -> None:
    log = tmp_path / "r.json"
    run("new", "fifteen-days", "-p", "ann,bob", "-s", "5", "--referee", "-o", str(log))
    secret = tmp_path / "r.secret.json"
    who = json.loads(run("legal", str(log), "--secret", str(secret), "--json"))["player"]
    other = "bob" if who == "ann" else "ann"
    for player in (who, other):
        run("view", str(log), "--secret", str(secret), "--as", player,
            "-o", str(tmp_path / f"{player}.view.json"))
    out = run("hint", str(tmp_path / f"{who}.view.json"), "--bot", "search:50")
    assert out.startswith(f"Hint for {who}, move 1")
    out = run("hint", str(tmp_path / f"{other}.view.json"), code=1)
    assert "there is nothing to hint" in out
    # Without the secret, the log alone shows no hand: no hint from it.
    run("hint", str(log), code=1)


def test_hint_on_a_finished_game_says_so(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    run("simulate", "q-turn", "-p", "ann,bob", "-s", "1", "-o", str(path))
    assert run("hint", str(path), code=1).endswith("the game is over: there is nothing to hint\n")


def test_simulate_with_bots(tmp_path: Path) -> None:
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    for path in (a, b):
        run("simulate", "time-palatrix", "-p", "ann,bob,cy", "-s", "2",
            "--bot", "search:20,greedy,random", "-o", str(path))
    assert a.read_bytes() == b.read_bytes()
    run("validate", str(a))
    out = run("simulate", "atlas", "-p", "ann,bob", "--bot", "random,random,random", code=2)
    assert "3 levels for 2 players" in out
    out = run("simulate", "atlas", "-p", "ann,bob", "--bot", "expert", code=2)
    assert "unknown bot 'expert'" in out


def test_play_against_bots_at_the_terminal(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    # The bots move between ann's moves; ann types a bad move, asks for a
    # hint, moves twice (the moves read from the log as it goes), then quits.
    game = games.get("atlas")
    state = game.setup({}, ("ann", "bot1"), "p1")
    first = game.format_move(state, game.legal_moves(state)[0])
    out = run("play", "atlas", "-p", "ann,bot:search:20", "-s", "p1", "-o", str(path),
              input=f"9Z\nhint\n{first.lower()}\nquit\n")
    assert "Error: move 1 (ann) '9Z'" in out
    assert "Hint: " in out
    assert f"1. ann played {first}" in out
    assert "2. bot1 (search:20) played " in out
    assert "go on with: adjudicator extend" in out
    log = logmod.decode(path.read_bytes())
    assert [m.by for m in log.moves] == ["ann", "bot1"]
    match.validate(log)
    run("play", "atlas", "-p", "bot,bot", "-o", str(tmp_path / "q.json"), code=1)
