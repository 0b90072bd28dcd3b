"""The deal nobody chooses, run by the referee by mail (issue #25): a
three-player Atlas game whose players commit, reveal and send words in
replies to the referee's mails, over a real SMTP server and a real Maildir;
the game is dealt once every part is in, and ``audit`` checks every
contribution. Each refusal is one line and records nothing; a crash after
the last part is received deals once."""

from __future__ import annotations

import random
from collections import defaultdict
from email.message import Message
from pathlib import Path

import pytest
from typer.testing import CliRunner

from adjudicator import dealing, log as logmod, mailparse, match, postal
from adjudicator.cli import app
from adjudicator.log import Log, ViewFile

from mailref import Player, SMTPServer, body_of, deliver, parse, referee_dir
from test_postal_crash import Crash, crashed_runs

PLAYERS = ("ann", "bob", "cy")


def cli(*args: object) -> str:
    r = CliRunner().invoke(app, [str(a) for a in args], prog_name="adjudicator")
    assert r.exit_code == 0, (args, r.output)
    return r.stdout


def table(root: Path, port: int) -> dict[str, str]:
    """A referee directory with one Atlas game whose deal ann and bob make
    with the tool and cy in words."""
    roster = referee_dir(root, port, {"atlas": ("atlas", PLAYERS, "unused")})["atlas"]
    log, secret = match.new_refereed("atlas", list(PLAYERS), deal=["ann", "bob"], words=["cy"])
    (root / "games" / "atlas.json").write_bytes(logmod.encode(log))
    (root / "games" / "atlas.secret.json").write_bytes(logmod.encode(secret))
    return roster


def stored(root: Path) -> Log:
    return logmod.decode((root / "games" / "atlas.json").read_bytes())


def attached_log(message: Message, tmp: Path, player: str) -> Path:
    """The log attached to a referee's mail, saved as the player would."""
    part = next(p for p in message.iter_attachments() if p.get_filename() == "atlas.txt")
    path = tmp / f"{player}-atlas.txt"
    path.write_text(part.get_content(), encoding="ascii")
    return path


def round_(ref: postal.MailReferee, smtp: SMTPServer,
           players: dict[str, Player]) -> dict[str, list[Message]]:
    """One round of the referee; the mails each player got from it."""
    ref.run_once()
    return {p: seat.collect(smtp.sink) for p, seat in players.items()}


def error_of(got: list[Message]) -> str:
    (mail,) = got
    text = body_of(mail)
    assert text.startswith("Error: ") and "Nothing was recorded" in text, text
    return " ".join(text.split("\n\n")[0].split())


def line(output: str) -> str:
    return output.strip().splitlines()[0]


