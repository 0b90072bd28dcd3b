"""The referee trusted less (issue #25, "Files", "Configuration", "Denial of
service"): what it writes holding a hand is its owner's alone whatever the
umask, it says when others may read a password or a secret, it sends no
password in clear across a network, a symlinked lock file empties nothing,
and strangers' long Message-IDs do not grow its files without bound."""

from __future__ import annotations

import json
import os
import smtplib
import stat
import sys
import time
from collections.abc import Iterator
from email.message import EmailMessage
from pathlib import Path

import pytest
from typer.testing import CliRunner

sys.path.insert(0, str(Path(__file__).resolve().parent))

from mailref import deliver, referee_dir  # noqa: E402

from adjudicator import files, log as logmod, match, postal  # noqa: E402
from adjudicator.cli import app  # noqa: E402
from adjudicator.postal import service, store  # noqa: E402

PLAYERS = ("ann", "bob")


@pytest.fixture(params=[0o022, 0o002, 0o077], ids=["umask022", "umask002", "umask077"])
def umask(request) -> Iterator[int]:
    old = os.umask(request.param)
    try:
        yield request.param
    finally:
        os.umask(old)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def refused(sender: str, to: list[str], data: bytes) -> None:
    raise smtplib.SMTPRecipientsRefused({a: (550, b"no such user") for a in to})


def down(sender: str, to: list[str], data: bytes) -> None:
    raise OSError("the server is down")


def a_mail(message_id: str, text: str = "help") -> bytes:
    msg = EmailMessage()
    msg["From"] = "stranger@elsewhere.test"
    msg["To"] = "referee@club.test"
    msg["Subject"] = "hello"
    msg["Message-ID"] = message_id
    msg.set_content(text + "\n")
    return msg.as_bytes()


def test_what_holds_a_hand_is_the_referees_alone(tmp_path: Path, umask: int) -> None:
    root = tmp_path / "club"
    referee_dir(root, 25, {"g1": ("q-turn", PLAYERS, "harden-1")})
    for secret in (root / "games").glob("*.secret.json"):
        secret.chmod(0o600)
    ref = postal.MailReferee(root, send=refused, now=lambda: 1_800_000_000.0)
    ref.run_once()  # the starting positions: refused for good, into spool/failed
    assert list((root / "spool" / "failed").glob("*.eml"))
    ref.spool.put("waiting.eml", a_mail("<waiting@club.test>"))
    ref.send = down
    ref.run_once()  # kept in the spool
    assert list((root / "spool").glob("*.eml"))
    # A request waiting, a journal half carried out, a message put aside.
    name = ref.request(["resume", "g1"])
    files.write(str(root / "state" / "pending.json"), b"{}", private=True)
    deliver(root, a_mail("<aside@elsewhere.test>"))
    (waiting,) = ref.waiting()
    ref.maildir.put_aside(waiting, root / "quarantine")
    assert (root / "admin" / name).exists()
    for sub in ("spool", "spool/failed", "state", "admin", "quarantine", "Maildir/new",
                "Maildir/cur"):
        assert mode(root / sub) == 0o700 & ~umask, sub
        for path in (root / sub).iterdir():
            if path.is_file():
                assert mode(path) & ~(0o600 & ~umask) == 0, (path, oct(mode(path)))
                assert mode(path) & 0o077 == 0, path
    assert mode(root / "referee.log") == 0o600 & ~umask
    # What is not a hand honours the umask, and is never looser than it.
    files.write(str(tmp_path / "public.txt"), b"x")
    assert mode(tmp_path / "public.txt") == 0o666 & ~umask


