"""Events of the log in every game (notation/README.md, "Events"): takebacks
and abandonment by agreement, resignation; in open and refereed games; and
the entries that the rules of events refuse."""

from __future__ import annotations

import pytest

from adjudicator import drawing, games, match, referee
from adjudicator.errors import AdjudicatorError, IllegalMoveError

NAMES = ("ann", "bob", "cy", "dee")


def played(game_id: str, moves: int = 6) -> tuple[match.Replay, object]:
    game = games.get(game_id)
    n = 3 if 3 in game.players else game.players[-1]
    log = match.simulate(game_id, NAMES[:n], "events", max_moves=moves)
    return match.validate(log, keep=True), log


@pytest.mark.parametrize("game_id", list(games.GAMES))
def test_an_accepted_takeback_restores_the_position(game_id: str) -> None:
    rep, log = played(game_id)
    ann, bob, cy = rep.players[:3]
    log = match.extend(log, ["@takeback 2"], as_player=bob)
    assert match.validate(log).pending is not None
    log = match.extend(log, ["@accept"], as_player=ann)
    assert match.validate(log).pending is not None, "one answer of two is not enough"
    log = match.extend(log, ["@accept"], as_player=cy)
    after = match.validate(log, keep=True)
    assert after.pending is None and after.state == rep.states[-3]
    assert after.to_move() == rep.to_move(rep.states[-3])
    # The log only grew: every earlier copy is a prefix of it.
    assert log.moves[: len(rep.log.moves)] == rep.log.moves
    # Play goes on from the restored position.
    log = match.extend(log, [after.legal()[0]])
    assert match.validate(log).to_move() is not None or match.validate(log).outcome


@pytest.mark.parametrize("game_id", list(games.GAMES))
def test_a_rejection_or_a_move_drops_the_proposal(game_id: str) -> None:
    rep, log = played(game_id)
    ann, bob = rep.players[:2]
    rejected = match.extend(match.extend(log, ["@takeback 1"], as_player=ann), ["@reject"],
                            as_player=bob)
    assert match.validate(rejected).state == rep.state
    proposed = match.extend(log, ["@abandon"], as_player=ann)
    moved = match.extend(proposed, [match.validate(proposed).legal()[0]])
    with pytest.raises(IllegalMoveError, match="no proposal"):
        match.extend(moved, ["@accept"], as_player=bob)


@pytest.mark.parametrize("game_id", list(games.GAMES))
def test_resignation_ranks_the_player_last_and_ends_the_game(game_id: str) -> None:
    rep, log = played(game_id)
    who = rep.players[0]
    log = match.extend(log, ["@resign"], as_player=who)
    done = match.validate(log)
    result = done.outcome
    assert result is not None and log.result == result and done.to_move() is None
    last = result.standings[-1]
    assert last.player == who and last.place == len(rep.players)
    assert who not in result.winners and result.winners
    assert all(s.place < last.place for s in result.standings[:-1])
    with pytest.raises(IllegalMoveError, match="already over"):
        match.extend(log, [rep.legal()[0]])
    scene = drawing.scene(done.game, done.players, done.state, len(log.moves), None, None,
                          done.ended)
    assert scene.final and scene.to_move is None


@pytest.mark.parametrize("game_id", list(games.GAMES))
def test_abandonment_by_all_leaves_no_result(game_id: str) -> None:
    rep, log = played(game_id)
    ann, *others = rep.players
    log = match.extend(log, ["@abandon"], as_player=ann)
    for name in others:
        log = match.extend(log, ["@accept"], as_player=name)
    result = match.validate(log).outcome
    assert result is not None and result.standings == () and result.winners == ()
    assert match.describe(result) == "abandoned by agreement: no result"


