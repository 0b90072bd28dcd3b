"""Moves the referee cannot forge (issue #25, attack 5): a player whose key
is in the game's header signs their moves by mail, and neither the referee
nor anyone with their address and a forwarded view file can move or resign
for them; mail-only players are held to their provider's DKIM signature,
checked with dkimpy against a local resolver stub, and the signed message
is archived for anyone to check later.

Each attack asserts the same contract as tests/test_postal_attacks.py: one
error to the sender, the log byte for byte the same.
"""

from __future__ import annotations

import base64
import quopri
import random
import zlib
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage, Message
from pathlib import Path

import msgspec
import pytest

from adjudicator import clock, log as logmod, mailparse, match, postal, referee, seal, textform
from adjudicator.postal import authenticity
from adjudicator.errors import AdjudicatorError
from adjudicator.log import ViewFile

from mailref import Player, body_of, deliver, parse

REFEREE = "referee@club.test"
START = datetime(2026, 3, 2, 9, tzinfo=UTC)


def private_key(name: str) -> str:
    """A player's fixed private key."""
    return base64.b64encode(zlib.crc32(name.encode()).to_bytes(4, "big") * 8).decode("ascii")


@pytest.fixture(autouse=True)
def fixed_secrets(request, monkeypatch):
    rng = random.Random(zlib.crc32(request.node.nodeid.encode()))
    monkeypatch.setattr(seal, "new_salt", lambda: rng.randbytes(16).hex())
    monkeypatch.setattr(seal, "new_signing_key",
                        lambda: base64.b64encode(rng.randbytes(32)).decode("ascii"))


class Table:
    """A referee directory with one game ``g`` of q-turn (ann, bob); ann's
    key is in its header. The referee's clock is injected; what it sends is kept."""

    def __init__(self, root: Path, ann: str = '"ann@ann.test"', bob: str = '"bob@bob.test"',
                 timed: bool | str = False,
                 dns: Callable[..., bytes | None] | None = None) -> None:
        self.root = root
        self.now = START
        (root / "games").mkdir(parents=True)
        # repeat = 0: every refusal is answered, even the same words twice
        # (by default the same answer goes to an address once an hour).
        (root / "referee.toml").write_text(
            f'address = "{REFEREE}"\npicture = "none"\noutage = 1440\nrepeat = 0\n[smtp]\n'
            'host = "127.0.0.1"\nsecurity = "none"\n', encoding="utf-8")
        header: dict = {"started": clock.stamp(START)}
        if timed:
            header["time"] = clock.parse(timed if isinstance(timed, str) else "per-move=48h")
        log, secret = match.new_refereed("q-turn", ["ann", "bob"], "signed-1",
                                         keys={"ann": seal.public_key(private_key("ann"))},
                                         **header)
        (root / "games" / "g.json").write_bytes(logmod.encode(log))
        (root / "games" / "g.secret.json").write_bytes(logmod.encode(secret))
        (root / "games" / "g.secret.json").chmod(0o600)
        self.addresses = {"ann": "ann@ann.test", "bob": "bob@bob.test"}
        (root / "roster.toml").write_text(f"[g]\nann = {ann}\nbob = {bob}\n", encoding="utf-8")
        self.sent: list[tuple[list[str], bytes]] = []
        kwargs = {} if dns is None else {"dns": dns}
        self.referee = postal.MailReferee(root, send=lambda s, to, d: self.sent.append((to, d)),
                                          now=lambda: self.now.timestamp(), **kwargs)
        self.players = {p: Player(p, a, random.Random(p)) for p, a in self.addresses.items()}
        self.run()

    def run(self) -> list[tuple[list[str], Message]]:
        before = len(self.sent)
        self.referee.run_once()
        out = [(to, parse(d)) for to, d in self.sent[before:]]
        for to, message in out:
            for p in self.players.values():
                if p.address in to:
                    p.inbox.append(message)
        return out

    def log_bytes(self) -> bytes:
        return (self.root / "games" / "g.json").read_bytes()

    def log(self) -> logmod.Log:
        return logmod.decode(self.log_bytes())

    def secret(self) -> logmod.Secret:
        return logmod.decode_secret((self.root / "games" / "g.secret.json").read_bytes())

    def refused(self, data: bytes, sender: str, *fragments: str) -> str:
        """Delivered, ``data`` records nothing and is answered with one error."""
        before = self.log_bytes()
        deliver(self.root, data)
        out = self.run()
        assert self.log_bytes() == before
        assert [to for to, _ in out] == [[self.addresses[sender]]], self.referee_lines()
        body = body_of(out[0][1])
        assert body.startswith("Error: "), body
        error = " ".join(line.removeprefix("  | ") for line in body.split("\n\n")[0].splitlines())
        for fragment in fragments:
            assert fragment in error, error
        return error

    def taken(self, data: bytes) -> logmod.Log:
        """Delivered, ``data`` adds one entry to the log; mail to both players."""
        n = len(self.log().moves)
        deliver(self.root, data)
        out = self.run()
        assert len(self.log().moves) == n + 1, self.referee_lines()
        assert sorted(a for to, _ in out for a in to) == sorted(self.addresses.values())
        return self.log()

    def referee_lines(self) -> list[str]:
        return (self.root / "referee.log").read_text().splitlines()[-3:]


