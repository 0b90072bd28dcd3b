"""Attacks on the referee by mail (adjudicator/postal/; issue 15, "Tests that
must exist"): spoofed senders, missing, forged and stale proofs, duplicate
deliveries, automatic replies, malformed messages, unknown games, every
command by mail, and bad configurations.

Every attack asserts the same contract: the message is handled once (filed in
``Maildir/cur``, nothing put aside, no journal left), nothing is recorded
(the log is byte for byte the same), the sender gets at most one answer - an
error in one paragraph that names no card hidden from them - and the next
good move still works. Every mail the referee sends, in every test, is
checked to be ASCII with text lines of at most 72 columns.

Most tests hand the referee a ``send`` callback that keeps what it sends
(the SMTP server is not what they test); a few go through a real SMTP server
on localhost (aiosmtpd), as production does.
"""

from __future__ import annotations

import base64
import itertools
import random
import re
import subprocess
import sys
import textwrap
import zlib
from email.message import EmailMessage, Message
from pathlib import Path

import msgspec
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from mailref import SMTPServer, Player, Sink, body_of, deliver, parse, referee_dir  # noqa: E402

from adjudicator import log as logmod, match, postal, referee, seal, textform  # noqa: E402
from adjudicator.games.atlas.cards import CARD_TEXT  # noqa: E402
from adjudicator.log import ViewFile  # noqa: E402

PLAYERS = ("ann", "bob", "cy")
REFEREE = "referee@club.test"
_ids = itertools.count(1)


# --- the world ---------------------------------------------------------------------------------


def check_outgoing(data: bytes) -> None:
    """Every mail the referee sends: ASCII, and text no wider than 72 columns."""
    data.decode("ascii")  # raises on any byte above 127
    message = parse(data)
    for part in message.walk():
        if part.get_content_type() != "text/plain":
            continue
        text = part.get_content()
        for line in text.splitlines():
            assert line.isascii(), line
            assert len(line) <= 72, f"{len(line)} columns: {line!r}"
    assert "Traceback" not in data.decode("ascii")


class Club:
    """A referee directory with games, its players, and what the referee sent."""

    def __init__(self, root: Path, games: dict | None = None,
                 server: SMTPServer | None = None) -> None:
        self.root = root
        self.server = server
        self.sink = Sink() if server is None else server.sink
        self.roster = referee_dir(root, 25 if server is None else server.port,
                                  games or {"g1": ("atlas", PLAYERS, "attacks-1")})
        self.taken = len(self.sink.received)
        self.players = {name: {p: Player(p, a, random.Random(f"{name}:{p}"))
                               for p, a in seats.items()} for name, seats in self.roster.items()}
        for seats in self.players.values():  # a server shared by tests: start reading now
            for player in seats.values():
                player.seen = sum(player.address in rcpt for rcpt, _ in self.sink.received)
        self.lines: list[str] = []
        self.referee = self.restart()

    def send(self, sender: str, to: list[str], data: bytes) -> None:
        assert sender == REFEREE
        self.sink.received.append((list(to), data))

    def restart(self) -> postal.MailReferee:
        """A fresh Referee object on the same directory (a restart); it sends
        through the SMTP server of referee.toml when the club has one."""
        self.referee = postal.MailReferee(self.root, send=None if self.server else self.send)
        return self.referee

    def run(self) -> list[tuple[list[str], Message]]:
        """One round of the referee; the mails it sent, and every player reads theirs."""
        self.lines = self.referee.run_once()
        new = self.sink.received[self.taken:]
        self.taken = len(self.sink.received)
        for rcpt, data in new:
            check_outgoing(data)
            self.check_secrecy(rcpt, data)
        for seats in self.players.values():
            for player in seats.values():
                player.collect(self.sink)
        return [(rcpt, parse(data)) for rcpt, data in new]

    def check_secrecy(self, rcpt: list[str], data: bytes) -> None:
        """A mail to a player of an Atlas game names no card hidden from
        them: not in its text, its attached log, nor its picture."""
        message = parse(data)
        if not message.is_multipart():
            return  # an error or help: checked by the test, which knows what was typed
        game = re.match(r"(?:Re: )?\[([a-z0-9_-]+)\]", str(message["Subject"]))
        if game is None or self.log(game[1]).game != "atlas" or self.log(game[1]).seed:
            return  # the seed is out: nothing is hidden any more
        (player,) = [p for p, a in self.roster[game[1]].items() if a in rcpt]
        texts = [part.get_content() for part in message.walk()
                 if part.get_content_maintype() == "text"
                 or part.get_content_type() == "image/svg+xml"]
        texts = [t.decode("utf-8") if isinstance(t, bytes) else t for t in texts]
        assert_no_leak(self, player, "\n".join(texts), game=game[1])

    def player(self, name: str, game: str = "g1") -> Player:
        return self.players[game][name]

    def to_move(self, game: str = "g1") -> Player:
        """The player whose latest mail asks for a move."""
        for player in self.players[game].values():
            latest = player.latest_view()
            if latest is not None and latest[1].legal:
                return player
        raise AssertionError("nobody is asked to move")

    def log_bytes(self, game: str = "g1") -> bytes:
        return (self.root / "games" / f"{game}.json").read_bytes()

    def log(self, game: str = "g1") -> logmod.Log:
        return logmod.decode(self.log_bytes(game))

    def secret(self, game: str = "g1") -> logmod.Secret:
        return logmod.decode_secret((self.root / "games" / f"{game}.secret.json").read_bytes())

    def deliver(self, data: bytes) -> None:
        deliver(self.root, data)

    def play(self, player: Player, line: str | None = None) -> list[tuple[list[str], Message]]:
        """``player`` answers their latest mail with ``line`` (a legal move by default)."""
        message, vf = player.latest_view()
        if line is None:
            line = "move " + player.rng.choice(vf.legal)
        self.deliver(player.reply(message, line))
        return self.run()


