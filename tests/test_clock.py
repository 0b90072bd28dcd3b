"""The judge's clock (issue #24): time control, acts of the clock on the
record, and the referee acting on time. Time is injected, never slept on:
every "now" below is a value handed to the code.

The clock is read from the log alone, so each test states the rule and
checks it two ways: the referee owes the act at the right moment, and a log
where the act comes early, or is forged, fails validation.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import msgspec
import pytest

from adjudicator import clock, log as logmod, match, timekeeper
from adjudicator.errors import AdjudicatorError, BadLogError, IllegalMoveError, UsageError
from adjudicator.recording import act

START = "2026-03-02T09:00:00Z"  # a Monday, before summer time in Europe
T0 = datetime(2026, 3, 2, 9, tzinfo=UTC)
PLAYERS = ["ann", "bob", "cy"]


def game(spec: str, game_id: str = "atlas", players=PLAYERS, seed: str = "c1"):
    log, secret = match.new_refereed(game_id, players, seed, time=clock.parse(spec),
                                     started=START)
    return log, secret


def run(log, secret, until: datetime, step: timedelta = timedelta(hours=1),
        start: datetime = T0):
    """The referee's rounds, hour by hour: every act, in order."""
    acts = []
    now = start
    while now <= until:
        while (a := timekeeper.next_act(log, secret, now)) is not None:
            acts.append((now, a.kind, a.player))
            log = a.log
        now += step
    return log, acts


def at(hours: float) -> datetime:
    return T0 + timedelta(hours=hours)


# --- the time control ---------------------------------------------------------------------------


def test_time_control_reads_and_refuses_with_one_line() -> None:
    tc = clock.parse("per-move=3d grace=12h days=mon-fri hours=08-20 zone=Europe/Stockholm "
                     "expiry=stand-in stand-in=greedy remind=75%")
    assert (tc.per_move, tc.grace, tc.days, tc.remind, tc.stand_in) == (72, 12, "mon-fri", 75,
                                                                          "greedy")
    for bad, words in [
        ("grace=1d", "give per-move or a bank"),
        ("per-move=2d bank=10h", "give per-move or a bank"),
        ("per-move=0", "per-move is a number of hours"),
        ("per-move=1d expiry=shoot", "expiry is one of wait, stand-in, forfeit"),
        ("per-move=1d zone=Mars/Base", "not an IANA time zone"),
        ("per-move=1d days=mon-fry", "name days as mon"),
        ("per-move=1d hours=20-08", "write FROM-TO"),
        ("per-move=1d stand-in=search:1s", "reproducible level"),
        ("per-move=1d stand-in=mymod:bot", "reproducible level"),
        ("per-move=1d increment=1h", "increment and cap go with a bank"),
        ("per-move=1d colour=red", "is not KEY=VALUE"),
    ]:
        with pytest.raises(UsageError, match=words):
            clock.parse(bad)


def test_the_time_control_is_signed_with_the_header() -> None:
    log, secret = game("per-move=1d expiry=forfeit")
    log = match.unlock(log, secret)
    log = match.extend(log, [match.validate(log).legal()[0]], at="2026-03-02T10:00:00Z")
    # A kinder time control written in afterwards breaks the chain.
    kinder = msgspec.structs.replace(log, time=clock.parse("per-move=9d expiry=wait"))
    with pytest.raises(AdjudicatorError, match="digest chain breaks"):
        match.validate(kinder)
    with pytest.raises(BadLogError, match="needs the clock"):
        match.validate(msgspec.structs.replace(log, clock=False, started=None,
                                               moves=()))


# --- running time ----------------------------------------------------------------------------------


def test_the_clock_runs_only_on_its_days_and_hours_in_its_zone() -> None:
    cal = clock.Calendar(clock.parse("per-move=48h days=mon-fri hours=08-20 "
                                     "zone=Europe/Stockholm"))
    # Monday 10:00 in Stockholm (09:00Z, winter time): 10 h on Monday, 12 on
    # each of Tuesday, Wednesday, Thursday (46), 2 on Friday: Friday 10:00.
    assert cal.after(T0, 48) == datetime(2026, 3, 6, 9, tzinfo=UTC)
    # The weekend does not count: Friday 19:00 local to Monday 09:00 local is 2 h.
    assert cal.hours(datetime(2026, 3, 6, 18, tzinfo=UTC), datetime(2026, 3, 9, 8, tzinfo=UTC)) == 2
    # Summer time (29 March 2026): the window stays 08-20 local, 06-18Z.
    assert cal.after(datetime(2026, 3, 30, 6, tzinfo=UTC), 1) == datetime(2026, 3, 30, 7,
                                                                          tzinfo=UTC)


