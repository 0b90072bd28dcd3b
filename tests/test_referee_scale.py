"""The referee by mail at club scale (issue #28) and each player's mail
preferences (issue #26): one SMTP connection for a whole spool, mails
written out directly yet read back as the email package wrote them, and
``prefs`` (a PNG or no picture, a mail only on your turn) kept across
restarts. The figures are benchmarks/referee.py's; these tests hold the
behaviour."""

from __future__ import annotations

import random
import threading
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path

from adjudicator import mailparse, postal
from adjudicator.log import ViewFile
from adjudicator.postal.compose import Composer
from adjudicator.postal.config import Config

from mailref import Player, SMTPServer, body_of, deliver, referee_dir

NOW = 1_790_000_000.0  # 2026-09-21: in the past, as a log's stamps must be


class Connections:
    """An aiosmtpd handler that tells the connections apart (one session
    each) and keeps what it received."""

    def __init__(self) -> None:
        self.sessions: list[int] = []
        self.received: list[tuple[list[str], bytes]] = []
        self.lock = threading.Lock()

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 - aiosmtpd's name
        with self.lock:
            self.sessions.append(id(session))
            self.received.append((list(envelope.rcpt_tos), bytes(envelope.original_content)))
        return "250 OK"


def test_the_spool_is_sent_on_one_connection(tmp_path: Path) -> None:
    from aiosmtpd.controller import Controller

    server = SMTPServer()
    handler = Connections()
    controller = Controller(handler, hostname="127.0.0.1", port=server.port)
    controller.start()
    try:
        referee_dir(tmp_path, server.port, {"a": ("q-turn", ("ann", "bob"), "one-1"),
                                           "b": ("atlas", ("ann", "bob", "cy"), "one-2")})
        for secret in (tmp_path / "games").glob("*.secret.json"):
            secret.chmod(0o600)
        ref = postal.MailReferee(tmp_path, now=lambda: NOW)
        ref.run_once()  # every starting position: five mails
        assert len(handler.received) == 5
        assert len(set(handler.sessions)) == 1, "one connection (one handshake) for the spool"
        ref.run_once()  # nothing to send: no connection at all
        assert len(handler.received) == 5
    finally:
        controller.stop()


def test_a_mail_written_out_reads_back_as_the_email_package_writes_it() -> None:
    composer = Composer(Config(address="referee@club.test", name="Club referee, cup"),
                        {}, lambda: NOW)
    body = "Line one\nLine two, 72 columns at most\n"
    attachments = [("g.txt", "text/plain", b"-----BEGIN ADJUDICATOR LOG-----\nx\n"),
                   ("board.svg", "image/svg+xml", b"<svg>" + bytes(range(256)) + b"</svg>")]
    fast = composer.mail("ann@example.org", "[g] Jos\u00e9 to move (Q-Turn, move 3)", body,
                         game="g", seed="s1", attachments=attachments)
    assert fast == composer.mail("ann@example.org", "[g] Jos\u00e9 to move (Q-Turn, move 3)",
                                 body, game="g", seed="s1", attachments=attachments), \
        "the same mail composed again (after a crash) is the same bytes"
    assert fast.isascii() and all(len(line) <= 78 for line in fast.split(b"\r\n"))
    got = BytesParser(policy=policy.default).parsebytes(fast)
    model = EmailMessage(policy=policy.SMTP)
    model["Subject"] = "[g] Jos\u00e9 to move (Q-Turn, move 3)"
    model.set_content(body, charset="us-ascii", cte="7bit")
    for name, ctype, data in attachments:
        main, _, sub = ctype.partition("/")
        if main == "text":
            model.add_attachment(data.decode(), subtype=sub, charset="us-ascii", cte="7bit",
                                 filename=name)
        else:
            model.add_attachment(data, maintype=main, subtype=sub, filename=name)
    want = BytesParser(policy=policy.default).parsebytes(model.as_bytes())
    assert not got.defects and str(got["Subject"]) == str(want["Subject"])
    assert str(got["From"]) == '"Club referee, cup" <referee@club.test>'
    assert body_of(got) == body_of(want)
    assert [(p.get_filename(), p.get_content_type(), p.get_content())
            for p in got.iter_attachments()] == \
        [(p.get_filename(), p.get_content_type(), p.get_content())
         for p in want.iter_attachments()]


