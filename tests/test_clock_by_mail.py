"""A table by mail whose player vanishes (issue #24's "done when"): the
referee's clock reminds, warns the table, and applies the policy, over a
real SMTP server and a real Maildir, on an injected clock (nothing sleeps).
The game ends by itself and ``audit`` accepts its log, every act of the
clock in it."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from adjudicator import clock, log as logmod, mailparse, match, postal
from adjudicator.log import Log, ViewFile

from mailref import Player, SMTPServer, deliver, referee_dir
from volume import LONG

START = datetime(2026, 3, 2, 9, tzinfo=UTC)


def timed_table(root: Path, port: int, game_id: str, players: tuple[str, ...], spec: str,
                seed: str, picture: str = "svg") -> dict[str, str]:
    """A referee directory with one game under the time control ``spec``."""
    roster = referee_dir(root, port, {"g": (game_id, players, seed)}, picture=picture)["g"]
    log, secret = match.new_refereed(game_id, list(players), seed, time=clock.parse(spec),
                                     started=clock.stamp(START))
    (root / "games" / "g.json").write_bytes(logmod.encode(log))
    (root / "games" / "g.secret.json").write_bytes(logmod.encode(secret))
    # The referee's rounds here are hours of injected time apart: not an outage.
    toml = root / "referee.toml"
    toml.write_text("outage = 1440\n" + toml.read_text())
    return roster


def play_with_a_vanishing_player(root: Path, smtp: SMTPServer, roster: dict[str, str],
                                 gone: str, after: int, step: timedelta) -> tuple[Log, dict]:
    """Everyone answers their newest mail at once, but ``gone`` stops
    answering once the game has ``after`` entries; the referee's clock moves
    ``step`` per round. Returns the final log and the players."""
    now = [START]
    ref = postal.MailReferee(root, now=lambda: now[0].timestamp())
    players = {p: Player(p, a, random.Random(p)) for p, a in roster.items()}
    answered: set[str] = set()
    for _ in range(3000):
        ref.run_once()
        for p in players.values():
            p.collect(smtp.sink)
        log = logmod.decode((root / "games" / "g.json").read_bytes())
        if log.result is not None:
            return log, players
        for p in players.values():
            if p.name == gone and len(log.moves) >= after:
                continue
            newest = p.inbox[-1] if p.inbox else None
            if newest is None or str(newest["Message-ID"]) in answered:
                continue
            answered.add(str(newest["Message-ID"]))
            vf = view_in(newest)
            if vf.legal and vf.to_move == p.name:
                deliver(root, p.reply(newest, f"move {p.rng.choice(vf.legal)}"))
        now[0] += step
    raise AssertionError("the game did not end")


def view_in(message) -> ViewFile:  # type: ignore[no-untyped-def]
    """The view file a referee's mail carries."""
    return [f.value for f in mailparse.extract_all(message.as_bytes())
            if isinstance(f.value, ViewFile)][0]


def acts_of(log: Log) -> list[str]:
    return [m.move for m in log.moves if m.by == "referee"]


# Atlas by default; 15 Days as well in the long volume (``ADJUDICATOR_VOLUME=long``,
# what ``.ci/run`` sets): its game by mail is the longest of the suite.
@pytest.mark.parametrize(("game_id", "players"), [
    ("atlas", ("ann", "bob", "cy", "dee")),
    *([("fifteen-days", ("ann", "bob", "cy", "dee"))] if LONG else []),
])
def test_a_vanished_player_is_stood_in_for_and_the_game_ends(
        tmp_path: Path, smtp: SMTPServer, game_id: str, players: tuple[str, ...]) -> None:
    roster = timed_table(tmp_path, smtp.port, game_id, players,
                         "per-move=24h grace=12h expiry=stand-in stand-in=search:10 until=back",
                         "v1", picture="none")
    log, mailed = play_with_a_vanishing_player(tmp_path, smtp, roster, "cy", 10,
                                               timedelta(hours=2))
    acts = acts_of(log)
    # cy's clock ran out once: reminded, warned, timed out; then a stand-in
    # kept the seat (until=back) for every later turn of cy's.
    assert acts[:4] == ["@remind cy", "@late cy", "@timeout cy", "@stand-in cy"]
    assert all(a == "@stand-in cy" for a in acts[4:])
    stood = [i for i, m in enumerate(log.moves) if m.move == "@stand-in cy"]
    assert all(log.moves[i + 1].by == "cy" and log.moves[i + 1].comment
               == "played by a stand-in (search:10)" for i in stood)
    report = match.audit(log)
    assert report.passed, report
    # Who was told what: the reminder went to cy alone, the late notice and
    # the stand-in's move to the whole table.
    subjects = {p: [str(m["Subject"]) for m in player.inbox] for p, player in mailed.items()}
    assert sum("Reminder: your move" in s for s in subjects["cy"]) == 1
    assert not any("Reminder" in s for p in ("ann", "bob", "dee") for s in subjects[p])
    for p in players:
        assert any("cy is late" in s for s in subjects[p])
        assert any("A stand-in moved for cy" in s for s in subjects[p])
    # The mails' times follow the injected clock, and the log's stamps with them.
    stamps = [m.at for m in log.moves]
    assert stamps == sorted(stamps) and stamps[0] >= clock.stamp(START)


@pytest.mark.parametrize(("expiry", "ends"), [("forfeit", "forfeited on time"),
                                             ("wait", None)])
