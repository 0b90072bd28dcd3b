"""A small world for testing the referee by mail (:mod:`adjudicator.postal`):
a real SMTP server on localhost (aiosmtpd) that keeps what it receives, a
referee directory with a real Maildir, and players who read only the mails
they receive and answer them as a mail client would, quoting the mail."""

from __future__ import annotations

import mailbox
import random
import socket
import threading
import time
from dataclasses import dataclass, field
from email import policy
from email.message import EmailMessage, Message
from email.parser import BytesParser
from email.utils import make_msgid
from pathlib import Path

from adjudicator import log as logmod, match, mailparse
from adjudicator.log import ViewFile


class Sink:
    """An aiosmtpd handler: every message received, with its recipients."""

    def __init__(self) -> None:
        self.received: list[tuple[list[str], bytes]] = []
        self.lock = threading.Lock()

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 - aiosmtpd's name
        with self.lock:
            self.received.append((list(envelope.rcpt_tos), bytes(envelope.original_content)))
        return "250 OK"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class SMTPServer:
    """A real SMTP server on localhost that can be stopped and started again
    on the same port (an outage)."""

    def __init__(self) -> None:
        self.sink = Sink()
        self.port = free_port()
        self.controller = None

    def start(self) -> None:
        from aiosmtpd.controller import Controller

        self.controller = Controller(self.sink, hostname="127.0.0.1", port=self.port)
        self.controller.start()

    def stop(self) -> None:
        if self.controller is not None:
            self.controller.stop()
            self.controller = None


def referee_dir(root: Path, port: int, games: dict[str, tuple[str, tuple[str, ...], str]],
                address: str = "referee@club.test",
                picture: str = "svg") -> dict[str, dict[str, str]]:
    """A referee directory: each game ``name: (game_id, players, seed)``;
    returns the roster (name -> player -> address). ``picture = "none"``
    for a long game whose test looks at no picture (drawing one for every
    player after every move is most of the referee's time)."""
    (root / "games").mkdir(parents=True, exist_ok=True)
    (root / "referee.toml").write_text(
        f'address = "{address}"\npoll = 0.1\npicture = "{picture}"\n[smtp]\nhost = "127.0.0.1"\nport = {port}\n'
        'security = "none"\n', encoding="utf-8")
    roster: dict[str, dict[str, str]] = {}
    lines = []
    for name, (game_id, players, seed) in games.items():
        log, secret = match.new_refereed(game_id, list(players), seed=seed)
        (root / "games" / f"{name}.json").write_bytes(logmod.encode(log))
        (root / "games" / f"{name}.secret.json").write_bytes(logmod.encode(secret))
        roster[name] = {p: f"{ascii_name(p)}.{name}@players.test" for p in players}
        lines.append(f"[{name}]")
        lines += [f'"{p}" = "{a}"' for p, a in roster[name].items()]
    (root / "roster.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return roster


def ascii_name(name: str) -> str:
    return "".join(ch for ch in name.lower() if ch.isascii() and ch.isalnum()) or "p"


def deliver(root: Path, data: bytes) -> None:
    """What a mail delivery agent does: the message into Maildir/new."""
    mailbox.Maildir(str(root / "Maildir"), create=True).add(data)


def parse(data: bytes) -> Message:
    return BytesParser(policy=policy.default).parsebytes(data)


def body_of(message: Message) -> str:
    part = message.get_body(preferencelist=("plain",))
    return part.get_content() if part is not None else ""


@dataclass
class Player:
    """A player with a mail client: reads the mails sent to their address,
    answers the latest about their game by quoting it."""

    name: str
    address: str
    rng: random.Random
    seen: int = 0
    inbox: list[Message] = field(default_factory=list)

    def collect(self, sink: Sink) -> list[Message]:
        with sink.lock:
            mine = [data for rcpt, data in sink.received if self.address in rcpt]
        new = [parse(d) for d in mine[self.seen:]]
        self.seen = len(mine)
        self.inbox += new
        return new

    def latest_view(self) -> tuple[Message, ViewFile] | None:
        """The newest mail with a view file in it, and that view file."""
        for message in reversed(self.inbox):
            found = [f.value for f in mailparse.extract_all(message.as_bytes())
                     if isinstance(f.value, ViewFile)]
            if found:
                return message, max(found, key=lambda vf: len(vf.log.moves))
        return None

    def reply(self, to: Message, first_line: str, width: int = 72, sign: bool = True) -> bytes:
        """A reply as a mail client writes it: the command on top (and, with
        ``sign``, thanks and a name), then the mail quoted with '> '
        (re-wrapped lines left as they are)."""
        quoted = "\n".join(("> " + line).rstrip() for line in body_of(to).splitlines())
        msg = EmailMessage()
        msg["From"] = f"{self.name} <{self.address}>"
        msg["To"] = str(to["From"])
        msg["Subject"] = "Re: " + str(to["Subject"])
        msg["Message-ID"] = make_msgid(domain="players.test")
        msg["In-Reply-To"] = str(to["Message-ID"])
        msg["References"] = str(to["Message-ID"])
        when = str(to["Date"])
        thanks = f"\n\nThanks!\n{self.name}" if sign else ""
        msg.set_content(f"{first_line}{thanks}\n\nOn {when}, the referee wrote:\n"
                        f"{quoted}\n", cte="quoted-printable")
        return msg.as_bytes()


def wait_for(condition, timeout: float = 30.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.05)
    return False