def signed_reply(player: Player, key: str | None = None, first_line: str = "move",
                 at: str | None = None, move: str | None = None) -> tuple[bytes, ViewFile]:
    """What a player who signs sends: their view file from the referee's
    latest mail, with the move recorded and signed in it (what ``adjudicator
    extend --key KEY FILE MOVE`` writes), attached in the text form to a
    reply whose first line is ``move``; the referee's mail quoted under it."""
    message, vf = player.latest_view()
    assert vf.legal
    chosen = referee.choose(vf, move or vf.legal[0], player_key=key, at=at)
    reply = EmailMessage()
    reply["From"] = player.address
    reply["To"] = REFEREE
    reply["Subject"] = "Re: " + str(message["Subject"])
    reply["Message-ID"] = f"<{random.random()}@{player.address.split('@')[1]}>"
    reply["In-Reply-To"] = str(message["Message-ID"])
    quoted = "\n".join(("> " + line).rstrip() for line in body_of(message).splitlines())
    reply.set_content(f"{first_line}\n\nOn Monday, the referee wrote:\n{quoted}\n")
    reply.add_attachment(textform.dumps(chosen), subtype="plain", filename="g.txt")
    return reply.as_bytes(), chosen


# --- signed moves -------------------------------------------------------------------------------


def test_a_player_who_signs_moves_by_mail_and_the_signature_enters_the_log(tmp_path):
    """ann's key is in the header: her move, recorded and signed in her view
    file and mailed back, is taken with her signature; the log validates
    with every signature, and audit after the reveal checks it is hers."""
    t = Table(tmp_path)
    ann = t.players["ann"]
    data, chosen = signed_reply(ann, private_key("ann"))
    log = t.taken(data)
    entry = log.moves[-1]
    assert (entry.by, entry.move, entry.signature) == ("ann", chosen.move.move,
                                                       chosen.move.signature)
    match.check_seals(log)
    assert match.audit(match.reveal(log, t.secret())).passed


