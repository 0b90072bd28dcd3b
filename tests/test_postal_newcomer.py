"""Issue #26 for the referee by mail, and three denials of service of #25:
what a newcomer's mail client and habits do to a move, and what a robot or
a forger can make the referee send.

- An error mail carries the player's view file again: a reply to it (the
  natural thing after a typo) is a move like any other.
- A command is found however it is indented, prefixed or punctuated, and a
  mail whose one line is a move is that move; a quoted line, a line of a
  mail quoted without '>' or a signature line is never one. The hint of an
  error is in the game's own notation.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from adjudicator import match, postal

sys.path.insert(0, str(Path(__file__).resolve().parent))

from mailref import body_of  # noqa: E402
from test_postal_attacks import (  # noqa: E402, F401 - fixed_secrets: the same deals every run
    Club, assert_handled, assert_refused, error_of, fixed_secrets, mail, with_from, with_view)


@pytest.fixture
def club(tmp_path: Path) -> Club:
    """A 3-player Atlas game whose players have had their first mail."""
    c = Club(tmp_path)
    c.run()
    return c


def test_a_reply_to_an_error_mail_is_taken(club: Club) -> None:
    ann = club.to_move()
    message, vf = ann.latest_view()
    for typo in ("move ZZ9", "mvoe " + vf.legal[0]):
        club.deliver(ann.reply(message, typo))
        (rcpt, answer), = club.run()
        assert rcpt == [ann.address] and "Error: " in error_of(answer)
        assert "-----BEGIN ADJUDICATOR VIEW-----" in body_of(answer)
        message = answer  # the player answers the error mail
    n = len(club.log().moves)
    out = club.play(ann, "move " + vf.legal[0])  # latest_view: the error mail
    assert ann.latest_view()[0] is not message
    assert len(club.log().moves) == n + 1, club.lines
    assert len(out) == 3
    assert_handled(club)


FORMS = ("  move {}", "Move: {}", "{}", "move {}.", "*move {}*", "**Move:** {}!")


def test_a_command_however_it_is_indented_prefixed_or_punctuated(club: Club) -> None:
    for form in FORMS:
        player = club.to_move()
        message, vf = player.latest_view()
        n = len(club.log().moves)
        # a bare move is the only line the player wrote
        club.deliver(player.reply(message, form.format(vf.legal[0]), sign=form != "{}"))
        out = club.run()
        assert len(club.log().moves) == n + 1, (form, club.lines)
        assert club.log().moves[-1].move == vf.legal[0]
        assert len(out) == 3
    assert_handled(club)


@pytest.mark.parametrize("body", [
    "Hello\n\nOn Monday, the referee wrote:\nmove {}\n",  # a quote without '>'
    "Hello\n\n-----Original Message-----\nFrom: referee\nmove {}\n",  # Outlook's
    "Not now.\n-- \nmove {}\n",  # a signature
    "> move {}\n",  # quoted
])
def test_a_quoted_or_signature_line_is_never_a_command(club: Club, body: str) -> None:
    ann = club.to_move()
    _, vf = ann.latest_view()
    before = club.log_bytes()
    club.deliver(mail(ann.address, with_view(body.format(vf.legal[0]), vf), subject="hi"))
    (rcpt, answer), = club.run()
    assert club.log_bytes() == before
    assert "no command found" in error_of(answer)


@pytest.mark.parametrize("game_id", ["q-turn", "fifteen-days", "turn-of-time"])
def test_the_hint_is_in_the_games_own_notation(tmp_path: Path, game_id: str) -> None:
    players = ("ann", "bob", "cy") if game_id == "fifteen-days" else ("ann", "bob")
    club = Club(tmp_path, {"g1": (game_id, players, "hint")})
    club.run()
    player = club.to_move()
    message, vf = player.latest_view()
    assert f"'move {vf.legal[0]}'" in body_of(message)
    club.deliver(player.reply(message, "I am thinking about it, give me a day"))
    (_, answer), = club.run()
    error = error_of(answer)
    assert f"e.g. 'move {vf.legal[0]}'" in error and "3D" not in error, error
    other = next(p for p in club.players["g1"].values() if p is not player)
    club.deliver(mail(other.address, "move\n", subject="x"))
    (_, answer), = club.run()
    assert "'move 3D'" not in error_of(answer)


def test_a_bystanders_proposal_does_not_void_the_movers_reply(club: Club) -> None:
    """#25: ann's move is on its way when bob proposes a takeback: her move
    is still taken (and drops the proposal: the players played on)."""
    ann = club.to_move()
    club.play(ann)
    bob = club.to_move()
    cy = next(p for p in club.players["g1"].values() if p not in (ann, bob))
    message, vf = bob.latest_view()
    in_flight = bob.reply(message, "move " + vf.legal[0])
    club.play(cy, "propose takeback 1")
    assert club.log().moves[-1].move == "@takeback 1"
    club.deliver(in_flight)
    out = club.run()
    log = club.log()
    assert [e.move for e in log.moves[-2:]] == ["@takeback 1", vf.legal[0]], club.lines
    assert match.validate(match.unlock(log, club.secret())).pending is None
    assert len(out) == 3
    # A proposal agreed (the position changed) still voids a reply to before it.
    message, vf = cy.latest_view()
    club.play(cy, "propose takeback 1")
    club.play(ann, "accept")
    club.play(bob, "accept")
    assert_refused(club, cy.reply(message, "move " + vf.legal[0]), cy, "answers move")


def test_a_player_may_write_from_an_alias(tmp_path: Path) -> None:
    """roster.toml lists a second address of ann's: her move from it is
    taken, and the referee still writes to her first address."""
    club = Club(tmp_path)
    roster = (tmp_path / "roster.toml").read_text()
    first = club.roster["g1"]["ann"]
    (tmp_path / "roster.toml").write_text(
        roster.replace(f'"ann" = "{first}"', f'"ann" = ["{first}", "Ann@Work.test"]'))
    club.restart()
    club.run()
    ann = club.player("ann")
    message, vf = ann.latest_view()
    if not vf.legal:  # ann moves first in this deal; else let the others move
        raise AssertionError("ann is expected to move first")
    club.deliver(with_from(ann.reply(message, "move " + vf.legal[0]), "Ann <ann@work.test>"))
    out = club.run()
    assert club.log().moves[-1].move == vf.legal[0], club.lines
    assert sorted(a for rcpt, _ in out for a in rcpt) == sorted(club.roster["g1"].values())
    # An alias is one seat's: another seat may not list it.
    (tmp_path / "roster.toml").write_text(roster.replace(
        f'"bob" = "{club.roster["g1"]["bob"]}"', f'"bob" = ["{club.roster["g1"]["bob"]}", '
        f'"{first}"]'))
    with pytest.raises(postal.ConfigError, match="plays two seats"):
        postal.MailReferee(tmp_path, send=club.send)


def test_the_organiser_is_told_what_was_ignored_once(tmp_path: Path) -> None:
    club = Club(tmp_path)
    toml = tmp_path / "referee.toml"
    toml.write_text('organiser = "Org <org@club.test>"\n' + toml.read_text())
    club.restart()
    club.run()
    ann = club.player("ann")
    # a player through a list, strangers: none is answered
    club.deliver(mail(ann.address, "move 3D\n", headers={"List-Id": "<club.lists.test>"}))
    for i in range(30):
        club.deliver(mail(f"stranger{i}@elsewhere.test", "move 3D\n", subject=f"hi {i}"))
    out = club.run()
    assert [rcpt for rcpt, _ in out] == [["org@club.test"]], club.lines
    notice = body_of(out[0][1])
    assert "ignored 31 mails" in notice and "stranger0@elsewhere.test: 1 (plays no game here)" in notice
    assert "List-Id" in notice and "and 11 more" in notice, notice
    assert all(len(line) <= 72 for line in notice.splitlines())
    club.deliver(mail("eve@elsewhere.test", "help\n"))
    assert club.run() == [], "not one mail per spam: one notice per day at most"
    assert "plays no game here" in (tmp_path / "referee.log").read_text().splitlines()[-1]


def test_a_robot_that_ignores_auto_submitted_gets_one_answer(club: Club) -> None:
    """#25: an autoresponder at ann's address that answers every mail
    without marking its own: one answer, not a loop."""
    ann = club.player("ann")
    answers = 0
    for _ in range(6):
        club.deliver(mail(ann.address, "I am away on holiday until Monday.\n",
                          subject="Re: [g1] Your move"))
        answers += len(club.run())
    assert answers == 1, club.lines
    assert "not answered: the same answer" in club.lines[0]


def test_a_forged_show_reflects_one_view_to_the_roster_address(club: Club) -> None:
    """#25: 'show' in ann's name, again and again: ann gets her view once
    (at her own address), not once per forgery."""
    ann = club.player("ann")
    sent = []
    for _ in range(20):
        club.deliver(mail(ann.address, "show\n", subject="x"))
        sent += club.run()
    assert [rcpt for rcpt, _ in sent] == [[ann.address]]
    # Different errors, one after the other: at most 'answers' (20) an hour.
    _, vf = ann.latest_view()
    for i in range(25):
        club.deliver(mail(ann.address, with_view(f"move Z{i}", vf), subject="x"))
        sent += club.run()
    assert len(sent) == 20, club.lines
    assert "not answered: 20 answers went to" in club.lines[0]


def _rendered_reply(player, message, line: str, html_intact: bool) -> bytes:
    """A reply in HTML whose plain part a text browser (w3m, lynx) rendered
    from it: here a line of the quoted view file is lost on the way (its
    Head line), so the plain part's copy is damaged; the HTML part keeps the
    quote intact unless ``html_intact`` is False."""
    import html
    from email.message import EmailMessage
    from email.utils import make_msgid

    text = body_of(message).replace("\r\n", "\n")
    damaged = "\n".join(x for x in text.splitlines() if not x.startswith("[Head "))
    msg = EmailMessage()
    msg["From"] = player.address
    msg["To"] = str(message["From"])
    msg["Subject"] = "Re: " + str(message["Subject"])
    msg["Message-ID"] = make_msgid(domain="players.test")
    msg["In-Reply-To"] = str(message["Message-ID"])
    msg.set_content(f"{line}\n\n" + "\n".join("> " + x for x in damaged.splitlines()) + "\n")
    quote = text if html_intact else damaged
    msg.add_alternative(f"<html><body><p>{html.escape(line)}</p><blockquote><pre>"
                        f"{html.escape(quote)}</pre></blockquote></body></html>", subtype="html")
    return msg.as_bytes()


def test_a_view_file_damaged_in_the_plain_part_is_read_from_the_html(club: Club) -> None:
    ann = club.to_move()
    message, vf = ann.latest_view()
    assert "\n[Head " in body_of(message).replace("\r\n", "\n")
    club.deliver(_rendered_reply(ann, message, "move " + vf.legal[0], html_intact=False))
    (_, answer), = club.run()
    error = error_of(answer)
    assert "damaged" in error and "holds no view file" not in error, error
    club.deliver(_rendered_reply(ann, message, "move " + vf.legal[0], html_intact=True))
    out = club.run()
    assert club.log().moves[-1].move == vf.legal[0], club.lines
    assert len(out) == 3


def test_the_command_readers_doctests() -> None:
    """The examples in adjudicator/postal/commands.py: the forms a command
    is found in, markup inside an argument kept (a standing order's '*N*'),
    and a hint in Q-Turn's notation."""
    import doctest

    from adjudicator.postal import commands

    result = doctest.testmod(commands, verbose=False)
    assert result.attempted >= 4 and result.failed == 0
