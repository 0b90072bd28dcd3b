"""Issue #11's "done when": games carried in mail bodies from start to end.

Three people play a complete refereed game of 15 Days and an open game of
Atlas. Every file travels in the body of a mail built with the standard
library's ``email`` package; each reply quotes the mail before it and is
re-wrapped by a "mail client" (60, 72 or 76 columns, quoted-printable or
base64, CRLF). Every player is a script that reads only the mails it
receives, through the command line, and never reads a line wider than 72
columns. At the end the refereed game is revealed and audited, and a forum
post holding the open game's text form is read back exactly.
"""

from __future__ import annotations

import email
import itertools
from email import policy
from email.message import EmailMessage
from pathlib import Path

from typer.testing import CliRunner

from adjudicator import log as logmod, match
from adjudicator.cli import app
from test_textform import quote, rewrap

PLAYERS = ("ann", "bob", "cy")
WIDTHS = itertools.cycle((60, 72, 76))
ENCODINGS = itertools.cycle(("quoted-printable", "base64", "7bit"))


def cli(*args: str) -> str:
    r = CliRunner().invoke(app, list(args))
    assert r.exit_code == 0, (args, r.output)
    return r.output


def read_like_a_player(*args: str) -> str:
    """A command a player runs to read a mail: every line fits a mail window."""
    out = cli(*args, "--ascii")
    for line in out.splitlines():
        assert len(line) <= 72 and line.isascii(), (args, line)
    return out


class Post:
    """The mail between the players and the referee, as bytes on the wire."""

    def __init__(self, root: Path) -> None:
        self.root, self.count = root, 0

    def send(self, sender: str, to: str, body: str, previous: bytes | None) -> Path:
        """A mail whose body is ``body`` above the quoted previous mail, as a
        mail client re-wraps and encodes it; saved as an .eml file."""
        text = f"Hi {to},\n\n{body}\n-- \n{sender}\n"
        if previous is not None:
            old = email.message_from_bytes(previous, policy=policy.default)
            part = old.get_body(("plain",))
            assert part is not None
            text += f"\nOn Monday, {old['From']} wrote:\n" + quote(part.get_content())
        text = rewrap(text, next(WIDTHS))
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = f"{sender}@example.org", f"{to}@example.org", "game"
        cte = next(ENCODINGS)
        msg.set_content(text, cte=cte if cte != "7bit" else None)
        self.count += 1
        path = self.root / f"{self.count:04d}-{sender}-to-{to}.eml"
        path.write_bytes(msg.as_bytes().replace(b"\n", b"\r\n"))
        return path


def test_a_refereed_game_of_fifteen_days_by_mail(tmp_path: Path) -> None:
    post = Post(tmp_path)
    g, s = tmp_path / "g.json", tmp_path / "g.secret.json"
    cli("new", "fifteen-days", "--players", ",".join(PLAYERS), "--referee", "--seed", "mail",
        "-o", str(g))
    inbox: dict[str, Path] = {}  # each player's latest mail from the referee

    def referee_writes(player: str, previous: bytes | None, extra: str = "") -> None:
        mine = tmp_path / "view.txt"
        cli("view", str(g), "--secret", str(s), "--as", player, "--to", "text", "-o", str(mine))
        body = extra + "Your turn. Your view file is below.\n\n" + mine.read_text()
        mine.unlink()
        inbox[player] = post.send("rita", player, body, previous)

    first = match.replay(match.unlock(logmod.decode(g.read_bytes()),
                                      logmod.decode_secret(s.read_bytes()))).to_move()
    assert first is not None
    referee_writes(first, None)
    turns = 0
    while True:
        to_move = [p for p in PLAYERS if p in inbox]
        assert len(to_move) == 1
        player = to_move[0]
        mail = inbox.pop(player)
        # The player reads the mail with the tool: the board, what happened
        # since their last move, their legal moves.
        shown = read_like_a_player("show", str(mail))
        legal = cli("legal", str(mail)).split()
        assert legal and "Legal moves" in shown
        # Takes and draws first: a simple player, but every move from the list.
        move = next((m for m in legal if m[:1] in "TD"), legal[0])
        mine = tmp_path / f"{player}.txt"
        cli("convert", str(mail), "--to", "text", "-o", str(mine), "--force")
        cli("extend", str(mine), move)
        answer = post.send(player, "rita", "My move:\n\n" + mine.read_text(), mail.read_bytes())
        mine.unlink()
        # The referee takes the move from the reply, quoted old file and all.
        cli("extend", str(g), "--secret", str(s), "--from", str(answer))
        turns += 1
        rep = match.replay(match.unlock(logmod.decode(g.read_bytes()),
                                        logmod.decode_secret(s.read_bytes())))
        nxt = rep.to_move()
        if nxt is None:
            break
        referee_writes(nxt, answer.read_bytes() if nxt == player else None)
    final = logmod.decode(g.read_bytes())
    assert turns == len(final.moves) > 50 and final.result is not None
    cli("reveal", str(g), "--secret", str(s))
    cli("audit", str(g))  # exit status 0: every check passed
    # What every player got at the end: the result, in a mail window.
    for p in PLAYERS:
        read_like_a_player("show", str(g), "--as", p)


def test_an_open_game_of_atlas_by_mail_one_mail_per_turn(tmp_path: Path) -> None:
    post = Post(tmp_path)
    g = tmp_path / "start.json"
    cli("new", "atlas", "--players", ",".join(PLAYERS), "--seed", "mail", "-o", str(g))
    text = tmp_path / "start.txt"
    cli("convert", str(g), "--to", "text", "-o", str(text))
    # The first player is sent the game by the organiser.
    last = post.send("organiser", "ann", "The game:\n\n" + text.read_text(), None)
    mails = 1
    while True:
        assert cli("validate", str(last)).startswith("ok ")
        rep = match.replay(_read(last))
        player = rep.to_move()
        if player is None:
            break
        read_like_a_player("show", str(last), "--as", player)
        legal = cli("legal", str(last)).split()
        mine = tmp_path / f"{player}.txt"
        cli("convert", str(last), "--to", "text", "-o", str(mine), "--force")
        cli("extend", str(mine), legal[len(legal) // 2], "--as", player)
        nxt = match.replay(_read(mine)).to_move() or "organiser"
        last = post.send(player, nxt, "My move:\n\n" + mine.read_text(), last.read_bytes())
        mails += 1
    final = _read(last)
    assert mails == len(final.moves) + 1  # one mail per turn, and the first
    assert final.result is not None
    # A forum post: the text form between other posts' text, read back exactly.
    post_text = ("Re: Atlas, round 2\n\nFinal position of our game:\n\n"
                 + cli("convert", str(last), "--to", "text")
                 + "\nGG all!\n\nQuote from: bob\n> nice game\n")
    forum = tmp_path / "forum.txt"
    forum.write_text(post_text)
    assert logmod.encode(_read(forum)) == logmod.encode(final)


def _read(path: Path) -> logmod.Log:
    from adjudicator import mailparse

    value = mailparse.extract(path.read_bytes(), path.name)
    assert isinstance(value, logmod.Log)
    return value