def test_the_referee_cannot_move_or_resign_for_a_player_who_signs(tmp_path):
    """A From: line and ann's view file (forwarded, CC'd, or kept by the
    referee itself) are not enough: a move typed in the mail and a
    resignation are refused with one line; and a log in which the referee
    recorded a move for ann, or put an unsigned entry of hers into it and
    signed the log, fails validation."""
    t = Table(tmp_path)
    ann = t.players["ann"]
    message, vf = ann.latest_view()
    t.refused(ann.reply(message, f"move {vf.legal[0]}"), "ann", "ann signs their moves",
              "extend --key")
    t.refused(ann.reply(message, "resign"), "ann", "ann signs their moves", "signed 'resign'",
              "adjudicator resign FILE --as ann --key KEY")
    # The referee at the machine: it holds no key of ann's.
    log, secret = t.log(), t.secret()
    with pytest.raises(AdjudicatorError, match="ann signs their moves"):
        referee.record(log, secret, [vf.legal[0]], as_player="ann")
    with pytest.raises(AdjudicatorError, match="ann signs their moves"):
        referee.record(log, secret, ["@resign"], as_player="ann")
    # ... nor can it write an unsigned entry of hers and sign the log.
    forged = msgspec.structs.replace(log, moves=match.sealed(log, [("ann", vf.legal[0], None)],
                                                             clock.stamp(START)))
    forged = referee.signed(forged, secret)
    with pytest.raises(AdjudicatorError, match="unsigned: ann signs their moves"):
        match.check_seals(forged)


def test_a_signed_reply_under_another_key_or_edited_is_refused(tmp_path):
    """bob cannot sign for ann with his own key, nor change her signed move."""
    t = Table(tmp_path)
    ann = t.players["ann"]
    message, vf = ann.latest_view()
    chosen = referee.choose(vf, vf.legal[0], player_key=private_key("ann"))
    bob_signed = msgspec.structs.replace(chosen, move=match.sign_move(chosen.move,
                                                                      private_key("bob")))
    other = msgspec.structs.replace(chosen, move=msgspec.structs.replace(
        chosen.move, move=vf.legal[1]))
    for forged, why in ((bob_signed, "signed with another key"),
                        (other, "not chained")):
        mail = EmailMessage()
        mail["From"] = ann.address
        mail["To"] = REFEREE
        mail["Subject"] = "move"
        mail["Message-ID"] = f"<{why.replace(' ', '.')}@ann.test>"
        mail.set_content("move\n")
        mail.add_attachment(textform.dumps(forged), subtype="plain", filename="g.txt")
        t.refused(mail.as_bytes(), "ann", why)


def test_a_move_typed_beside_the_signed_file_must_be_the_same(tmp_path):
    t = Table(tmp_path)
    ann = t.players["ann"]
    vf = ann.latest_view()[1]
    data, _ = signed_reply(ann, private_key("ann"), first_line=f"move {vf.legal[1]}",
                           move=vf.legal[0])
    t.refused(data, "ann", f"holds the move {vf.legal[0]}")


def test_a_player_who_does_not_sign_may_still_send_the_file_itself(tmp_path):
    """bob has no key: a view file with his move recorded (extend without
    --key) is taken like a typed move, stamped by the referee."""
    t = Table(tmp_path)
    while not t.players["bob"].latest_view()[1].legal:
        t.taken(signed_reply(t.players["ann"], private_key("ann"))[0])
        t.now += timedelta(minutes=3)
    log = t.taken(signed_reply(t.players["bob"])[0])
    assert log.moves[-1].by == "bob" and log.moves[-1].signature is None
    match.check_seals(log)


def attached(player: Player, first_line: str, vf: ViewFile) -> bytes:
    """A mail with ``first_line`` and the view file ``vf`` attached in the text form."""
    mail = EmailMessage()
    mail["From"] = player.address
    mail["To"] = REFEREE
    mail["Subject"] = first_line
    mail["Message-ID"] = f"<{random.random()}@{player.address.split('@')[1]}>"
    mail.set_content(f"{first_line}\n")
    mail.add_attachment(textform.dumps(vf), subtype="plain", filename="g.txt")
    return mail.as_bytes()