def test_view_files_and_replies_are_the_players_alone(tmp_path: Path, umask: int) -> None:
    log, secret = match.new_refereed("q-turn", list(PLAYERS), seed="harden-2")
    g, s = tmp_path / "g.json", tmp_path / "g.secret.json"
    g.write_bytes(logmod.encode(log))
    s.write_bytes(logmod.encode(secret))
    runner = CliRunner()
    for player in PLAYERS:
        out = tmp_path / f"{player}.json"
        r = runner.invoke(app, ["view", str(g), "--secret", str(s), "--as", player, "-o",
                                str(out)])
        assert r.exit_code == 0, r.output
        assert mode(out) == 0o600
    mover = next(p for p in PLAYERS
                 if json.loads((tmp_path / f"{p}.json").read_bytes()).get("legal"))
    legal = json.loads((tmp_path / f"{mover}.json").read_bytes())["legal"]
    mine = tmp_path / f"{mover}.json"
    r = runner.invoke(app, ["extend", str(mine), legal[0]])
    assert r.exit_code == 0, r.output
    assert mode(mine) == 0o600  # rewritten, never loosened
    reply = tmp_path / "reply.json"
    r = runner.invoke(app, ["extend", str(g), "--secret", str(s), "--from", str(mine),
                            "--reply", str(reply)])
    assert r.exit_code == 0, r.output
    assert mode(reply) == 0o600
    copy = tmp_path / "copy.txt"
    r = runner.invoke(app, ["convert", str(reply), "--to", "text", "-o", str(copy)])
    assert r.exit_code == 0, r.output
    assert mode(copy) == 0o600


def test_a_secret_or_password_others_may_read_is_warned_of_once(tmp_path: Path, capsys) -> None:
    root = tmp_path / "club"
    referee_dir(root, 25, {"g1": ("q-turn", PLAYERS, "harden-3")})
    secret = root / "games" / "g1.secret.json"
    secret.chmod(0o644)
    password = root / "smtp.password"
    password.write_text("hunter2\n")
    password.chmod(0o640)
    with (root / "referee.toml").open("a") as f:
        f.write('password_file = "smtp.password"\n')
    ref = postal.MailReferee(root, send=lambda *_: None, now=lambda: 1_800_000_000.0)
    assert ref.config.smtp is not None and ref.config.smtp.password == "hunter2"
    ref.run_once()
    ref.run_once()  # still working, and nothing said twice
    err = capsys.readouterr().err.splitlines()
    assert err == [f"warning: {password} is readable by others: chmod 600 {password}",
                   f"warning: {secret} is readable by others: chmod 600 {secret}"]
    log = (root / "referee.log").read_text()
    assert log.count("is readable by others") == 2
    secret.chmod(0o600)
    password.chmod(0o600)
    postal.MailReferee(root, send=lambda *_: None).run_once()
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("host", ["mail.example.org", "192.0.2.7", "localhost.example.org"])
@pytest.mark.parametrize("section", ["smtp", "imap"])
def test_no_login_in_clear_to_another_machine(tmp_path: Path, host: str, section: str) -> None:
    (tmp_path / "referee.toml").write_text(
        f'address = "referee@club.test"\n[{section}]\nhost = "{host}"\nsecurity = "none"\n')
    with pytest.raises(postal.ConfigError) as e:
        postal.load_config(tmp_path, environ={})
    assert f"[{section}]" in str(e.value) and "in clear" in str(e.value)
    assert "\n" not in str(e.value)


@pytest.mark.parametrize("host", ["localhost", "127.0.0.1", "::1", "LOCALHOST"])
def test_no_encryption_is_fine_on_this_machine(tmp_path: Path, host: str) -> None:
    (tmp_path / "referee.toml").write_text(
        f'address = "referee@club.test"\n[smtp]\nhost = "{host}"\nsecurity = "none"\n'
        f'[imap]\nhost = "{host}"\nsecurity = "none"\n')
    config = postal.load_config(tmp_path, environ={})
    assert config.smtp is not None and config.smtp.security == "none"


