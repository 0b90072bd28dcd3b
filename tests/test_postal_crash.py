"""The referee by mail survives being killed (issue #15, "exactly once,
crash-safe"): ``adjudicator referee`` runs as a process that is killed with
SIGKILL at random moments while two games are played against it in one
directory, with the SMTP server down for stretches; after the restarts every
game finishes, every move is recorded once and every player got every mail.

The journal's promise (:mod:`adjudicator.postal.service`): a crash at any step of
carrying out a message leaves either nothing done or a journal the next start
finishes, each step done twice to the same result; mail leaves only once its
move is recorded, and a mail sent again after a crash is the same mail (the
same Message-ID). The tests after the first take each step in turn in one
process: a crash there, then a write that fails there; and the names the
referee gives its files, which a sender's Message-ID must not break.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from email.message import Message
from pathlib import Path

import pytest

from adjudicator import log as logmod, mailparse, match, postal
from adjudicator.log import Log, ViewFile

from mailref import Player, SMTPServer, body_of, deliver, parse, referee_dir

ATLAS = ("atlas", ("ann", "bob", "cy"), "crash-atlas")
QTURN = ("q-turn", ("dee", "eve", "fay"), "crash-qturn")
QTURN_PARAMS = {"round-limit": 4}  # a short game: at most 12 moves


def make_club(root: Path, port: int) -> dict[str, dict[str, str]]:
    """An Atlas game of three and a short Q-Turn game of three in one referee
    directory."""
    roster = referee_dir(root, port, {"atlas": ATLAS, "qturn": QTURN})
    game_id, players, seed = QTURN
    log, secret = match.new_refereed(game_id, list(players), seed=seed, params=QTURN_PARAMS)
    (root / "games" / "qturn.json").write_bytes(logmod.encode(log))
    (root / "games" / "qturn.secret.json").write_bytes(logmod.encode(secret))
    return roster


class Seat(Player):
    """A player who remembers, for each mail, the view file in it, and
    answers each position once: the most advanced mail asking for their move
    (a mail sent again after a crash may arrive after a newer one)."""

    def __init__(self, name: str, address: str, rng: random.Random) -> None:
        super().__init__(name, address, rng)
        self.views: list[tuple[Message, ViewFile | None]] = []
        self.answered = -1
        self.sent: list[str] = []  # the moves this player mailed, in order

    def collect(self, sink) -> list[Message]:  # type: ignore[no-untyped-def]
        new = super().collect(sink)
        for message in new:
            found = [f.value for f in mailparse.extract_all(body_of(message))
                     if isinstance(f.value, ViewFile)]
            self.views.append((message, max(found, key=lambda vf: len(vf.log.moves))
                               if found else None))
        return new

    def over(self) -> bool:
        return any(vf is not None and vf.log.result is not None for _, vf in self.views)

    def move(self) -> bytes | None:
        """A reply with a move, when the newest position asks for one."""
        known = [(len(vf.log.moves), i) for i, (_, vf) in enumerate(self.views) if vf is not None]
        if not known:
            return None
        ply, i = max(known)
        message, vf = self.views[i]
        if ply <= self.answered or vf.legal is None or vf.log.result is not None:
            return None
        self.answered = ply
        chosen = self.rng.choice(vf.legal)
        self.sent.append(chosen)
        return self.reply(message, f"move {chosen}")


REFEREE = (sys.executable, "-m", "adjudicator", "referee")


def referee_process(root: Path, out) -> subprocess.Popen:  # type: ignore[no-untyped-def]
    return subprocess.Popen([*REFEREE, str(root), "--poll", "0.05"], stdout=out,
                            stderr=subprocess.STDOUT, env={**os.environ, "PYTHONUNBUFFERED": "1"})


def start_up_time() -> float:
    """How long the command takes to start on this machine, now."""
    started = time.monotonic()
    subprocess.run([*REFEREE, "--help"], capture_output=True, check=True)
    return time.monotonic() - started


def idle(root: Path) -> bool:
    """Nothing left to do: no journal, no mail in the spool or in Maildir/new."""
    return (not (root / "state" / "pending.json").exists()
            and not list((root / "spool").glob("*.eml"))
            and not any((root / "Maildir" / "new").iterdir()))


def test_referee_killed_at_random_points_finishes_every_game_exactly_once(
        tmp_path: Path, smtp: SMTPServer) -> None:
    """``adjudicator referee DIR`` killed with SIGKILL again and again while
    an Atlas game and a Q-Turn game are played in DIR at once, with the SMTP
    server down now and then: every game ends, each move mailed is in its
    log once, and each player was sent every position (a mail sent twice is
    the same mail) and the end of the game. The moments come from a seeded
    generator; how far the referee gets before each kill depends on the
    machine, which is the point: no moment may be unsafe."""
    root = tmp_path / "club"
    roster = make_club(root, smtp.port)
    seats = {name: {p: Seat(p, address, random.Random(f"{name}:{p}"))
                    for p, address in players.items()}
             for name, players in roster.items()}
    everyone = [seat for game in seats.values() for seat in game.values()]
    chaos = random.Random(15)  # when to kill the referee and when the server is down
    output = (tmp_path / "referee.out").open("ab")
    proc: subprocess.Popen | None = None
    kills = outages = journals = 0
    born = 0.0
    kill_at, start_up, slack = 0.0, start_up_time(), 0.0
    toggle_at = time.monotonic() + chaos.uniform(0.5, 2.0)
    deadline = progress = time.monotonic()
    deadline += 150

    def where() -> str:
        output.flush()
        tail = (tmp_path / "referee.out").read_text(errors="replace")[-3000:]
        return f"after {kills} kills and {outages} outages; referee said:\n{tail}"

    try:
        while not all(seat.over() for seat in everyone):
            now = time.monotonic()
            assert now < deadline, f"the games did not finish {where()}"
            if proc is None:
                proc = referee_process(root, output)
                # Some kills land while it starts, most while it works; lives
                # grow longer while none gets anywhere (a loaded machine).
                born, grace = now, start_up + slack
                kill_at = now + chaos.uniform(0.05, 1.0) + grace * (chaos.random() < 0.8)
            elif proc.poll() is not None:
                pytest.fail(f"the referee stopped by itself with {proc.returncode} {where()}")
            elif now >= kill_at:
                proc.send_signal(signal.SIGKILL)
                proc.wait()
                proc, kills = None, kills + 1
                journals += (root / "state" / "pending.json").exists()
                slack = 0.0 if progress >= born else min(slack + 0.25, 3.0)
                continue
            if now >= toggle_at:
                if smtp.controller is not None:
                    smtp.stop()
                    outages += 1
                    toggle_at = now + chaos.uniform(0.2, 1.0)
                else:
                    smtp.start()
                    toggle_at = now + chaos.uniform(1.0, 3.0)
            if sum(len(seat.collect(smtp.sink)) for seat in everyone):
                progress = now
            # Kills and outages are short: a long silence is a lost mail.
            assert now - progress < 30, f"no mail for 30 s: one was lost {where()}"
            for seat in everyone:
                reply = seat.move()
                if reply is not None:
                    deliver(root, reply)
            time.sleep(0.02)
        # The games are over: one last kill (the referee may be waiting on a
        # connection the stopped server left open), then the referee run as
        # cron would run it, left to finish its work in peace.
        if smtp.controller is None:
            smtp.start()
        if proc is not None:
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            proc, kills = None, kills + 1
        for _ in range(3):
            once = subprocess.run([*REFEREE, str(root), "--once"], stdout=output,
                                  stderr=subprocess.STDOUT, timeout=60)
            assert once.returncode == 0, where()
            if idle(root):
                break
    finally:
        if proc is not None:
            proc.kill()
            proc.wait()
        output.close()
    for seat in everyone:
        seat.collect(smtp.sink)

    assert kills >= 8 and outages >= 2, where()
    # Nothing is left half done: no journal, no mail waiting or refused, no
    # message unhandled or put aside.
    assert not (root / "state" / "pending.json").exists()
    assert not list((root / "spool").rglob("*.eml"))
    assert not (root / "quarantine").exists()
    assert not any((root / "Maildir" / "new").iterdir())
    sent_ids = {str(m["Message-ID"]) for seat in everyone for m, _ in seat.views}
    journal = (root / "referee.log").read_text()
    assert "changed under the referee" not in journal and "quarantine" not in journal

    for name, game in seats.items():
        final = logmod.decode((root / "games" / f"{name}.json").read_bytes())
        # The referee revealed the seed at the end: anyone can check the game.
        assert final.result is not None and final.seed is not None
        report = match.audit(final)
        assert report.passed, report
        match.validate(final)
        # Every move mailed is in the log once, in the order mailed: players
        # take turns, so the log's entries by each player are their mails.
        for player, seat in game.items():
            assert [e.move for e in final.moves if e.by == player] == seat.sent, player
        assert len(final.moves) == sum(len(seat.sent) for seat in game.values())
        for player, seat in game.items():
            about: dict[int, set[str]] = defaultdict(set)
            copies: dict[str, set[bytes]] = defaultdict(set)
            for message, vf in seat.views:
                assert vf is not None, f"{player} got mail without a view: {body_of(message)}"
                assert vf.player == player and vf.log.commitment == final.commitment
                about[len(vf.log.moves)].add(str(message["Message-ID"]))
                copies[str(message["Message-ID"])].add(message.as_bytes())
            # Each position told once, to each player; a mail sent again after
            # a kill or an outage is the same mail, with the same Message-ID.
            assert sorted(about) == list(range(len(final.moves) + 1)), player
            assert all(len(ids) == 1 for ids in about.values()), (player, dict(about))
            assert all(len(c) == 1 for c in copies.values()), player
            last = [m for m, vf in seat.views if vf is not None and vf.log.result is not None]
            assert last and all("Game over" in str(m["Subject"]) for m in last)
    # Nor is anything left behind in the referee's own directories by a
    # write a kill cut short (files.write's temporary copies).
    assert sorted(p.name for p in (root / "spool").iterdir()) == []
    # The referee's database (and, while it is open, its write-ahead log).
    assert {p.name for p in (root / "state").iterdir()} <= {
        "referee.sqlite", "referee.sqlite-wal", "referee.sqlite-shm"}
    resent = sum(len(seat.views) for seat in everyone) - len(sent_ids)
    print(f"start-up {start_up:.2f} s; {kills} kills ({journals} left a journal), "
          f"{outages} outages, {resent} mails sent again")


# --- each step of carrying out a journal, in one process ------------------------------------


class Crash(BaseException):
    """The process dies here: nothing after it runs, no handler catches it."""


class Faults:
    """Counts the steps that change the referee's directory (every rename,
    which is how :func:`files.write` commits a file and how a message is
    filed, and the removal of a file) and makes the ``at``-th one fail."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, error: BaseException) -> None:
        self.count, self.at, self.error, self.steps = 0, None, error, []
        real_replace, real_unlink = os.replace, Path.unlink

        def step(what: str) -> None:
            self.count += 1
            self.steps.append(what)
            if self.count == self.at:
                raise self.error

        def replace(src, dst, *args, **kwargs):  # type: ignore[no-untyped-def]
            step(f"rename {Path(dst).name}")
            return real_replace(src, dst, *args, **kwargs)

        def unlink(path: Path, *args, **kwargs):  # type: ignore[no-untyped-def]
            step(f"remove {path.name}")
            return real_unlink(path, *args, **kwargs)

        monkeypatch.setattr(os, "replace", replace)
        monkeypatch.setattr(Path, "unlink", unlink)

    def arm(self, at: int | None) -> None:
        self.count, self.at, self.steps = 0, at, []


