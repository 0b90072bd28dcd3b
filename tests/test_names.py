"""Names that hold a space (issue #26): ``Ann Smith`` everywhere a name
goes, the command line, the log and its text form, view files, the ASCII
style of mail, the referee by mail, the clock's and the organiser's acts;
and the names that must still be refused, each with one line."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

import pytest
from typer.testing import CliRunner

from adjudicator import clock, log as logmod, mailparse, match, names, postal, referee, textform
from adjudicator.cli import app
from adjudicator.log import ViewFile

from mailref import Player, SMTPServer, deliver, referee_dir

START = datetime(2026, 3, 2, 9, tzinfo=UTC)  # in the past: the log refuses future stamps


def run(*args: str | Path):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(app, [str(a) for a in args])


def legal(lg: logmod.Log) -> list[str]:
    """The legal moves of the player to move, as typed."""
    rep = match.replay(lg)
    return [rep.game.format_move(rep.state, m) for m in rep.game.legal_moves(rep.state)]


def lines_ok(text: str) -> None:
    """Mail-safe: printable ASCII, 72 columns, no line a mail client takes for a quote."""
    for line in text.splitlines():
        assert line.isascii() and line.isprintable(), line
        assert len(line) <= 72, line
        assert not line.startswith(">"), line


# --- the rule ----------------------------------------------------------------------------------


def test_the_names_modules_examples_hold() -> None:
    import doctest

    result = doctest.testmod(names, verbose=False)
    assert result.failed == 0 and result.attempted >= 9


def test_a_name_is_cleaned_then_checked() -> None:
    assert names.clean(" \u00a0Ann \t Smith\n") == "Ann Smith"
    assert [names.valid(n) for n in ("Ann Smith", "Ελένη Π.", "Jean-Luc O.", "a b c")] == \
        [True, True, True, True]
    assert [names.valid(n) for n in ("Ann  Smith", "Ann ", " Ann", "Ann\tSmith", "x" * 25,
                                     '"Ann"', "Ann]", "3W", "@resign", "> ann")] == [False] * 10
    assert names.key("Ann Smith") == names.key("ANNSMITH") == names.key("ann smith")


# --- the command line ---------------------------------------------------------------------------


def test_new_extend_show_and_as_take_a_name_with_a_space(tmp_path: Path) -> None:
    game = tmp_path / "g.json"
    r = run("new", "atlas", "--players", " Ann  Smith,Bob Jones,cy", "--seed", "n1", "-o", game)
    assert r.exit_code == 0, r.output
    assert "Ann Smith to move" in r.output
    assert logmod.decode(game.read_bytes()).players == ("Ann Smith", "Bob Jones", "cy")
    r = run("show", game, "--as", "Ann Smith")
    assert r.exit_code == 0, r.output
    assert "as seen by Ann Smith" in r.output and "Hand of Ann Smith" in r.output
    first = legal(logmod.decode(game.read_bytes()))[0]
    # --as as typed: spaces at the ends and inside do not count, case does (as before).
    r = run("extend", game, first, "--as", "  Ann   Smith ")
    assert r.exit_code == 0, r.output
    lg = logmod.decode(game.read_bytes())
    assert [e.by for e in lg.moves] == ["Ann Smith"]
    r = run("extend", game, legal(lg)[0], "--as", "Ann Smith")
    assert r.exit_code == 1 and "Bob Jones" in r.output
    r = run("show", game, "--as", "ann smith")
    assert r.exit_code == 2 and r.output.count("\n") == 1 and "no such player" in r.output
    r = run("show", game, "--ascii", "--as", "Bob Jones")
    assert r.exit_code == 0, r.output
    lines_ok(r.output)
    assert "Last move: Ann Smith" in r.output


@pytest.mark.parametrize(("players", "said"), [
    ("Ann Smith,ann  smith,cy", "is used twice"),
    ("Ann Smith,AnnSmith,cy", "is used twice ('Ann Smith': case and spaces do not count)"),
    ('Ann"] [Result 1,bob', "player name 'Ann\"] [Result 1'"),
    ("ann,> bob", "player name '> bob'"),
    ("ann,-----END ADJUDICATOR LOG-----", "player name '-----END ADJUDICATOR LOG-----'"),
    ("ann,3W", "player name '3W'"),
    ("ann,@resign", "player name '@resign'"),
    ("ann,Ann Smith {x}", "player name 'Ann Smith {x}'"),
    ("ann,Ref Eree", "'referee' is kept for a game's referee"),
    ("ann,Anna-Katharina Smith-Jones", "player name 'Anna-Katharina Smith-Jones'"),
], ids=["spacing", "joined", "tag", "quote-mark", "end-line", "move", "event", "comment",
        "referee", "too-long"])
def test_a_name_that_is_no_name_is_refused_in_one_line(tmp_path: Path, players: str,
                                                        said: str) -> None:
    r = run("new", "atlas", "--players", players, "-o", tmp_path / "g.json")
    assert r.exit_code == 1, r.output
    assert r.output.count("\n") == 1 and said in r.output, r.output
    assert not (tmp_path / "g.json").exists()


# --- the text form ------------------------------------------------------------------------------


def test_the_text_form_of_a_log_and_a_view_file_with_spaced_names_round_trips() -> None:
    players = ["Zoë Ångström", "Ann Smith", "bob"]
    log, secret = match.new_refereed("atlas", players, seed="t1",
                                     time=clock.parse("per-move=10h expiry=stand-in"),
                                     started=clock.stamp(START))
    for n in range(4):
        log = referee.record(log, secret, [legal(match.unlock(log, secret))[0]],
                             at=clock.stamp(START + timedelta(hours=n + 1)))
    text = textform.dumps(log)
    lines_ok(text)
    assert '[Players "Zo\\u00eb \\u00c5ngstr\\u00f6m" "Ann Smith" "bob"]' in text
    # The moves line up after a name quoted for its space.
    moves = [line for line in text.splitlines() if line[:1].isdigit()]
    assert moves[1].startswith('2. "Ann Smith" ') and moves[2].startswith("3. bob         ")
    assert logmod.encode(textform.loads(text)) == logmod.encode(log)
    # A view file, in the ASCII style of mail too.
    vf = referee.issue_view(log, secret, "Ann Smith")
    text = textform.dumps(vf)
    lines_ok(text)
    assert '[Player "Ann Smith"]' in text
    back = textform.loads(text)
    assert isinstance(back, ViewFile) and logmod.encode(back) == logmod.encode(vf)
    # Quoted and re-wrapped by a mail client: a name broken at its space still reads.
    mangled = "\n".join("> " + line.replace('"Ann Smith"', '"Ann\n> Smith"')
                        for line in text.splitlines())
    assert logmod.encode(textform.loads(mangled)) == logmod.encode(vf)


def test_ascii_names_stay_unique_case_and_spaces_aside() -> None:
    from adjudicator.present import ascii_names

    got = ascii_names(["Zoë Li", "ZoeLi", "Ελένη Παππά"])
    assert got == {"Zoë Li": "Zoe Li-1", "Ελένη Παππά": "Eleni Pappa"}
    assert len({names.key(n) for n in [*got.values(), "ZoeLi"]}) == 3


def test_a_name_cannot_inject_a_line_into_the_text_form() -> None:
    """A log edited by hand to hold a name that is no name is refused when
    read, whatever the name tries to look like in the text form."""
    log = match.new_log("atlas", ["Ann Smith", "bob"], "i1")
    for bad in ('Ann"] [Result 1', "ann\n[Head 00]", "> ann", "Ann  Smith", " ann",
                "-----END ADJUDICATOR LOG-----"):
        forged = logmod.encode(log).replace(b'"Ann Smith"', logmod.encode(bad).strip())
        with pytest.raises(Exception) as e:
            match.validate(logmod.decode(forged))
        assert "player name" in str(e.value), (bad, e.value)
        text = textform.dumps(logmod.decode(forged))
        lines_ok(text)
        with pytest.raises(Exception, match="player name"):
            match.validate(textform.loads(text))


# --- the clock's and the organiser's acts -------------------------------------------------------


def test_an_act_of_the_clock_quotes_a_name_with_a_space() -> None:
    assert clock.act_text("stand-in", "Ann Smith") == '@stand-in "Ann Smith"'
    assert clock.act_text("stand-in", "ann") == "@stand-in ann"  # as every log before
    assert clock.act_parts('@replace "Ann Smith" "Dee Lee"') == ("replace", ["Ann Smith", "Dee Lee"])


def test_the_organisers_words_read_a_name_of_several_words_one_way_only() -> None:
    from adjudicator import timekeeper
    from adjudicator.errors import UsageError

    seats = ("Ann Smith", "bob")
    assert timekeeper.organiser_args("stand-in", ["ann", "smith", "back"], seats) == \
        ["Ann Smith", "back"]
    assert timekeeper.organiser_args("extend", ["Ann Smith", "12"], seats) == ["Ann Smith", "12"]
    assert timekeeper.organiser_args("replace", ["bob", "Dee", "Lee"], seats) == ["bob", "Dee Lee"]
    with pytest.raises(UsageError, match="double quotes"):
        timekeeper.organiser_args("replace", ["Ann", "Smith", "Jones"], ("Ann", "Ann Smith"))
    assert timekeeper.organiser_args("replace", ["Ann Smith", "Jones"], ("Ann", "Ann Smith")) \
        == ["Ann Smith", "Jones"]


# --- by mail ------------------------------------------------------------------------------------


def view_in(message) -> ViewFile:  # type: ignore[no-untyped-def]
    return [f.value for f in mailparse.extract_all(message.as_bytes())
            if isinstance(f.value, ViewFile)][0]


def test_ann_smith_plays_by_mail_and_the_organiser_names_her(tmp_path: Path,
                                                            smtp: SMTPServer) -> None:
    """A refereed game by mail where "Ann Smith" moves by mail, the
    organiser orders a stand-in for her by signed mail (her name quoted)
    and at the machine (unquoted), and gives bob's seat to "Dee Lee"; the
    log holds the acts with her name quoted and its audit passes."""
    from adjudicator import seal
    from adjudicator.postal import organiser

    players = ("Ann Smith", "bob")
    roster = referee_dir(tmp_path, smtp.port, {"g": ("atlas", players, "m1")})["g"]
    assert roster["Ann Smith"] == "annsmith.g@players.test"
    log, secret = match.new_refereed("atlas", list(players), "m1",
                                     time=clock.parse("per-move=10h expiry=wait stand-in=random"),
                                     started=clock.stamp(START))
    (tmp_path / "games" / "g.json").write_bytes(logmod.encode(log))
    (tmp_path / "games" / "g.secret.json").write_bytes(logmod.encode(secret))
    key = seal.new_signing_key()
    toml = tmp_path / "referee.toml"
    toml.write_text("outage = 1440\n" + toml.read_text().replace(
        "[smtp]", f'[organisers]\n"org@club.test" = "{seal.public_key(key)}"\n[smtp]'))
    now = [START]
    ref = postal.MailReferee(tmp_path, now=lambda: now[0].timestamp())
    ref.run_once()

    def current() -> logmod.Log:
        return logmod.decode((tmp_path / "games" / "g.json").read_bytes())

    ann = Player("Ann Smith", roster["Ann Smith"], random.Random(1))
    bob = Player("bob", roster["bob"], random.Random(2))
    for p in (ann, bob):
        p.collect(smtp.sink)
        lines_ok(p.inbox[-1].get_body(preferencelist=("plain",)).get_content())
    mover = ann if match.replay(match.unlock(current(), secret)).to_move() == "Ann Smith" else bob
    if mover is bob:
        deliver(tmp_path, bob.reply(bob.inbox[-1], f"move {view_in(bob.inbox[-1]).legal[0]}"))
        now[0] += timedelta(minutes=5)
        ref.run_once()
        ann.collect(smtp.sink)
    vf = view_in(ann.inbox[-1])
    assert vf.player == "Ann Smith" and vf.to_move == "Ann Smith" and vf.legal
    deliver(tmp_path, ann.reply(ann.inbox[-1], f"move {vf.legal[-1]}"))
    now[0] += timedelta(minutes=5)
    ref.run_once()
    assert current().moves[-1].by == "Ann Smith" and current().moves[-1].move == vf.legal[-1]
    # The organiser, by signed mail: her name quoted, as 'key sign-admin' writes it.
    signed = organiser.sign(key, "referee@club.test", ["stand-in", "g", "Ann Smith", "back"])
    assert signed.startswith('admin stand-in g "Ann Smith" back\n')
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "Org <org@club.test>", "referee@club.test", "admin"
    msg["Message-ID"] = make_msgid(domain="organisers.test")
    msg.set_content(signed)
    deliver(tmp_path, msg.as_bytes())
    now[0] += timedelta(minutes=5)
    ref.run_once()
    acts = [e.move for e in current().moves if e.by == "referee"]
    assert acts == ['@order-stand-in "Ann Smith" back']
    # bob moves; the stand-in plays Ann Smith's turn at once.
    bob.collect(smtp.sink)
    deliver(tmp_path, bob.reply(bob.inbox[-1], f"move {view_in(bob.inbox[-1]).legal[0]}"))
    now[0] += timedelta(minutes=5)
    ref.run_once()
    lg = current()
    assert lg.moves[-2].move == '@stand-in "Ann Smith"' and lg.moves[-1].by == "Ann Smith"
    ann.collect(smtp.sink)
    told = ann.inbox[-1].get_body(preferencelist=("plain",)).get_content()
    lines_ok(told)
    assert "for Ann Smith" in " ".join(told.split())
    # At the machine, unquoted words: she is back; bob's seat goes to Dee Lee.
    r = run("referee", tmp_path, "admin", "replace", "g", "bob", "Dee", "Lee", "dee@x.test")
    assert r.exit_code == 0, r.output
    assert [e.move for e in current().moves if e.by == "referee"][-1] == '@replace bob "Dee Lee"'
    assert clock.holders(current())["bob"] == "Dee Lee"
    r = run("referee", tmp_path, "admin", "eject", "g", "ann", "smith")
    assert r.exit_code == 0, r.output
    lg = current()
    assert lg.moves[-1].move == '@eject "Ann Smith"' and lg.result is not None
    assert lg.result.standings[-1].player == "Ann Smith"
    report = match.audit(lg)
    assert report.passed, report
    text = textform.dumps(lg)
    lines_ok(text)
    assert logmod.encode(textform.loads(text)) == logmod.encode(lg)


# --- every game's printouts ---------------------------------------------------------------------


LONG = ["Ana Maria de la Cruz Ruiz", "Zoë Ångström-Ølstad Li", "Ελένη Παπαδοπούλου Κ", "bo b"]


@pytest.mark.parametrize("game_id", sorted(__import__("adjudicator.games").games.PACKAGES))
def test_every_game_prints_spaced_names_in_72_ascii_columns(tmp_path: Path, game_id: str) -> None:
    """The longest names with spaces, in the ASCII style of mail: the board,
    the score, the legal moves, after a few moves, each line within 72
    columns, pure ASCII, none starting with '>'; the names transliterated
    and still told apart."""
    from adjudicator import games

    count = max(n for n in games.get(game_id).players if n <= len(LONG))
    players = [n[:24].rstrip() for n in LONG[:count]]
    game = tmp_path / "g.json"
    r = run("new", game_id, "--players", ",".join(players), "--seed", "p1", "-o", game)
    assert r.exit_code == 0, r.output
    for _ in range(3):
        lg = logmod.decode(game.read_bytes())
        if match.replay(lg).to_move() is None:
            break
        assert run("extend", game, legal(lg)[0]).exit_code == 0
    lg = logmod.decode(game.read_bytes())
    for who in lg.players:
        r = run("show", game, "--ascii", "--as", who)
        assert r.exit_code == 0, r.output
        lines_ok(r.output)
    r = run("convert", game, "--to", "text")
    lines_ok(r.output)
    assert logmod.encode(textform.loads(r.output)) == game.read_bytes()


def test_a_tournament_seats_players_with_spaced_names(tmp_path: Path) -> None:
    """The players file takes the address last, so a name may hold spaces;
    the tournament file, the games and the mail referee's roster keep them."""
    import tomllib

    from adjudicator.tournament import event

    (tmp_path / "players.txt").write_text(
        "# name address\nAnn  Smith ann@x.test\n\"Bob Jones\" bob@x.test\ncy cy@x.test\n",
        encoding="utf-8")
    r = run("tournament", "new", tmp_path / "ev", "--name", "Spring", "--id", "sp", "--game",
            "atlas", "--players", tmp_path / "players.txt", "--rounds", "1", "--tables", "3",
            "--seed", "x")
    assert r.exit_code == 0, r.output
    assert list(event.load(tmp_path / "ev").players) == ["Ann Smith", "Bob Jones", "cy"]
    (tmp_path / "ev" / "referee").mkdir()
    (tmp_path / "ev" / "referee" / "referee.toml").write_text('address = "ref@x.test"\n')
    r = run("tournament", "round", tmp_path / "ev")
    assert r.exit_code == 0, r.output
    roster = tomllib.loads((tmp_path / "ev" / "referee" / "roster.toml").read_text())
    assert roster["sp-r1-t1"]["Ann Smith"] == "ann@x.test"
    game = logmod.decode((tmp_path / "ev" / "referee" / "games" / "sp-r1-t1.json").read_bytes())
    assert set(game.players) == {"Ann Smith", "Bob Jones", "cy"}
    postal.MailReferee(tmp_path / "ev" / "referee")  # the referee takes the roster as it is
    (tmp_path / "twice.txt").write_text("Ann Smith a@x.test\nann smith b@x.test\n")
    r = run("tournament", "new", tmp_path / "ev2", "--name", "S", "--id", "s", "--game", "atlas",
            "--players", tmp_path / "twice.txt", "--rounds", "1", "--tables", "3", "--seed", "x")
    assert r.exit_code == 1 and "listed twice" in r.output and r.output.count("\n") == 1