def test_a_symlinked_lock_file_empties_nothing(tmp_path: Path) -> None:
    """Someone who may write beside a log plants its lock file as a link to
    a file of the referee's: taking the lock must not empty that file
    (filelock opens the lock with O_NOFOLLOW since 3.20.1)."""
    log = tmp_path / "game.json"
    log.write_bytes(b"before")
    victim = tmp_path / "victim.txt"
    victim.write_bytes(b"precious")
    os.symlink(victim, files.lock_path(str(log)))
    try:
        files.update(str(log), b"before", b"after")
    except files.AdjudicatorError:
        assert log.read_bytes() == b"before"  # refused: nothing recorded
    assert victim.read_bytes() == b"precious"


def test_long_message_ids_do_not_grow_the_referees_files(tmp_path: Path) -> None:
    root = tmp_path / "club"
    referee_dir(root, 25, {"g1": ("q-turn", PLAYERS, "harden-4")})
    ref = postal.MailReferee(root, send=lambda *_: None, now=lambda: 1_800_000_000.0)
    ref.run_once()
    log = root / "referee.log"
    sizes = ref.store.count(), log.stat().st_size
    first = a_mail(f"<{'x' * 100_000}-0@elsewhere.test>")
    for i in range(40):
        deliver(root, a_mail(f"<{'x' * 100_000}-{i}@elsewhere.test>"))
    ref.run_once()
    assert len(list((root / "Maildir" / "cur").iterdir())) == 40
    # Each is remembered by a digest of fixed size, never by its 100,000 characters.
    assert ref.store.count() - sizes[0] == 40
    for path in (root / "state").iterdir():
        assert b"x" * 1000 not in path.read_bytes(), path
    assert log.stat().st_size - sizes[1] < 40 * 1200
    assert all(line.startswith("2027-01-15T08:00:00Z ") for line in log.read_text().splitlines())
    # Delivered again, after a restart: known, and filed unread.
    ref = postal.MailReferee(root, send=lambda *_: None)
    deliver(root, first)
    (line,) = [x for x in ref.run_once() if "already handled" in x]
    assert len(line) < 300
    assert len(list((root / "Maildir" / "cur").iterdir())) == 41


def test_state_of_an_earlier_version_is_read(tmp_path: Path) -> None:
    root = tmp_path / "club"
    referee_dir(root, 25, {"g1": ("q-turn", PLAYERS, "harden-5")})
    (root / "state").mkdir()
    (root / "state" / "state.json").write_text(json.dumps(
        {"seen": ["<old@elsewhere.test>"], "announced": {}}, indent=1))
    ref = postal.MailReferee(root, send=lambda *_: None)
    deliver(root, a_mail("<old@elsewhere.test>"))
    assert "<old@elsewhere.test>: already handled" in ref.run_once()
    # Taken into the referee's database once, the old file removed.
    assert not (root / "state" / "state.json").exists()
    assert ref.store.handled("<old@elsewhere.test>") and ref.store.count() == 1


def test_state_json_of_digests_is_read(tmp_path: Path) -> None:
    root = tmp_path / "club"
    referee_dir(root, 25, {"g1": ("q-turn", PLAYERS, "harden-5")})
    (root / "state").mkdir()
    (root / "state" / "state.json").write_text(json.dumps(
        {"seen_as": "sha256/32", "seen": [service.seen_key("<old@elsewhere.test>")],
         "announced": {}}, indent=1))
    ref = postal.MailReferee(root, send=lambda *_: None)
    deliver(root, a_mail("<old@elsewhere.test>"))
    assert "<old@elsewhere.test>: already handled" in ref.run_once()


def test_the_memory_of_messages_is_bounded(tmp_path: Path) -> None:
    state = store.Store(tmp_path, bound=3)
    for i in range(5):
        state.remember([f"<{i}@x>"])
    assert [state.handled(f"<{i}@x>") for i in range(5)] == [False, False, True, True, True]
    state.remember([f"<{i}@x>" for i in range(5, 10)])
    assert [state.handled(f"<{i}@x>") for i in range(10)] == [False] * 7 + [True] * 3
    assert state.count() == 3
    assert store.MAX_SEEN == 100_000  # the bound the README promises