def first_move(root: Path, smtp: SMTPServer,
               roster: dict[str, dict[str, str]]) -> tuple[bytes, str]:
    """A referee that announced the Atlas game, and the first player's reply
    with a move (not delivered yet); returns it and who sent it."""
    postal.MailReferee(root).run_once()
    for player, address in roster["atlas"].items():
        seat = Seat(player, address, random.Random(player))
        seat.collect(smtp.sink)
        reply = seat.move()
        if reply is not None:
            return reply, player
    raise AssertionError("nobody is asked for a move")


def check_once(root: Path, smtp: SMTPServer, roster: dict[str, str], before: Log, mover: str,
               sent: int) -> None:
    """The move is in the log once, every player was sent the new position
    once (a copy sent again is the same mail), and nothing is left to do."""
    log = logmod.decode((root / "games" / "atlas.json").read_bytes())
    assert log.moves[:-1] == before.moves and log.moves[-1].by == mover
    assert not (root / "state" / "pending.json").exists()
    assert not list((root / "spool").glob("*.eml"))
    assert not (root / "quarantine").exists()
    assert not any((root / "Maildir" / "new").iterdir())
    assert len(list((root / "Maildir" / "cur").iterdir())) == 1
    ids: dict[str, set[str]] = defaultdict(set)
    copies: dict[str, set[bytes]] = defaultdict(set)
    for rcpt, data in smtp.sink.received[sent:]:
        message_id = str(parse(data)["Message-ID"])
        copies[message_id].add(data)
        for address in rcpt:
            ids[address].add(message_id)
    assert set(ids) == set(roster.values()) and all(len(i) == 1 for i in ids.values()), ids
    assert all(len(c) == 1 for c in copies.values())