@pytest.fixture(autouse=True)
def fixed_secrets(request, monkeypatch):
    """Every salt and referee key from a random generator seeded by the test's
    name: the deals (which depend on the salt) are the same on every run."""
    rng = random.Random(zlib.crc32(request.node.nodeid.encode()))
    monkeypatch.setattr(seal, "new_salt", lambda: rng.randbytes(16).hex())
    monkeypatch.setattr(seal, "new_signing_key", lambda: base64.b64encode(rng.randbytes(32)).decode("ascii"))


@pytest.fixture
def club(tmp_path) -> Club:
    """A 3-player Atlas game whose players have had their first mail."""
    c = Club(tmp_path)
    out = c.run()
    assert sorted(a for rcpt, _ in out for a in rcpt) == sorted(c.roster["g1"].values())
    return c


@pytest.fixture(scope="module")
def smtp():
    server = SMTPServer()
    server.start()
    yield server
    server.stop()


def mail(frm: str, body: str | bytes, subject: str = "move", headers: dict | None = None,
         message_id: str | None = None) -> bytes:
    """A plain mail to the referee as a mail client writes it."""
    msg = EmailMessage()
    msg["From"] = frm
    msg["To"] = REFEREE
    msg["Subject"] = subject
    msg["Message-ID"] = message_id or f"<attack.{next(_ids)}@players.test>"
    for name, value in (headers or {}).items():
        msg[name] = value
    msg.set_content(body if isinstance(body, str) else body.decode("ascii"))
    return msg.as_bytes()


def quoted(text: str) -> str:
    return "\n".join(("> " + line).rstrip() for line in text.splitlines())


def with_view(line: str, vf: ViewFile) -> str:
    """A command with a view file quoted under it."""
    return f"{line}\n\nOn Monday, the referee wrote:\n{quoted(textform.dumps(vf))}\n"


def with_from(data: bytes, frm: str) -> bytes:
    """The same mail with another From line (a forged sender)."""
    msg = parse(data)
    msg.replace_header("From", frm)
    return msg.as_bytes()


# --- what must hold after an attack -------------------------------------------------------------


def assert_handled(club: Club) -> None:
    """Every message handled once: filed in Maildir/cur, none left or put aside."""
    assert list((club.root / "Maildir" / "new").iterdir()) == []
    assert not (club.root / "quarantine").exists(), club.lines
    assert not (club.root / "state" / "pending.json").exists()
    assert list((club.root / "spool").glob("*.eml")) == []


def hidden_from(club: Club, viewer: str, game: str = "g1") -> set[str]:
    """The Atlas cards ``viewer`` cannot see now (the others' hands, the draw
    pile, the cards removed unseen), from the secret-unlocked state."""
    key = (club.log_bytes(game), viewer)
    if key not in _hidden:
        if len(_hidden) > 64:
            _hidden.clear()
        _hidden[key] = _hidden_cards(club.log(game), club.secret(game), viewer)
    return _hidden[key]


_hidden: dict[tuple[bytes, str], set[str]] = {}


def _hidden_cards(log: logmod.Log, secret: logmod.Secret, viewer: str) -> set[str]:
    rep = match.validate(match.unlock(log, secret), keep=True)
    seen = rep.game.view(rep.state, rep.players.index(viewer))
    visible = {*seen.hand, *seen.face_up, *seen.face_down, *seen.out_of_game,
               *(s.card for s in seen.stacks), seen.last}
    # a card played and then taken back is in a hand again, but was seen
    played = {w for m in log.moves for w in re.findall(r"[0-9A-Za-z]+", m.move)}
    hidden = set(CARD_TEXT) - visible - played
    others = {c for seat in range(len(rep.players)) if rep.players[seat] != viewer
              for c in rep.game.view(rep.state, seat).hand}
    assert others - played <= hidden
    return hidden


def assert_no_leak(club: Club, viewer: str, text: str, typed: str = "", game: str = "g1") -> None:
    """``text`` names no card hidden from ``viewer`` (except what they typed,
    and the examples of the referee's fixed sentences)."""
    for example in ("'move 3D, 5W'", "'move 3D'"):
        text = text.replace(example, "")
    # keys, proofs and signatures (base64, folded): '.../4W+...' is no card
    text = re.sub(r'"[A-Za-z0-9+/=:\\\s]{16,}"', " ", text)
    words = set(re.findall(r"[0-9A-Za-z]+", text)) - set(re.findall(r"[0-9A-Za-z]+", typed))
    leaked = words & hidden_from(club, viewer, game)
    assert not leaked, f"hidden from {viewer}: {sorted(leaked)} in {text!r}"


def error_of(message: Message) -> str:
    """The error of an error mail: one paragraph starting 'Error: ', then
    'Nothing was recorded.', then (to a player of the game) their view file."""
    body = body_of(message).replace("\r\n", "\n")
    paragraphs = body.strip().split("\n\n")
    if len(paragraphs) > 2:  # the player's current view file, for a reply
        assert paragraphs[2].startswith("To try again, reply"), body
        assert paragraphs[3].startswith("Your view file (keep it in your reply):"), body
        paragraphs = paragraphs[:2]
    assert len(paragraphs) == 2, body
    first, *folded = paragraphs[0].splitlines()
    # one line, folded to fit the mail: the continuation lines marked '  | '
    assert first.startswith("Error: ") and all(f.startswith("  | ") for f in folded), body
    assert paragraphs[1].startswith("Nothing was recorded."), body
    assert not message.is_multipart() or len(list(message.iter_attachments())) == 0
    return " ".join([first, *(f[4:] for f in folded)])