def to_last_part(root: Path, smtp: SMTPServer, tmp: Path) -> tuple[
        postal.MailReferee, dict[str, Player], dict[str, list[Message]]]:
    """The deal by mail up to cy's words, delivered and not yet taken;
    with each refusal on the way. Returns the referee, the players and the
    mails of the last round."""
    roster = table(root, smtp.port)
    players = {p: Player(p, a, random.Random(p)) for p, a in roster.items()}
    ref = postal.MailReferee(root)
    got = round_(ref, smtp, players)
    # The announcement: each player one mail, the log attached, asking ann
    # and bob to commit and cy to wait.
    assert all(len(m) == 1 for m in got.values())
    assert "deal commit atlas.txt --as ann" in body_of(got["ann"][0])
    assert "words of your own" in body_of(got["cy"][0])
    for message in (m for ms in got.values() for m in ms):
        assert all(len(x) <= 72 and x.isascii() and not x.startswith(">")
                   for x in body_of(message).splitlines())
    calls = {p: ms[0] for p, ms in got.items()}

    # ann commits with her tool, riding on her reply; cy's words come too early.
    commit_ann = line(cli("deal", "commit", attached_log(calls["ann"], tmp, "ann"), "--as", "ann"))
    deliver(root, players["ann"].reply(calls["ann"], commit_ann))
    deliver(root, players["cy"].reply(calls["cy"], "words three blue horses"))
    got = round_(ref, smtp, players)
    assert "Waiting for bob to commit" in " ".join(body_of(got["ann"][0]).split())
    assert "bob must commit before anyone reveals" in error_of(got["cy"])
    assert stored(root).deal["ann"].commitment is not None and not got["bob"]
    # A move before the deal: refused, and the game is not dealt.
    deliver(root, players["bob"].reply(calls["bob"], "show"))
    got = round_(ref, smtp, players)
    assert "the deal waits for bob to commit" in error_of(got["bob"])

    # bob's commitment is the last: every player gets the log holding them all.
    commit_bob = line(cli("deal", "commit", attached_log(calls["bob"], tmp, "bob"), "--as", "bob"))
    # bob's mail client wraps the long line: the value goes to the next line.
    deliver(root, players["bob"].reply(calls["bob"], commit_bob.replace(" ", "\n", 2)
                                       .replace("\n", " ", 1)))
    got = round_(ref, smtp, players)
    assert all(len(m) == 1 and "Every commitment is in" in " ".join(body_of(m[0]).split())
               for m in got.values())
    calls = {p: ms[0] for p, ms in got.items()}

    # A value that is not ann's: refused with one line.
    deliver(root, players["ann"].reply(calls["ann"], "reveal ann " + "0" * 32))
    got = round_(ref, smtp, players)
    assert "ann's value does not match their commitment" in error_of(got["ann"])
    reveal_ann = line(cli("deal", "reveal", attached_log(calls["ann"], tmp, "ann"), "--as", "ann"))
    deliver(root, players["ann"].reply(calls["ann"], reveal_ann))
    got = round_(ref, smtp, players)
    assert "Your part is recorded" in body_of(got["ann"][0])
    # A commitment after a value is out: refused (bob would choose knowing ann's).
    deliver(root, players["bob"].reply(calls["bob"], "commit bob " + "e" * 64))
    got = round_(ref, smtp, players)
    assert "committed already" in error_of(got["bob"])
    reveal_bob = line(cli("deal", "reveal", attached_log(calls["bob"], tmp, "bob"), "--as", "bob"))
    deliver(root, players["bob"].reply(calls["bob"], reveal_bob))
    got = round_(ref, smtp, players)
    assert "Waiting for cy" in " ".join(body_of(got["bob"][0]).split())
    assert stored(root).deal["bob"].value is not None

    # cy's words, the last part: delivered, not yet taken.
    deliver(root, players["cy"].reply(calls["cy"], "words three  blue horses"))
    return ref, players, got


def views_in(message: Message) -> list[ViewFile]:
    return [f.value for f in mailparse.extract_all(message.as_bytes())
            if isinstance(f.value, ViewFile)]


def test_a_deal_by_mail_is_dealt_once_every_part_is_in_and_audited(
        tmp_path: Path, smtp: SMTPServer) -> None:
    root, tmp = tmp_path / "ref", tmp_path / "players"
    tmp.mkdir()
    ref, players, _ = to_last_part(root, smtp, tmp)
    got = round_(ref, smtp, players)
    # Dealt: each player one mail with their first view.
    for p in PLAYERS:
        (mail,) = got[p]
        (vf,) = views_in(mail)
        assert vf.player == p and "the deal is complete" in " ".join(body_of(mail).split())
    log = stored(root)
    assert log.deal["cy"].value == "three blue horses" and not log.moves
    # The first player moves by mail, as in any game.
    mover = next(p for p in PLAYERS if views_in(got[p][0])[0].legal)
    vf = views_in(got[mover][0])[0]
    assert vf.legal
    deliver(root, players[mover].reply(got[mover][0], f"move {vf.legal[0]}"))
    round_(ref, smtp, players)
    assert len(stored(root).moves) == 1
    # The referee reveals the seed (here by hand) and anyone audits: every
    # contribution against its commitment, the deal against them all.
    game = tmp_path / "final.json"
    game.write_bytes((root / "games" / "atlas.json").read_bytes())
    cli("reveal", game, "--secret", root / "games" / "atlas.secret.json")
    out = cli("audit", game)
    deal = next(x for x in out.splitlines() if "deal:" in x)
    assert deal.split()[0] == "ok" and "ann, bob committed" in deal and "cy sent words" in deal