def test_stopped_stretches_do_not_count() -> None:
    cal = clock.Calendar(clock.parse("per-move=10h"), ((at(2), at(5)),))
    assert cal.after(T0, 10) == at(13)
    assert cal.hours(T0, at(13)) == 10


# --- the acts, in order ---------------------------------------------------------------------------


def test_reminder_late_notice_and_timeout_fall_due_in_order() -> None:
    log, secret = game("per-move=10h grace=5h remind=80 expiry=wait")
    log, acts = run(log, secret, at(30))
    assert acts == [(at(8), "remind", "ann"), (at(10), "late", "ann"),
                    (at(15), "timeout", "ann")]  # and under wait, nothing more
    assert [m.move for m in log.moves] == ["@remind ann", "@late ann", "@timeout ann"]
    assert all(m.by == "referee" for m in log.moves)
    match.validate(match.unlock(log, secret), now=at(30))
    # Under wait the player may still move late: the organiser decides.
    unlocked = match.unlock(log, secret)
    late = match.extend(unlocked, [match.validate(unlocked, now=at(31)).legal()[0]],
                        at=clock.stamp(at(31)))
    assert late.moves[-1].by == "ann"


def test_a_move_in_time_starts_the_next_players_clock() -> None:
    log, secret = game("per-move=10h grace=0 expiry=wait")
    unlocked = match.unlock(log, secret)
    moved = match.extend(unlocked, [match.validate(unlocked).legal()[0]], at=clock.stamp(at(7)))
    log = match.sign(match.publish(moved, log), secret)
    log, acts = run(log, secret, at(20), start=at(7))
    # bob's turn began at 7: reminded at 15, out of time at 17 (no grace: no late notice).
    assert acts == [(at(15), "remind", "bob"), (at(17), "timeout", "bob")]


def test_a_bank_with_increment_and_cap() -> None:
    unlocked = match.new_log("atlas", ["ann", "bob"], "b", started=START,
                             time=clock.parse("bank=10h increment=2h cap=11h expiry=wait"))
    for hour in (3, 4):  # ann uses 3 h (10 - 3 + 2 = 9), bob 1 h (min(11, 10 - 1 + 2) = 11)
        unlocked = match.extend(unlocked, [match.validate(unlocked).legal()[0]],
                                at=clock.stamp(at(hour)))
    line = clock.timeline(unlocked, "ann")
    assert line.bank == {"ann": 9.0, "bob": 11.0}
    assert line.deadline() == at(4 + 9)


def test_stand_in_plays_from_the_players_view_and_anyone_can_replay_it() -> None:
    log, secret = game("per-move=10h grace=2h expiry=stand-in stand-in=search:30")
    log, acts = run(log, secret, at(13))
    assert [k for _, k, _ in acts] == ["remind", "late", "stand-in"]
    moves = [m for m in log.moves]
    assert [m.move for m in moves[:4]] == ["@remind ann", "@late ann", "@timeout ann",
                                           "@stand-in ann"]
    assert moves[4].by == "ann" and moves[4].comment == "played by a stand-in (search:30)"
    # The move is the bot's on ann's view, from a seed the referee does not
    # choose: whoever holds the seed plays it again.
    unlocked = match.unlock(log, secret)
    before = match.replay(unlocked, upto=4, keep=True)
    truncated = msgspec.structs.replace(unlocked, moves=unlocked.moves[:4])
    again = timekeeper.stand_in_move(msgspec.structs.replace(before, log=truncated))
    assert again == moves[4].move
    match.validate(unlocked, now=at(13))


