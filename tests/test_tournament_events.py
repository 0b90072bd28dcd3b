"""Issue #27's two events, played to the end by bots through the referee
by mail: 9 players of Atlas at 3-player tables over 3 rounds (a round
robin), and 10 players of 15 Days at tables of 4 and 3 (Swiss by score).

The organiser works as the README's "Running a tournament" says, through
the library the commands are made of, on an injected clock (nothing
sleeps): ``tournament new`` writes the file and the event's key, each
round is seated and its games started (``tournament round``), and the
referee (``referee --once``, restarted for each round to read the roster)
mails every player on the real SMTP fixture. Every player is a bot with a
mail client: it reads only its own mail, and answers the newest mail that
asks for its move by quoting it, the move chosen from the view file in it
(as ``adjudicator hint`` does; cheap levels, random and greedy). One
player never answers: the referee's clock forfeits their game (Atlas) or
hands their seat to a stand-in until they are back (15 Days); another
resigns by mail in round 2.

Every round of Atlas goes by mail. A 15 Days game is about 220 entries, so
its event by mail is in the long volume (``ADJUDICATOR_VOLUME=long``); by
default its round 1 goes by mail whole and rounds 2 and 3 through the
library's referee calls (the same logs, made faster). After every round the
standings are recomputed from audited logs. Then one result is tampered
with (listed as disputed, with the audit's first finding), the event
archived, the archive audited, and the ratings rebuilt from the archive
alone: identical.
"""

from __future__ import annotations

import json
import zipfile
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email import message_from_bytes
from email.message import EmailMessage, Message
from email.utils import make_msgid
from pathlib import Path

import pytest
from typer.testing import CliRunner

from adjudicator import actions, bots, clock, log as logmod, mailparse, match, postal, referee
from adjudicator.cli import app
from adjudicator.log import ViewFile
from adjudicator.tournament import archive, event, rounds
from mailref import SMTPServer, Sink, deliver
from volume import LONG

START = datetime(2026, 3, 2, 9, tzinfo=UTC)
runner = CliRunner()
NAMES = ("ann", "bob", "cy", "dee", "eve", "fay", "gus", "hal", "ivy", "jo")
#: How long a bot takes to answer, and how far the clock goes when nobody
#: could answer (only the player who never answers is waited for).
ANSWER = timedelta(minutes=10)
WAIT = timedelta(hours=13)


def setup_event(root: Path, port: int, game: str, n: int, tables: str, time: str) -> tuple[event.Tournament, str]:
    """The organiser's steps 1 to 3: the players, the tournament file and
    the event's key (``tournament new``), the mail referee's directory."""
    (root / "players.txt").write_text("".join(f"{p} {p}@players.test\n" for p in NAMES[:n]))
    run("tournament", "new", root, "--name", f"Test {game}", "--id", "ev", "--game", game,
        "--players", root / "players.txt", "--rounds", 3, "--tables", tables, "--seed", "s1",
        "--time", time)
    ref = root / "referee"
    ref.mkdir()
    # No picture (nobody looks at one here), and a mail only when it is
    # the player's move (what a bot needs; the moves between are in it).
    (ref / "referee.toml").write_text(
        f'address = "referee@club.test"\npoll = 0.1\npicture = "none"\nmail = "turn"\n'
        f'outage = 1440\n[smtp]\nhost = "127.0.0.1"\nport = {port}\nsecurity = "none"\n')
    return event.load(root), rounds.read_key(root / event.KEY_FILE)


