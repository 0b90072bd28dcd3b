"""The referee by mail end to end (issue #15's "done when"): players who have
only a mail client play complete refereed games against ``adjudicator
referee``, over a real SMTP server on localhost and a real Maildir, and the
result passes ``audit``.

Each player reads only the mails sent to them and answers the newest one
that asks for their move, quoting it as a mail client does, with a move
chosen from the legal moves the mail lists. Nobody runs a command.
"""

from __future__ import annotations

import random
from email.message import Message
from pathlib import Path

from typer.testing import CliRunner

from adjudicator import log as logmod, mailparse, match, postal, referee
from adjudicator.cli import app
from adjudicator.log import Log, ViewFile

from mailref import Player, SMTPServer, body_of, deliver, referee_dir


def check_mail(message: Message, player: str, name: str, root: Path) -> ViewFile:
    """What every mail to a player must be: 72-column ASCII text, their own
    view file in the body (issued by the referee, current when sent), the
    public log attached in the text form, and a picture."""
    body = body_of(message)
    assert body.isascii()
    assert max(map(len, body.splitlines())) <= 72
    assert str(message["Auto-Submitted"]).startswith("auto-")
    views = [f.value for f in mailparse.extract_all(body) if isinstance(f.value, ViewFile)]
    assert len(views) == 1 and views[0].player == player
    referee.check_view(views[0])
    files = {part.get_filename(): part for part in message.iter_attachments()}
    assert set(files) == {f"{name}.txt", "board.svg"}
    public = mailparse.extract(files[f"{name}.txt"].get_content())
    assert isinstance(public, Log) and public.moves == views[0].log.moves
    match.check_public(public)
    assert files["board.svg"].get_content().lstrip().startswith((b"<svg", b"<?xml"))
    return views[0]


def play(root: Path, smtp: SMTPServer, name: str, roster: dict[str, str], seed: int,
         run_referee) -> dict[str, Player]:
    """Play game ``name`` to the end by mail; returns the players."""
    rng = random.Random(seed)
    players = {p: Player(p, address, random.Random(f"{seed}{p}")) for p, address in roster.items()}
    answered: set[str] = set()
    for _ in range(2000):
        run_referee()
        for p in players.values():
            for message in p.collect(smtp.sink):
                check_mail(message, p.name, name, root)
        if all(any("Game over" in str(m["Subject"]) for m in p.inbox) for p in players.values()):
            return players
        moved = False
        for p in players.values():
            newest = p.inbox[-1] if p.inbox else None
            if newest is None or str(newest["Message-ID"]) in answered:
                continue
            vf = [f.value for f in mailparse.extract_all(newest.as_bytes())
                  if isinstance(f.value, ViewFile)][0]
            if vf.legal:
                answered.add(str(newest["Message-ID"]))
                first = f"move {rng.choice(vf.legal)}"
                deliver(root, p.reply(newest, first))
                moved = True
        assert moved, "nobody had a move to answer: the referee sent no mail asking for one"
    raise AssertionError("the game did not end")


def finished(root: Path, name: str) -> Log:
    log = logmod.decode((root / "games" / f"{name}.json").read_bytes())
    assert log.result is not None and log.seed is not None, "the referee reveals the seed at the end"
    report = match.audit(log)
    assert report.passed, report
    return log


def test_three_players_play_fifteen_days_by_mail_alone(tmp_path: Path, smtp: SMTPServer) -> None:
    roster = referee_dir(tmp_path, smtp.port, {"spring": ("fifteen-days", ("ann", "bob", "cy"),
                                                          "mail-15d")})
    ref = postal.MailReferee(tmp_path)
    players = play(tmp_path, smtp, "spring", roster["spring"], 15, ref.run_once)
    log = finished(tmp_path, "spring")
    # Every decision came in a mail; each player's last mail is the final position.
    for p in players.values():
        last = p.inbox[-1]
        assert "Game over" in str(last["Subject"])
        assert check_mail(last, p.name, "spring", tmp_path).log.moves == log.moves
    assert not list((tmp_path / "spool").iterdir())
    assert not (tmp_path / "state" / "pending.json").exists()


def test_three_players_play_atlas_by_mail_with_the_command_line_referee(
        tmp_path: Path, smtp: SMTPServer) -> None:
    roster = referee_dir(tmp_path, smtp.port, {
        "cup-1": ("atlas", ("ann", "Ελένη", "José"), "mail-atlas"),
    })
    runner = CliRunner()

    def run_referee() -> None:
        result = runner.invoke(app, ["referee", str(tmp_path), "--once"])
        assert result.exit_code == 0, result.output
        assert "refused" not in result.output and "ignored" not in result.output, result.output

    import signal

    # Whatever this process had (a shell may start it with Ctrl-C ignored).
    before = signal.getsignal(signal.SIGINT)
    play(tmp_path, smtp, "cup-1", roster["cup-1"], 7, run_referee)
    assert signal.getsignal(signal.SIGINT) is before, \
        "the referee gives Ctrl-C back to the process that ran it"
    log = finished(tmp_path, "cup-1")
    assert len(log.moves) > 20


def readme_section(title: str = "## A referee by mail") -> str:
    """A section of the README, to the next of its level. The setup of a
    referee ends where "Running a tournament by mail" begins (its own test)."""
    text = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    level = title.split(" ", 1)[0]
    section = text.split(title, 1)[1].split(f"\n{level} ", 1)[0]
    return section.split("\n### Running a tournament by mail", 1)[0]