def test_forfeit_ends_the_game_and_wait_leaves_it_to_the_organiser(
        tmp_path: Path, smtp: SMTPServer, expiry: str, ends: str | None) -> None:
    roster = timed_table(tmp_path, smtp.port, "atlas", ("ann", "bob", "cy"),
                         f"per-move=10h expiry={expiry}", "f1")
    if ends is not None:
        log, _ = play_with_a_vanishing_player(tmp_path, smtp, roster, "bob", 4,
                                              timedelta(hours=3))
        assert acts_of(log) == ["@timeout bob", "@forfeit bob"][-len(acts_of(log)):] or \
            acts_of(log)[-2:] == ["@timeout bob", "@forfeit bob"]
        assert log.result is not None and log.result.standings[-1].player == "bob"
        assert log.result.details[-1] == f"bob {ends}: ranked last"
        assert match.audit(log).passed
        return
    now = [START]
    ref = postal.MailReferee(tmp_path, now=lambda: now[0].timestamp())
    for hours in range(0, 60, 5):
        now[0] = START + timedelta(hours=hours)
        ref.run_once()
    log = logmod.decode((tmp_path / "games" / "g.json").read_bytes())
    # Under wait: reminded, timed out once, and nothing more while nobody moves.
    assert acts_of(log) == [f"@remind {log.players[0]}", f"@timeout {log.players[0]}"]
    assert log.result is None


def test_a_referee_down_across_deadlines_punishes_nobody(tmp_path: Path,
                                                         smtp: SMTPServer) -> None:
    timed_table(tmp_path, smtp.port, "atlas", ("ann", "bob"), "per-move=10h expiry=forfeit",
                "o1")
    toml = tmp_path / "referee.toml"
    toml.write_text(toml.read_text().replace("outage = 1440", "outage = 60"))
    now = [START]
    ref = postal.MailReferee(tmp_path, now=lambda: now[0].timestamp())
    ref.run_once()  # the referee's first round, then down for three days
    now[0] = START + timedelta(days=3)
    ref = postal.MailReferee(tmp_path, now=lambda: now[0].timestamp())
    ref.run_once()
    log = logmod.decode((tmp_path / "games" / "g.json").read_bytes())
    # The gap is an outage: no clock ran in it, so ann has her 10 hours.
    assert acts_of(log) == ["@outage 2026-03-02T09:00:00Z"]
    assert log.result is None
    for _ in range(21):  # rounds every half hour, as a referee runs: 10.5 h
        now[0] += timedelta(minutes=30)
        ref.run_once()
    log = logmod.decode((tmp_path / "games" / "g.json").read_bytes())
    assert acts_of(log)[1:] == [f"@remind {log.players[0]}", f"@timeout {log.players[0]}",
                                f"@forfeit {log.players[0]}"]
    assert match.audit(log).passed


def test_a_reply_to_the_mail_before_a_reminder_still_counts(tmp_path: Path,
                                                            smtp: SMTPServer) -> None:
    """A reminder changes nothing on the board: the player may answer the
    mail that asked for the move, or the reminder. A stand-in's move does
    change it: a reply to a mail from before it answers a position gone."""
    roster = timed_table(tmp_path, smtp.port, "atlas", ("ann", "bob"),
                         "per-move=10h expiry=stand-in stand-in=random", "r1")
    now = [START]
    ref = postal.MailReferee(tmp_path, now=lambda: now[0].timestamp())
    ref.run_once()
    log = logmod.decode((tmp_path / "games" / "g.json").read_bytes())
    first = log.players[0]
    mover = Player(first, roster[first], random.Random(1))
    mover.collect(smtp.sink)
    asked = mover.inbox[-1]
    now[0] += timedelta(hours=8, minutes=30)
    ref.run_once()
    assert mover.collect(smtp.sink)  # the reminder came
    assert acts_of(logmod.decode((tmp_path / "games" / "g.json").read_bytes())) == [
        f"@remind {first}"]
    vf = view_in(asked)
    deliver(tmp_path, mover.reply(asked, f"move {vf.legal[0]}"))
    now[0] += timedelta(minutes=5)
    ref.run_once()
    log = logmod.decode((tmp_path / "games" / "g.json").read_bytes())
    assert [m.by for m in log.moves] == ["referee", first]
    assert log.moves[-1].move == vf.legal[0]
    # The other player now times out, and a stand-in moves for them...
    second = log.players[1]
    other = Player(second, roster[second], random.Random(2))
    other.collect(smtp.sink)
    stale = next(m for m in reversed(other.inbox) if "Your move" in str(m["Subject"]))
    for _ in range(24):
        now[0] += timedelta(minutes=30)
        ref.run_once()
    log = logmod.decode((tmp_path / "games" / "g.json").read_bytes())
    assert acts_of(log)[-2:] == [f"@timeout {second}", f"@stand-in {second}"]
    # ...and their late reply to the old mail is refused, recording nothing.
    legal = view_in(stale).legal
    deliver(tmp_path, other.reply(stale, f"move {legal[0]}"))
    ref.run_once()
    assert logmod.decode((tmp_path / "games" / "g.json").read_bytes()).moves == log.moves
    other.collect(smtp.sink)
    assert "your mail answers move" in str(other.inbox[-1].get_body().get_content())