def assert_refused(club: Club, data: bytes, sender: Player, *fragments: str,
                   typed: str = "", game: str = "g1") -> str:
    """Delivered, ``data`` is answered with one error to ``sender`` alone,
    records nothing and leaks nothing; returns the error."""
    before = {name: club.log_bytes(name) for name in club.roster}
    club.deliver(data)
    out = club.run()
    assert {name: club.log_bytes(name) for name in club.roster} == before
    assert [rcpt for rcpt, _ in out] == [[sender.address]], club.lines
    error = error_of(out[0][1])
    for fragment in fragments:
        assert fragment in error, error
    assert_no_leak(club, sender.name, error + " " + str(out[0][1]["Subject"]), typed, game)
    assert_handled(club)
    return error


def assert_ignored(club: Club, data: bytes) -> None:
    """Delivered, ``data`` is answered with nothing and records nothing."""
    before = club.log_bytes()
    club.deliver(data)
    assert club.run() == [], club.lines
    assert club.log_bytes() == before
    assert_handled(club)
    assert len(list((club.root / "Maildir" / "cur").iterdir())) >= 1
    assert "ignored" in (club.root / "referee.log").read_text().splitlines()[-1]


def assert_moves_on(club: Club) -> None:
    """The next good move is taken: one more move in the log, mail to everyone."""
    n = len(club.log().moves)
    player = club.to_move()
    out = club.play(player)
    assert len(club.log().moves) == n + 1, club.lines
    assert sorted(a for rcpt, _ in out for a in rcpt) == sorted(club.roster["g1"].values())
    assert_handled(club)


def test_the_leak_check_sees_a_hand(club):
    """The checks above are not vacuous: ann's own mail, read as bob's,
    names cards hidden from bob."""
    ann = club.player("ann")
    text = body_of(ann.inbox[-1])
    assert_no_leak(club, "ann", text)
    with pytest.raises(AssertionError, match="hidden from bob"):
        assert_no_leak(club, "bob", text)


# --- spoofed senders, missing, forged and stale proofs ---------------------------------------


def test_stranger_with_a_stolen_view_is_not_answered(club):
    """A move from an address on no roster, quoting the view of the player to
    move (an intercepted mail): nothing recorded, no mail to anyone (no
    backscatter to a forged address)."""
    ann = club.to_move()
    message, vf = ann.latest_view()
    eve = Player("eve", "eve@evil.test", random.Random(1))
    assert_ignored(club, eve.reply(message, "move " + vf.legal[0]))
    assert_moves_on(club)


def test_right_from_without_a_view_file_is_refused(club):
    """The From line alone is not enough: no view file, no move."""
    ann = club.to_move()
    vf = ann.latest_view()[1]
    typed = "move " + vf.legal[0]
    assert_refused(club, mail(ann.address, typed + "\n"), ann, "no view file of yours",
                   typed=typed)
    assert_moves_on(club)


def test_forged_from_with_the_view_of_the_player_to_move(club):
    """bob forges ann's From line but can only quote his own view file (a
    view file proves the move is its player's): refused."""
    ann = club.to_move()
    bob = next(p for p in club.players["g1"].values() if p is not ann)
    message = bob.latest_view()[0]
    typed = "move " + ann.latest_view()[1].legal[0]
    data = with_from(bob.reply(message, typed), f"ann <{ann.address}>")
    assert_refused(club, data, ann, "no view file of yours", typed=typed)
    assert_moves_on(club)


def test_another_players_view_file_from_a_roster_address(club):
    """bob got hold of ann's mail (ann to move) and answers it from his own
    roster address with one of her moves: the view file is not his."""
    ann = club.to_move()
    bob = next(p for p in club.players["g1"].values() if p is not ann)
    message, vf = ann.latest_view()
    typed = "move " + vf.legal[0]
    data = with_from(ann.reply(message, typed), f"bob <{bob.address}>")
    assert_refused(club, data, bob, "no view file of yours", typed=typed)
    # bob's own, current view file does not let him move out of turn either
    assert_refused(club, bob.reply(bob.latest_view()[0], typed), bob, typed=typed)
    assert_moves_on(club)


def test_answers_go_to_the_roster_address_only(club):
    """Reply-To, Cc and a second From address do not redirect the referee's
    mail: a view (which shows a hand) or an error goes to the roster address
    of the player, and nowhere else."""
    ann = club.to_move()
    message, vf = ann.latest_view()
    reply = parse(ann.reply(message, "show"))
    reply["Reply-To"] = "eve@evil.test"
    reply["Cc"] = "eve@evil.test"
    reply["Sender"] = "eve@evil.test"
    club.deliver(reply.as_bytes())
    out = club.run()
    assert [rcpt for rcpt, _ in out] == [[ann.address]]
    data = mail(f"{ann.address}, eve@evil.test", "move " + vf.legal[0] + "\n",
                subject="move")
    assert_refused(club, data, ann, "no view file", typed="move " + vf.legal[0])
    assert "eve" not in str(club.sink.received[-1])
    assert_moves_on(club)