def test_the_deal_takes_a_name_with_a_space_quoted_or_not() -> None:
    """``commit NAME HEX`` and ``reveal NAME VALUE`` with a name of two
    words: the tool writes it quoted, the referee reads it either way, and
    a mail client that moved the value to the next line is undone."""
    from adjudicator import dealing
    from adjudicator.postal import deal

    log, secret = match.new_refereed("atlas", ["Ann Smith", "bob", "cy"],
                                     deal=["Ann Smith", "bob"], words=["cy"])
    line = dealing.player_commit(log, "Ann Smith")
    assert line.startswith('commit "Ann Smith" ')
    hex_ = line.split()[-1]
    # By mail, unquoted, the value wrapped onto the next line.
    args = deal.rewrapped("commit", ["Ann", "Smith"], f"commit Ann Smith\n{hex_}\n", "Ann Smith")
    assert deal.line_of("commit", args, "Ann Smith") == line
    log = dealing.record(log, secret, f"commit Ann Smith {hex_}")
    log = dealing.record(log, secret, dealing.player_commit(log, "bob"))
    log = dealing.record(log, secret, "words cy three blue horses")
    value = dealing.player_reveal(log, "Ann Smith").split()[-1]
    log = dealing.record(log, secret, f"reveal ann  smith {value}")
    log = dealing.record(log, secret, dealing.player_reveal(log, "bob"))
    assert log.deal["Ann Smith"].value == value
    rep = match.validate(match.unlock(log, secret))
    assert rep.to_move() in log.players


def test_play_and_the_replay_page_take_a_name_with_a_space(tmp_path: Path) -> None:
    table = tmp_path / "t.json"
    r = CliRunner().invoke(app, ["play", "atlas", "--players", "Ann  Smith,bot", "--seed", "r1",
                                 "-o", str(table)], input="quit\n")
    assert r.exit_code == 0, r.output
    assert logmod.decode(table.read_bytes()).players == ("Ann Smith", "bot1")
    assert "--as 'Ann Smith'" in r.output  # the hint pastes back into a shell
    page = tmp_path / "r.html"
    r = run("replay", table, "--html", "-o", page)
    assert r.exit_code == 0, r.output
    html = page.read_text(encoding="utf-8")
    assert ">Ann Smith</option>" in html