@dataclass(frozen=True)
class Run:
    """One faulty run of :func:`crashed_runs`: the copy of the directory it
    ran on, how many mails the server had before it, the steps it took and
    the step made to fail."""

    root: Path
    sent: int
    steps: list[str]
    at: int


def crashed_runs(tmp_path: Path, smtp: SMTPServer, monkeypatch: pytest.MonkeyPatch,
                 start: Path, error: BaseException,
                 referee: Callable[[Path], postal.MailReferee] = postal.MailReferee,
                 ) -> Iterator[Run]:
    """A referee's round on a fresh copy of ``start`` with ``error`` raised
    at its first step, then on another copy at its second, and so on until
    a run meets no step left to fail. Yields each :class:`Run` as the faulty
    round left it: the caller starts the next referees on it and checks."""
    faults = Faults(monkeypatch, error)
    at = 1
    while True:
        root = tmp_path / f"step-{at}"
        shutil.copytree(start, root)
        sent = len(smtp.sink.received)
        faults.arm(at)
        try:
            referee(root).run_once()
        except (Exception, Crash):  # noqa: BLE001 - the referee may stop; the test is what is left
            pass
        hit = faults.count >= at
        steps = list(faults.steps)
        faults.arm(None)
        yield Run(root, sent, steps, at)
        if not hit:
            return
        at += 1