def test_stand_in_until_the_player_is_back() -> None:
    log, secret = game("per-move=10h expiry=stand-in stand-in=random until=back",
                       players=["ann", "bob"])
    log, acts = run(log, secret, at(10))
    # ann timed out at 10; the stand-in keeps her seat: her next turn is
    # played at once, once bob has moved.
    unlocked = match.unlock(log, secret)
    rep = match.validate(unlocked, now=at(11))
    if rep.to_move() == "bob":
        unlocked = match.extend(unlocked, [rep.legal()[0]], at=clock.stamp(at(11)))
    log = match.sign(match.publish(unlocked, log), secret)
    acted = timekeeper.next_act(log, secret, at(11))
    assert acted is not None and acted.kind == "stand-in" and acted.player == "ann"
    # 'back' ends it: ann's clock runs again from her next turn.
    unlocked = act(match.unlock(log, secret), "@back ann", at=clock.stamp(at(11))).log
    log = match.sign(match.publish(unlocked, log), secret)
    later = timekeeper.next_act(log, secret, at(11))
    assert later is None


def test_forfeit_ends_the_game_with_the_player_last_and_reveals_the_seed() -> None:
    log, secret = game("per-move=6h expiry=forfeit", game_id="fifteen-days")
    log, acts = run(log, secret, at(8))
    first = acts[-1][2]
    assert acts[-1][1] == "forfeit"
    assert log.result is not None and log.seed is not None  # revealed: anyone can audit it
    assert log.result.standings[-1].player == first
    assert log.result.details[-1] == f"{first} forfeited on time: ranked last"
    report = match.audit(log, None)
    assert report.passed, report


# --- what the log refuses --------------------------------------------------------------------------


def forged(log, secret, text: str, hours: float, then: str | None = None):
    return act(match.unlock(log, secret), text, at=clock.stamp(at(hours)), then=then)


@pytest.mark.parametrize(("text", "hours", "words"), [
    ("@timeout ann", 5, "before it was due"),
    ("@remind ann", 7, "before it was due"),
    ("@late bob", 12, "it is ann's turn, not bob's"),
    ("@stand-in ann", 20, "only once their time ran out"),
    ("@forfeit ann", 20, "forfeits only when their time runs out under the forfeit policy"),
    ("@resume", 1, "the clock is not paused"),
    ("@extend ann 0", 1, "takes 1 to 100000 hours"),
    ("@absent ann 2026-03-03T00:00:00Z 2026-03-02T00:00:00Z", 1, "ends after it begins"),
    ("@absent zed 2026-03-03T00:00:00Z 2026-03-04T00:00:00Z", 1, "not a player"),
    ("@outage 2026-03-02T05:00:00Z", 1, "lies between the entry before and this one"),
])
def test_an_act_the_clock_did_not_owe_is_refused(text: str, hours: float, words: str) -> None:
    log, secret = game("per-move=10h grace=2h expiry=stand-in")
    with pytest.raises(IllegalMoveError, match=words):
        forged(log, secret, text, hours)


def test_absences_are_capped_per_player_and_game() -> None:
    log, secret = game("per-move=10h absence=48h")
    ok = forged(log, secret, "@absent ann 2026-03-02T10:00:00Z 2026-03-03T10:00:00Z", 1)
    line = clock.timeline(ok.log, "ann")
    assert line.deadline() == at(10 + 24)  # her clock stopped for the day away
    with pytest.raises(IllegalMoveError, match="may be absent 48 hours"):
        act(ok.log, "@absent ann 2026-03-05T00:00:00Z 2026-03-06T01:00:00Z",
            at=clock.stamp(at(2)))


def test_pause_and_extend_move_the_deadline() -> None:
    log, secret = game("per-move=10h")
    rep = forged(log, secret, "@pause", 2)
    assert clock.due(rep.log, "ann", at(500)) is None  # nothing runs while paused
    rep = act(rep.log, "@resume", at=clock.stamp(at(5)))
    rep = act(rep.log, "@extend ann 4", at=clock.stamp(at(6)))
    assert clock.timeline(rep.log, "ann").deadline() == at(10 + 3 + 4)


def test_only_the_referee_records_an_act_of_the_clock() -> None:
    log, secret = game("per-move=10h")
    unlocked = match.unlock(log, secret)
    with pytest.raises(AdjudicatorError):
        match.extend(unlocked, ["@timeout ann"], as_player="bob", at=clock.stamp(at(20)))