def test_a_signed_resignation_by_mail_ends_the_game_and_audits(tmp_path):
    """ann signs her resignation in her view file; the referee records her
    entry as it is, the game ends, and audit checks that it is hers. The
    same file under another first line, or another event's, is refused."""
    t = Table(tmp_path)
    ann = t.players["ann"]
    vf = ann.latest_view()[1]
    resigned = referee.choose_event(vf, "@resign", player_key=private_key("ann"))
    t.refused(attached(ann, "propose abandon", resigned), "ann", "holds '@resign'")
    t.refused(attached(ann, "move", resigned), "ann", "holds '@resign'")
    log = t.taken(attached(ann, "resign", resigned))
    assert (log.moves[-1].move, log.moves[-1].signature) == ("@resign",
                                                            resigned.move.signature)
    assert log.result is not None and log.seed is not None  # over, and revealed
    assert match.audit(log).passed


def test_the_cli_records_signed_moves_and_events_in_a_saved_view_file(tmp_path, monkeypatch):
    """What the mail tells a player who signs, as they would type it: the
    view file saved from the mail, ``extend --key`` and ``propose --key`` on
    it; the referee at the machine takes both with ``extend --from``."""
    from typer.testing import CliRunner

    from adjudicator.cli import app

    monkeypatch.chdir(tmp_path)
    runner = CliRunner()

    def run(*words: str) -> str:
        result = runner.invoke(app, list(words))
        assert result.exit_code == 0, (words, result.output)
        return result.output

    (tmp_path / "ann.key").write_bytes(logmod.encode(logmod.KeyFile(
        format="adjudicator-key", version=2, public=seal.public_key(private_key("ann")),
        private=private_key("ann"))))
    (tmp_path / "ann.key").chmod(0o600)
    run("new", "q-turn", "--players", "ann,bob", "--referee", "--key", "ann=ann.key",
        "-o", "g.json")
    run("view", "g.json", "--secret", "g.secret.json", "--as", "ann", "-o", "ann.json")
    run("convert", "ann.json", "--to", "text", "-o", "ann.txt")
    move = referee.issue_view(logmod.decode((tmp_path / "g.json").read_bytes()),
                              logmod.decode_secret((tmp_path / "g.secret.json").read_bytes()),
                              "ann").legal[0]
    assert "send the file" in run("extend", "--key", "ann.key", "ann.txt", move)
    run("extend", "g.json", "--secret", "g.secret.json", "--from", "ann.txt")
    run("view", "g.json", "--secret", "g.secret.json", "--as", "ann", "-o", "ann.json")
    assert "send the file" in run("propose", "ann.json", "abandon", "--as", "ann",
                                  "--key", "ann.key")
    run("extend", "g.json", "--secret", "g.secret.json", "--from", "ann.json")
    log = logmod.decode((tmp_path / "g.json").read_bytes())
    assert [m.move for m in log.moves] == [move, "@abandon"]
    assert all(m.signature for m in log.moves)
    match.check_seals(log)


# --- the head echo: a fork is caught by the player's signature ----------------------------------


def test_a_signed_move_binds_the_history_it_answers(tmp_path):
    """The referee shows ann one history and keeps another (a fork): ann's
    signed move is chained to the head her view file showed, so it cannot
    be carried into the other history, and a copy that claims it fails."""
    t = Table(tmp_path)
    while not t.players["bob"].latest_view()[1].legal:
        t.taken(signed_reply(t.players["ann"], private_key("ann"))[0])
        t.now += timedelta(minutes=3)
    bob = t.players["bob"]
    message, vf = bob.latest_view()
    log, secret = t.log(), t.secret()
    # Two histories: bob's move A (shown to ann) and bob's move B (kept).
    def bobs_turn(first: str) -> logmod.Log:
        out = referee.record(log, secret, [first], as_player="bob", at=clock.stamp(t.now))
        while (view := referee.issue_view(out, secret, "bob")).legal:
            out = referee.record(out, secret, [view.legal[0]], as_player="bob",
                                 at=clock.stamp(t.now))
        return out

    shown, kept = bobs_turn(vf.legal[0]), bobs_turn(vf.legal[1])
    ann_vf = referee.issue_view(shown, secret, "ann")
    signed = referee.choose(ann_vf, ann_vf.legal[0], player_key=private_key("ann"),
                            at=clock.stamp(t.now))
    # Her entry names the head of the history she saw ...
    assert signed.move.digest == match.sealed(shown, [("ann", signed.move.move, None)],
                                              signed.move.at)[-1].digest
    # ... which the kept history does not have: the referee cannot take it there,
    with pytest.raises(AdjudicatorError):
        referee.take(kept, secret, signed, at=clock.stamp(t.now))
    # nor splice it in and re-sign: the chain, then her signature, fail.
    spliced = msgspec.structs.replace(kept, moves=(*kept.moves, signed.move))
    with pytest.raises(AdjudicatorError):
        match.validate(match.unlock(referee.signed(spliced, secret), secret))
    relinked = msgspec.structs.replace(kept, moves=match.sealed(
        kept, [("ann", signed.move.move, None)], signed.move.at))
    relinked = msgspec.structs.replace(relinked, moves=(*relinked.moves[:-1], msgspec.structs.replace(
        relinked.moves[-1], signature=signed.move.signature)))
    with pytest.raises(AdjudicatorError, match="signed with another key"):
        match.check_seals(referee.signed(relinked, secret))


