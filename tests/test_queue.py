"""Several decisions per round trip, and "since your last move" (issue #11).

A refereed player may queue moves after the one they record in their view
file; the referee applies them while each is still legal and still the
player's to make, stops at the first that is not, and says so. Every view
file tells its player what happened since they last moved, as they saw it:
nothing they may not see, whatever is re-dealt that they cannot see.
"""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest
from typer.testing import CliRunner

from adjudicator import games, log as logmod, match, referee
from adjudicator.chance import Chance
from adjudicator.cli import app
from adjudicator.errors import AdjudicatorError
from test_trust import refereed

SEED = "queue"


def fresh_view(log: logmod.Log, secret: logmod.Secret) -> referee.ViewFile:
    rep = match.replay(match.unlock(log, secret))
    mover = rep.to_move()
    assert mover is not None
    return referee.issue_view(log, secret, mover)


def a_turn(log: logmod.Log, secret: logmod.Secret, limit: int = 10) -> list[str]:
    """The moves of the player to move up to the end of their turn, played
    from their first legal move each time (worked out with the secret)."""
    rep = match.replay(match.unlock(log, secret))
    mover = rep.to_move()
    moves: list[str] = []
    while rep.to_move() == mover and len(moves) < limit:
        move = rep.legal()[0]
        moves.append(move)
        log = referee.record(log, secret, [move])
        rep = match.replay(match.unlock(log, secret))
    return moves


def test_a_whole_fifteen_days_turn_in_one_file() -> None:
    # Find a position where a 15 Days turn has several decisions.
    for moves in range(0, 40):
        log, secret = refereed("fifteen-days", ("ann", "bob", "cy"), SEED, moves)
        turn = a_turn(log, secret)
        if len(turn) >= 2:
            break
    else:
        pytest.fail("no turn of several decisions in 40 moves")
    vf = fresh_view(log, secret)
    # The queued ones typed loosely: spacing and case as a person types them.
    typed = [turn[0]] + [f"  {m.lower()} " for m in turn[1:]]
    chosen = referee.choose(vf, typed)
    assert chosen.queued == tuple(m.lower() for m in turn[1:])
    taken = referee.take(log, secret, chosen)
    assert taken.applied == tuple(turn)
    assert taken.dropped == ()
    assert [e.move for e in taken.log.moves[len(log.moves):]] == turn
    assert taken.notes() == (f"applied: {', '.join(turn)}",)
    # One signed write: the public log validates as the referee's.
    match.check_public(taken.log)
    assert taken.log.seed is None


def test_the_queue_stops_at_the_first_move_that_is_not_legal_and_says_why() -> None:
    log, secret = refereed("fifteen-days", ("ann", "bob", "cy"), SEED, 0)
    vf = fresh_view(log, secret)
    turn = a_turn(log, secret)
    chosen = referee.choose(vf, [turn[0], "xyzzy", *turn[1:]])
    taken = referee.take(log, secret, chosen)
    assert taken.applied == (turn[0],)
    assert [t for t, _ in taken.dropped] == ["xyzzy", *turn[1:]]
    assert taken.dropped[0][1]  # a reason, from the game's reader
    assert all(why == "a queued move before it was dropped" for _, why in taken.dropped[1:])
    assert len(taken.log.moves) == len(log.moves) + 1


def test_moves_queued_past_the_end_of_the_turn_are_dropped_not_lost() -> None:
    log, secret = refereed("atlas", ("ann", "bob", "cy"), SEED, 3)
    vf = fresh_view(log, secret)
    assert vf.legal
    chosen = referee.choose(vf, [vf.legal[0], vf.legal[-1]])
    taken = referee.take(log, secret, chosen)
    assert taken.applied == (vf.legal[0],)
    nxt = match.replay(match.unlock(taken.log, secret)).to_move()
    assert taken.dropped == ((vf.legal[-1], f"it is {nxt}'s turn"),)


def test_a_queued_line_cannot_forge_lines() -> None:
    log, secret = refereed("atlas", ("ann", "bob"), SEED, 2)
    vf = fresh_view(log, secret)
    assert vf.legal
    chosen = referee.choose(vf, [vf.legal[0], "1D\nFrom the referee: you win"])
    assert chosen.queued == ("1D From the referee: you win",)  # white space folded
    with pytest.raises(AdjudicatorError, match="one line"):
        referee.choose(vf, [vf.legal[0], "1D\x1b[2J"])
    with pytest.raises(AdjudicatorError, match="at most"):
        referee.choose(vf, [vf.legal[0]] + ["x"] * 1000)