@dataclass
class MailBot:
    """A player who reads their own mail and plays with a bot: the newest
    mail that shows them to move is answered once, by quoting it, with the
    move ``level`` chooses from the view file in its text (``resign`` once,
    instead, when ``resigning``). The mail is read as a mail client reads
    it (the email package's plain Message: this test reads thousands)."""

    name: str
    address: str
    level: str
    seen: int = 0
    answered: set[str] = field(default_factory=set)
    resigning: bool = False

    def answer(self, sink: Sink, referee_dir: Path) -> bool:
        with sink.lock:
            mine = [data for rcpt, data in sink.received if self.address in rcpt]
        new, self.seen = mine[self.seen:], len(mine)
        for data in reversed(new):  # the newest first: an older one is answered by it
            message = message_from_bytes(data)
            body = next(part.get_payload(decode=True).decode("ascii") for part in message.walk()
                        if part.get_content_type() == "text/plain" and not part.get_filename())
            views = [f.value for f in mailparse.extract_all(body) if isinstance(f.value, ViewFile)]
            if not views:
                continue
            vf, key = views[0], str(message["Message-ID"])
            if vf.to_move != self.name or not vf.legal or key in self.answered:
                return False
            self.answered.add(key)
            if self.resigning:
                self.resigning = False
                line = "resign"
            else:
                move = actions.hint(actions.Found(vf, "json"), "mail", level=self.level,
                                    seed=key)[3].move
                line = f"move {move}"
            deliver(referee_dir, self.reply(message, body, line))
            return True
        return False

    def reply(self, to: Message, body: str, line: str) -> bytes:
        """As a mail client answers: the command on top, the mail quoted."""
        quoted = "\n".join(("> " + text).rstrip() for text in body.splitlines())
        msg = EmailMessage()
        msg["From"] = f"{self.name} <{self.address}>"
        msg["To"] = str(to["From"])
        msg["Subject"] = "Re: " + str(to["Subject"])
        msg["Message-ID"] = make_msgid(domain="players.test")
        msg["In-Reply-To"] = msg["References"] = str(to["Message-ID"])
        msg.set_content(f"{line}\n\nOn {to['Date']}, the referee wrote:\n{quoted}\n",
                        cte="quoted-printable")
        return msg.as_bytes()


def by_mail(t: event.Tournament, root: Path, smtp: SMTPServer, players: dict[str, MailBot],
            gone: str, now: datetime, number: int) -> datetime:
    """Round ``number``, just seated, played to its end by mail: the
    referee's rounds (``referee --once``), each followed by the bots'
    answers; the clock goes on by :data:`ANSWER` after a round in which
    someone answered, else by :data:`WAIT` (so that the clock acts for
    ``gone``, who never answers). Returns the clock at the end."""
    clock_ = [now]
    ref_dir = rounds.referee_dir(t, root)
    ref = postal.MailReferee(ref_dir, now=lambda: clock_[0].timestamp())  # restarted: the new roster
    names = [name for name, r, _, _ in rounds.event_logs(t, ref_dir / "games") if r == number]
    for _ in range(2000):
        ref.run_once()
        if all(ref.log(name).result is not None for name in names):
            return clock_[0]
        moved = [p.answer(smtp.sink, ref_dir) for p in players.values() if p.name != gone]
        clock_[0] += ANSWER if any(moved) else WAIT
    raise AssertionError(f"round {number} did not end")


def by_library(t: event.Tournament, root: Path, number: int, now: datetime,
               resign: str | None = None, step: timedelta = timedelta(minutes=30)) -> datetime:
    """Play round ``number`` to its end through the library's referee calls,
    a random bot in every seat; ``resign`` resigns at their first turn."""
    games = root / "referee" / "games"
    for name, r, _, log in rounds.event_logs(t, games):
        if r != number:
            continue
        secret = logmod.decode_secret((games / f"{name}.secret.json").read_bytes())
        rep = match.validate(match.unlock(log, secret))
        if log.started is not None:
            now = max(now, clock.parse_stamp(log.started))
        while rep.seat() is not None:
            now += step
            who = rep.players[rep.seat()]  # type: ignore[index]
            if who == resign:
                rep = match.record(rep.log, ["@resign"], as_player=who, sign=False, replayed=rep,
                                   at=clock.stamp(now))
                resign = None
                continue
            move = bots.move_for(rep.game, rep.state, log.params, log.players, level="random",
                                 seed=str(len(rep.log.moves)))
            rep = match.record(rep.log, [move], sign=False, replayed=rep, at=clock.stamp(now))
        final = referee.signed(match.reveal(match.publish(rep.log, log), secret), secret)
        (games / f"{name}.json").write_bytes(logmod.encode(final))
    return now


def run(*args: object, code: int = 0) -> str:
    r = runner.invoke(app, [str(a) for a in args])
    assert r.exit_code == code, (args, r.stdout, r.stderr)
    return r.stdout if code == 0 else r.stderr


