"""The accelerated validation (adjudicator/accelerated.py) held to the checked
path: every function gives what its checked twin gives, or declines."""

import itertools

import msgspec
import pytest

from adjudicator import accelerated, games, log as logmod, match, seal, starting
from adjudicator.errors import AdjudicatorError, BadLogError, MoveError


@pytest.fixture()
def finished() -> logmod.Log:
    return match.simulate("turn-of-time", ["ann", "bob", "cy"], "log-test")


def _chain_by_definition(previous: bytes, entries) -> int:
    """How many entries follow the chain, one seal.entry_digest per entry."""
    from adjudicator import seal

    count = 0
    for e in entries:
        previous = seal.entry_digest(previous, e.by, e.move, e.comment, e.at)
        if previous.hex() != e.digest:
            break
        count += 1
    return count


def test_followed_counts_the_entries_that_follow_the_chain(finished: logmod.Log) -> None:
    """accelerated.followed (the chain over a whole log, validation's loop) agrees with
    entry_digest entry by entry: comments and time stamps included, and a
    broken link anywhere stops the count there."""
    import msgspec

    head = match.head_digest(finished)
    moves = list(finished.moves)
    assert accelerated.followed(head, moves) == len(moves) == _chain_by_definition(head, moves)
    clocked = match.new_log("turn-of-time", ["ann", "bob"], "chain", clock=True,
                            started="2026-01-01T00:00:00Z")
    clocked = match.extend(clocked, [match.replay(clocked).legal()[0]], at="2026-01-01T00:01:00Z",
                           comment="\u00e0 toi")
    clocked = match.extend(clocked, [match.replay(clocked).legal()[0]], at="2026-01-01T00:02:00Z")
    entries = list(clocked.moves)
    assert accelerated.followed(match.head_digest(clocked), entries) == 2
    for k in range(len(moves)):
        for field, value in (("move", "SpSp-a1"), ("by", "bob"), ("comment", "x"), ("digest", "00"),
                             ("at", "2026-01-01T00:00:00Z")):
            if getattr(moves[k], field) == value:
                continue
            broken = moves[:k] + [msgspec.structs.replace(moves[k], **{field: value})] + moves[k + 1:]
            assert accelerated.followed(head, broken) == _chain_by_definition(head, broken) == k


def test_validate_takes_no_short_cut_past_a_problem(finished: logmod.Log) -> None:
    """validate's shortcut for the common log (accelerated.validated) gives the full
    path's replay, and hands every log it cannot vouch for to the full
    path, which then raises the same error as before."""
    import msgspec

    rep = match.validate(finished)
    assert accelerated.validated(finished) == rep
    assert rep.state == match.replay(finished, keep=True).state
    moves = list(finished.moves)
    bad = [
        msgspec.structs.replace(finished, result=None),
        msgspec.structs.replace(finished, moves=tuple(moves[:-1])),
        msgspec.structs.replace(finished, moves=(msgspec.structs.replace(moves[0], by="bob"),
                                                 *moves[1:])),
        msgspec.structs.replace(finished, moves=(msgspec.structs.replace(moves[0], at="x"),
                                                 *moves[1:])),
        msgspec.structs.replace(finished, moves=(msgspec.structs.replace(moves[0], signature="x"),
                                                 *moves[1:])),
        msgspec.structs.replace(finished, seed=""),
        msgspec.structs.replace(finished, game="chess"),
        msgspec.structs.replace(finished, deadline=3),
    ]
    for log in bad:
        assert accelerated.validated(log) is None
        with pytest.raises((BadLogError, MoveError)) as e:
            match.validate(log)
        assert "\n" not in str(e.value)


EVENTS = ("@resign", "@takeback 1", "@takeback 2", "@accept", "@reject", "@abandon", "@")


@pytest.mark.parametrize("game_id", list(games.GAMES))
def test_every_fast_play_stops_at_an_event(game_id: str) -> None:
    """accelerated.validated hands a log holding an event to the full path
    because the game's fast_play stops there (an event is no canonical
    move): at the start, and after moves played, at every player count."""
    game = games.get(game_id)
    for n in game.players:
        names = ("ann", "bob", "cy", "dee")[:n]
        played = match.simulate(game_id, names, f"events/{n}")
        start = starting.start(played)[1]
        texts = [e.move for e in played.moves[:3]]
        for event in EVENTS:
            assert game.fast.fast_play(start, [event])[0] == [], (game_id, n, event)
            seats, _ = game.fast.fast_play(start, [*texts, event, *texts])
            assert len(seats) == len(texts), (game_id, n, event)


def test_a_log_with_an_event_takes_the_full_path() -> None:
    """A resignation is recorded by the full path and validated by it; the
    shortcut declines the log, and the full path's replay is the answer."""
    log = match.new_log("atlas", ["ann", "bob"], "event")
    log = match.extend(log, ["@resign"], as_player="ann")
    assert accelerated.validated(log) is None
    rep = match.validate(log)
    assert rep.state == match.replay(log, keep=True).state
    assert log.result is not None and log.result.winners == ("bob",)