def views_in(message) -> list[ViewFile]:
    return [f.value for f in mailparse.extract_all(message.as_bytes())
            if isinstance(f.value, ViewFile)]


def prefs_mail(player: Player, line: str, to: str = "referee@club.test") -> bytes:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = player.address, to, "prefs"
    msg["Message-ID"] = f"<prefs-{random.random()}@players.test>"
    msg.set_content(line + "\n")
    return msg.as_bytes()


def test_prefs_by_mail_a_png_and_only_my_turn(tmp_path: Path, smtp: SMTPServer) -> None:
    roster = referee_dir(tmp_path, smtp.port, {"g": ("q-turn", ("ann", "bob"), "prefs-1")})
    for secret in (tmp_path / "games").glob("*.secret.json"):
        secret.chmod(0o600)
    # referee.toml's defaults, as a new referee.toml has them (the picture svg).
    toml = (tmp_path / "referee.toml").read_text().replace('picture = "svg"\n', "")
    (tmp_path / "referee.toml").write_text(toml)
    players = {p: Player(p, a, random.Random(p)) for p, a in roster["g"].items()}
    ann = players["ann"]

    def referee() -> None:
        postal.MailReferee(tmp_path, now=lambda: NOW).run_once()  # started again each time
        for p in players.values():
            p.collect(smtp.sink)

    referee()
    assert {a.get_filename() for a in ann.inbox[-1].iter_attachments()} == {"g.txt", "board.svg"}
    # A bad preference: one line, nothing kept.
    deliver(tmp_path, prefs_mail(ann, "prefs picture=gif"))
    referee()
    assert "Error: prefs: 'picture=gif' is not a preference" in body_of(ann.inbox[-1])
    deliver(tmp_path, prefs_mail(ann, "prefs picture=png mail=turn"))
    referee()
    answer = body_of(ann.inbox[-1])
    assert "picture=png" in answer and "mail=turn" in answer
    assert all(len(line) <= 72 for line in answer.splitlines())
    deliver(tmp_path, prefs_mail(ann, "prefs"))
    referee()
    assert "picture=png" in body_of(ann.inbox[-1]), "kept across a restart"
    answered: set[str] = set()
    taken = since = 0
    for _ in range(6):  # a few turns each
        for p in players.values():
            asking = [m for m in p.inbox if "Your move" in str(m["Subject"])]
            vf = views_in(asking[-1])[-1] if asking else None
            if vf is not None and vf.legal and str(asking[-1]["Message-ID"]) not in answered:
                answered.add(str(asking[-1]["Message-ID"]))
                deliver(tmp_path, p.reply(asking[-1], f"move {vf.legal[0]}"))
                break
        before = {p: len(x.inbox) for p, x in players.items()}
        referee()
        got = {p: x.inbox[before[p]:] for p, x in players.items()}
        (bobs,) = got["bob"]  # bob (the defaults): a mail after every move, an SVG
        assert {a.get_filename() for a in bobs.iter_attachments()} == {"g.txt", "board.svg"}
        for mine in got["ann"]:
            if "Your move" in str(mine["Subject"]):
                # Her turn: her view, with what happened since her last move, and a PNG.
                assert {a.get_filename() for a in mine.iter_attachments()} == {"g.txt",
                                                                              "board.png"}
                # (Or the answer to her own move, when her turn goes on.)
                assert views_in(mine)[-1].since or mine["In-Reply-To"]
                since += bool(views_in(mine)[-1].since)
            else:
                # Her move answered in a few lines: no view, no attachment.
                assert not list(mine.iter_attachments()) and not views_in(mine)
                assert "bob to move" in str(mine["Subject"]) and mine["In-Reply-To"]
                assert "prefs mail=all" in body_of(mine)
                taken += 1
    assert taken >= 2 and since >= 1 and sum("Your move" in str(m["Subject"]) for m in ann.inbox) >= 3