def test_the_readme_tournament_commands_work_as_written(tmp_path: Path, monkeypatch) -> None:
    """"Running a tournament by mail": its games with a time control start,
    and the organiser's commands act on them (the servers replaced by a
    closed port: the mails wait in the spool)."""
    import re
    import shlex

    section = readme_section("### Running a tournament by mail")
    commands = [line.strip() for block in re.findall(r"```sh\n(.*?)```", section, re.S)
                for line in block.splitlines() if line.strip()]
    assert any("--time" in c for c in commands) and any(" admin " in c for c in commands)
    monkeypatch.chdir(tmp_path)
    club = tmp_path / "club"
    (club / "games").mkdir(parents=True)
    runner = CliRunner()
    names: list[str] = []
    for command in commands:
        words = shlex.split(command)
        assert words[0] == "adjudicator", command
        if words[1] == "referee" and not (club / "roster.toml").exists():
            (club / "referee.toml").write_text(
                'address = "referee@club.example"\n[smtp]\nhost = "127.0.0.1"\nport = 9\n'
                'security = "none"\n', encoding="utf-8")
            lines = []
            for name in names:
                players = logmod.decode((club / "games" / f"{name}.json").read_bytes()).players
                lines += [f"[{name}]", *(f'{p} = "{p}.{name}@example.org"' for p in players)]
            (club / "roster.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")
        result = runner.invoke(app, words[1:])
        assert result.exit_code == 0, (command, result.output)
        if words[1] == "new":
            names.append(Path(words[-1]).stem)
    log = logmod.decode((club / "games" / "cup-3.json").read_bytes())
    assert [m.move for m in log.moves] == ["@pause", "@resume", "@extend ann 24",
                                           "@replace bob zoe", "@order-stand-in cy back"]
    assert log.time is not None and log.time.expiry == "stand-in"


def test_the_readme_setup_works_as_written(tmp_path: Path, monkeypatch) -> None:
    """The README's steps, run in order: its commands, its referee.toml and
    roster.toml. Only the servers are replaced by a closed port on this
    machine (this test may not reach the network): the first round then
    keeps every mail in the spool and says so, as a real outage would."""
    import os
    import re
    import shlex
    import socket

    section = readme_section()
    commands = [line.strip() for block in re.findall(r"```sh\n(.*?)```", section, re.S)
                for line in block.splitlines() if line.strip()]
    config, roster = re.findall(r"```toml\n(.*?)```", section, re.S)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("ADJUDICATOR_SMTP_PASSWORD", "not a real password")
    monkeypatch.setenv("ADJUDICATOR_IMAP_PASSWORD", "not a real password")
    runner = CliRunner()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        closed = s.getsockname()[1]  # nobody listens once the socket is closed
    ran = []
    for command in commands:
        words = shlex.split(command)
        if words[0] == "mkdir":
            os.makedirs(words[-1], exist_ok=True)
            continue
        assert words[0] == "adjudicator", command
        if words[1] == "referee":
            config_text = config
            (tmp_path / "club" / "referee.toml").write_text(config_text, encoding="utf-8")
            (tmp_path / "club" / "roster.toml").write_text(roster, encoding="utf-8")
            loaded = postal.load_config(tmp_path / "club")
            assert loaded.smtp.password == "not a real password" and loaded.imap is not None
            local = re.sub(r'host = "[^"]+"', 'host = "127.0.0.1"', config_text)
            local = re.sub(r"port = \d+", f"port = {closed}", local)
            local = local.replace("[imap]", f"[imap]\nport = {closed}\nsecurity = \"none\"")
            local = local.replace('security = "starttls"', 'security = "none"')
            (tmp_path / "club" / "referee.toml").write_text(local, encoding="utf-8")
        result = runner.invoke(app, words[1:])
        assert result.exit_code == 0, (command, result.output)
        ran.append(result.output)
    assert "mails wait in the spool" in ran[-1] and "IMAP:" in ran[-1]
    waiting = list((tmp_path / "club" / "spool").glob("*.eml"))
    assert len(waiting) == 6, "the starting position, to each player of both games"


def test_sigterm_stops_the_referee_cleanly_and_one_referee_runs_per_directory(
        tmp_path: Path, smtp: SMTPServer) -> None:
    import os
    import signal
    import subprocess
    import sys
    import time

    referee_dir(tmp_path, smtp.port, {"g": ("q-turn", ("ann", "bob"), "term")})
    command = [sys.executable, "-m", "adjudicator", "referee", str(tmp_path), "--poll", "0.1"]
    service = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        deadline = time.monotonic() + 60
        while len(smtp.sink.received) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(smtp.sink.received) == 2, "the starting position, to each player"
        second = subprocess.run([*command[:-2], "--once"], capture_output=True, text=True,
                                timeout=60)
        assert second.returncode == 1
        assert second.stderr.strip() == f"Error: {tmp_path}: another referee is running on it"
        service.send_signal(signal.SIGTERM)
        out, err = service.communicate(timeout=30)
        assert service.returncode == 0, err
        assert b"Traceback" not in err
    finally:
        if service.poll() is None:
            service.kill()
            service.wait()
    again = subprocess.run([*command[:-2], "--once"], capture_output=True, text=True, timeout=60)
    assert again.returncode == 0, again.stderr
    assert len(smtp.sink.received) == 2, "nothing changed, nothing sent again"