def test_the_organiser_acts_at_the_machine_and_every_act_is_in_the_log(
        tmp_path: Path, smtp: SMTPServer) -> None:
    from filelock import FileLock
    from typer.testing import CliRunner

    from adjudicator.cli import app

    roster = timed_table(tmp_path, smtp.port, "atlas", ("ann", "bob"),
                         "per-move=10h expiry=forfeit", "a1")
    runner = CliRunner()

    def admin(*words: str, code: int = 0) -> str:
        r = runner.invoke(app, ["referee", str(tmp_path), "admin", *words])
        assert r.exit_code == code, (words, r.output)
        assert "Traceback" not in r.output
        return r.output

    assert admin("status").startswith("g: move 1, ")
    assert "the organiser paused every clock of the game" in admin("pause", "g")
    assert "(clock paused)" in admin("status")
    # Every player is told, with their view file.
    told = {rcpt[0] for rcpt, _ in smtp.sink.received}
    assert told == set(roster.values())
    admin("resume", "g")
    log = logmod.decode((tmp_path / "games" / "g.json").read_bytes())
    first = log.players[0]
    assert "gave" in admin("extend", "g", first, "24")
    log = logmod.decode((tmp_path / "games" / "g.json").read_bytes())
    assert acts_of(log) == ["@pause", "@resume", f"@extend {first} 24"]
    assert match.audit(log).status == "pending"  # signed and chained; the deal waits
    # Refused with one line, and nothing recorded.
    assert "the clock is not paused" in admin("resume", "g", code=1)
    admin("extend", "nosuch", "ann", "3", code=2)
    admin("fly", "g", code=2)
    assert acts_of(logmod.decode((tmp_path / "games" / "g.json").read_bytes())) == acts_of(log)
    # While a referee runs on the directory, the act waits for its round.
    with FileLock(str(tmp_path / ".referee.lock")):
        assert "Queued as admin/" in admin("pause", "g")
    assert acts_of(logmod.decode((tmp_path / "games" / "g.json").read_bytes())) == acts_of(log)
    postal.MailReferee(tmp_path).run_once()
    log = logmod.decode((tmp_path / "games" / "g.json").read_bytes())
    assert acts_of(log)[-1] == "@pause"
    assert not list((tmp_path / "admin").glob("*.json"))


def test_a_player_mails_an_absence_and_comes_back(tmp_path: Path, smtp: SMTPServer) -> None:
    roster = timed_table(tmp_path, smtp.port, "atlas", ("ann", "bob"),
                         "per-move=24h absence=72h expiry=forfeit", "b1")
    now = [START]
    ref = postal.MailReferee(tmp_path, now=lambda: now[0].timestamp())
    ref.run_once()
    log = logmod.decode((tmp_path / "games" / "g.json").read_bytes())
    first = log.players[0]
    player = Player(first, roster[first], random.Random(3))
    player.collect(smtp.sink)
    deliver(tmp_path, player.reply(player.inbox[-1], "absent 2026-03-03 2026-03-04"))
    now[0] += timedelta(hours=1)
    ref.run_once()
    log = logmod.decode((tmp_path / "games" / "g.json").read_bytes())
    assert acts_of(log) == [f"@absent {first} 2026-03-03T00:00:00Z 2026-03-05T00:00:00Z"]
    # Her clock stops for the two days: due at 09:00 on the 5th, not the 3rd.
    assert clock.timeline(log, first).deadline() == START + timedelta(days=3)
    # Beyond the cap: refused by mail, with the rule, nothing recorded.
    player.collect(smtp.sink)
    deliver(tmp_path, player.reply(player.inbox[-1], "absent 2026-03-10 2026-03-12"))
    now[0] += timedelta(minutes=5)
    ref.run_once()
    player.collect(smtp.sink)
    assert "may be absent 72 hours" in str(player.inbox[-1].get_body().get_content())
    assert acts_of(logmod.decode((tmp_path / "games" / "g.json").read_bytes())) == acts_of(log)
    deliver(tmp_path, player.reply(player.inbox[-2], "back"))
    now[0] += timedelta(minutes=5)
    ref.run_once()
    log = logmod.decode((tmp_path / "games" / "g.json").read_bytes())
    assert acts_of(log)[-1] == f"@back {first}"
    assert clock.timeline(log, first).deadline() == START + timedelta(hours=24)
    assert match.audit(log).status == "pending"


def test_every_mail_of_a_timed_game_carries_the_deadline_for_the_calendar(
        tmp_path: Path, smtp: SMTPServer) -> None:
    """RFC 6047: one event per game and seat (a stable UID), at the
    deadline, its SEQUENCE rising whenever the deadline moves, CANCEL once
    the player has moved; parsed back with the calendar library."""
    from adjudicator import calendars

    roster = timed_table(tmp_path, smtp.port, "atlas", ("ann", "bob"),
                         "per-move=10h expiry=forfeit", "k1")
    now = [START]
    ref = postal.MailReferee(tmp_path, now=lambda: now[0].timestamp())
    ref.run_once()
    log = logmod.decode((tmp_path / "games" / "g.json").read_bytes())
    first, second = log.players
    players = {p: Player(p, roster[p], random.Random(4)) for p in log.players}
    for p in players.values():
        p.collect(smtp.sink)

    def events(p: str) -> list:
        out = []
        for message in players[p].inbox:
            for cal in calendars.read(message):
                (event,) = cal.walk("VEVENT")
                out.append((str(cal["METHOD"]), str(event["UID"]), int(event["SEQUENCE"]),
                            event.decoded("DTSTART"), str(event.get("STATUS"))))
        return out

    (asked,) = events(first)
    assert asked[0] == "REQUEST" and asked[4] == "CONFIRMED"
    assert asked[3] == START + timedelta(hours=10)
    assert events(second)[0][0] == "CANCEL"  # not bob's move: nothing due
    now[0] += timedelta(hours=1)
    ref.request(["extend", "g", first, "5"])  # the organiser gives 5 more hours
    ref.run_once()
    for p in players.values():
        p.collect(smtp.sink)
    moved = events(first)[-1]
    assert moved[:2] == ("REQUEST", asked[1]) and moved[2] > asked[2]  # same event, later
    assert moved[3] == START + timedelta(hours=15)
    # first moves: their event is cancelled, second's is asked for.
    message = players[first].inbox[-1]
    vf = view_in(message)
    deliver(tmp_path, players[first].reply(message, f"move {vf.legal[0]}"))
    now[0] += timedelta(minutes=10)
    ref.run_once()
    for p in players.values():
        p.collect(smtp.sink)
    done = events(first)[-1]
    assert done[0] == "CANCEL" and done[1] == asked[1] and done[2] > moved[2]
    assert done[4] == "CANCELLED"
    due = events(second)[-1]
    assert due[0] == "REQUEST" and due[3] == now[0] + timedelta(hours=10) - timedelta(
        seconds=now[0].second)
    assert calendars.uid("g", second, "club.test") == due[1] != asked[1]
    # The text a player replies to is still the mail's body.
    body = players[second].inbox[-1].get_body(preferencelist=("plain",))
    assert "Your view file" in body.get_content()