def _forged_views(club: Club, vf: ViewFile) -> dict[str, ViewFile]:
    """ann's view file edited or re-signed in the ways a cheat would try."""
    other_log, other_secret = match.new_refereed("atlas", list(PLAYERS), seed="another game")
    hidden = sorted(hidden_from(club, vf.player))
    extended = msgspec.structs.replace(vf, legal=(*vf.legal, hidden[0]))
    proof = vf.proof
    flipped = proof[:10] + ("A" if proof[10] != "A" else "B") + proof[11:]
    return {
        # one character of the proof changed
        "edited proof": msgspec.structs.replace(vf, proof=flipped),
        # the same file, signed with another referee's key
        "re-signed": msgspec.structs.replace(
            vf, proof=seal.sign(other_secret.signing_key, referee.view_items(vf))),
        # a card hidden from ann added to her moves, signed with another key
        "extended": msgspec.structs.replace(
            extended, proof=seal.sign(other_secret.signing_key, referee.view_items(extended))),
        # the view file of another game of the same players, by another referee
        "other game": referee.issue_view(other_log, other_secret, vf.player),
    }


@pytest.mark.parametrize("how", ["edited proof", "re-signed", "extended", "other game"])
def test_forged_proof_is_refused(club, how):
    """A view file the referee did not issue, quoted under a move from the
    right address: refused, and the error names no card hidden from ann."""
    ann = club.to_move()
    message, vf = ann.latest_view()
    forged = _forged_views(club, vf)[how]
    typed = "move " + (forged.legal or vf.legal)[-1]
    error = assert_refused(club, mail(ann.address, with_view(typed, forged)), ann, typed=typed)
    assert "proof" in error or "no view file of yours" in error, error
    assert_moves_on(club)


def test_errors_do_not_tell_where_a_hidden_card_is(club):
    """ann names, with her good view file, every card she cannot see: the
    answer is the same whether bob holds it, cy holds it, or it is in the
    draw pile or out of the game unseen (an error is no oracle)."""
    toml = club.root / "referee.toml"  # more errors an hour than a player gets answered
    toml.write_text("answers = 100\n" + toml.read_text())
    club.restart()
    ann = club.to_move()
    message = ann.latest_view()[0]
    answers = {}
    for card in sorted(hidden_from(club, "ann")):
        answers[card] = assert_refused(club, ann.reply(message, f"move {card}"), ann,
                                       typed=f"move {card}")
    normal = {re.sub(r"\b[1-8][WDSN]\b", "C", re.sub(
        r"the [1-8] of (Dawn|Day|Sunset|Night)", "the C", text)) for text in answers.values()}
    assert len(answers) >= 10 and len(normal) == 1, answers
    assert_moves_on(club)


def test_stale_view_file_is_refused(club):
    """After the game moved on, a reply to an earlier mail (and the very same
    reply sent again with a new Message-ID, a replay) is refused."""
    first = club.to_move()
    message, vf = first.latest_view()
    typed = "move " + vf.legal[0]
    reply = first.reply(message, typed)
    club.deliver(reply)
    club.run()
    assert len(club.log().moves) == 1
    for _ in range(3):
        assert_moves_on(club)
    replay = parse(reply)
    replay.replace_header("Message-ID", "<replayed.1@players.test>")
    error = assert_refused(club, replay.as_bytes(), first, "answers move 1, but the game is "
                           "at move 5", "reply to the referee's latest mail", typed=typed)
    assert "new view file" not in error  # what the player can do, not the organiser
    # an event needs a current view file too
    assert_refused(club, first.reply(message, "resign"), first, "answers move 1")
    assert_moves_on(club)


# --- duplicate delivery ------------------------------------------------------------------------


def _mails_to(out, address: str) -> list[Message]:
    return [m for rcpt, m in out if address in rcpt]


def test_duplicate_delivery_applies_the_move_once(club):
    """The same bytes delivered twice in one round, then again after a
    restart (a fresh Referee on the same directory): one move, one answer."""
    ann = club.to_move()
    message, vf = ann.latest_view()
    reply = ann.reply(message, "move " + vf.legal[0])
    club.deliver(reply)
    club.deliver(reply)
    out = club.run()
    assert len(club.log().moves) == 1
    assert len(_mails_to(out, ann.address)) == 1
    assert len(out) == 3
    assert_handled(club)
    assert len(list((club.root / "Maildir" / "cur").iterdir())) == 2
    after = club.log_bytes()
    club.restart()
    club.deliver(reply)
    assert club.run() == []
    assert club.log_bytes() == after
    assert_handled(club)
    assert_moves_on(club)


def test_duplicate_without_message_id_is_known_by_its_bytes(club):
    ann = club.to_move()
    message, vf = ann.latest_view()
    reply = parse(ann.reply(message, "move " + vf.legal[0]))
    del reply["Message-ID"]
    data = reply.as_bytes()
    club.deliver(data)
    out = club.run()
    assert len(club.log().moves) == 1 and len(_mails_to(out, ann.address)) == 1
    club.restart()
    club.deliver(data)
    assert club.run() == []
    assert len(club.log().moves) == 1
    assert_handled(club)


def test_duplicate_of_a_refused_message_is_answered_once(club):
    ann = club.to_move()
    data = mail(ann.address, "move " + ann.latest_view()[1].legal[0])
    assert_refused(club, data, ann, "no view file", typed="move " + ann.latest_view()[1].legal[0])
    club.restart()
    before = club.log_bytes()
    club.deliver(data)
    assert club.run() == []
    assert club.log_bytes() == before
    assert_handled(club)


def test_duplicate_delivery_through_a_real_smtp_server(tmp_path, smtp):
    """As production runs: the referee sends through smtplib to a real
    server; the reply delivered twice, with a restart between."""
    club = Club(tmp_path, server=smtp)
    club.run()
    ann = club.to_move()
    message, vf = ann.latest_view()
    reply = ann.reply(message, "move " + vf.legal[0])
    sent = []
    for _ in range(2):
        club.deliver(reply)
        sent += club.run()
        club.restart()
    assert len(club.log().moves) == 1
    assert len(sent) == 3 and len(_mails_to(sent, ann.address)) == 1
    assert _mails_to(sent, ann.address)[0]["In-Reply-To"] == parse(reply)["Message-ID"]
    assert_handled(club)
    assert_moves_on(club)


