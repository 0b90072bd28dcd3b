"""Issue #27's two events, played to the end by bots: 9 players of Atlas at
3-player tables over 3 rounds (a round robin), and 10 players of 15 Days at
4- and 3-player tables (Swiss by score).

Round 1 of each goes through the referee by mail on the real SMTP fixture,
on an injected clock (nothing sleeps): every player reads their mail and
answers with a random listed move, except one who never answers and whose
seat the referee's clock hands to a stand-in (15 Days) or forfeits (Atlas).
Rounds 2 and 3 are played through the library's referee calls, as fast as
CI needs (a round by mail takes seconds; the mail path is the same for every
round). After every round the standings are recomputed from audited logs.
Then one result is tampered with (listed as disputed, with the audit's first
finding), the event archived, the archive audited, and the ratings rebuilt
from the archive alone: identical.
"""

from __future__ import annotations

import json
import random
import zipfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from typer.testing import CliRunner

from adjudicator import bots, clock, log as logmod, mailparse, match, postal, referee
from adjudicator.cli import app
from adjudicator.log import ViewFile
from adjudicator.tournament import archive, event, rounds
from mailref import Player, SMTPServer, deliver

START = datetime(2026, 3, 2, 9, tzinfo=UTC)
runner = CliRunner()
NAMES = ("ann", "bob", "cy", "dee", "eve", "fay", "gus", "hal", "ivy", "jo")


def setup_event(root: Path, port: int, game: str, n: int, tables: str, time: str) -> tuple[event.Tournament, str]:
    key = rounds.new_key()
    players = "\n".join(f'{p} = "{p}@players.test"' for p in NAMES[:n])
    t = event.parse(f'name = "Test {game}"\nid = "ev"\ngame = "{game}"\nseed = "s1"\nrounds = 3\n'
                    f'tables = {tables}\ntime = "{time}"\nkey = "{key.public}"\n'
                    f'[players]\n{players}\n')
    (root / event.FILE).write_text(event.dump(t))
    ref = root / "referee"
    ref.mkdir()
    (ref / "referee.toml").write_text(
        f'address = "referee@club.test"\npoll = 0.1\npicture = "none"\noutage = 1440\n'
        f'[smtp]\nhost = "127.0.0.1"\nport = {port}\nsecurity = "none"\n')
    return t, key.private


def view_in(message) -> ViewFile | None:  # type: ignore[no-untyped-def]
    found = [f.value for f in mailparse.extract_all(message.as_bytes()) if isinstance(f.value, ViewFile)]
    return found[0] if found else None


def by_mail(t: event.Tournament, root: Path, smtp: SMTPServer, gone: str, now: datetime,
            until: int) -> datetime:
    """Play the round just seated by mail until every game is over or has
    ``until`` entries, and the clock has acted for ``gone`` (who never
    answers): a forfeit, or a stand-in's move. (The deal is the referee's
    secret, new each run: when ``gone`` first moves varies.)"""

    def acted(log: logmod.Log) -> bool:
        moves = [m.move for m in log.moves]
        return (log.result is not None or f"@forfeit {gone}" in moves
                or any(m == f"@stand-in {gone}" for m in moves[:-1]))

    ref = postal.MailReferee(root / "referee", now=lambda: clock_[0].timestamp())
    clock_ = [now]
    players = {p: Player(p, a, random.Random(p)) for p, a in t.players.items()}
    answered: set[str] = set()
    games = root / "referee" / "games"
    for _ in range(3000):
        ref.run_once()
        logs = rounds.event_logs(t, games)
        if all((log.result is not None or len(log.moves) >= until)
               and (gone not in log.players or acted(log)) for _, _, _, log in logs):
            return clock_[0]
        for p in players.values():
            p.collect(smtp.sink)
            if p.name == gone or not p.inbox:
                continue
            newest = p.inbox[-1]
            if str(newest["Message-ID"]) in answered:
                continue
            answered.add(str(newest["Message-ID"]))
            if "Your move" not in str(newest["Subject"]):  # read only what asks for a move
                continue
            vf = view_in(newest)
            if vf is not None and vf.legal and vf.to_move == p.name:
                deliver(root / "referee", p.reply(newest, f"move {p.rng.choice(vf.legal)}"))
        clock_[0] += timedelta(hours=5)
    raise AssertionError("the round did not end")


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


@pytest.mark.parametrize(("game", "n", "tables", "time", "gone", "shown", "until"), [
    ("atlas", 9, "[3]", "per-move=12h expiry=forfeit", "eve", "forfeited on time", 6),
    ("fifteen-days", 10, "[4, 3]", "per-move=12h expiry=stand-in stand-in=random",
     "cy", "a stand-in moved", 8),
])
def test_an_event_played_to_the_end(tmp_path: Path, smtp: SMTPServer, game: str, n: int,
                                    tables: str, time: str, gone: str, shown: str,
                                    until: int) -> None:
    t, key = setup_event(tmp_path, smtp.port, game, n, tables, time)
    games = tmp_path / "referee" / "games"
    now = START
    seen_tables = []
    for number in (1, 2, 3):
        seated = rounds.start_round(t, tmp_path, key, now=now)
        seen_tables.append(seated)
        assert sorted(p for table in seated.tables for p in table) + list(seated.byes) != []
        assert sorted([*(p for table in seated.tables for p in table), *seated.byes]) == sorted(t.players)
        if number == 1:
            now = by_mail(t, tmp_path, smtp, gone, now, until)
        now = by_library(t, tmp_path, number, now, resign="ann" if number == 2 else None)
        s = rounds.current(t, rounds.event_logs(t, games))
        assert s.seated == number and s.finished == number
        # Every game of the round audited and counted.
        assert [g.status for g in s.games] == ["counted"] * len(s.games), s.games
    if game == "atlas":
        assert all(r.method == "round-robin" for r in seen_tables)
        met = [frozenset((a, b)) for r in seen_tables for tb in r.tables for a in tb for b in tb if a < b]
        assert len(met) == len(set(met)) == 27  # nobody meets anybody twice
    else:
        assert all(sorted(map(len, r.tables)) == [3, 3, 4] for r in seen_tables)
    s = rounds.current(t, rounds.event_logs(t, games))
    rows = {r.player: r for r in s.rows}
    assert any(shown in note for g in s.games for note in g.notes)
    assert rows["ann"].resigned == 1
    if game == "atlas":
        assert rows[gone].forfeits >= 1
    else:
        assert rows[gone].stand_ins >= 1
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