def test_games_lists_a_players_games_most_urgent_first(tmp_path: Path,
                                                       smtp: SMTPServer) -> None:
    """lichess's "games waiting on you": one mail, every game of the sender,
    their moves first with the nearest deadline first."""
    from email.message import EmailMessage
    from email.utils import make_msgid

    roster = referee_dir(tmp_path, smtp.port, {
        "slow": ("atlas", ("ann", "bob"), "s1"), "fast": ("atlas", ("ann", "bob"), "s2"),
        "open": ("q-turn", ("ann", "bob"), "s3")})
    # One address for ann, and one for bob, in every game.
    (tmp_path / "roster.toml").write_text("".join(
        f'[{name}]\nann = "ann@players.test"\nbob = "bob@players.test"\n'
        for name in roster), encoding="utf-8")
    for name, hours in (("slow", "48h"), ("fast", "10h")):
        log, secret = match.new_refereed("atlas", ["ann", "bob"], name,
                                         time=clock.parse(f"per-move={hours}"),
                                         started=clock.stamp(START))
        (tmp_path / "games" / f"{name}.json").write_bytes(logmod.encode(log))
        (tmp_path / "games" / f"{name}.secret.json").write_bytes(logmod.encode(secret))
    now = [START]
    ref = postal.MailReferee(tmp_path, now=lambda: now[0].timestamp())
    ref.run_once()
    msg = EmailMessage()
    msg["From"] = "ann <ann@players.test>"
    msg["To"] = "referee@club.test"
    msg["Subject"] = "games"
    msg["Message-ID"] = make_msgid(domain="players.test")
    msg.set_content("games\n")
    deliver(tmp_path, msg.as_bytes())
    ref.run_once()
    ann = Player("ann", "ann@players.test", random.Random(5))
    ann.collect(smtp.sink)
    answer = next(m for m in ann.inbox if str(m["Subject"]) == "Re: games")
    body = answer.get_body(preferencelist=("plain",)).get_content()
    assert max(len(line) for line in body.splitlines()) <= 72
    # One entry per game, folded at 72 columns (continued 6 columns in).
    lines = " ".join(line.strip() if line.startswith("      ") else "\n" + line.strip()
                     for line in body.splitlines() if line.startswith("  ")).split("\n")[1:]
    lines = [line.strip() for line in lines]
    assert [line.split(" ", 1)[0] for line in lines] == ["fast", "slow", "open"]
    assert lines[0].endswith("your move (move 1), due 2026-03-02T19:00:00Z (10h left)")
    assert lines[1].endswith("due 2026-03-04T09:00:00Z (2d left)")
    assert "Q-Turn" in lines[2] and "due" not in lines[2]


def test_observers_follow_an_open_game_and_never_see_a_hand(tmp_path: Path,
                                                            smtp: SMTPServer) -> None:
    """Anyone may follow a game the organiser opened: after every move the
    public view (the spectator's board), never a hand; 'unobserve' stops it,
    and a game not opened is refused."""
    from email.message import EmailMessage
    from email.utils import make_msgid

    from adjudicator import games
    from adjudicator.engine import Style

    roster = referee_dir(tmp_path, smtp.port, {"open": ("atlas", ("ann", "bob"), "w1"),
                                              "closed": ("atlas", ("ann", "bob"), "w2")})
    toml = tmp_path / "referee.toml"
    toml.write_text('observers = ["open"]\n' + toml.read_text())
    ref = postal.MailReferee(tmp_path)
    ref.run_once()

    def ask(words: str) -> None:
        msg = EmailMessage()
        msg["From"] = "Fan <fan@elsewhere.test>"
        msg["To"] = "referee@club.test"
        msg["Subject"] = words
        msg["Message-ID"] = make_msgid(domain="elsewhere.test")
        msg.set_content(words + "\n")
        deliver(tmp_path, msg.as_bytes())
        ref.run_once()

    fan = Player("fan", "fan@elsewhere.test", random.Random(6))
    ask("observe closed")
    fan.collect(smtp.sink)
    assert "not a game open to observers" in fan.inbox[-1].get_body().get_content()
    ask("observe open")
    players = {p: Player(p, a, random.Random(7)) for p, a in roster["open"].items()}
    def one_move() -> None:
        for p in players.values():
            p.collect(smtp.sink)
        log = logmod.decode((tmp_path / "games" / "open.json").read_bytes())
        secret = logmod.decode_secret((tmp_path / "games" / "open.secret.json").read_bytes())
        mover = players[match.replay(match.unlock(log, secret)).to_move()]
        vf = view_in(mover.inbox[-1])
        deliver(tmp_path, mover.reply(mover.inbox[-1], f"move {vf.legal[0]}"))
        ref.run_once()

    for _ in range(4):  # four moves of "open"
        one_move()
    seen = fan.collect(smtp.sink)
    watched = [m for m in fan.inbox if "(observing)" in str(m["Subject"])]
    assert len(watched) == 4 and all(str(m["Subject"]).startswith("[open]") for m in watched)
    # No hand in any of them: the hands of both players, from the secret.
    secret = logmod.decode_secret((tmp_path / "games" / "open.secret.json").read_bytes())
    log = logmod.decode((tmp_path / "games" / "open.json").read_bytes())
    state = match.replay(match.unlock(log, secret)).state
    g = games.get("atlas")
    body = watched[-1].get_body(preferencelist=("plain",)).get_content()
    assert "Hand of" not in body and "Draw pile" in body  # the board, as a spectator sees it
    # Exactly the spectator's board, which the game's view cuts without a
    # hand (and its conformance tests re-deal to prove it).
    public = g.render(g.view(state, None), Style(unicode=False))
    assert public in body.replace("\r", "")
    assert all(g.view(state, seat).hand for seat in (0, 1))  # there were hands to hide
    assert seen
    ask("unobserve open")
    fan.collect(smtp.sink)
    before = len(fan.inbox)
    one_move()
    fan.collect(smtp.sink)
    assert len(fan.inbox) == before  # nothing more after 'unobserve'