def test_chained_moves_is_followed_with_the_moves_and_movers(finished: logmod.Log) -> None:
    """accelerated.chained_moves (validation's shortcut: the chain and the texts in
    one loop) gives the moves and movers exactly when followed() says every
    entry follows and no entry has a time stamp or a signature."""
    import msgspec

    head = match.head_digest(finished)
    moves = list(finished.moves)
    assert accelerated.chained_moves(head, moves) == ([e.move for e in moves], [e.by for e in moves])
    assert accelerated.chained_moves(head, []) == ([], [])
    partial = match.simulate("turn-of-time", ["ann", "bob", "cy"], "log-test", max_moves=5)
    commented = match.extend(partial, [match.replay(partial).legal()[0]], comment="\u00e0 toi")
    entries = list(commented.moves)
    assert accelerated.followed(match.head_digest(commented), entries) == len(entries)
    assert accelerated.chained_moves(match.head_digest(commented), entries) == (
        [e.move for e in entries], [e.by for e in entries])
    for k in range(len(moves)):
        for field, value in (("move", "SpSp-a1"), ("by", "bob"), ("comment", "x"), ("digest", "00"),
                             ("at", "2026-01-01T00:00:00Z"), ("signature", "x")):
            if getattr(moves[k], field) == value:
                continue
            broken = moves[:k] + [msgspec.structs.replace(moves[k], **{field: value})] + moves[k + 1:]
            assert accelerated.chained_moves(head, broken) is None, (k, field)
            assert accelerated.followed(head, broken) == k or field == "signature"


def test_a_link_is_sha256_of_the_fields() -> None:
    """A link of the chain is SHA-256 of the previous digest and the fields of
    the entry (notation/README.md), whatever the length."""
    import hashlib

    for n in range(0, 200):
        data = bytes((7 * i + n) % 256 for i in range(n))
        assert seal.entry_digest(data[:32].ljust(32, b"\0"), "ann", "x" * n, None) == hashlib.sha256(
            data[:32].ljust(32, b"\0") + seal.fields(["ann", "x" * n])).digest()


def _headers() -> list[logmod.Log]:
    """Headers of every game and player count, and headers each check refuses."""
    out = []
    for game in games.GAMES.values():
        for n in game.players:
            log = match.new_log(game.id, ["ann", "bob", "cy", "dee"][:n], f"h{n}")
            out += [log, msgspec.structs.replace(log, seed=""),
                    msgspec.structs.replace(log, players=log.players[:1] * n),
                    msgspec.structs.replace(log, params={"no-such": 1}),
                    msgspec.structs.replace(log, rules=99),
                    msgspec.structs.replace(log, salt="ab"),
                    msgspec.structs.replace(log, tags={"event": "cup"})]
            for p in game.params:
                out.append(msgspec.structs.replace(log, params={**log.params, p.name: "?"}))
    return out


def _outcome(call):
    try:
        return ("ok", call())
    except AdjudicatorError as e:
        return (type(e).__name__, str(e))


def test_started_is_start_remembered() -> None:
    """accelerated.started gives start()'s game and state, or its error, met
    once or again (then from what it remembered)."""
    for log in _headers() * 2:
        fast = _outcome(lambda log=log: accelerated.started(log)[:2])
        checked = _outcome(lambda log=log: starting.start(log))
        assert fast == checked, log


def test_checked_new_is_the_checked_header_remembered() -> None:
    names = [("ann", "bob"), ("ann", "ann"), ("ann",), ("Zoe\u0308", "bob")]
    params = [{}, {"first-player": "seat-0"}, {"disks": "4Q,6D,6O"}, {"nope": 1}, {"round-limit": True}]
    for game_id, who, given in itertools.product(games.GAMES, names, params):
        for _ in range(2):
            fast = _outcome(lambda g=game_id, w=who, p=given: accelerated.checked_new(g, w, p))
            checked = _outcome(lambda g=game_id, w=who, p=given: starting.checked_players_and_params(g, w, p))
            assert fast == checked, (game_id, who, given)


def test_new_open_is_the_new_log_and_state_remembered() -> None:
    """accelerated.new_open (self-play's start) gives new_log_and_state's log,
    game and starting state, or its error, for every game, names and
    parameters, met once or again with another seed (an empty one too)."""
    names = [("ann", "bob"), ("ann", "ann"), ("ann",), ("Zoe\u0308", "bob"), ("ann", "bob", "cy")]
    params = [None, {}, {"first-player": "seat-0"}, {"disks": "4Q,6D,6O"}, {"nope": 1},
              {"round-limit": True}, {"goal": "balance"}]
    for game_id, who, given in itertools.product(games.GAMES, names, params):
        for seed in ("one", "two", "", "three"):
            fast = _outcome(lambda g=game_id, w=who, p=given, s=seed: accelerated.new_open(g, w, s, p))
            checked = _outcome(lambda g=game_id, w=who, p=given, s=seed: starting.new_log_and_state(g, w, s, p))
            assert fast == checked, (game_id, who, given, seed)


def test_the_remembered_tables_are_bounded() -> None:
    for i in range(accelerated.BOUND + 5):
        accelerated.checked_new("q-turn", ("ann", f"p{i}"), {})
        accelerated.new_open("q-turn", ("ann", f"p{i}"), "bound")
    assert 0 < accelerated.sizes()["new logs"] <= accelerated.BOUND
    assert 0 < accelerated.sizes()["open logs"] <= accelerated.BOUND