# --- stamps of signed moves ---------------------------------------------------------------------


@pytest.mark.parametrize(("offset", "taken", "why"), [
    (timedelta(minutes=-30), True, ""),
    (timedelta(minutes=2), True, ""),
    (timedelta(hours=-3), False, "more than an hour before the referee's clock"),
    (timedelta(hours=2), False, "after the referee's clock"),
])
def test_a_signed_moves_stamp_is_kept_if_fair(tmp_path, offset, taken, why):
    """The signature covers the stamp, so the referee records the stamp ann
    signed: within a few minutes ahead of its clock, and in a game with a
    time control at most an hour behind it (she cannot backdate a move
    across a deadline); otherwise refused with one line."""
    t = Table(tmp_path, timed=True)
    t.now = START + timedelta(hours=5)
    at = clock.stamp(t.now + offset)
    data, chosen = signed_reply(t.players["ann"], private_key("ann"), at=at)
    if taken:
        assert t.taken(data).moves[-1].at == at
    else:
        t.refused(data, "ann", why)


# --- DKIM: the provider vouches for a mail-only player ------------------------------------------


@pytest.fixture(scope="module")
def provider():
    """Two mail providers' DKIM keys (RSA 1024, generated here) and a
    resolver stub that publishes them, as DNS would, at
    ``SELECTOR._domainkey.DOMAIN``: bob's provider and an attacker's."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa

    keys, records = {}, {}
    for domain in ("bob.test", "evil.test"):
        key = rsa.generate_private_key(public_exponent=65537, key_size=1024)
        keys[domain] = key.private_bytes(serialization.Encoding.PEM,
                                         serialization.PrivateFormat.TraditionalOpenSSL,
                                         serialization.NoEncryption())
        public = key.public_key().public_bytes(serialization.Encoding.DER,
                                               serialization.PublicFormat.SubjectPublicKeyInfo)
        records[f"mail._domainkey.{domain}."] = b"v=DKIM1; k=rsa; p=" + base64.b64encode(public)
    asked: list[str] = []

    def dns(name, timeout=5):  # noqa: ARG001 - dkimpy's dnsfunc
        name = name.decode() if isinstance(name, bytes) else name
        asked.append(name)
        return records.get(name if name.endswith(".") else name + ".")

    return keys, dns, asked


def dkim_signed(data: bytes, domain: str, keys: dict, length: bool = False) -> bytes:
    """``data`` as the provider of ``domain`` sends it: DKIM-signed (dkimpy)."""
    import dkim

    header = dkim.sign(data, b"mail", domain.encode(), keys[domain], length=length,
                       include_headers=[b"from", b"to", b"subject", b"message-id",
                                        b"in-reply-to"])
    return header + data


def bobs_turn(t: Table) -> Player:
    """ann (who signs) plays until it is bob's turn; bob, with his mail."""
    while not t.players["bob"].latest_view()[1].legal:
        t.taken(signed_reply(t.players["ann"], private_key("ann"))[0])
        t.now += timedelta(minutes=3)
    return t.players["bob"]