def test_queue_added_in_transit_changes_nothing_covered_by_the_proof() -> None:
    """The queue is the player's own text after their move: the proof still
    holds, and a queued move still has to be legal for that player then."""
    log, secret = refereed("q-turn", ("ann", "bob"), SEED, 4)
    vf = fresh_view(log, secret)
    assert vf.legal
    chosen = referee.choose(vf, vf.legal[0])
    sneaked = msgspec.structs.replace(chosen, queued=("zzz", vf.legal[0]))
    referee.check_view(sneaked)  # the queue is outside the proof: it still holds
    taken = referee.take(log, secret, sneaked)
    # Nothing but the player's own legal moves can come of it: here nothing.
    assert taken.applied == (vf.legal[0],)
    assert [t for t, _ in taken.dropped] == ["zzz", vf.legal[0]]
    assert taken.dropped[0][1] and taken.dropped[1][1] == "a queued move before it was dropped"
    assert [e.by for e in taken.log.moves[len(log.moves):]] == [vf.player]


def test_extend_from_writes_the_report_into_the_reply(tmp_path: Path) -> None:
    log, secret = refereed("fifteen-days", ("ann", "bob", "cy"), SEED, 0)
    g, s = tmp_path / "g.json", tmp_path / "g.secret.json"
    g.write_bytes(logmod.encode(log))
    s.write_bytes(logmod.encode(secret))
    vf = fresh_view(log, secret)
    turn = a_turn(log, secret)
    f = tmp_path / "mine.txt"
    from adjudicator import textform

    f.write_text(textform.dumps(vf))  # pasted into a mail: the text form
    runner = CliRunner()
    r = runner.invoke(app, ["extend", str(f), turn[0], "nonsense"])
    assert r.exit_code == 0, r.output
    assert "queued nonsense" in r.output
    reply = tmp_path / "reply.txt"
    r = runner.invoke(app, ["extend", str(g), "--secret", str(s), "--from", str(f),
                            "--reply", str(reply)])
    assert r.exit_code == 0, r.output
    assert "dropped 'nonsense'" in r.output
    text = reply.read_text()
    assert text.isascii() and max(map(len, text.splitlines())) <= 72
    back = textform.loads(text)
    assert isinstance(back, logmod.ViewFile)
    assert back.notes[0] == f"applied: {turn[0]}"
    assert back.notes[1].startswith("dropped 'nonsense': ")
    referee.check_view(back)  # the notes are covered by the proof
    r = runner.invoke(app, ["show", str(reply), "--ascii"])
    assert r.exit_code == 0
    assert "Notes from the referee (" in r.output and "dropped 'nonsense'" in r.output
    # --reply without --from is a usage error.
    r = runner.invoke(app, ["extend", str(g), turn[0], "--reply", str(reply)])
    assert r.exit_code == 2


# --- since your last move -------------------------------------------------------------------

CASES = [(gid, n) for gid in games.GAMES for n in games.get(gid).players if n > 1][::2] + [
    ("turn-of-time", 1)]


@pytest.mark.parametrize(("game_id", "count"), CASES)
def test_since_shows_nothing_the_viewer_cannot_see(game_id: str, count: int) -> None:
    """Each seat's lines are the same when everything it cannot see is
    re-dealt in every position of the game (the conformance test's re-deal)."""
    game = games.get(game_id)
    players = ("ann", "bob", "cy", "dee", "eve", "fay")[:count]
    log = match.simulate(game_id, players, f"{SEED}-{count}", max_moves=40)
    rep = match.replay(log, keep=True)
    rng = Chance(SEED, game_id)
    for seat in range(count):
        lines = match.since(rep, seat)
        assert bool(lines) == (log.moves[-1].by != players[seat])
        assert all(line.isascii() and line.isprintable() for line in lines)
        for k in range(2):
            other = tuple(game.redeal(s, seat, f"{SEED}/{k}/{rng.below(10**6)}") for s in rep.states)
            rep2 = match.Replay(rep.log, game, other[-1], other)
            assert match.since(rep2, seat) == lines


def test_since_starts_after_the_viewers_last_entry() -> None:
    log = match.simulate("atlas", ("ann", "bob", "cy"), SEED, max_moves=7)
    rep = match.replay(log, keep=True)
    for seat, name in enumerate(log.players):
        lines = match.since(rep, seat)
        last = max(i for i, e in enumerate(log.moves, 1) if e.by == name)
        assert [int(line.split(".")[0]) for line in lines] == list(range(last + 1, 8))
        for number, (line, entry) in enumerate(zip(lines, log.moves[last:]), last + 1):
            assert line.startswith(f"{number}. {entry.by} {entry.move}: ")


def test_show_as_a_player_starts_with_since(tmp_path: Path) -> None:
    log = match.simulate("q-turn", ("ann", "bob"), SEED, max_moves=6)
    g = tmp_path / "g.json"
    g.write_bytes(logmod.encode(log))
    r = CliRunner().invoke(app, ["show", str(g), "--as", "ann", "--ascii"])
    assert r.exit_code == 0
    lines = r.output.splitlines()
    assert lines[1] == "Since your last move (ann):"
    assert lines[2].startswith(f"  6. bob {log.moves[5].move}")
    assert all(len(line) <= 72 and line.isascii() for line in lines)
    r = CliRunner().invoke(app, ["show", str(g), "--as", "ann", "--json"])
    assert msgspec.json.decode(r.output)["since"][0].startswith("6. bob ")
