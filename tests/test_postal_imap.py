"""The referee fetching its mail by IMAP (``[imap]`` in referee.toml).

The server is a small IMAP4rev1 responder on localhost that speaks just the
commands the referee uses (LOGIN, SELECT, UID SEARCH, UID FETCH, UID STORE,
LOGOUT), so the real :mod:`imaplib` client is exercised over a socket: the
login with the password from the environment, the fetch of unseen mail into
the Maildir, the \\Seen flag, and a server that fails between the fetch and
the flag (the message comes twice; it is handled once).
"""

from __future__ import annotations

import random
import re
import socketserver
import threading
from pathlib import Path

import pytest

from adjudicator import log as logmod, mailparse, postal
from adjudicator.log import ViewFile

from mailref import Player, free_port, parse, referee_dir


class Mailbox:
    def __init__(self) -> None:
        self.messages: list[tuple[int, bytes, set[str]]] = []
        self.logins: list[tuple[str, str]] = []
        self.fail_store = False
        self.lock = threading.Lock()

    def add(self, data: bytes) -> None:
        with self.lock:
            self.messages.append((len(self.messages) + 1, data, set()))


def _handler(box: Mailbox):
    class Handler(socketserver.StreamRequestHandler):
        def send(self, line: str | bytes) -> None:
            self.wfile.write(line if isinstance(line, bytes) else line.encode() + b"\r\n")

        def handle(self) -> None:
            self.send("* OK IMAP4rev1 test server ready")
            while True:
                raw = self.rfile.readline()
                if not raw:
                    return
                tag, _, rest = raw.decode().rstrip("\r\n").partition(" ")
                word, _, args = rest.partition(" ")
                word = word.upper()
                if word == "UID":
                    word2, _, args = args.partition(" ")
                    word = "UID " + word2.upper()
                if word == "CAPABILITY":
                    self.send("* CAPABILITY IMAP4rev1")
                elif word == "LOGIN":
                    user, password = re.findall(r'"((?:[^"\\]|\\.)*)"|(\S+)', args)[:2]
                    box.logins.append((user[0] or user[1], password[0] or password[1]))
                elif word == "SELECT":
                    self.send(f"* {len(box.messages)} EXISTS")
                    self.send("* FLAGS (\\Seen)")
                    self.send(f"{tag} OK [READ-WRITE] SELECT completed")
                    continue
                elif word == "UID SEARCH":
                    with box.lock:
                        unseen = [str(uid) for uid, _, flags in box.messages if "\\Seen" not in flags]
                    self.send("* SEARCH " + " ".join(unseen) if unseen else "* SEARCH")
                elif word == "UID FETCH":
                    uid = int(args.split()[0])
                    data = next(d for u, d, _ in box.messages if u == uid)
                    self.send(f"* {uid} FETCH (UID {uid} BODY[] {{{len(data)}}}")
                    self.send(data)
                    self.send(")")
                elif word == "UID STORE":
                    if box.fail_store:
                        self.send(f"{tag} NO [UNAVAILABLE] try later")
                        continue
                    uid = int(args.split()[0])
                    with box.lock:
                        next(f for u, _, f in box.messages if u == uid).add("\\Seen")
                    self.send(f"* {uid} FETCH (UID {uid} FLAGS (\\Seen))")
                elif word == "LOGOUT":
                    self.send("* BYE")
                    self.send(f"{tag} OK LOGOUT completed")
                    return
                else:
                    self.send(f"{tag} BAD unknown command")
                    continue
                self.send(f"{tag} OK {word} completed")

    return Handler


@pytest.fixture
def imap():
    box = Mailbox()
    server = socketserver.ThreadingTCPServer(("127.0.0.1", free_port()), _handler(box))
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield box, server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()


def test_the_referee_fetches_by_imap_and_handles_a_message_fetched_twice_once(
        tmp_path: Path, imap, monkeypatch) -> None:
    box, port = imap
    roster = referee_dir(tmp_path, 25, {"g": ("atlas", ("ann", "bob", "cy"), "imap")})
    with open(tmp_path / "referee.toml", "a", encoding="utf-8") as f:
        f.write(f'[imap]\nhost = "127.0.0.1"\nport = {port}\nsecurity = "none"\n'
                'user = "referee"\n')
    monkeypatch.setenv("ADJUDICATOR_IMAP_PASSWORD", "s3cret")
    sent: list[tuple[list[str], bytes]] = []
    ref = postal.MailReferee(tmp_path, send=lambda frm, to, data: sent.append((to, data)))
    ref.run_once()  # the starting position to everyone
    assert box.logins == [("referee", "s3cret")]
    to_move = next(d for to, d in sent if "Your move" in str(parse(d)["Subject"]))
    message = parse(to_move)
    name = next(p for p, a in roster["g"].items() if a == str(message["To"]))
    vf = next(f.value for f in mailparse.extract_all(to_move) if isinstance(f.value, ViewFile))
    player = Player(name, roster["g"][name], random.Random(1))
    box.add(player.reply(message, f"move {vf.legal[0]}"))

    box.fail_store = True  # fetched, but the server forgets it was: it comes again
    before = len(sent)
    first, second = ref.run_once(), ref.run_once()
    assert any("applied" in line for line in first)
    assert any(line.endswith("already handled") for line in second)
    log = logmod.decode((tmp_path / "games" / "g.json").read_bytes())
    assert [e.move for e in log.moves] == [vf.legal[0]], "applied once"
    assert len(sent) - before == 3, "one mail to each player, once"
    box.fail_store = False
    ref.run_once()
    assert all("\\Seen" in flags for _, _, flags in box.messages)
    assert len(logmod.decode((tmp_path / "games" / "g.json").read_bytes()).moves) == 1
    assert len(list((tmp_path / "Maildir" / "cur").iterdir())) == 3, "filed each time it came"