@pytest.mark.parametrize(("game", "n", "tables", "time", "gone", "shown", "mailed"), [
    ("atlas", 9, "3", "per-move=12h expiry=forfeit", "eve", "forfeited on time", (1, 2, 3)),
    ("fifteen-days", 10, "4,3", "per-move=12h expiry=stand-in stand-in=random until=back",
     # By mail in the long volume only (about 600 moves a round): the
     # README's command plays it through the library's referee calls.
     "cy", "a stand-in moved", (1, 2, 3) if LONG else ()),
])
def test_an_event_played_to_the_end(tmp_path: Path, smtp: SMTPServer, game: str, n: int,
                                    tables: str, time: str, gone: str, shown: str,
                                    mailed: tuple[int, ...]) -> None:
    t, key = setup_event(tmp_path, smtp.port, game, n, tables, time)
    games = tmp_path / "referee" / "games"
    players = {p: MailBot(p, a, ("greedy", "random")[i % 2]) for i, (p, a) in enumerate(t.players.items())}
    now = START
    seen_tables = []
    for number in (1, 2, 3):
        seated = rounds.start_round(t, tmp_path, key, now=now)
        seen_tables.append(seated)
        assert sorted([*(p for table in seated.tables for p in table), *seated.byes]) == sorted(t.players)
        if number in mailed:
            # ann resigns at her first turn from round 2 (in round 3 if her
            # round 2 game ended first, its vanished player forfeiting)
            players["ann"].resigning |= number == 2
            now = by_mail(t, tmp_path, smtp, players, gone, now, number)
        else:
            now = by_library(t, tmp_path, number, now, resign="ann" if number == 2 else None)
        s = rounds.current(t, rounds.event_logs(t, games))
        assert s.seated == number and s.finished == number
        # Every game of the round audited and counted.
        assert [g.status for g in s.games] == ["counted"] * len(s.games), s.games
        now += timedelta(hours=1)
    if game == "atlas":
        assert all(r.method == "round-robin" for r in seen_tables)
        met = [frozenset((a, b)) for r in seen_tables for tb in r.tables for a in tb for b in tb if a < b]
        assert len(met) == len(set(met)) == 27  # nobody meets anybody twice
    else:
        assert all(sorted(map(len, r.tables)) == [3, 3, 4] for r in seen_tables)
    s = rounds.current(t, rounds.event_logs(t, games))
    rows = {r.player: r for r in s.rows}
    assert rows["ann"].resigned == 1
    if mailed:  # the vanished player is one who never answers their mail
        assert any(shown in note for g in s.games for note in g.notes)
    if game == "atlas":
        assert rows[gone].forfeits == 3  # in every round
    elif mailed:
        assert rows[gone].stand_ins >= 1
    # Every game mailed was played by mail: each move of a player who answers
    # came in a mail the referee filed, and none was put aside.
    ref_dir = tmp_path / "referee"
    filed = ref_dir / "Maildir" / "cur"
    handled = len(list(filed.iterdir())) if filed.exists() else 0
    moved = sum(1 for _, r, _, log in rounds.event_logs(t, games) if r in mailed
                for m in log.moves if m.by in t.players and m.by != gone)
    assert handled == moved and (moved > 0 or not mailed)
    assert not (ref_dir / "quarantine").exists()
    assert [r.place for r in s.rows] == sorted(r.place for r in s.rows)
    text = run("tournament", "standings", tmp_path, "--ascii")
    assert all(len(line) <= 72 and line.isascii() and not line.startswith(">")
               for line in text.splitlines())
    # The archive: audited and validated as a whole, standings and ratings
    # rebuilt from it identical.
    zipped = tmp_path / "event.zip"
    run("tournament", "archive", tmp_path, "-o", zipped)
    assert "secret" not in " ".join(zipfile.ZipFile(zipped).namelist())
    run("audit", zipped)
    run("validate", "--jobs", "2", zipped)
    rebuilt, stored = archive.rebuild(zipped)
    assert rebuilt.ratings == stored.ratings and len(stored.ratings) == 3 * sum(
        len(tb) for tb in seen_tables[0].tables)
    assert rebuilt == stored
    # Across events: the same archive twice is two events in a row, the
    # second rated from where the first left every player.
    across = archive.ratings_across([zipped, zipped])[game]
    assert across[:len(stored.ratings)] == stored.ratings and len(across) == 2 * len(stored.ratings)
    run("tournament", "standings", zipped)
    schema = json.loads((Path(__file__).resolve().parent.parent / "notation" / "schemas"
                         / "standings.schema.json").read_text())
    import jsonschema

    jsonschema.Draft202012Validator(schema).validate(
        json.loads(run("tournament", "standings", tmp_path, "--json")))
    # An archive whose log was changed after it was packed: its standings
    # no longer rebuild, and audit says which log.
    bent = tmp_path / "bent.zip"
    with zipfile.ZipFile(zipped) as z, zipfile.ZipFile(bent, "w") as out:
        for item in z.namelist():
            data = z.read(item)
            if item == f"games/{s.games[0].name}.json":
                data = data.replace(b'"place": 1', b'"place": 2', 1)
            out.writestr(item, data)
    assert "differ from those rebuilt" in run("tournament", "standings", bent, code=1)
    run("audit", bent, code=1)
    # A tampered result: the last table's winner put last, the referee's
    # signature left as it was.
    name = s.games[-1].name
    data = json.loads((games / f"{name}.json").read_text())
    data["result"]["standings"].reverse()
    (games / f"{name}.json").write_text(json.dumps(data))
    after = rounds.current(t, rounds.event_logs(t, games))
    (judged,) = [g for g in after.games if g.name == name]
    assert judged.status == "disputed"
    assert judged.finding is not None and judged.finding.startswith("signatures: ")
    assert sum(r.games for r in after.rows) == sum(r.games for r in s.rows) - len(judged.players)
    assert "disputed: signatures" in run("tournament", "standings", tmp_path, "--ascii")