def bobs_move(bob: Player) -> bytes:
    """bob's reply to his latest mail, with CRLF line ends, as it leaves his client."""
    from email import policy

    message, vf = bob.latest_view()
    return parse(bob.reply(message, f"move {vf.legal[0]}")).as_bytes(policy=policy.SMTP)


DKIM_BOB = '{ address = "bob@bob.test", require = ["dkim"] }'


def test_a_dkim_signed_move_is_taken_and_kept_for_anyone_to_check(tmp_path, provider):
    """bob must be vouched for by his provider: his reply, DKIM-signed by
    bob.test, is taken, and the raw message is kept (0600, in a 0700
    directory of the referee's) exactly as received: checked again from the
    archive alone, it still holds, and it quotes the view file that names
    the game, bob and the position his move answers."""
    keys, dns, asked = provider
    t = Table(tmp_path, bob=DKIM_BOB, dns=dns)
    bob = bobs_turn(t)
    n = len(t.log().moves)
    data = dkim_signed(bobs_move(bob), "bob.test", keys)
    log = t.taken(data)
    assert "mail._domainkey.bob.test." in asked or "mail._domainkey.bob.test" in asked
    (kept,) = (tmp_path / "signed" / "g").iterdir()
    assert kept.name.startswith(f"{n + 1:04}-") and kept.read_bytes() == data
    assert kept.stat().st_mode & 0o777 == 0o600
    assert (tmp_path / "signed").stat().st_mode & 0o777 == 0o700
    assert authenticity.dkim(kept.read_bytes(), "bob@bob.test", dns) == authenticity.Vouched(
        "bob.test", "mail")
    (vf,) = [f.value for f in mailparse.extract_all(kept.read_bytes())
             if isinstance(f.value, ViewFile)]
    assert (vf.player, vf.log.moves) == ("bob", log.moves[:n])
    assert "DKIM: bob.test, kept" in (tmp_path / "referee.log").read_text()