def each_step(tmp_path: Path, smtp: SMTPServer, monkeypatch: pytest.MonkeyPatch,
              error: BaseException) -> Iterator[tuple[Path, list[str]]]:
    """Handle one move with ``error`` raised at its first step, then, on a
    fresh copy of the directory, at its second, and so on until a run meets
    no step left to fail: the journal, the log, each mail into the spool,
    the state, filing the message, removing the journal, sending each mail.

    Yields each copy and the steps taken, as the faulty run left them; then
    two more referees start on the copy, and the move must be recorded once,
    every player sent the new position once, and nothing be left to do."""
    start = tmp_path / "start"
    roster = make_club(start, smtp.port)
    reply, mover = first_move(start, smtp, roster)
    deliver(start, reply)
    before = logmod.decode((start / "games" / "atlas.json").read_bytes())
    for run in crashed_runs(tmp_path, smtp, monkeypatch, start, error):
        yield run.root, run.steps
        postal.MailReferee(run.root).run_once()
        postal.MailReferee(run.root).run_once()  # a third start has nothing left to do
        check_once(run.root, smtp, roster["atlas"], before, mover, run.sent)
    # Every step of a message was tried: the journal, the log, the three
    # mails into the spool, the state, filing, removing the journal, and
    # sending (removing each mail from the spool).
    assert run.at > 10, run.steps