def test_the_memory_of_messages_does_not_slow_down_with_its_size(tmp_path: Path) -> None:
    """A season handled (100,000 messages) costs each new message what the
    first did: one row written, one index look-up (issue #28)."""
    import time

    state = store.Store(tmp_path)
    state.remember(f"<{i}@season.test>" for i in range(store.MAX_SEEN))

    def cost(memory: store.Store) -> float:
        started = time.process_time()
        for i in range(50):
            assert not memory.handled(f"<new-{i}@x>")
            memory.carried(handled=[f"<new-{i}@x>"])
        return time.process_time() - started

    (tmp_path / "empty").mkdir()
    assert cost(state) < 3 * cost(store.Store(tmp_path / "empty")) + 0.05
    assert state.count() == store.MAX_SEEN and state.handled("<new-49@x>")
    assert not state.handled("<0@season.test>")


def test_referee_log_is_rotated(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(service, "LOG_BYTES", 10_000)
    root = tmp_path / "club"
    referee_dir(root, 25, {"g1": ("q-turn", PLAYERS, "harden-6")})
    ref = postal.MailReferee(root, send=lambda *_: None, now=lambda: 1_800_000_000.0)
    for i in range(200):
        ref.note(f"line {i} " + "y" * 400)
    logs = sorted(p.name for p in root.glob("referee.log*"))
    assert logs == ["referee.log", *(f"referee.log.{i}" for i in range(1, 6))]
    assert all(p.stat().st_size <= 10_000 for p in root.glob("referee.log*"))
    last = (root / "referee.log").read_text().splitlines()[-1]
    assert last.startswith("2027-01-15T08:00:00Z line 199 ")
    assert mode(root / "referee.log.1") == 0o600 & ~files.umask()


def test_handled_mail_quoting_a_hand_is_not_kept_for_ever(tmp_path: Path) -> None:
    """Attack 7: a player's reply quotes their hand, and a mail the server
    refused holds one; both stayed on the referee's disk for ever. Now they
    go after ``keep`` days (30 by default; 0 keeps them), and what is newer
    stays."""
    root = tmp_path / "club"
    referee_dir(root, 25, {"g1": ("q-turn", PLAYERS, "harden-7")})
    cur, failed = root / "Maildir" / "cur", root / "spool" / "failed"
    ref = postal.MailReferee(root, send=lambda *_: None)
    ref.run_once()
    failed.mkdir(mode=0o700, exist_ok=True)
    old = time.time() - 31 * 86400
    for folder in (cur, failed):
        for name, age in (("old.eml", old), ("new.eml", None)):
            (folder / name).write_bytes(b"Your hand: 3 7 8\n")
            if age is not None:
                os.utime(folder / name, (age, age))
    done = ref.run_once()
    assert sorted(p.name for p in cur.iterdir()) == ["new.eml"]
    assert sorted(p.name for p in failed.iterdir()) == ["new.eml"]
    assert any("removed 1 message of handled mail older than 30 days" in line for line in done)
    assert "removed 1 message of refused mail" in (root / "referee.log").read_text()
    # keep = 0: nothing is removed; a keep below 0 is refused with one line.
    toml = root / "referee.toml"
    toml.write_text("keep = 0\n" + toml.read_text())
    (cur / "old.eml").write_bytes(b"x")
    os.utime(cur / "old.eml", (old, old))
    postal.MailReferee(root, send=lambda *_: None).run_once()
    assert (cur / "old.eml").exists()
    toml.write_text(toml.read_text().replace("keep = 0", "keep = -1"))
    with pytest.raises(postal.ConfigError, match="keep is a number of days above 0 .or 0."):
        postal.MailReferee(root, send=lambda *_: None)