def test_a_crash_after_the_last_part_deals_once(
        tmp_path: Path, smtp: SMTPServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """The last part received, the referee dies at each step of taking it
    in turn (the journal, the log, each first view into the spool, the
    state, filing, sending); the next start deals once: one log, one first
    view per player (a copy sent again is the same mail)."""
    start = tmp_path / "start"
    roster = table(start, smtp.port)
    # ann and bob's parts recorded (as the referee's deal record does); cy
    # answers the referee's mail asking for her words.
    log = stored(start)
    secret = logmod.decode_secret((start / "games" / "atlas.secret.json").read_bytes())
    for kind in ("commit", "reveal"):
        for p in ("ann", "bob"):
            log = dealing.record(log, secret, getattr(dealing, f"player_{kind}")(log, p))
    (start / "games" / "atlas.json").write_bytes(logmod.encode(log))
    cy = Player("cy", roster["cy"], random.Random(0))
    postal.MailReferee(start).run_once()
    (call,) = cy.collect(smtp.sink)
    deliver(start, cy.reply(call, "words three  blue horses"))
    for run in crashed_runs(tmp_path, smtp, monkeypatch, start, Crash()):
        root, sent = run.root, run.sent
        postal.MailReferee(root).run_once()
        postal.MailReferee(root).run_once()
        log = stored(root)
        assert log.deal["cy"].value == "three blue horses" and not log.moves
        assert not (root / "state" / "pending.json").exists()
        assert not list((root / "spool").glob("*.eml"))
        ids: dict[str, set[str]] = defaultdict(set)
        for rcpt, data in smtp.sink.received[sent:]:
            message = parse(data)
            assert views_in(message), "only first views are sent"
            for address in rcpt:
                ids[address].add(str(message["Message-ID"]))
        assert len(ids) == 3 and all(len(i) == 1 for i in ids.values()), ids
    assert run.at > 8



def test_a_part_never_sent_is_dropped_by_the_organiser_and_the_clock_waits(
        tmp_path: Path, smtp: SMTPServer) -> None:
    """A timed game whose cy never commits: the referee's clock does not act
    on a game not dealt (days pass, no reminder, no crash); the organiser
    drops cy's part (bob's, committed, stays), every player is told and asked
    to reveal, and the game is dealt from the parts that are in."""
    from datetime import UTC, datetime, timedelta

    from adjudicator import clock

    start = datetime(2026, 3, 2, 9, tzinfo=UTC)
    now = [start]
    root = tmp_path / "ref"
    roster = referee_dir(root, smtp.port, {"atlas": ("atlas", PLAYERS, "unused")})["atlas"]
    log, secret = match.new_refereed("atlas", list(PLAYERS), deal=list(PLAYERS),
                                     time=clock.parse("per-move=24h grace=12h"),
                                     started=clock.stamp(start))
    for p in ("ann", "bob"):
        log = dealing.record(log, secret, dealing.player_commit(log, p))
    (root / "games" / "atlas.json").write_bytes(logmod.encode(log))
    (root / "games" / "atlas.secret.json").write_bytes(logmod.encode(secret))
    (root / "referee.toml").write_text("outage = 10000\n" + (root / "referee.toml").read_text())
    players = {p: Player(p, a, random.Random(p)) for p, a in roster.items()}
    ref = postal.MailReferee(root, now=lambda: now[0].timestamp())
    got = round_(ref, smtp, players)
    assert "deal commit atlas.txt --as cy" in body_of(got["cy"][0])
    now[0] += timedelta(days=3)
    assert ref.run_once() == [] and stored(root) == log  # the clock waits for the deal
    assert ref.status() == ["atlas: the deal waits for cy to commit"]

    ref.request(["drop", "atlas", "bob"])
    assert "bob has committed" in ref.run_once()[0]
    ref.request(["drop", "atlas", "cy"])
    got = round_(ref, smtp, players)
    assert list(stored(root).deal) == ["ann", "bob"]
    for p in PLAYERS:
        text = " ".join(body_of(got[p][0]).split())
        assert "The organiser dropped cy's part of the deal" in text
    for p in ("ann", "bob"):
        call = got[p][0]
        reveal = line(cli("deal", "reveal", attached_log(call, tmp_path, p), "--as", p))
        deliver(root, players[p].reply(call, reveal))
    now[0] += timedelta(hours=1)
    got = round_(ref, smtp, players)
    assert all(views_in(got[p][-1]) for p in PLAYERS)  # dealt: the first views
    dealt = stored(root)
    assert not dealing.pending(dealt) and dealt.started == clock.stamp(now[0])
    match.check_public(dealt)
    # The clock starts at the deal: the 3 days it took are on nobody's clock.
    deal_time = now[0]
    now[0] += timedelta(hours=1)
    assert ref.run_once() == [] and not stored(root).moves
    now[0] += timedelta(hours=22)
    assert f"due by {clock.stamp(deal_time + timedelta(hours=24))}" in " ".join(ref.run_once())
