"""The mails the referee writes: a player's view of a game, an error, a
command's answer. Every mail is 72-column ASCII text, marked as sent
automatically (RFC 3834), with a Message-ID made from a seed so that a mail
composed again after a crash is the same mail."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from email import policy
from email.message import EmailMessage, Message
from email.utils import formataddr, formatdate, parseaddr
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
    ``roster`` (players may write from their ``aliases`` too), dated by ``now``."""

    config: Config
    roster: Mapping[str, Mapping[str, str]]
    now: Callable[[], float]
    #: The mail preferences a player at an address chose (``prefs``): only
    #: what they set; referee.toml's ``picture`` and ``mail`` for the rest.
    preferences: Callable[[str], Mapping[str, str]] = lambda address: {}

    def chosen(self, address: str) -> dict[str, str]:
        """Every mail preference of the player at ``address``, defaults included."""
        return {"picture": self.config.picture, "mail": self.config.mail,
                **self.preferences(address)}

    def wants(self, name: str, log: Log, vf: ViewFile) -> bool:
        """Whether ``vf.player`` is mailed their view now: always with
        ``mail=all``; with ``mail=turn`` when it is their move, at the start
        and at the end of the game, and after an event (a proposal to
        answer, a resignation, a notice of the clock). The moves between
        are in the ``since`` of their next view."""
        if self.chosen(self.roster[name][vf.player])["mail"] == "all":
            return True
        return (vf.legal is not None or log.result is not None or not log.moves
                or log.moves[-1].move.startswith("@"))

    #: The other addresses a player may write from (game -> player -> addresses).
    aliases: Mapping[str, Mapping[str, tuple[str, ...]]] = field(default_factory=dict)

    def player_of(self, game: str, sender: str) -> str | None:
        """The seat of ``game`` that ``sender`` writes for: its roster address
        or one of its aliases; None for anyone else."""
        seats = self.roster.get(game, {})
        for player, address in seats.items():
            if address == sender or sender in self.aliases.get(game, {}).get(player, ()):
                return player
        return None

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
        # Quoted where the name needs it ("Club referee, cup"), else it reads as two addresses.
        headers = [("From", formataddr((self.config.name, self.config.address))), ("To", to),
                   ("Subject", subject), ("Date", formatdate(self.now(), usegmt=True)),
                   ("Message-ID", self.message_id(game, seed)), ("Auto-Submitted", auto)]
        if reply_to is not None and reply_to.get("Message-ID"):
            # Read from a stranger's mail: one line, whatever it held.
            answered = " ".join(str(reply_to["Message-ID"]).split())
            refs = str(reply_to.get("References", "")).split()
            headers += [("In-Reply-To", answered),
                        ("References", " ".join([*refs[-8:], answered]))]
        text = body if body.endswith("\n") else body + "\n"
        if calendar is None:
            return mime(headers, text, attachments, seed)
        from .. import calendars

        ics, method, cte = calendars.checked(calendar)
        if cte == "7bit" and text.isascii():
            return mime(headers, text, attachments, seed, calendar=(ics, method))
        # A calendar in quoted-printable (a name in UTF-8): the email package's way.
        msg = EmailMessage(policy=policy.SMTP)
        for name, value in headers:
            msg[name] = value
        msg.set_content(text, charset="us-ascii", cte="7bit")
        for filename, ctype, data in attachments:
            maintype, _, subtype = ctype.partition("/")
            if maintype == "text":
                msg.add_attachment(data.decode("ascii"), subtype=subtype, charset="us-ascii",
                                   cte="7bit", filename=filename)
            else:
                msg.add_attachment(data, maintype=maintype, subtype=subtype, filename=filename)
        calendars.attach(msg, calendar)
        return msg.as_bytes()

    def position_mails(self, name: str, log: Log, views: Mapping[str, ViewFile], *, seed: str,
                       by: str | None = None, reply_to: Message | None = None) -> list[bytes]:
        """A mail to every player of game ``name`` about where it stands, each
        with their view file of ``views`` (the mail to ``by`` answers
        ``reply_to``), and one text form of the public log for all."""
        public = public_text(log)
        out = []
        for p in log.players:
            if self.wants(name, log, views[p]):
                out.append(self.view_mail(name, log, views[p], public, seed=f"{seed}:{p}",
                                          reply_to=reply_to if p == by else None))
            elif p == by:  # their mail is answered, in a few lines
                out.append(self.taken_mail(name, log, views[p], seed=f"{seed}:{p}",
                                           reply_to=reply_to))
        return out

    def taken_mail(self, name: str, log: Log, vf: ViewFile, *, seed: str,
                   reply_to: Message | None) -> bytes:
        """The answer to a player with ``mail=turn`` whose change was taken
        and who is not to move now: what was recorded, and whose move it is."""
        game = games.get(log.game)
        ply = len(log.moves)
        status = f"{vf.to_move} to move" if vf.to_move is not None else "waiting"
        lines = [present.fold(n, ASCII) for n in vf.notes] or ["Taken."]
        lines += ["", present.fold(
            f"{status} (move {ply + 1}). You get mail from this game when it is your "
            "move, with what happened since, and at its end (you chose 'prefs mail=turn'; "
            "'prefs mail=all' for a mail after every move).", ASCII)]
        return self.mail(self.roster[name][vf.player],
                         present.safe(f"[{name}] {status} ({game.title}, move {ply + 1})", ASCII),
                         "\n".join(lines), game=name, seed=seed, reply_to=reply_to,
                         auto="auto-replied")

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
            lines += how_to_answer(vf.legal is not None, signs=bool(log.keys.get(vf.player)),
                                   example=vf.legal[0] if vf.legal else "")
        else:
            lines.append("The seed is now in the log: anyone can check the game with")
            lines.append(f"'adjudicator audit {name}.txt' on the attached log.")
        lines += ["", "Your view file (keep it in your reply):", textform.dumps(vf)]
        attachments = [(f"{name}.txt", "text/plain", public)]
        board = picture(vf, self.chosen(self.roster[name][vf.player])["picture"])
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

    def error_mail(self, message: Message, text: str, game: str | None, seed: str,
                   vf: ViewFile | None = None) -> bytes:
        """The answer to a mail that records nothing: ``Error: text``, in one
        paragraph; with the player's current view file ``vf`` when there is
        one, so that a reply to this mail (the natural thing after a typo)
        carries its proof."""
        subject = strip_reply_prefix(str(message.get("Subject", "")))[:60] or "your mail"
        sender = parseaddr(str(message.get("From", "")))[1]
        lines = [present.fold(f"Error: {text}", ASCII), "",
                 "Nothing was recorded. Reply 'help' for the commands."]
        if vf is not None:
            from .. import textform

            lines += ["", "To try again, reply to this mail and keep its text.", "",
                      "Your view file (keep it in your reply):", textform.dumps(vf)]
        return self.mail(sender, f"Re: {subject}", "\n".join(lines), game=game, seed=seed,
                         reply_to=message, auto="auto-replied")

    def answer_mail(self, message: Message, command: str, text: str, seed: str) -> bytes:
        """The answer to a command about no game (``help``): ``text``."""
        sender = parseaddr(str(message.get("From", "")))[1]
        return self.mail(sender, f"Re: {command}", text, game=None, seed=seed, reply_to=message,
                         auto="auto-replied")


