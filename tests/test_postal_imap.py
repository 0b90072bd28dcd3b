"""The referee fetching its mail by IMAP (``[imap]`` in referee.toml),
against a real IMAP server: Dovecot (tests/dovecot.py), started for each
test on 127.0.0.1 from its own configuration, with the real :mod:`imaplib`
client of the referee.

The referee takes every message after the last UID it took, under the
folder's UIDVALIDITY, whether or not it was read: a move that someone
opened in the mailbox first is still taken. Where it stopped is kept in
``state/imap.json``; a folder whose UIDVALIDITY changed is fetched again
whole, and what was handled already is filed unread.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from dovecot import PASSWORD, USER, append, client, dovecot  # noqa: E402
from mailref import Player, parse, referee_dir  # noqa: E402

from adjudicator import log as logmod, mailparse, postal  # noqa: E402
from adjudicator.log import ViewFile  # noqa: E402


@pytest.fixture
def imap():
    with dovecot() as port:
        yield port


def moves(root: Path) -> list[str]:
    return [e.move for e in logmod.decode((root / "games" / "g.json").read_bytes()).moves]


def test_a_move_read_by_someone_first_is_taken_once(tmp_path: Path, imap: int,
                                                     monkeypatch) -> None:
    roster = referee_dir(tmp_path, 25, {"g": ("atlas", ("ann", "bob", "cy"), "imap")})
    with open(tmp_path / "referee.toml", "a", encoding="utf-8") as f:
        f.write(f'[imap]\nhost = "127.0.0.1"\nport = {imap}\nsecurity = "none"\n'
                f'user = "{USER}"\n')
    monkeypatch.setenv("ADJUDICATOR_IMAP_PASSWORD", PASSWORD)
    sent: list[tuple[list[str], bytes]] = []
    ref = postal.MailReferee(tmp_path, send=lambda frm, to, data: sent.append((to, data)))
    assert ref.run_once() == []  # the starting position to everyone; an empty folder
    to_move = next(d for to, d in sent if "Your move" in str(parse(d)["Subject"]))
    message = parse(to_move)
    name = next(p for p, a in roster["g"].items() if a == str(message["To"]))
    vf = next(f.value for f in mailparse.extract_all(to_move) if isinstance(f.value, ViewFile))
    player = Player(name, roster["g"][name], random.Random(1))

    # The organiser opens the mailbox first: the move is \Seen before the referee looks.
    append(imap, player.reply(message, f"move {vf.legal[0]}"))
    person = client(imap)
    person.uid("fetch", "1", "(BODY[])")
    assert b"\\Seen" in person.uid("fetch", "1", "(FLAGS)")[1][0]
    person.logout()

    before = len(sent)
    assert any("applied" in line for line in ref.run_once())
    assert moves(tmp_path) == [vf.legal[0]]
    assert len(sent) - before == 3, "one mail to each player"
    kept = json.loads((tmp_path / "state" / "imap.json").read_bytes())
    assert kept["uid"] == 1 and kept["folder"] == "INBOX"
    assert ref.run_once() == [], "nothing after UID 1: nothing fetched again"

    # The folder was rebuilt (a new UIDVALIDITY): fetched whole, handled once.
    (tmp_path / "state" / "imap.json").write_text(json.dumps(
        {"folder": "INBOX", "uidvalidity": kept["uidvalidity"] + 1, "uid": 99}))
    append(imap, b"From: eve@evil.test\r\nTo: referee@club.test\r\nSubject: hi\r\n"
                 b"Message-ID: <eve.1@evil.test>\r\n\r\nhello\r\n", seen=True)
    lines = postal.MailReferee(tmp_path, send=lambda frm, to, data: sent.append((to, data))
                               ).run_once()
    assert any(line.endswith("already handled") for line in lines), lines
    assert any("eve@evil.test plays no game here" in line for line in lines), lines
    assert moves(tmp_path) == [vf.legal[0]], "applied once"
    assert json.loads((tmp_path / "state" / "imap.json").read_bytes()) == {
        "folder": "INBOX", "uidvalidity": kept["uidvalidity"], "uid": 2}
    assert len(list((tmp_path / "Maildir" / "cur").iterdir())) == 3, "filed each time it came"