def test_without_the_providers_signature_a_move_is_refused_when_required(tmp_path, provider):
    """A forged From: (no signature, or one by the forger's own domain), a
    body re-encoded, truncated or extended after signing, a signature over
    part of the body (l=), a second From:, and a key missing from DNS: each
    refused with one line; then bob's own signed mail is taken."""
    keys, dns, _ = provider
    t = Table(tmp_path, bob=DKIM_BOB, dns=dns)
    bob = bobs_turn(t)
    ids = iter(range(100))

    def plain() -> bytes:  # bob's reply, under a Message-ID of its own
        return bobs_move(bob).replace(b"Message-ID: <", f"Message-ID: <{next(ids)}.".encode(), 1)

    def signed(data: bytes) -> tuple[bytes, bytes]:
        head, _, body = dkim_signed(data, "bob.test", keys).partition(b"\r\n\r\n")
        return head + b"\r\n\r\n", body

    # re-encoded by a relay after signing: the same text, in base64
    head, body = signed(plain())
    assert b"Content-Transfer-Encoding: quoted-printable" in head
    recoded = (head.replace(b"quoted-printable", b"base64")
               + base64.encodebytes(quopri.decodestring(body)).replace(b"\n", b"\r\n"))
    cases = [(plain(), "carries no DKIM signature"),
             (dkim_signed(plain(), "evil.test", keys), "is by evil.test, not by bob.test"),
             (recoded, "does not match")]
    head, body = signed(plain())
    cases.append((head + body[: len(body) // 2], "does not match"))  # truncated
    head, body = signed(plain())
    cases += [(head + body.replace(b"move ", b"move  ", 1), "does not match"),  # edited
              (dkim_signed(plain(), "bob.test", keys, length=True) + b"\r\nmove A1\r\n",
               "covers only part of the body"),
              (b"From: bob <bob@bob.test>\r\n" + dkim_signed(plain(), "bob.test", keys),
               "more than one From"),
              (b"DKIM-Signature: v=1; a=rsa-sha256; d=bob.test; s=mail; b=x\r\n" + plain(),
               "cannot be checked"),
              # signed with a key that is not the one bob.test publishes
              (dkim_signed(plain(), "bob.test", {"bob.test": keys["evil.test"]}),
               "does not match")]
    for data, why in cases:
        t.refused(data, "bob", "DKIM signature" if "From" not in why else why, why)
    t.taken(dkim_signed(plain(), "bob.test", keys))


def test_a_signature_present_but_not_required_is_kept_and_a_bad_one_ignored(tmp_path,
                                                                             provider):
    """Where the roster asks nothing, a valid signature is kept all the same
    (the move is provable later) and a failing one does not stop the move."""
    keys, dns, _ = provider
    t = Table(tmp_path, dns=dns)
    bob = bobs_turn(t)
    t.taken(dkim_signed(bobs_move(bob), "evil.test", keys))
    assert not (tmp_path / "signed").exists()
    bob = bobs_turn(t)
    t.taken(dkim_signed(bobs_move(bob), "bob.test", keys))
    assert len(list((tmp_path / "signed" / "g").iterdir())) == 1


def test_the_roster_requires_only_what_it_can(tmp_path):
    """A roster that requires signed moves of a player with no key in the
    header, or asks something unknown, stops the referee with one line."""
    with pytest.raises(postal.ConfigError, match="bob must sign, but the game's header holds "
                                                 "no key of theirs"):
        Table(tmp_path / "a", bob='{ address = "bob@bob.test", require = ["signed"] }')
    with pytest.raises(postal.ConfigError, match="requiring any of signed, dkim"):
        Table(tmp_path / "b", bob='{ address = "bob@bob.test", require = ["pgp"] }')
    Table(tmp_path / "c", ann='{ address = "ann@ann.test", require = ["signed", "dkim"] }')


def test_the_signed_reply_test_vector_of_the_notation():
    """notation/README.md, "Signed replies by mail": the bytes signed."""
    key = base64.b64encode(bytes(range(1, 33))).decode("ascii")
    digest = "ebfc217af67532812b9f5ad4127d7ab7fed44dc35078876c068855145c44d804"
    signature = seal.sign(key, [seal.MOVE_SIGN_DOMAIN, digest])
    assert signature == ("IMNPVB77kjsamR4lVmIK2g5QLBVwkYmQKCLemzNsq5cNee6lzHJZeJdw3UGzBxYQkh"
                         "OkxzOEDIASJ5/p0/kQDA==")
    assert seal.MOVE_SIGN_DOMAIN == "adjudicator/sign/move/v1"
    assert signature in (Path(__file__).resolve().parent.parent / "notation" /
                         "README.md").read_text(encoding="utf-8")


def test_a_stand_in_plays_for_a_player_who_signs_and_the_log_holds(tmp_path):
    """The clock's stand-in moves for ann when her time runs out: that entry
    is not hers to sign (it follows ``@stand-in ann``, and audit plays the
    bot's move again), so the log still validates, and audits after the
    reveal; any other unsigned entry of hers still fails."""
    t = Table(tmp_path, timed="per-move=1h expiry=stand-in stand-in=random")
    t.now = START + timedelta(hours=5)
    t.run()
    log = t.log()
    assert [m.move for m in log.moves[:3]] == ["@remind ann", "@timeout ann", "@stand-in ann"]
    assert log.moves[3].by == "ann" and log.moves[3].signature is None
    match.check_seals(log)
    assert match.audit(match.reveal(log, t.secret())).passed
    moved = msgspec.structs.replace(log, moves=(*log.moves[:2], *log.moves[3:]))
    with pytest.raises(AdjudicatorError):
        match.check_seals(moved)