def test_a_crash_at_each_step_is_finished_by_the_next_start(
        tmp_path: Path, smtp: SMTPServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """A crash at each step of handling a move: the next referee on the
    directory finishes the work, and the move is recorded once."""
    for _root, _steps in each_step(tmp_path, smtp, monkeypatch, Crash()):
        pass


def test_a_failed_write_at_each_step_loses_no_move(
        tmp_path: Path, smtp: SMTPServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """A write that fails once (a full disk, say) at each step of handling a
    move: the referee may stop with an error, but the move is not blamed on
    the player's mail (put aside in quarantine/) and the next start records
    it once."""
    for root, steps in each_step(tmp_path, smtp, monkeypatch,
                                 OSError(28, "No space left on device")):
        assert not (root / "quarantine").exists(), f"a failed {steps[-1]} put the move aside"


def test_a_write_cut_short_leaves_nothing_behind(tmp_path: Path, smtp: SMTPServer) -> None:
    """A referee killed inside :func:`files.write` leaves the temporary copy
    it was writing (``.NAME.XXXXXXXX.tmp``, never renamed): the next start
    clears those of its own directories, so the spool holds only mail."""
    root = tmp_path / "club"
    make_club(root, smtp.port)
    postal.MailReferee(root).run_once()
    for stale in ("spool/.msg:<1.2@players.test>-000.eml.k3j4h5g6.tmp",
                  "state/.pending.json.a1b2c3d4.tmp", "state/.state.json.q9w8e7r6.tmp"):
        (root / stale).write_bytes(b"half a file")
    postal.MailReferee(root).run_once()
    assert sorted(p.name for p in (root / "spool").iterdir()) == []
    # The referee's database (and, while it is open, its write-ahead log).
    assert {p.name for p in (root / "state").iterdir()} <= {
        "referee.sqlite", "referee.sqlite-wal", "referee.sqlite-shm"}


@pytest.mark.parametrize("message_id", ["<move/1@players.test>", f"<{'x' * 300}@players.test>"],
                         ids=["a slash", "300 characters"])
def test_any_message_id_can_name_its_mail_in_the_spool(tmp_path: Path, smtp: SMTPServer,
                                                       message_id: str) -> None:
    """Mail in the spool is named after the message it answers, whose
    Message-ID is the sender's to choose (RFC 5322 allows '/' in it, and any
    length): a mail from a player's address (easy to forge) with such an id
    is answered once, and the referee goes on refereeing."""
    root = tmp_path / "club"
    roster = make_club(root, smtp.port)
    postal.MailReferee(root).run_once()
    ann = Seat("ann", roster["atlas"]["ann"], random.Random(0))
    ann.collect(smtp.sink)
    message, _ = ann.views[-1]
    show = parse(ann.reply(message, "show"))
    show.replace_header("Message-ID", message_id)
    deliver(root, show.as_bytes())
    postal.MailReferee(root).run_once()
    postal.MailReferee(root).run_once()
    answers = [m for m in ann.collect(smtp.sink) if str(m["In-Reply-To"]) == message_id]
    assert len(answers) == 1 and "Your move" in str(answers[0]["Subject"])
    reply, mover = first_move(root, smtp, roster)
    deliver(root, reply)
    postal.MailReferee(root).run_once()
    log = logmod.decode((root / "games" / "atlas.json").read_bytes())
    assert [e.by for e in log.moves] == [mover]
    assert not (root / "state" / "pending.json").exists()