def test_a_stranger_cannot_set_a_players_prefs(tmp_path: Path, smtp: SMTPServer) -> None:
    referee_dir(tmp_path, smtp.port, {"g": ("q-turn", ("ann", "bob"), "prefs-2")})
    stranger = Player("eve", "eve@elsewhere.test", random.Random(0))
    ref = postal.MailReferee(tmp_path, now=lambda: NOW)
    deliver(tmp_path, prefs_mail(stranger, "prefs mail=turn"))
    (line,) = [x for x in ref.run_once() if "eve@elsewhere.test" in x]
    assert "plays no game here" in line
    assert ref.store.preferences("eve@elsewhere.test") == {}
    assert all("eve" not in rcpt[0] for rcpt, _ in smtp.sink.received)


def test_prefs_is_in_the_help() -> None:
    text = postal.commands.help_text()
    assert "prefs [picture=P] [mail=M]" in text
    assert all(len(line) <= 72 for line in text.splitlines())
    assert postal.commands.Prefs.chosen(["Picture=PNG,", "mail=turn"]) == {
        "picture": "png", "mail": "turn"}


def test_referee_toml_refuses_a_mail_setting_it_does_not_know(tmp_path: Path) -> None:
    import pytest

    referee_dir(tmp_path, 25, {"g": ("q-turn", ("ann", "bob"), "prefs-3")})
    toml = tmp_path / "referee.toml"
    toml.write_text('mail = "weekly"\n' + toml.read_text())  # above [smtp]
    with pytest.raises(postal.ConfigError, match="mail is all or turn, not 'weekly'"):
        postal.load_config(tmp_path)
    toml.write_text(toml.read_text().replace('mail = "weekly"\n', 'mail = "turn"\n'))
    assert postal.load_config(tmp_path).mail == "turn"
    assert postal.Config(address="r@x.test").picture == "svg", "the smaller default"


def test_with_mail_turn_a_proposal_still_reaches_everyone(tmp_path: Path, smtp: SMTPServer) -> None:
    """Only my turn, but not deaf: a takeback proposed by the player to move
    (an event to answer) is mailed to a player who chose ``mail = "turn"``."""
    roster = referee_dir(tmp_path, smtp.port, {"g": ("atlas", ("ann", "bob", "cy"), "prefs-4")})
    toml = tmp_path / "referee.toml"
    toml.write_text('mail = "turn"\n' + toml.read_text())
    players = {p: Player(p, a, random.Random(p)) for p, a in roster["g"].items()}
    ref = postal.MailReferee(tmp_path, now=lambda: NOW)
    ref.run_once()  # the start: everyone
    for p in players.values():
        assert len(p.collect(smtp.sink)) == 1
    mover = next(p for p in players.values() if "Your move" in str(p.inbox[-1]["Subject"]))
    deliver(tmp_path, mover.reply(mover.inbox[-1], f"move {views_in(mover.inbox[-1])[-1].legal[0]}"))
    ref.run_once()
    got = {p.name: p.collect(smtp.sink) for p in players.values()}
    assert sum(len(m) for m in got.values()) == 2, "the mover's answer and the next player's turn"
    nxt = next(p for p in players.values() if got[p.name] and p is not mover)
    deliver(tmp_path, nxt.reply(nxt.inbox[-1], "propose takeback 1"))
    ref.run_once()
    got = {p.name: p.collect(smtp.sink) for p in players.values()}
    assert all(len(m) == 1 for m in got.values()), "a proposal is news for every player"
