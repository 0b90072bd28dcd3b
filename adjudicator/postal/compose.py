"""The mails the referee writes: a player's view of a game, an error, a
command's answer. Every mail is 72-column ASCII text, marked as sent
automatically (RFC 3834), with a Message-ID made from a seed so that a mail
composed again after a crash is the same mail."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from email import policy
from email.message import EmailMessage, Message
from email.utils import formatdate, parseaddr
from typing import Any

import msgspec

from .. import games, present, referee
from ..engine import Style
from ..errors import AdjudicatorError
from ..log import Log, ViewFile
from .config import Config
from .incoming import strip_reply_prefix

__all__ = ["ASCII", "Composer", "how_to_answer", "picture", "public_text", "view_of"]

ASCII = Style(unicode=False, color=False)


@dataclass(frozen=True)
class Composer:
    """Writes the mails of the referee of ``config``, to the addresses of
    ``roster``, dated by ``now``."""

    config: Config
    roster: Mapping[str, Mapping[str, str]]
    now: Callable[[], float]

    @property
    def domain(self) -> str:
        return self.config.address.partition("@")[2] or "localhost"

    def message_id(self, game: str | None, seed: str) -> str:
        return f"<adj.{game or 'referee'}.{hashlib.sha256(seed.encode()).hexdigest()[:20]}" \
               f"@{self.domain}>"

    def mail(self, to: str, subject: str, body: str, *, game: str | None, seed: str,
             reply_to: Message | None = None,
             attachments: Sequence[tuple[str, str, bytes]] = (),
             auto: str = "auto-generated", calendar: bytes | None = None) -> bytes:
        msg = EmailMessage(policy=policy.SMTP)
        msg["From"] = f"{self.config.name} <{self.config.address}>"
        msg["To"] = to
        msg["Subject"] = subject
        msg["Date"] = formatdate(self.now(), usegmt=True)
        msg["Message-ID"] = self.message_id(game, seed)
        msg["Auto-Submitted"] = auto
        if reply_to is not None and reply_to.get("Message-ID"):
            msg["In-Reply-To"] = str(reply_to["Message-ID"]).strip()
            refs = str(reply_to.get("References", "")).split()
            msg["References"] = " ".join([*refs[-8:], str(reply_to["Message-ID"]).strip()])
        msg.set_content(body if body.endswith("\n") else body + "\n", charset="us-ascii",
                        cte="7bit")
        for filename, ctype, data in attachments:
            maintype, _, subtype = ctype.partition("/")
            if maintype == "text":
                msg.add_attachment(data.decode("ascii"), subtype=subtype, charset="us-ascii",
                                   cte="7bit", filename=filename)
            else:
                msg.add_attachment(data, maintype=maintype, subtype=subtype, filename=filename)
        if calendar is not None:
            from .. import calendars

            calendars.attach(msg, calendar)
        return msg.as_bytes()

    def position_mails(self, name: str, log: Log, views: Mapping[str, ViewFile], *, seed: str,
                       by: str | None = None, reply_to: Message | None = None) -> list[bytes]:
        """A mail to every player of game ``name`` about where it stands, each
        with their view file of ``views`` (the mail to ``by`` answers
        ``reply_to``), and one text form of the public log for all."""
        public = public_text(log)
        return [self.view_mail(name, log, views[p], public, seed=f"{seed}:{p}",
                               reply_to=reply_to if p == by else None) for p in log.players]

    def view_mail(self, name: str, log: Log, vf: ViewFile, public: bytes, *, seed: str,
                  reply_to: Message | None = None, headline: str | None = None) -> bytes:
        """The mail that tells ``vf.player`` where game ``name`` stands: their
        view, their moves when it is their turn, and their view file (what a
        reply must keep), with the public log (``public``, in the text form)
        and a picture attached."""
        from .. import textform

        game = games.get(log.game)
        ply = len(log.moves)
        if log.result is not None:
            subject = f"[{name}] Game over ({game.title})"
        elif vf.legal is not None:
            subject = f"[{name}] Your move ({game.title}, move {ply + 1})"
        else:
            subject = f"[{name}] {vf.to_move} to move ({game.title}, move {ply + 1})"
        if headline is not None and log.result is None:
            subject = f"[{name}] {headline} ({game.title}, move {ply + 1})"
        lines = [present.view_file_text(vf, view_of(vf), ASCII), ""]
        if log.result is None:
            lines += how_to_answer(vf.legal is not None, signs=bool(log.keys.get(vf.player)))
        else:
            lines.append("The seed is now in the log: anyone can check the game with")
            lines.append(f"'adjudicator audit {name}.txt' on the attached log.")
        lines += ["", "Your view file (keep it in your reply):", textform.dumps(vf)]
        attachments = [(f"{name}.txt", "text/plain", public)]
        board = picture(vf, self.config.picture)
        if board is not None:
            attachments.append(board)
        return self.mail(self.roster[name][vf.player], subject, "\n".join(lines), game=name,
                         seed=seed, reply_to=reply_to, attachments=attachments,
                         auto="auto-replied" if reply_to is not None else "auto-generated",
                         calendar=self.due(name, log, vf))

    def due(self, name: str, log: Log, vf: ViewFile) -> bytes | None:
        """The calendar part of a mail in a game with a time control: the
        player's deadline when it is their move (one event per game and seat,
        its SEQUENCE the number of entries, so it rises whenever the deadline
        can have moved), or a CANCEL once it is not (they moved, or the game
        is over). None in a game without one."""
        if log.time is None:
            return None
        from datetime import UTC, datetime

        from .. import calendars, clock

        address = self.roster[name][vf.player]
        stamp = datetime.fromtimestamp(self.now(), UTC)
        line = clock.timeline(log, vf.to_move if log.result is None else None)
        deadline = line.deadline()
        sequence, organizer = len(log.moves), self.config.address
        if vf.legal is not None and deadline is not None:
            return calendars.due(name, vf.player, deadline=deadline, sequence=sequence,
                                 domain=self.domain, organizer=organizer, attendee=address,
                                 stamp=stamp,
                                 description=f"Your move in {name}: reply to the referee's "
                                             "latest mail with your move.")
        return calendars.cancel(name, vf.player, deadline=deadline or stamp, sequence=sequence,
                                domain=self.domain, organizer=organizer, attendee=address,
                                stamp=stamp)

    def error_mail(self, message: Message, text: str, game: str | None, seed: str) -> bytes:
        """The answer to a mail that records nothing: ``Error: text``, in one paragraph."""
        subject = strip_reply_prefix(str(message.get("Subject", "")))[:60] or "your mail"
        sender = parseaddr(str(message.get("From", "")))[1]
        body = "\n".join([present.fold(f"Error: {text}", ASCII), "",
                          "Nothing was recorded. Reply 'help' for the commands."])
        return self.mail(sender, f"Re: {subject}", body, game=game, seed=seed,
                         reply_to=message, auto="auto-replied")

    def answer_mail(self, message: Message, command: str, text: str, seed: str) -> bytes:
        """The answer to a command about no game (``help``): ``text``."""
        sender = parseaddr(str(message.get("From", "")))[1]
        return self.mail(sender, f"Re: {command}", text, game=None, seed=seed, reply_to=message,
                         auto="auto-replied")


def how_to_answer(to_move: bool, signs: bool = False) -> list[str]:
    if to_move and signs:
        # The referee cannot sign for them: the move is their signed entry.
        return [
            "You sign your moves. To play, save your view file below (e.g. as",
            "game.txt), record your move in it with your key:",
            "  adjudicator extend --key KEY game.txt MOVE",
            "and reply with 'move' on the first line and game.txt attached.",
        ]
    if to_move:
        return [
            "To play, reply to this mail with your move on the first line, e.g.",
            "'move 3D' (several moves queue: 'move 3D, 5W'). Keep the quoted text:",
            "the view file in it proves the move is yours.",
        ]
    if signs:
        return ["Not your turn: you will get a mail when it is. To resign, or to",
                "propose, accept or reject, record it in your view file with your",
                "key (adjudicator resign game.txt --as NAME --key KEY) and reply",
                "with 'resign' (or the like) on the first line and the file attached."]
    return ["Not your turn: you will get a mail when it is. You may reply with",
            "'propose takeback N', 'accept', 'reject' or 'resign'."]


def public_text(log: Log) -> bytes:
    """The public log in the text form, as attached to every mail."""
    from .. import textform

    return textform.dumps(log).encode("ascii")


def view_of(vf: ViewFile) -> Any:
    """The view in a view file this referee has checked or issued, decoded
    without checking the file again (:func:`referee.check_view` does that,
    and says what is wrong with a file it cannot decode)."""
    try:
        return msgspec.json.decode(vf.view, type=games.get(vf.log.game).view_type)
    except (msgspec.DecodeError, RecursionError):
        return referee.check_view(vf)


def picture(vf: ViewFile, kind: str) -> tuple[str, str, bytes] | None:
    """The board as the player sees it: PNG (when resvg is installed, else
    SVG), SVG, or none."""
    if kind == "none":
        return None
    from .. import drawing

    game = games.get(vf.log.game)
    try:
        svg = game.draw(view_of(vf), present.scene_of_view_file(vf))
    except (AdjudicatorError, KeyError, IndexError, ValueError, TypeError, AttributeError):
        return None
    if kind == "png":
        try:
            return ("board.png", "image/png", drawing.png(svg))
        except (ImportError, AdjudicatorError):
            pass
    return ("board.svg", "image/svg+xml", svg.encode("utf-8"))