def test_a_crash_at_each_step_of_the_clock_acts_each_once_in_order(
        tmp_path: Path, smtp: SMTPServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """The referee comes back after a deadline and its grace both passed:
    a reminder, a late notice, the timeout and the stand-in's move are owed
    at once. It is killed at each step of that round in turn (a fresh copy
    of the directory each time, the journal's test driver); two more starts
    follow. Every act is recorded exactly once, in the order it fell due,
    and every mail about it reaches its players once."""
    from collections import defaultdict

    from test_postal_crash import Crash, crashed_runs

    from mailref import parse

    start = tmp_path / "start"
    timed_table(start, smtp.port, "atlas", ("ann", "bob", "cy"),
                "per-move=10h grace=2h expiry=stand-in stand-in=random", "c1")
    now = [START]
    postal.MailReferee(start, now=lambda: now[0].timestamp()).run_once()
    now[0] = START + timedelta(hours=13)  # everything owed at once (within the outage bound)
    def referee(root: Path) -> postal.MailReferee:
        return postal.MailReferee(root, now=lambda: now[0].timestamp())

    for run in crashed_runs(tmp_path, smtp, monkeypatch, start, Crash(), referee):
        root, sent, at = run.root, run.sent, run.at
        for _ in range(2):
            postal.MailReferee(root, now=lambda: now[0].timestamp()).run_once()
        log = logmod.decode((root / "games" / "g.json").read_bytes())
        acts = acts_of(log)
        mover = acts[0].split(" ")[1]
        assert acts == [f"@remind {mover}", f"@late {mover}", f"@timeout {mover}",
                        f"@stand-in {mover}"], (at, acts)
        assert len(log.moves) == 5 and log.moves[-1].by == mover
        assert not (root / "state" / "pending.json").exists()
        assert not list((root / "spool").glob("*.eml"))
        copies: dict[str, set[bytes]] = defaultdict(set)
        received: dict[str, list[str]] = defaultdict(list)
        for rcpt, data in smtp.sink.received[sent:]:
            message_id = str(parse(data)["Message-ID"])
            copies[message_id].add(data)
            for address in rcpt:
                if message_id not in received[address]:
                    received[address].append(message_id)
        # A copy sent again after a crash is the same mail.
        assert all(len(c) == 1 for c in copies.values())
        # The reminder to the mover alone; the late notice and the stand-in's
        # move to all three.
        counts = sorted(len(ids) for ids in received.values())
        assert counts == [2, 2, 3], (at, counts)
    assert run.at > 8  # the journal, the log, the mails, the state, for each act


def test_a_seat_given_to_a_new_player_mid_game_and_an_ejection(tmp_path: Path,
                                                             smtp: SMTPServer) -> None:
    """'admin replace': the seat keeps its name in the log, the entry says who
    holds it from when, the new player gets the view from then on and moves
    for the seat; the old address no longer can. 'admin eject' ends the game
    with that player last."""
    from typer.testing import CliRunner

    from adjudicator import clock as clocks
    from adjudicator.cli import app

    roster = referee_dir(tmp_path, smtp.port, {"g": ("atlas", ("ann", "bob", "cy"), "z1")})["g"]
    ref = postal.MailReferee(tmp_path)
    ref.run_once()
    runner = CliRunner()
    secret = logmod.decode_secret((tmp_path / "games" / "g.secret.json").read_bytes())
    log = logmod.decode((tmp_path / "games" / "g.json").read_bytes())
    seat = match.replay(match.unlock(log, secret)).to_move()
    r = runner.invoke(app, ["referee", str(tmp_path), "admin", "replace", "g", seat, "Zoë",
                            "zoe@newcomers.test"])
    assert r.exit_code == 0, r.output
    log = logmod.decode((tmp_path / "games" / "g.json").read_bytes())
    assert acts_of(log) == [f"@replace {seat} Zoë"]
    assert clocks.holders(log)[seat] == "Zoë"
    zoe = Player("Zoë", "zoe@newcomers.test", random.Random(8))
    zoe.collect(smtp.sink)
    vf = view_in(zoe.inbox[-1])
    assert vf.player == seat and vf.legal  # the seat's view, now hers
    old = Player(seat, roster[seat], random.Random(9))
    old.collect(smtp.sink)
    stale = next(m for m in reversed(old.inbox) if "Your move" in str(m["Subject"]))
    deliver(tmp_path, old.reply(stale, f"move {vf.legal[0]}"))
    ref = postal.MailReferee(tmp_path)
    ref.run_once()
    assert logmod.decode((tmp_path / "games" / "g.json").read_bytes()).moves == log.moves
    deliver(tmp_path, zoe.reply(zoe.inbox[-1], f"move {vf.legal[-1]}"))
    ref.run_once()
    log = logmod.decode((tmp_path / "games" / "g.json").read_bytes())
    assert log.moves[-1].by == seat and log.moves[-1].move == vf.legal[-1]
    assert match.audit(log).status == "pending"
    # A name already at the table is refused with one line; eject ends the game.
    r = runner.invoke(app, ["referee", str(tmp_path), "admin", "replace", "g", seat, "cy",
                            "cy2@x.test"])
    assert r.exit_code == 1 and "already holds a seat" in r.output
    r = runner.invoke(app, ["referee", str(tmp_path), "admin", "eject", "g", "cy"])
    assert r.exit_code == 0, r.output
    log = logmod.decode((tmp_path / "games" / "g.json").read_bytes())
    assert log.result is not None and log.seed is not None
    assert log.result.standings[-1].player == "cy"
    assert log.result.details[-1] == "cy was put out of the game by the organiser: ranked last"
    assert match.audit(log).passed


def test_the_organiser_acts_by_signed_mail_and_a_forged_from_does_nothing(
        tmp_path: Path, smtp: SMTPServer) -> None:
    """An organiser's act by mail needs their signature: a forged From:, a
    signature by another key, a signature moved to another act and a
    replayed mail (under a new Message-ID) all do nothing."""
    from email.message import EmailMessage
    from email.utils import make_msgid

    from adjudicator import seal
    from adjudicator.postal import organiser

    timed_table(tmp_path, smtp.port, "atlas", ("ann", "bob"), "per-move=10h", "o2")
    key, other = seal.new_signing_key(), seal.new_signing_key()
    # repeat: the same refusal a minute later is answered again (by default
    # the same answer goes to an address once an hour).
    (tmp_path / "referee.toml").write_text(
        f'address = "referee@club.test"\npicture = "svg"\noutage = 1440\nrepeat = 0.5\n'
        f'[organisers]\n"org@club.test" = "{seal.public_key(key)}"\n'
        f'[smtp]\nhost = "127.0.0.1"\nport = {smtp.port}\nsecurity = "none"\n')
    now = [START]
    ref = postal.MailReferee(tmp_path, now=lambda: now[0].timestamp())
    assert dict(ref.config.organisers) == {"org@club.test": seal.public_key(key)}
    ref.run_once()

    def mail(sender: str, body: str) -> None:
        msg = EmailMessage()
        msg["From"] = sender
        msg["To"] = "referee@club.test"
        msg["Subject"] = "admin"
        msg["Message-ID"] = make_msgid(domain="organisers.test")
        msg.set_content(body)
        deliver(tmp_path, msg.as_bytes())
        now[0] += timedelta(minutes=1)
        ref.run_once()

    def acts() -> list[str]:
        return acts_of(logmod.decode((tmp_path / "games" / "g.json").read_bytes()))

    good = organiser.sign(key, "referee@club.test", ["pause", "g"])
    mail("Mallory <org@club.test>", "admin pause g\n")  # a forged From:, no signature
    mail("Mallory <org@club.test>", organiser.sign(other, "referee@club.test", ["pause", "g"]))
    mail("Mallory <mallory@x.test>", good)  # the organiser's signature, another sender
    moved = good.replace("admin pause g", "admin extend g ann 99")
    mail("Org <org@club.test>", moved)  # the signature moved to another act
    assert acts() == []
    mail("Org <org@club.test>", good)
    assert acts() == ["@pause"]
    mail("Org <org@club.test>", good)  # replayed under a new Message-ID
    mail("Org <org@club.test>", organiser.sign(key, "referee@club.test", ["resume", "g"]))
    assert acts() == ["@pause", "@resume"]
    from mailref import parse

    answers = [str(parse(data).get_body(preferencelist=("plain",)).get_content())
               for rcpt, data in smtp.sink.received if "org@club.test" in rcpt]
    assert sum("nothing done" in a for a in answers) == 4  # the forged and moved ones, the replay
    assert any("already taken" in a for a in answers)


def test_the_organiser_orders_a_stand_in_at_the_machine_and_by_signed_mail(
        tmp_path: Path, smtp: SMTPServer) -> None:
    """By signed mail, 'stand-in GAME PLAYER back': a bot plays every turn
    of the seat until the player mails 'back' (under wait, where nothing
    else would). At the machine, 'admin stand-in GAME PLAYER': a bot plays
    the seat's move at once. The revealed log's audit plays every one of
    those moves again."""
    from email.message import EmailMessage
    from email.utils import make_msgid

    from typer.testing import CliRunner

    from adjudicator import seal
    from adjudicator.cli import app
    from adjudicator.postal import organiser

    roster = timed_table(tmp_path, smtp.port, "atlas", ("ann", "bob"),
                         "per-move=10h expiry=wait stand-in=random", "s9")
    key = seal.new_signing_key()
    toml = tmp_path / "referee.toml"
    toml.write_text(toml.read_text().replace(
        "[smtp]", f'[organisers]\n"org@club.test" = "{seal.public_key(key)}"\n[smtp]'))
    now = [START]
    ref = postal.MailReferee(tmp_path, now=lambda: now[0].timestamp())
    ref.run_once()
    secret = logmod.decode_secret((tmp_path / "games" / "g.secret.json").read_bytes())
    log = logmod.decode((tmp_path / "games" / "g.json").read_bytes())
    first = match.replay(match.unlock(log, secret)).to_move()
    second = next(p for p in log.players if p != first)
    msg = EmailMessage()
    msg["From"] = "Org <org@club.test>"
    msg["To"] = "referee@club.test"
    msg["Subject"] = "admin"
    msg["Message-ID"] = make_msgid(domain="organisers.test")
    msg.set_content(organiser.sign(key, "referee@club.test", ["stand-in", "g", second, "back"]))
    deliver(tmp_path, msg.as_bytes())
    now[0] += timedelta(minutes=5)
    ref.run_once()
    log = logmod.decode((tmp_path / "games" / "g.json").read_bytes())
    assert acts_of(log) == [f"@order-stand-in {second} back"]  # first's move: it waits
    p = Player(first, roster[first], random.Random(11))
    for n in (1, 2):  # first answers; the stand-in answers for second at once
        p.collect(smtp.sink)
        mail = p.inbox[-1]
        deliver(tmp_path, p.reply(mail, f"move {view_in(mail).legal[0]}"))
        now[0] += timedelta(minutes=5)
        ref.run_once()
        log = logmod.decode((tmp_path / "games" / "g.json").read_bytes())
        assert acts_of(log)[-1] == f"@stand-in {second}" and log.moves[-1].by == second
        assert acts_of(log).count(f"@stand-in {second}") == n
    # At the machine (stamped by the wall clock, later than the injected one).
    r = CliRunner().invoke(app, ["referee", str(tmp_path), "admin", "stand-in", "g", first])
    assert r.exit_code == 0, r.output
    assert "a stand-in (random) played" in r.output
    log = logmod.decode((tmp_path / "games" / "g.json").read_bytes())
    assert acts_of(log)[-2:] == [f"@order-stand-in {first} move", f"@stand-in {first}"]
    assert log.moves[-1].by == first
    report = match.audit(match.reveal(log, secret))
    assert report.passed, report
    assert "all 3 stand-in moves" in {i.what: i.text for i in report.items}["stand-ins"]


def test_standing_orders_by_mail_are_followed_and_never_leak(tmp_path: Path,
                                                             smtp: SMTPServer) -> None:
    """ann mails standing orders; only she is told what they are, the log
    and every other mail carry their digest alone. Her time runs out: the
    stand-in plays her first legal order. At the end the orders are
    revealed with the seed, and audit checks them and the move."""
    roster = timed_table(tmp_path, smtp.port, "atlas", ("ann", "bob"),
                         "per-move=10h expiry=forfeit stand-in=random", "so1")
    now = [START]
    ref = postal.MailReferee(tmp_path, now=lambda: now[0].timestamp())
    ref.run_once()
    log = logmod.decode((tmp_path / "games" / "g.json").read_bytes())
    first = log.players[0]
    me = Player(first, roster[first], random.Random(12))
    me.collect(smtp.sink)
    legal = view_in(me.inbox[-1]).legal
    # A marker no game's notation reads, then a legal move: the stand-in
    # passes over the first and plays the second.
    deliver(tmp_path, me.reply(me.inbox[-1], f"orders xyzzy-secret-plan, {legal[-1]}"))
    now[0] += timedelta(minutes=5)
    ref.run_once()
    me.collect(smtp.sink)
    told = me.inbox[-1].get_body(preferencelist=("plain",)).get_content()
    assert f"your standing orders: xyzzy-secret-plan, {legal[-1]}" in told.replace("\n| ", " ")
    log = logmod.decode((tmp_path / "games" / "g.json").read_bytes())
    assert acts_of(log)[0].startswith(f"@orders {first} ")
    assert oct((tmp_path / "games" / "g.secret.json").stat().st_mode & 0o777) == "0o600"
    # The organiser orders a stand-in (forfeit is the policy): it follows the orders.
    ref.request(["stand-in", "g", first])
    now[0] += timedelta(minutes=5)
    ref.run_once()
    log = logmod.decode((tmp_path / "games" / "g.json").read_bytes())
    assert log.moves[-2].move == f"@stand-in {first}" and log.moves[-1].move == legal[-1]
    # Nothing but her own mails ever held the orders; nor does the log on disk.
    assert b"xyzzy" not in (tmp_path / "games" / "g.json").read_bytes()
    for rcpt, data in smtp.sink.received:
        if roster[first] not in rcpt:
            assert b"xyzzy" not in data, rcpt
    # The game ends (the other player resigns): the orders are revealed.
    other = next(p for p in log.players if p != first)
    them = Player(other, roster[other], random.Random(13))
    them.collect(smtp.sink)
    deliver(tmp_path, them.reply(them.inbox[-1], "resign"))
    now[0] += timedelta(minutes=5)
    ref.run_once()
    log = logmod.decode((tmp_path / "games" / "g.json").read_bytes())
    assert log.result is not None and log.orders[0].text == f"xyzzy-secret-plan, {legal[-1]}"
    report = match.audit(log)
    assert report.passed, report
    assert {i.what for i in report.items} >= {"standing orders", "stand-ins"}


def digest_club(root: Path, port: int, default: str = "false", hour: int = 8) -> None:
    """Two timed Atlas games of ann and bob (ann to move in both), one
    address each; the digest from 08:00 in Stockholm."""
    referee_dir(root, port, {"slow": ("atlas", ("ann", "bob"), "d1"),
                             "fast": ("atlas", ("ann", "bob"), "d2")})
    (root / "roster.toml").write_text("".join(
        f'[{name}]\nann = "ann@players.test"\nbob = "bob@players.test"\n'
        for name in ("slow", "fast")), encoding="utf-8")
    for name, hours in (("slow", "48h"), ("fast", "10h")):
        log, secret = match.new_refereed("atlas", ["ann", "bob"], name,
                                         time=clock.parse(f"per-move={hours}"),
                                         started=clock.stamp(START))
        (root / "games" / f"{name}.json").write_bytes(logmod.encode(log))
        (root / "games" / f"{name}.secret.json").write_bytes(logmod.encode(secret))
    toml = root / "referee.toml"
    toml.write_text("outage = 1440\n" + toml.read_text().replace(
        "[smtp]", f'[digest]\ndefault = {default}\nhour = {hour}\nzone = "Europe/Stockholm"\n[smtp]'))


def command_mail(sender: str, words: str) -> bytes:
    from email.message import EmailMessage
    from email.utils import make_msgid

    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = "referee@club.test"
    msg["Subject"] = words
    msg["Message-ID"] = make_msgid(domain="players.test")
    msg.set_content(words + "\n")
    return msg.as_bytes()


def test_the_daily_digest_goes_once_a_day_to_who_asked(tmp_path: Path,
                                                       smtp: SMTPServer) -> None:
    """lichess's daily digest: 'digest on' by mail; then one mail a day, at
    the first round from 08:00 in the organiser's zone, listing the
    player's games with whose move and the time left, only on a day a game
    waits on them; 'digest off' stops it."""
    digest_club(tmp_path, smtp.port)
    now = [START]  # 10:00 in Stockholm
    ref = postal.MailReferee(tmp_path, now=lambda: now[0].timestamp())
    ref.run_once()
    ann = Player("ann", "ann@players.test", random.Random(14))
    bob = Player("bob", "bob@players.test", random.Random(15))

    def digests(p: Player) -> list[str]:
        p.collect(smtp.sink)
        return [m.get_body(preferencelist=("plain",)).get_content() for m in p.inbox
                if str(m["Subject"]).startswith("Your games, ")]

    assert digests(ann) == []  # off by default
    deliver(tmp_path, command_mail("ann@players.test", "digest on"))
    deliver(tmp_path, command_mail("bob@players.test", "digest on"))
    for minutes in (5, 60, 600):  # rounds through the day: one digest
        now[0] = START + timedelta(minutes=minutes)
        ref.run_once()
    (first,) = digests(ann)
    lines = [line for line in first.splitlines() if line.startswith("  ")]
    assert lines[0] == "  fast (Atlas: Enchanted Lands): your move (move 1), due"
    assert lines[1].strip() == "2026-03-02T19:00:00Z (9h 55m left)"
    assert max(len(line) for line in first.splitlines()) <= 72
    assert digests(bob) == []  # nothing waits on bob: no mail that day
    # The next day: not before 08:00 in Stockholm (07:00Z), then once.
    now[0] = datetime(2026, 3, 3, 6, 50, tzinfo=UTC)
    ref.run_once()
    assert len(digests(ann)) == 1
    now[0] = datetime(2026, 3, 3, 7, 5, tzinfo=UTC)
    ref.run_once()
    ref.run_once()
    assert len(digests(ann)) == 2
    assert "overdue" in digests(ann)[-1]  # fast's 10 hours ran out yesterday
    deliver(tmp_path, command_mail("ann@players.test", "digest off"))
    ref.run_once()
    now[0] = datetime(2026, 3, 4, 7, 5, tzinfo=UTC)
    ref.run_once()
    assert len(digests(ann)) == 2
    deliver(tmp_path, command_mail("ann@players.test", "digest weekly"))
    ref.run_once()
    ann.collect(smtp.sink)
    assert "digest on, or digest off" in ann.inbox[-1].get_body().get_content()


def test_the_daily_digest_is_sent_once_across_crashes(tmp_path: Path, smtp: SMTPServer,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """With the digest on for everyone (referee.toml), the referee is killed
    at each step of the round that sends it; two more starts follow: ann
    gets it exactly once."""

    from test_postal_crash import Crash, crashed_runs

    start = tmp_path / "start"
    digest_club(start, smtp.port, default="true", hour=11)
    now = [START]  # 10:00 in Stockholm: not yet
    postal.MailReferee(start, now=lambda: now[0].timestamp()).run_once()
    now[0] = START + timedelta(hours=1, minutes=5)
    def referee(root: Path) -> postal.MailReferee:
        return postal.MailReferee(root, now=lambda: now[0].timestamp())

    for run in crashed_runs(tmp_path, smtp, monkeypatch, start, Crash(), referee):
        root, sent, at = run.root, run.sent, run.at
        for _ in range(2):
            postal.MailReferee(root, now=lambda: now[0].timestamp()).run_once()
        got = {data for rcpt, data in smtp.sink.received[sent:]
               if rcpt == ["ann@players.test"] and b"Subject: Your games, " in data}
        # One digest (a copy sent again after a crash in the SMTP step is
        # the same mail, which the Message-ID lets a mail client drop).
        assert len(got) == 1, at
    assert run.at > 3