def mime(headers: Sequence[tuple[str, str]], body: str,
         attachments: Sequence[tuple[str, str, bytes]], seed: str,
         calendar: tuple[str, str] | None = None) -> bytes:
    """A mail of ASCII text with ``attachments``, written out directly in the
    shape the email package gives it (each header folded by it): the
    referee writes thousands, and building each as an
    :class:`~email.message.EmailMessage` cost more than deciding the move.
    Its boundaries come from ``seed``, so the same mail is the same bytes.

    ``calendar`` (its ASCII text, checked by :func:`calendars.checked`, and
    its METHOD) goes where :func:`calendars.attach` puts it: the body and
    the calendar are the two sides of a ``multipart/alternative`` (in a
    timed game every mail has one, and the email package took four times
    as long as everything else to write such a mail)."""
    import base64

    crlf = "\r\n"

    def boundary_of(salt: str, parts: Sequence[str]) -> str:
        tag = hashlib.sha256((salt + seed).encode("utf-8", "replace")).hexdigest()[:19]
        boundary = f"==============={tag}=="
        while any(boundary in part for part in parts):  # never inside what it separates
            boundary = "=" + boundary
        return boundary

    def multipart(kind: str, parts: Sequence[str], salt: str) -> str:
        """The Content-Type header, a blank line and ``parts`` between boundaries."""
        boundary = boundary_of(salt, parts)
        kind_line = f'Content-Type: multipart/{kind}; boundary="{boundary}"'
        out = [kind_line if len(kind_line) <= 78 else
               f'Content-Type: multipart/{kind};{crlf} boundary="{boundary}"', crlf, crlf]
        for part in parts:
            out += ["--", boundary, crlf, part, crlf]
        out += ["--", boundary, "--", crlf]
        return "".join(out)

    def lines(text: str) -> str:  # line breaks as the email package sees them: CR, LF, CRLF
        return crlf.join(line.decode("ascii") for line in text.encode("ascii").splitlines()) + crlf

    def fold(name: str, value: str) -> str:  # as EmailMessage does: RFC 2047 where not ASCII
        if (name not in ("From", "To") and value.isascii() and value.isprintable() and "=?" not in value
                and len(name) + len(value) < 76):
            return f"{name}: {value}{crlf}"  # what folding leaves as it is, written at once
        return policy.SMTP.header_factory(name, value).fold(policy=policy.SMTP)

    head = "".join(fold(name, value) for name, value in headers)
    head += "MIME-Version: 1.0" + crlf
    text_type = 'Content-Type: text/plain; charset="us-ascii"' + crlf + \
        "Content-Transfer-Encoding: 7bit" + crlf
    text = text_type + crlf + lines(body)
    if calendar is not None:
        ics, method = calendar
        text = multipart("alternative", [text, (
            "Content-Transfer-Encoding: 7bit" + crlf +
            f'Content-Type: text/calendar; charset="utf-8"; method="{method}"' + crlf +
            "MIME-Version: 1.0" + crlf + crlf + lines(ics))], "alternative:")
    if not attachments:
        return (head + text).encode("ascii")
    parts = [text]
    for filename, ctype, data in attachments:
        disposition = fold("Content-Disposition", f'attachment; filename="{filename}"')
        if ctype.startswith("text/"):
            parts.append(f'Content-Type: {ctype}; charset="us-ascii"' + crlf +
                         "Content-Transfer-Encoding: 7bit" + crlf + disposition +
                         "MIME-Version: 1.0" + crlf + crlf + lines(data.decode("ascii")))
        else:
            encoded = base64.encodebytes(data).decode("ascii")
            parts.append(f"Content-Type: {ctype}" + crlf + "Content-Transfer-Encoding: base64" +
                         crlf + disposition + "MIME-Version: 1.0" + crlf + crlf + lines(encoded))
    return (head + multipart("mixed", parts, "")).encode("ascii")


def how_to_answer(to_move: bool, signs: bool = False, example: str = "") -> list[str]:
    """How to answer a view mail; ``example`` is one of the player's legal
    moves, in the game's own notation."""
    if to_move and signs:
        # The referee cannot sign for them: the move is their signed entry.
        return [
            "You sign your moves. To play, save your view file below (e.g. as",
            "game.txt), record your move in it with your key:",
            "  adjudicator extend --key KEY game.txt MOVE",
            "and reply with 'move' on the first line and game.txt attached.",
        ]
    if to_move:
        import textwrap

        hint = f"'move {example}'".replace(" ", "\0")  # never cut across lines
        return [line.replace("\0", " ") for line in textwrap.wrap(
            f"To play, reply to this mail with your move on the first line, e.g. {hint} "
            "(several moves queue, with commas between). Keep the quoted text: the view "
            "file in it proves the move is yours.", 72,
            break_long_words=False, break_on_hyphens=False)]
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