# --- automatic replies -------------------------------------------------------------------------


def _bounce(ann: Player, original: Message) -> bytes:
    """A delivery report (RFC 3464) from ann's server, the referee's mail inside."""
    msg = EmailMessage()
    msg["From"] = ann.address
    msg["To"] = REFEREE
    msg["Subject"] = "Undelivered Mail Returned to Sender"
    msg["Message-ID"] = f"<bounce.{next(_ids)}@players.test>"
    msg.set_content("move 1W\n\nThis is the mail system: your mail was not delivered.\n")
    msg.add_attachment("Reporting-MTA: dns; players.test\n\nFinal-Recipient: rfc822; "
                       f"{ann.address}\nAction: failed\nStatus: 5.1.1\n",
                       subtype="plain")
    msg.add_attachment(original)
    msg.replace_header("Content-Type", msg["Content-Type"].replace("multipart/mixed",
                                                                   "multipart/report"))
    msg.set_param("report-type", "delivery-status")
    return msg.as_bytes()


AUTOMATIC = {
    "Auto-Submitted": {"Auto-Submitted": "auto-replied"},
    "Auto-Submitted generated": {"Auto-Submitted": "auto-generated; owner-email=x@y.test"},
    "Precedence bulk": {"Precedence": "bulk"},
    "Precedence list": {"Precedence": "list"},
    "empty Return-Path": {"Return-Path": "<>"},
    "X-Autoreply": {"X-Autoreply": "yes"},
    "List-Id": {"List-Id": "<players.club.test>"},
}


@pytest.mark.parametrize("how", [*AUTOMATIC, "bounce report", "MAILER-DAEMON", "postmaster",
                                 "the referee's own mail"])
def test_automatic_mail_is_never_answered(club, how):
    """A vacation responder quoting the referee's mail (with a good move on
    its first line, and the view file), a bounce, the referee's own mail come
    back: no answer at all, nothing recorded, filed in Maildir/cur."""
    ann = club.to_move()
    message, vf = ann.latest_view()
    reply = parse(ann.reply(message, "move " + vf.legal[0]))
    if how in AUTOMATIC:
        for name, value in AUTOMATIC[how].items():
            reply[name] = value
        data = reply.as_bytes()
    elif how == "bounce report":
        data = _bounce(ann, message)
    elif how == "the referee's own mail":
        data = club.sink.received[-1][1]
        assert parse(data)["From"].addresses[0].addr_spec == REFEREE
    else:
        reply.replace_header("From", f"{how.upper()}@players.test")
        data = reply.as_bytes()
    assert_ignored(club, data)
    assert len(list((club.root / "Maildir" / "cur").iterdir())) == 1
    assert_moves_on(club)


def test_auto_reply_loop_between_two_robots_stops(club):
    """The referee's answers are marked auto-replied (RFC 3834), so a robot
    that honours it never answers them; a robot that does not (no
    Auto-Submitted, 'Re: Re: help') gets one answer to the same mail an
    hour (vacation(1)'s rule, #25), never a loop, and nothing is recorded."""
    ann = club.to_move()
    out = club.play(ann, "help")
    answer = _mails_to(out, ann.address)[0]
    assert answer["Auto-Submitted"] == "auto-replied"
    before = club.log_bytes()
    for _ in range(3):  # 'Re: Re: help' asks for the help just sent
        club.deliver(ann.reply(answer, "I am away until Monday."))
        assert club.run() == [], club.lines
        assert "not answered: the same answer went to" in club.lines[0]
    assert club.log_bytes() == before
    assert_handled(club)
    assert_moves_on(club)


# --- malformed messages -------------------------------------------------------------------------


def _head(ann: Player, extra: str = "") -> bytes:
    return (f"From: ann <{ann.address}>\r\nTo: {REFEREE}\r\nSubject: move\r\n"
            f"Message-ID: <bad.{next(_ids)}@players.test>\r\n{extra}").encode("ascii")


def _nested_messages(ann: Player, depth: int) -> bytes:
    inner = b"Content-Type: text/plain\r\n\r\nmove 1W\r\n"
    for _ in range(depth):
        inner = b"MIME-Version: 1.0\r\nContent-Type: message/rfc822\r\n\r\n" + inner
    return _head(ann) + inner


def _nested_multiparts(ann: Player, depth: int) -> bytes:
    out = [_head(ann, "MIME-Version: 1.0\r\n")]
    for i in range(depth):
        out.append(f'Content-Type: multipart/mixed; boundary="b{i}"\r\n\r\n--b{i}\r\n'.encode())
    out.append(b"Content-Type: text/plain\r\n\r\nmove 1W\r\n")
    out += [f"--b{i}--\r\n".encode() for i in reversed(range(depth))]
    return b"".join(out)