def test_after_stand_in_comes_that_players_move() -> None:
    log, secret = game("per-move=10h expiry=stand-in stand-in=random")
    log, _ = run(log, secret, at(10))
    unlocked = match.unlock(log, secret)
    # Rewrite the stand-in's move as bob's: the chain is redone (the
    # referee forging), and the replay still refuses it.
    entries = [(m.by, m.move, m.comment) for m in unlocked.moves]
    entries[-1] = ("bob", entries[-1][1], None)
    from adjudicator.chain import sealed

    bare = msgspec.structs.replace(unlocked, moves=())
    remade = msgspec.structs.replace(unlocked, moves=sealed(bare, entries, clock.stamp(at(10))))
    with pytest.raises(AdjudicatorError, match="after @stand-in ann comes ann's move"):
        match.replay(remade)


# --- time never runs backwards --------------------------------------------------------------------


def test_entries_in_the_future_or_out_of_order_fail_validation() -> None:
    log = match.new_log("atlas", ["ann", "bob"], "t", clock=True, started=START)
    log = match.extend(log, [match.validate(log).legal()[0]], at="2026-03-02T10:00:00Z")
    data = json.loads(logmod.encode(log))
    future = json.loads(json.dumps(data))
    future["moves"][0]["at"] = "2099-01-01T00:00:00Z"
    backwards = json.loads(json.dumps(data))
    backwards["moves"][0]["at"] = "2026-03-01T00:00:00Z"
    for edited, words in [(future, "in the future"), (backwards, "before the entry before it")]:
        with pytest.raises(BadLogError, match=words):
            match.validate(logmod.decode(json.dumps(edited).encode()))


def test_an_outage_stops_every_clock() -> None:
    log, secret = game("per-move=10h")
    acted = timekeeper.outage(log, secret, at(2), at(30))
    assert acted.log.moves[-1].move == "@outage 2026-03-02T11:00:00Z"
    # ann had used 2 h: 8 h left from 30.
    assert clock.timeline(match.unlock(acted.log, secret), "ann").deadline() == at(38)


def test_audit_plays_every_stand_in_again_and_catches_a_referee_who_chose() -> None:
    """The referee cannot pass off a move of its own choosing as the
    stand-in's: after the reveal, audit plays the bot again on that view."""
    log, secret = game("per-move=10h expiry=stand-in stand-in=search:20")
    log, _ = run(log, secret, at(10))
    played = match.reveal(log, secret)
    report = match.audit(played)
    assert report.passed, report
    said = {i.what: i.text for i in report.items}
    assert said["stand-ins"] == "all 1 stand-in moves are the bot's, played again"
    assert said["clock"] == "every act owed when recorded: 1 remind, 1 timeout, 1 stand-in"
    # The referee's own choice instead, re-chained and re-signed: every
    # check a player can make passes, and audit still finds it.
    unlocked = match.unlock(log, secret)
    before = match.replay(unlocked, upto=len(unlocked.moves) - 1)
    chosen = next(m for m in before.legal() if m != unlocked.moves[-1].move)
    bare = msgspec.structs.replace(unlocked, moves=unlocked.moves[:-1])
    from adjudicator.chain import sealed

    forged = msgspec.structs.replace(bare, moves=sealed(
        bare, [(unlocked.moves[-1].by, chosen, unlocked.moves[-1].comment)],
        unlocked.moves[-1].at))
    forged = match.reveal(match.sign(match.publish(forged, log), secret), secret)
    report = match.audit(forged)
    assert not report.passed
    failed = next(i for i in report.items if not i.ok)
    assert failed.what == "stand-ins" and "was recorded as a stand-in's" in failed.text


# --- a stand-in ordered by the organiser ---------------------------------------------------------