def readme_steps() -> list[str]:
    """The commands of the README's "Running a tournament", in order."""
    import re

    text = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    section = text.split("\n## Running a tournament\n", 1)[1].split("\n## ", 1)[0]
    return [line.strip() for block in re.findall(r"```sh\n(.*?)```", section, re.S)
            for line in block.splitlines() if line.strip()]


def test_the_readme_steps_run_an_event_as_written(tmp_path: Path, smtp: SMTPServer,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Every command of the README's steps, run as written in a fresh
    directory (the players between rounds are the library's bots)."""
    import shlex

    monkeypatch.chdir(tmp_path)
    (tmp_path / "players.txt").write_text("# the README's players\n" + "".join(
        f"{p} {p}@example.org\n" for p in NAMES[:9]))
    steps = readme_steps()
    assert [s.split()[:3] for s in steps][:2] == [["adjudicator", "tournament", "new"],
                                                   ["adjudicator", "tournament", "round"]]
    for command in steps:
        args = shlex.split(command)[1:]
        if args[:2] == ["tournament", "round"]:
            t = event.load(tmp_path / "club-atlas")
            assert t.time == "per-move=3d grace=1d expiry=stand-in stand-in=greedy"
            # Every round of the event: each seated by the README's command,
            # its games then played to the end (on the wall clock: the
            # command starts the games now).
            for number in (1, 2, 3):
                run(*args)
                by_library(t, tmp_path / "club-atlas", number, START, step=timedelta(seconds=1))
            continue
        run(*args)
        if args[:2] == ["tournament", "new"]:  # step 3: the referee's directory
            ref = tmp_path / "club-atlas" / "referee"
            ref.mkdir()
            (ref / "referee.toml").write_text(
                f'address = "referee@club.test"\npicture = "none"\n[smtp]\nhost = "127.0.0.1"\nport = {smtp.port}\n'
                'security = "none"\n')
    assert (tmp_path / "site" / "index.html").is_file() and (tmp_path / "club-atlas.zip").is_file()
    assert len(list((tmp_path / "site" / "replays").glob("*.html"))) == 9


def test_the_readme_edits_of_the_tournament_file_are_read(tmp_path: Path) -> None:
    """Step 2's two TOML blocks: the first lists lines the file already
    holds (edited, not added: a key twice is an error), the second is added
    at its end for the 15 Days event, and is read."""
    import re

    text = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    section = text.split("\n## Running a tournament\n", 1)[1].split("\n## ", 1)[0]
    held, added = [re.sub(r"(?m)^   ", "", b) for b in re.findall(r"```toml\n(.*?)```", section, re.S)]
    (tmp_path / "players.txt").write_text("".join(f"{p} {p}@example.org\n" for p in NAMES))
    run("tournament", "new", tmp_path / "club", "--name", "Club 15 Days", "--id", "fd26", "--game",
        "fifteen-days", "--players", tmp_path / "players.txt", "--rounds", 3, "--tables", "4,3",
        "--seed", "spring")
    written = (tmp_path / "club" / event.FILE).read_text()
    for line in held.splitlines():
        assert line.split("#")[0].strip() in written.splitlines()
    (tmp_path / "club" / event.FILE).write_text(written + "\n" + added)
    t = event.load(tmp_path / "club")
    assert t.params == {"first-player": "seat-0"} and t.points == {3: (6, 3, 0), 4: (6, 4, 2, 0)}