def _malformed(club: Club, how: str) -> bytes:
    ann = club.to_move()
    message, vf = ann.latest_view()
    good = ann.reply(message, "move " + vf.legal[0])
    rng = random.Random(how)
    if how == "random bytes":
        return rng.randbytes(3000)
    if how == "random bytes after ann's From":
        return _head(ann, "\r\n") + rng.randbytes(3000)
    if how == "truncated":
        return good[:len(good) // 2]
    if how == "truncated in the headers":
        return good[:good.index(b"Subject:") + 12]
    if how == "bad MIME boundary":
        return _head(ann, 'MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary="x"'
                          "\r\n\r\n--y\r\nContent-Type: text/plain\r\n\r\nmove 1W\r\n--y--\r\n")
    if how == "unterminated multipart":
        return _head(ann, 'MIME-Version: 1.0\r\nContent-Type: multipart/alternative; '
                          'boundary=""\r\n\r\n--\r\n\r\nmove 1W\r\n--')
    if how == "header only":
        return _head(ann).rstrip(b"\r\n")
    if how == "non-UTF-8 body said to be UTF-8":
        return _head(ann, 'MIME-Version: 1.0\r\nContent-Type: text/plain; charset="utf-8"\r\n'
                          "Content-Transfer-Encoding: 8bit\r\n\r\n") + \
            b"move \xff\xfe caf\xe9 \xc3\r\n"
    if how == "unknown charset":
        return _head(ann, 'MIME-Version: 1.0\r\nContent-Type: text/plain; charset="x-klingon"'
                          "\r\nContent-Transfer-Encoding: base64\r\n\r\n!!!not base64\r\n")
    if how == "8-bit headers":
        return (b"From: \xe9ve <" + ann.address.encode() + b">\r\nSubject: \xff\xfe move\r\n"
                b"Message-ID: <\xe9@x>\r\n\r\nmove 1W\r\n")
    if how == "From address cut short":
        return good.replace(f"<{ann.address}>".encode(), b"<ann.g1@\r\n", 1)
    if how == "Message-ID cut short":  # the email package raises UnboundLocalError
        return re.sub(rb"Message-ID: <[^>]*>", b"Message-ID: <a@[", good, count=1)
    if how == "In-Reply-To cut short":
        return re.sub(rb"In-Reply-To: <[^>]*>", b"In-Reply-To: <@>", good, count=1)
    if how == "nested messages":
        return _nested_messages(ann, 1000)
    if how == "nested multiparts":
        return _nested_multiparts(ann, 1000)
    if how == "5 MB":
        return good + b"\r\n" + b"x" * 70 + (b"\r\n" + b"y" * 70) * (5 * 1024 * 1024 // 72)
    if how == "view file re-wrapped at 50":
        text = body_of(parse(good))
        wrapped = "\n".join(textwrap.fill(line, 50, subsequent_indent="> ")
                            if line.startswith("> ") else line for line in text.splitlines())
        return mail(ann.address, wrapped, subject="Re: your move")
    if how == "damaged view file":
        text = body_of(parse(good))
        lines = text.splitlines()
        at = next(i for i, line in enumerate(lines) if "[Proof" in line or "[View" in line)
        del lines[at + 1]
        return mail(ann.address, "\n".join(lines), subject="Re: your move")
    raise AssertionError(how)


MALFORMED = ["random bytes", "random bytes after ann's From", "truncated",
             "truncated in the headers", "bad MIME boundary", "unterminated multipart",
             "header only", "non-UTF-8 body said to be UTF-8", "unknown charset",
             "8-bit headers", "From address cut short", "nested messages", "nested multiparts", "5 MB",
             "view file re-wrapped at 50", "damaged view file"]


@pytest.mark.parametrize("how", MALFORMED)
def test_malformed_message(club, how):
    """Handled once, at most one error (one line) to the sender alone, no
    traceback, nothing recorded, nothing put aside; the next move works."""
    ann = club.to_move()
    data = _malformed(club, how)
    before = club.log_bytes()
    club.deliver(data)
    out = club.run()
    assert club.log_bytes() == before, club.lines
    assert len(out) <= 1, club.lines
    for rcpt, answer in out:
        assert rcpt == [ann.address]
        assert_no_leak(club, "ann", error_of(answer))
    assert_handled(club)
    assert not any("Traceback" in line for line in club.lines)
    assert_moves_on(club)


def test_view_file_re_wrapped_at_72_columns_is_taken(club):
    """A mail client that wraps the quoted text at 72 columns ('> ' and a
    72-column line) does not spoil the proof: the move is taken once."""
    ann = club.to_move()
    message, vf = ann.latest_view()
    text = body_of(parse(ann.reply(message, "move " + vf.legal[0])))
    assert max(len(line) for line in text.splitlines()) > 72
    wrapped = "\n".join(textwrap.fill(line, 72, subsequent_indent="> ")
                        if line.startswith("> ") else line for line in text.splitlines())
    club.deliver(mail(ann.address, wrapped, subject="Re: your move"))
    out = club.run()
    assert [m.move for m in club.log().moves] == [vf.legal[0]], club.lines
    assert len(_mails_to(out, ann.address)) == 1
    assert_handled(club)


@pytest.mark.parametrize("how", ["Message-ID cut short", "In-Reply-To cut short"])
def test_unreadable_header_is_treated_as_absent(club, how):
    """A header the email package raises on (UnboundLocalError for a
    Message-ID cut short) does not stop the referee: the rest of the mail is
    good, so its move is taken, once, though it comes twice."""
    ann = club.to_move()
    data = _malformed(club, how)
    club.deliver(data)
    club.deliver(data)
    out = club.run()
    assert len(club.log().moves) == 1, club.lines
    assert len(_mails_to(out, ann.address)) == 1
    assert_handled(club)
    assert_moves_on(club)


@pytest.mark.parametrize("message_id", ["<a/../../b@players.test>", f"<{'x' * 3000}@p.test>"])
def test_any_message_id_is_a_good_one(club, message_id):
    """The Message-ID names nothing on disk: one with '/' (legal in RFC 5322)
    or longer than a file name may be is handled as any other, and once."""
    ann = club.to_move()
    message, vf = ann.latest_view()
    reply = parse(ann.reply(message, "move " + vf.legal[0]))
    reply.replace_header("Message-ID", message_id)
    for _ in range(2):
        club.deliver(reply.as_bytes())
    out = club.run()
    assert [m.move for m in club.log().moves] == [vf.legal[0]], club.lines
    assert len(_mails_to(out, ann.address)) == 1
    assert_handled(club)
    assert_moves_on(club)


# --- unknown games -------------------------------------------------------------------------------


@pytest.fixture
def two_games(tmp_path) -> Club:
    """ann plays two games from one address: g1 (Atlas, with bob and cy) and
    g2 (Q-Turn, with dan)."""
    c = Club(tmp_path, {"g1": ("atlas", PLAYERS, "attacks-1"), "g2": ("q-turn", ("ann", "dan"),
                                                                         "attacks-2")})
    text = (tmp_path / "roster.toml").read_text()
    for game in ("g1", "g2"):
        text = text.replace(f'"ann.{game}@players.test"', '"ann@players.test"')
    (tmp_path / "roster.toml").write_text(text)
    c.roster = postal.load_roster(tmp_path)
    c.players = {name: {p: Player(p, a, random.Random(f"{name}:{p}")) for p, a in seats.items()}
                 for name, seats in c.roster.items()}
    c.restart()
    c.run()
    return c


def test_unknown_game_from_a_player_of_two_games(two_games):
    club = two_games
    ann = club.player("ann", "g1")
    assert ann.address == club.player("ann", "g2").address == "ann@players.test"
    assert_refused(club, mail(ann.address, "move nosuchgame 3D\n"), ann, "which game", "g1, g2",
                   typed="move nosuchgame 3D")
    # no game named, and not a reply: which one?
    assert_refused(club, mail(ann.address, "resign\n"), ann, "which game", "g1, g2")
    # a reply needs no name: the game is the one of the mail it answers
    message, vf = club.player("ann", "g2").latest_view()
    if vf.legal is None:
        message, vf = club.player("dan", "g2").latest_view()
        mover = club.player("dan", "g2")
    else:
        mover = club.player("ann", "g2")
    before = club.log_bytes("g1")
    club.deliver(mover.reply(message, "move " + vf.legal[0]))
    club.run()
    assert len(club.log("g2").moves) == 1 and club.log_bytes("g1") == before


def test_unknown_game_from_a_player_of_one_game(club):
    """bob, of g1 only, names a game he is not in, or none there is: refused
    as a move of his own game (it is not one), nothing recorded."""
    bob = club.player("bob")
    message = bob.latest_view()[0]
    for line in ("move nosuchgame 3D", "move g2 1W"):
        assert_refused(club, bob.reply(message, line), bob, typed=line)
    assert_moves_on(club)


# --- commands by mail ----------------------------------------------------------------------------


def test_help_show_and_legal_record_nothing(club):
    ann = club.to_move()
    bob = next(p for p in club.players["g1"].values() if p is not ann)
    before = club.log_bytes()
    club.deliver(mail(bob.address, "help\n", subject="a question"))
    out = club.run()
    assert [rcpt for rcpt, _ in out] == [[bob.address]]
    assert "propose [GAME] takeback N" in body_of(out[0][1])
    assert_no_leak(club, "bob", body_of(out[0][1]))
    # a stranger asking for help gets nothing (no mail to forged addresses)
    assert_ignored(club, mail("eve@evil.test", "help\n"))
    for who, command in ((bob, "show"), (bob, "legal"), (ann, "legal g1"), (ann, "show")):
        club.deliver(mail(who.address, command + "\n", subject="hello"))
        out = club.run()
        assert [rcpt for rcpt, _ in out] == [[who.address]], club.lines
        body = body_of(out[0][1])
        assert f"view file of {who.name}" in body
        assert ("Legal moves" in body) == (who is ann), body
    assert club.log_bytes() == before
    assert_handled(club)
    assert_moves_on(club)


def test_takeback_proposed_accepted_and_rejected(club):
    """propose takeback 1 / accept / reject, each by a reply that keeps the
    sender's current view file; an event without one is refused."""
    ann = club.to_move()
    club.play(ann)
    assert len(club.log().moves) == 1
    others = [p for p in club.players["g1"].values() if p is not ann]
    # without a view file, or with a stale one, an event is refused
    assert_refused(club, mail(ann.address, "propose takeback 1\n"), ann, "no view file")
    club.play(ann, "propose takeback 1")
    assert club.log().moves[-1].move == "@takeback 1"
    club.play(others[0], "accept")
    rep = match.validate(match.unlock(club.log(), club.secret()))
    assert rep.pending is not None  # one answer of two
    club.play(others[1], "accept")
    rep = match.validate(match.unlock(club.log(), club.secret()))
    assert rep.pending is None and rep.to_move() == "ann", [m.move for m in club.log().moves]
    assert club.to_move() is ann
    # again, rejected this time: the game goes on where it was
    club.play(ann)
    club.play(ann, "propose takeback 1")
    out = club.play(others[0], "reject")
    rep = match.validate(match.unlock(club.log(), club.secret()))
    assert rep.pending is None and rep.to_move() == others[0].name
    assert len(out) == 3
    # an answer with nothing proposed is refused by the rules, in one line
    message = others[1].latest_view()[0]
    assert_refused(club, others[1].reply(message, "accept"), others[1])
    assert club.log().moves[-1].move == "@reject"
    assert_handled(club)
    assert_moves_on(club)


def test_resign_ends_the_game_and_reveals_the_seed(club):
    cy = club.player("cy")
    assert_refused(club, mail(cy.address, "resign\n"), cy, "no view file")
    out = club.play(cy, "resign")
    log = club.log()
    assert log.result is not None and log.seed is not None
    assert match.audit(log).passed
    assert sorted(a for rcpt, _ in out for a in rcpt) == sorted(club.roster["g1"].values())
    assert all("Game over" in str(m["Subject"]) for _, m in out)
    # the game is over: a move on the last view file is refused, in one line
    ann = club.player("ann")
    message, vf = ann.latest_view()
    assert vf.log.result is not None and vf.legal is None
    assert_refused(club, ann.reply(message, "move 1W"), ann, "over", typed="move 1W")


def test_queued_moves_by_mail(club):
    """'move A, B': A is taken, B waits for ann's next turn and is dropped
    when it is not hers, and she is told so in her answer."""
    ann = club.to_move()
    message, vf = ann.latest_view()
    out = club.play(ann, f"move {vf.legal[0]}, {vf.legal[-1]}")
    assert [m.move for m in club.log().moves] == [vf.legal[0]]
    answer = body_of(_mails_to(out, ann.address)[0]).replace("\r\n", "\n")
    assert f"applied: {vf.legal[0]}" in answer and "dropped" in answer, answer
    # moves with nothing between them are one move per word
    ann_next = club.to_move()
    vf = ann_next.latest_view()[1]
    club.play(ann_next, f"move {vf.legal[0]} {vf.legal[1]}")
    assert club.log().moves[-1].move == vf.legal[0]
    assert_handled(club)


# --- configuration -------------------------------------------------------------------------------


def test_password_in_referee_toml_is_refused(tmp_path):
    Club(tmp_path)
    toml = tmp_path / "referee.toml"
    toml.write_text(toml.read_text() + 'password = "hunter2"\n')
    with pytest.raises(postal.ConfigError, match="do not write the password") as e:
        postal.load_config(tmp_path, environ={})
    assert "hunter2" not in str(e.value)
    with pytest.raises(postal.ConfigError):
        postal.MailReferee(tmp_path)
    # from the environment or a file it is fine
    toml.write_text(toml.read_text().replace('password = "hunter2"', 'password_file = "pw"'))
    (tmp_path / "pw").write_text("hunter2\n")
    assert postal.load_config(tmp_path, environ={}).smtp.password == "hunter2"
    assert postal.load_config(
        tmp_path, environ={"ADJUDICATOR_SMTP_PASSWORD": "s3"}).smtp.password == "s3"


def test_roster_naming_players_not_in_the_log(tmp_path):
    Club(tmp_path)
    roster = tmp_path / "roster.toml"
    roster.write_text(roster.read_text().replace('"cy"', '"mallory"'))
    with pytest.raises(postal.ConfigError, match="mallory"):
        postal.MailReferee(tmp_path)
    roster.write_text(roster.read_text().replace('"mallory" = "cy.g1', '"cy" = "ann.g1'))
    with pytest.raises(postal.ConfigError, match="two seats"):
        postal.load_roster(tmp_path)


def test_game_that_is_not_refereed(tmp_path):
    Club(tmp_path)
    (tmp_path / "games" / "g1.json").write_bytes(
        logmod.encode(match.new_log("atlas", list(PLAYERS), seed="open")))
    with pytest.raises(postal.ConfigError, match="not a refereed game"):
        postal.MailReferee(tmp_path)
    # a secret of another game
    other = Club(tmp_path / "other")
    (tmp_path / "games" / "g1.json").write_bytes(other.log_bytes())
    with pytest.raises(postal.ConfigError, match="not the secret"):
        postal.MailReferee(tmp_path)


def test_cli_bad_config_is_one_line(tmp_path):
    """``adjudicator referee DIR --once`` on a bad directory: exit 1, one
    ``Error:`` line, the password not echoed, no traceback."""
    Club(tmp_path)
    toml = tmp_path / "referee.toml"
    toml.write_text(toml.read_text() + 'password = "hunter2"\n')
    result = subprocess.run([sys.executable, "-m", "adjudicator", "referee", str(tmp_path),
                             "--once"], capture_output=True, text=True, timeout=120)
    assert result.returncode == 1, result
    assert result.stderr.startswith("Error: ") and len(result.stderr.splitlines()) == 1, result
    assert "hunter2" not in result.stderr + result.stdout
    assert "Traceback" not in result.stderr


def test_cli_once_against_a_real_smtp_server(tmp_path, smtp):
    """The command as cron runs it: attacks and a good move waiting in the
    Maildir, one run; the good move is taken, each attack handled once."""
    club = Club(tmp_path, server=smtp)
    club.run()
    ann = club.to_move()
    message, vf = ann.latest_view()
    eve = Player("eve", "eve@evil.test", random.Random(2))
    club.deliver(eve.reply(message, "move " + vf.legal[0]))
    club.deliver(_nested_multiparts(ann, 1000))
    club.deliver(random.Random(7).randbytes(5000))
    reply = ann.reply(message, "move " + vf.legal[0])
    club.deliver(reply)
    club.deliver(reply)
    result = subprocess.run([sys.executable, "-m", "adjudicator", "referee", str(tmp_path),
                             "--once"], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0 and "Traceback" not in result.stderr, result
    assert [m.move for m in club.log().moves] == [vf.legal[0]]
    assert "put aside" not in result.stdout
    out = club.run()  # what the command sent; the referee of the test finds nothing to do
    assert club.lines == []
    assert len(out) == 3 and len(_mails_to(out, ann.address)) == 1
    assert _mails_to(out, ann.address)[0]["In-Reply-To"] == parse(reply)["Message-ID"]
    assert_handled(club)
    assert len(list((tmp_path / "Maildir" / "cur").iterdir())) == 5