def test_the_organiser_orders_a_stand_in_for_one_move_and_audit_plays_it_again() -> None:
    """Under wait, nothing plays for ann on its own; the organiser orders a
    stand-in for her next move: it plays at once (her turn), once, and the
    revealed log's audit plays it again."""
    log, secret = game("per-move=10h expiry=wait stand-in=random", players=["ann", "bob"])
    acted = timekeeper.organise(log, secret, ["stand-in", "ann", "move"], at(3))
    assert acted.kind == "stand-in" and "ordered a stand-in for ann" in acted.words
    moves = acted.log.moves
    assert [m.move for m in moves[:2]] == ["@order-stand-in ann move", "@stand-in ann"]
    assert moves[2].by == "ann" and moves[2].comment == "played by a stand-in (random)"
    # For one move only: bob moves, and ann's clock runs again at her turn.
    unlocked = match.unlock(acted.log, secret)
    unlocked = match.extend(unlocked, [match.validate(unlocked, now=at(4)).legal()[0]],
                            at=clock.stamp(at(4)))
    log = match.sign(match.publish(unlocked, log), secret)
    assert timekeeper.next_act(log, secret, at(5)) is None
    report = match.audit(match.reveal(log, secret))
    assert report.passed, report
    assert {i.what: i.text for i in report.items}["stand-ins"] == (
        "all 1 stand-in moves are the bot's, played again")


def test_an_order_waits_for_the_players_turn_and_lapses_if_they_move() -> None:
    log, secret = game("per-move=10h expiry=forfeit stand-in=random", players=["ann", "bob"])
    # Ordered for bob while it is ann's move: recorded, nothing played yet.
    acted = timekeeper.organise(log, secret, ["stand-in", "bob"], at(1))
    assert acted.kind == "order-stand-in" and [m.move for m in acted.log.moves] == [
        "@order-stand-in bob move"]  # the header's until (move) by default
    unlocked = match.unlock(acted.log, secret)
    unlocked = match.extend(unlocked, [match.validate(unlocked, now=at(2)).legal()[0]],
                            at=clock.stamp(at(2)))
    assert "bob" in clock.timeline(unlocked, "bob").once
    log2 = match.sign(match.publish(unlocked, log), secret)
    owed = timekeeper.next_act(log2, secret, at(2))
    assert owed is not None and owed.kind == "stand-in" and owed.player == "bob"
    # Had bob moved first, the order would have lapsed with his turn.
    again = match.unlock(log2, secret)
    moved = match.extend(again, [match.replay(again).legal()[0]], at=clock.stamp(at(2)))
    assert "bob" not in clock.timeline(moved, "ann").once


def test_an_order_until_back_plays_every_turn_until_the_player_is_back() -> None:
    log, secret = game("per-move=10h expiry=wait stand-in=random", players=["ann", "bob"])
    log = timekeeper.organise(log, secret, ["stand-in", "ann", "back"], at(1)).log
    for hour in (2, 3):  # bob moves, the stand-in answers for ann each time
        unlocked = match.unlock(log, secret)
        unlocked = match.extend(unlocked, [match.validate(unlocked, now=at(hour)).legal()[0]],
                                at=clock.stamp(at(hour)))
        log = match.sign(match.publish(unlocked, log), secret)
        acted = timekeeper.next_act(log, secret, at(hour))
        assert acted is not None and acted.kind == "stand-in" and "until they are back" in \
            acted.words
        log = acted.log
    log = timekeeper.player_act(log, secret, "ann", ["back"], at(4)).log
    unlocked = match.unlock(log, secret)
    unlocked = match.extend(unlocked, [match.validate(unlocked, now=at(5)).legal()[0]],
                            at=clock.stamp(at(5)))
    log = match.sign(match.publish(unlocked, log), secret)
    assert timekeeper.next_act(log, secret, at(5)) is None  # ann plays for herself again
    assert match.audit(match.reveal(log, secret)).passed


def test_a_stand_in_nobody_ordered_is_refused() -> None:
    log, secret = game("per-move=10h expiry=wait")
    with pytest.raises(IllegalMoveError, match="organiser ordered no stand-in for ann"):
        forged(log, secret, "@stand-in ann", 20)
    with pytest.raises(IllegalMoveError, match="UNTIL is move or back"):
        forged(log, secret, "@order-stand-in ann forever", 1)
    for words in (["stand-in"], ["stand-in", "ann", "forever"]):
        with pytest.raises(UsageError):
            timekeeper.organise(log, secret, words, at(1))


# --- standing orders for a stand-in --------------------------------------------------------------