@pytest.mark.parametrize("game_id", list(games.GAMES))
def test_a_referee_answers_alone_and_signs(game_id: str) -> None:
    game = games.get(game_id)
    n = 3 if 3 in game.players else game.players[-1]
    log, secret = match.new_refereed(game_id, NAMES[:n], seed="events")
    for _ in range(4):
        rep = match.replay(match.unlock(log, secret))
        log = referee.record(log, secret, [rep.legal()[0]])
    before = match.replay(match.unlock(log, secret), keep=True)
    log = referee.record(log, secret, ["@takeback 1"], as_player=NAMES[1])
    log = referee.record(log, secret, ["@accept"], as_player="referee")
    match.check_public(log)  # signed by the referee after each event
    after = match.validate(match.unlock(log, secret))
    assert after.state == before.states[-2] and after.pending is None
    log = referee.record(log, secret, ["@resign"], as_player=NAMES[0])
    assert match.validate(match.unlock(log, secret)).outcome.standings[-1].player == NAMES[0]
    match.check_public(log)


@pytest.mark.parametrize(("setup", "event", "by", "message"), [
    ([], "@accept", "bob", "no proposal"),
    (["@takeback 1"], "@accept", "ann", "made the proposal"),
    (["@takeback 1"], "@takeback 1", "bob", "a proposal is waiting"),
    ([], "@takeback 99", "ann", "can be taken back"),
    ([], "@accept", "referee", "no such player"),  # an open game has no referee
    ([], "@resign", "zed", "no such player"),
    ([], "@surrender", "ann", "not an event"),
])
def test_events_the_rules_refuse(setup: list[str], event: str, by: str, message: str) -> None:
    _, log = played("atlas")
    for text in setup:
        log = match.extend(log, [text], as_player="ann")
    with pytest.raises(AdjudicatorError, match=message):
        match.extend(log, [event], as_player=by)


def test_a_forged_event_entry_fails_validation() -> None:
    """An accept written into the log by the proposer, chain recomputed: the
    replay refuses it, naming the entry."""
    _, log = played("q-turn")
    log = match.extend(log, ["@takeback 1"], as_player="ann")
    import msgspec

    forged = msgspec.structs.replace(log, moves=match.sealed(log, [("ann", "@accept", None)]))
    with pytest.raises(IllegalMoveError, match="made the proposal") as e:
        match.validate(forged)
    assert e.value.number == len(forged.moves)
    # A referee's answer forged into an open game is refused the same way.
    forged = msgspec.structs.replace(log, moves=match.sealed(log, [("referee", "@accept", None)]))
    with pytest.raises(IllegalMoveError, match="only a refereed game has a referee"):
        match.validate(forged)


def test_the_clock_stamps_entries_and_show_reports_the_deadline() -> None:
    log = match.new_log("q-turn", ("ann", "bob"), "clock", deadline=48,
                        started="2026-11-20T10:00:00Z")
    log = match.extend(log, [match.replay(log).legal()[0]], at="2026-11-21T09:30:00Z")
    assert log.moves[-1].at == "2026-11-21T09:30:00Z"
    match.validate(log)
    import msgspec

    from adjudicator import seal
    from adjudicator.chain import head_digest
    from adjudicator.errors import BadLogError
    from adjudicator.log import MoveEntry

    # The tool refuses to write an entry before the one before it...
    with pytest.raises(BadLogError, match="before the log's last entry"):
        match.sealed(msgspec.structs.replace(log, moves=()),
                     [(e.by, e.move, None) for e in log.moves], at="2026-11-19T00:00:00Z")
    # ...and a log chained so by hand does not validate.
    links = [seal.Link(e.by, e.move, None, "2026-11-19T00:00:00Z") for e in log.moves]
    earlier = msgspec.structs.replace(log, moves=tuple(
        MoveEntry(by=k.by, move=k.move, at=k.at, digest=d.hex())
        for k, d in zip(links, seal.chain(head_digest(log), links))))
    with pytest.raises(BadLogError, match="before the entry before it"):
        match.validate(earlier)
    from adjudicator.actions import deadline

    assert deadline(log) == "2026-11-23T09:30:00Z"