def with_orders(orders: list[str]):
    """ann's standing orders left at 1 h; her time runs out at 10 h and a
    stand-in plays: the log, the secret, the bot's move without orders and
    a legal move that is not the bot's."""
    log, secret = game("per-move=10h expiry=stand-in stand-in=random", players=["ann", "bob"])
    bare, _ = run(log, secret, at(10))
    bot = bare.moves[-1].move
    other = next(m for m in match.validate(match.unlock(log, secret)).legal() if m != bot)
    acted, secret = timekeeper.leave_orders(log, secret, "ann",
                                            [o.format(other=other, bot=bot) for o in orders], at(1))
    log, _ = run(acted.log, secret, at(10), start=at(1))
    return log, secret, bot, other


def test_a_stand_in_follows_the_players_standing_orders_and_audit_checks_them() -> None:
    log, secret, bot, wanted = with_orders(["no such move", "{other}", "{bot}"])
    acts = [m.move for m in log.moves]
    assert acts[0].startswith("@orders ann ") and len(acts[0].split(" ")[2]) == 64
    assert acts[-2:] == ["@stand-in ann", wanted]  # the first legal order, not the bot's
    # Only a digest is public: the orders are in the secret alone.
    assert "no such move" not in logmod.encode(log).decode()
    assert [o.text for o in secret.orders] == [f"no such move, {wanted}, {bot}"]
    revealed = match.reveal(log, secret)
    assert revealed.orders == secret.orders
    report = match.audit(revealed)
    assert report.passed, report
    said = {i.what: i.text for i in report.items}
    assert said["standing orders"].startswith("all 1 revealed")
    # The text form carries the reveal, and reads back the same.
    from adjudicator import textform

    assert logmod.encode(textform.loads(textform.dumps(revealed))) == logmod.encode(revealed)
    # Orders withdrawn (none): the bot plays.
    log, secret, bot, _ = with_orders([])
    assert log.moves[-1].move == bot and secret.orders[0].text == ""


def test_a_referee_that_ignores_the_orders_or_edits_them_fails_audit() -> None:
    from adjudicator.chain import sealed
    from adjudicator.log import Orders

    log, secret, bot, wanted = with_orders(["{other}"])
    assert log.moves[-1].move == wanted
    # The bot's move instead of the order's, re-chained and re-signed.
    unlocked = match.unlock(log, secret)
    bare = msgspec.structs.replace(unlocked, moves=unlocked.moves[:-1])
    last = unlocked.moves[-1]
    ignored = msgspec.structs.replace(bare, moves=sealed(bare, [(last.by, bot, last.comment)],
                                                          last.at))
    ignored = match.reveal(match.sign(match.publish(ignored, log), secret), secret)
    report = match.audit(ignored)
    failed = next(i for i in report.items if not i.ok)
    assert failed.what == "stand-ins" and "with the standing orders then in force" in failed.text
    # Orders revealed with another text than the one committed to.
    revealed = match.reveal(log, secret)
    kept = revealed.orders[0]
    edited = msgspec.structs.replace(revealed, orders=(Orders(player="ann", salt=kept.salt,
                                                              text=bot),))
    report = match.audit(edited)
    failed = next(i for i in report.items if not i.ok)
    assert failed.what == "standing orders" and "do not match" in failed.text
    # Left out of the reveal: the stand-in's move cannot be checked.
    report = match.audit(msgspec.structs.replace(revealed, orders=()))
    assert not report.passed


def test_standing_orders_read_patterns_and_are_refused_when_too_long() -> None:
    from adjudicator import games

    log, secret = game("per-move=10h expiry=stand-in", players=["ann", "bob"])
    rep = match.validate(match.unlock(log, secret), keep=True)
    g = games.get("atlas")
    listed = rep.legal()
    pattern = listed[3][:2] + "*"
    first = next(m for m in listed if m.startswith(listed[3][:2]))
    assert clock.follow_orders(g, rep.state, rep.log, ["zz*", pattern]) == first
    assert clock.follow_orders(g, rep.state, rep.log, ["99X"]) is None
    with pytest.raises(UsageError, match="at most 20"):
        timekeeper.leave_orders(log, secret, "ann", ["1D"] * 21, at(1))
    with pytest.raises(IllegalMoveError, match="DIGEST is 64 hex digits"):
        forged(log, secret, "@orders ann 3D", 1)
