"""The referee by mail: moves arrive as mail, views go out as mail.

``adjudicator referee DIR`` is a thin loop over :class:`Referee`, which works
on a directory::

    DIR/referee.toml          the referee's address, how it sends (SMTP) and
                              optionally fetches (IMAP) mail
    DIR/roster.toml           each game's players and their mail addresses
    DIR/games/NAME.json       the public log of game NAME (adjudicator new
    DIR/games/NAME.secret.json  GAME --referee -o DIR/games/NAME.json) and its secret
    DIR/Maildir/              incoming mail (new/, cur/, tmp/), filled by any
                              mail delivery agent or by the IMAP fetch
    DIR/spool/                outgoing mail not sent yet, one .eml file each
    DIR/state/                what the referee remembers across restarts
    DIR/referee.log           one line per message taken, refused or ignored

Everything game-related is done by the library: :mod:`referee` checks the
player's view file (the proof a reply carries) and takes their moves,
:mod:`textform` writes the files into the mails, :mod:`mailparse` finds them
in replies, :mod:`present` writes the board. No game is special here.

**Exactly once.** A message is handled in two steps. First everything it
leads to is computed in memory: the new log, and every mail to send. That is
written as one journal file (``state/pending.json``). Then the journal is
carried out: the log is replaced (compare and swap under its lock), the mails
are put in the spool, the message's id is added to those seen, the message is
filed in ``Maildir/cur``, and the journal is removed. A crash at any point
leaves either no journal (nothing happened, or everything did) or a journal
that the next start carries out again; each of its steps can be done twice
with the same result. The spool is sent only when no journal is waiting, so
no mail about a move leaves before the move is recorded. A message delivered
twice has the same Message-ID and is filed unread the second time.

Specified for players in the README ("A referee by mail").
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from email import policy
from email.message import EmailMessage, Message
from email.parser import BytesParser
from email.utils import formatdate, getaddresses, parseaddr
from pathlib import Path
from typing import Any

import msgspec

from . import files, games, log as logmod, match, present, referee
from .engine import Style
from .errors import AdjudicatorError, MoveError, one_line
from .log import Log, Secret, ViewFile

__all__ = ["COMMANDS", "Command", "Config", "ConfigError", "Referee", "Server", "find_command",
           "is_automatic", "load_config", "load_roster"]

COMMANDS = ("move", "show", "legal", "propose", "accept", "reject", "resign", "help")
GAME_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,39}")
ASCII = Style(unicode=False, color=False)
#: Incoming messages larger than this are refused unread (a game's reply is
#: a few hundred kilobytes at most).
MAX_MESSAGE = 4 * 1024 * 1024


class ConfigError(AdjudicatorError):
    """A referee directory that cannot be run: a missing or bad setting."""


class Refused(AdjudicatorError):
    """A message the referee answers with one line and records nothing for."""


# --- configuration ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Server:
    """A mail server: ``security`` is ``tls`` (TLS from the start),
    ``starttls`` or ``none`` (a server on this machine)."""

    host: str
    port: int
    security: str = "starttls"
    user: str | None = None
    password: str | None = None
    folder: str = "INBOX"


@dataclass(frozen=True)
class Config:
    address: str
    name: str = "adjudicator referee"
    poll: float = 60.0
    #: The picture attached to each mail: ``png`` (needs resvg, else SVG),
    #: ``svg`` or ``none``.
    picture: str = "png"
    smtp: Server | None = None
    imap: Server | None = None


def _toml(path: Path) -> dict[str, Any]:
    import tomllib

    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
        raise ConfigError(f"{path}: {one_line(str(e))}") from None


def _password(section: dict[str, Any], env: str, where: str, root: Path,
              environ: dict[str, str]) -> str | None:
    """A password from the environment or a file named in the config, never
    from the config itself or the command line."""
    if "password" in section:
        raise ConfigError(f"{where}: do not write the password in the file: set {env} or "
                          "password_file")
    if env in environ:
        return environ[env]
    if "password_file" in section:
        path = root / str(section["password_file"])
        try:
            return path.read_text(encoding="utf-8").strip()
        except OSError as e:
            raise ConfigError(f"{where}: password_file {path}: {e.strerror or e}") from None
    return None


def _server(section: Any, where: str, default_port: dict[str, int], env: str, root: Path,
            environ: dict[str, str], imap: bool = False) -> Server:
    if not isinstance(section, dict) or not isinstance(section.get("host"), str):
        raise ConfigError(f"{where}: give at least host = \"...\"")
    security = section.get("security", "tls" if imap else "starttls")
    if security not in ("tls", "starttls", "none"):
        raise ConfigError(f"{where}: security is tls, starttls or none, not {security!r}")
    port = section.get("port", default_port[security])
    if not isinstance(port, int) or not 0 < port < 65536:
        raise ConfigError(f"{where}: port {port!r} is not a port number")
    user = section.get("user")
    return Server(host=section["host"], port=port, security=security,
                  user=str(user) if user is not None else None,
                  password=_password(section, env, where, root, environ),
                  folder=str(section.get("folder", "INBOX")))


def load_config(root: Path, environ: dict[str, str] | None = None) -> Config:
    """``DIR/referee.toml``. Passwords come from ``ADJUDICATOR_SMTP_PASSWORD``
    and ``ADJUDICATOR_IMAP_PASSWORD`` or from a ``password_file``."""
    environ = dict(os.environ) if environ is None else environ
    path = root / "referee.toml"
    data = _toml(path)
    address = data.get("address")
    if not isinstance(address, str) or "@" not in parseaddr(address)[1]:
        raise ConfigError(f"{path}: give the referee's mail address: address = \"referee@...\"")
    poll = data.get("poll", 60)
    if not isinstance(poll, (int, float)) or poll <= 0:
        raise ConfigError(f"{path}: poll is a number of seconds above 0")
    picture = data.get("picture", "png")
    if picture not in ("png", "svg", "none"):
        raise ConfigError(f"{path}: picture is png, svg or none, not {picture!r}")
    smtp = imap = None
    if "smtp" in data:
        smtp = _server(data["smtp"], f"{path} [smtp]", {"tls": 465, "starttls": 587, "none": 25},
                       "ADJUDICATOR_SMTP_PASSWORD", root, environ)
    if "imap" in data:
        imap = _server(data["imap"], f"{path} [imap]", {"tls": 993, "starttls": 143, "none": 143},
                       "ADJUDICATOR_IMAP_PASSWORD", root, environ, imap=True)
    return Config(address=parseaddr(address)[1].lower(), name=str(data.get("name", Config.name)),
                  poll=float(poll), picture=picture, smtp=smtp, imap=imap)


def load_roster(root: Path) -> dict[str, dict[str, str]]:
    """``DIR/roster.toml``: for each game, its players and their addresses
    (lower-cased). A game's log must exist and name the same players; an
    address plays one seat of a game."""
    path = root / "roster.toml"
    data = _toml(path)
    roster: dict[str, dict[str, str]] = {}
    for name, players in data.items():
        if not GAME_NAME.fullmatch(name):
            raise ConfigError(f"{path}: [{name}]: a game's name is lower-case letters, digits, "
                              "'-' and '_', at most 40")
        if not isinstance(players, dict) or not players:
            raise ConfigError(f"{path}: [{name}]: list its players: ann = \"ann@example.org\"")
        seats: dict[str, str] = {}
        for player, address in players.items():
            addr = parseaddr(str(address))[1].lower()
            if "@" not in addr:
                raise ConfigError(f"{path}: [{name}] {player}: {address!r} is not a mail address")
            if addr in seats.values():
                raise ConfigError(f"{path}: [{name}]: {addr} plays two seats")
            seats[player] = addr
        roster[name] = seats
    return roster


# --- reading a message -----------------------------------------------------------------------


@dataclass(frozen=True)
class Command:
    """A command found in a mail: the word, the game named (or None), and the rest."""

    word: str
    game: str | None
    args: tuple[str, ...]


_PREFIX = re.compile(r"^\s*((re|fwd?|aw|sv|vs|antw|odp)\s*(\[\d+\])?\s*:\s*)+", re.I)


def _words(line: str) -> list[str]:
    # Typographic dashes and quotes put in by a mail client are the plain ones.
    line = line.translate({0x2010: "-", 0x2011: "-", 0x2012: "-", 0x2013: "-", 0x2014: "-",
                           0x2212: "-", 0x2018: "'", 0x2019: "'", 0x201C: '"', 0x201D: '"',
                           0xA0: " "})
    return line.split()


def find_command(subject: str, bodies: Iterable[str], known_games: Iterable[str]) -> Command | None:
    """The command of a mail: the first line of its own text (not quoted,
    before a signature or a quoted copy of the referee's files) whose first
    word is a command, else its subject (less ``Re:`` and the like)."""
    known = set(known_games)
    lines: list[str] = []
    for body in bodies:
        for line in body.splitlines():
            if line.startswith("-- ") and line.strip() == "--":
                break
            if line.startswith("-----BEGIN ADJUDICATOR"):
                break
            if line.lstrip().startswith(">"):
                continue
            lines.append(line)
        break  # the first text part is the body; the others are attachments
    lines.append(_PREFIX.sub("", subject))
    for line in lines:
        words = _words(line)
        if not words or words[0].lower() not in COMMANDS or line[:1].isspace():
            continue
        word, rest = words[0].lower(), words[1:]
        game = None
        if rest and rest[0].lower() in known:
            game, rest = rest[0].lower(), rest[1:]
        return Command(word, game, tuple(rest))
    return None


def is_automatic(message: Message, referee_address: str) -> str | None:
    """Why ``message`` must not be answered (RFC 3834: an automatic reply, a
    bounce, a list; or the referee's own mail come back), or None."""
    auto = str(message.get("Auto-Submitted", "no")).strip().lower()
    if auto and not auto.startswith("no"):
        return f"Auto-Submitted: {auto}"
    if str(message.get("Precedence", "")).strip().lower() in ("bulk", "junk", "list"):
        return "Precedence: " + str(message.get("Precedence")).strip().lower()
    for header in ("X-Autoreply", "X-Autorespond", "List-Id"):
        if message.get(header) is not None:
            return header
    if message.get("Return-Path") is not None and str(message["Return-Path"]).strip() == "<>":
        return "a bounce (empty Return-Path)"
    if message.get_content_type() == "multipart/report":
        return "a delivery report"
    sender = parseaddr(str(message.get("From", "")))[1].lower()
    local = sender.partition("@")[0]
    if local in ("mailer-daemon", "postmaster", "noreply", "no-reply"):
        return f"from {sender}"
    if sender == referee_address:
        return "the referee's own mail"
    return None


# --- the referee ------------------------------------------------------------------------------


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _key(message_id: str) -> str:
    return _digest(message_id.encode("utf-8", "replace"))[:24]


@dataclass
class _State:
    """What the referee remembers: the messages handled, and the log (by
    digest) each game's players were last sent mail about."""

    seen: set[str] = field(default_factory=set)
    announced: dict[str, str] = field(default_factory=dict)


Sender = Callable[[str, list[str], bytes], None]


class Referee:
    """The referee of every game in ``root``. ``send`` delivers one message
    (envelope sender, recipients, bytes) and raises :class:`OSError` or
    :class:`smtplib.SMTPException` when it cannot; it defaults to the SMTP
    server of the config."""

    def __init__(self, root: Path | str, *, config: Config | None = None,
                 send: Sender | None = None, now: Callable[[], float] = time.time) -> None:
        self.root = Path(root)
        self.config = config if config is not None else load_config(self.root)
        self.roster = load_roster(self.root)
        self._send = send if send is not None else self._smtp_send
        self._now = now
        self.domain = self.config.address.partition("@")[2] or "localhost"
        for sub in ("games", "spool", "state", "Maildir/new", "Maildir/cur", "Maildir/tmp"):
            (self.root / sub).mkdir(parents=True, exist_ok=True)
        # A referee killed inside files.write leaves the temporary copy it
        # was writing; in the directories only the referee writes, clear them.
        for sub in ("spool", "state"):
            for stale in (self.root / sub).glob(".*.tmp"):
                stale.unlink(missing_ok=True)
        for name, seats in self.roster.items():
            log = self._log(name)
            if set(seats) != set(log.players):
                raise ConfigError(
                    f"roster.toml: [{name}] lists {', '.join(sorted(seats))}, but the log's "
                    f"players are {', '.join(log.players)}")
            if log.commitment is None or log.referee is None:
                raise ConfigError(f"games/{name}.json: not a refereed game with a referee's key "
                                  "(adjudicator new GAME --referee)")
            secret = self._secret(name)
            if secret.signing_key is None or secret.commitment != log.commitment:
                raise ConfigError(f"games/{name}.secret.json: not the secret of games/{name}.json")

    # -- files --

    def _path(self, name: str) -> Path:
        return self.root / "games" / f"{name}.json"

    def _log(self, name: str) -> Log:
        path = self._path(name)
        return logmod.decode(files.read(str(path)), str(path))

    def _secret(self, name: str) -> Secret:
        path = self.root / "games" / f"{name}.secret.json"
        return logmod.decode_secret(files.read(str(path)), str(path))

    def _load_state(self) -> _State:
        path = self.root / "state" / "state.json"
        if not path.exists():
            return _State()
        data = json.loads(path.read_bytes())
        return _State(seen=set(data["seen"]), announced=dict(data["announced"]))

    def _save_state(self, state: _State) -> None:
        data = {"seen": sorted(state.seen), "announced": state.announced}
        files.write(str(self.root / "state" / "state.json"),
                    json.dumps(data, indent=1).encode("ascii"))

    def note(self, line: str) -> None:
        """One line in ``referee.log``, for the organiser."""
        stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(self._now()))
        with open(self.root / "referee.log", "a", encoding="utf-8") as f:
            f.write(f"{stamp} {one_line(line)}\n")

    # -- the journal --

    def _journal(self, key: str, game: str | None, before: bytes | None, after: bytes | None,
                 mails: Sequence[bytes], filed: str | None) -> None:
        """Write what handling one message (or one announcement) leads to, then carry it out."""
        pending = {
            "key": key,
            "game": game,
            "before": None if before is None else _digest(before),
            "after": None if after is None else base64.b64encode(after).decode("ascii"),
            "mails": [base64.b64encode(m).decode("ascii") for m in mails],
            "filed": filed,
        }
        files.write(str(self.root / "state" / "pending.json"),
                    json.dumps(pending).encode("ascii"))
        self._carry_out()

    def _carry_out(self) -> None:
        """Carry out the journal, if one is waiting; every step may run twice."""
        path = self.root / "state" / "pending.json"
        try:
            pending = json.loads(path.read_bytes())
        except FileNotFoundError:
            return
        state = self._load_state()
        game, key = pending["game"], pending["key"]
        if pending["after"] is not None:
            after = base64.b64decode(pending["after"])
            log_path = self._path(game)
            from filelock import FileLock

            with FileLock(files.lock_path(str(log_path)), timeout=60):
                now = log_path.read_bytes()
                if _digest(now) == pending["before"]:
                    files.write(str(log_path), after)
                elif now != after:
                    # Someone changed the log by hand meanwhile: nothing of
                    # this message is recorded, its mails are not sent, and
                    # the change is announced as any other.
                    self.note(f"{key}: games/{game}.json changed under the referee; the message "
                              "was not taken")
                    pending["mails"], game = [], None
        for i, mail in enumerate(pending["mails"]):
            # Named by a digest: a Message-ID may hold '/' or be longer than
            # a file name may be.
            files.write(str(self.root / "spool" / f"{_key(key)}-{i:03}.eml"),
                        base64.b64decode(mail))
        if key.startswith("msg:"):
            state.seen.add(key[4:])
        if game is not None:
            state.announced[game] = _digest(self._path(game).read_bytes())
        self._save_state(state)
        if pending["filed"]:
            self._file(pending["filed"])
        path.unlink()

    def _file(self, name: str) -> None:
        """Move a handled message from ``Maildir/new`` to ``cur``, marked seen."""
        src = self.root / "Maildir" / "new" / name
        if src.exists():
            os.replace(src, self.root / "Maildir" / "cur" / f"{name.partition(':')[0]}:2,S")

    # -- mail out --

    def _message_id(self, game: str | None, seed: str) -> str:
        return f"<adj.{game or 'referee'}.{_digest(seed.encode())[:20]}@{self.domain}>"

    def _mail(self, to: str, subject: str, body: str, *, game: str | None, seed: str,
              reply_to: Message | None = None, attachments: Sequence[tuple[str, str, bytes]] = (),
              auto: str = "auto-generated") -> bytes:
        msg = EmailMessage(policy=policy.SMTP)
        msg["From"] = f"{self.config.name} <{self.config.address}>"
        msg["To"] = to
        msg["Subject"] = subject
        msg["Date"] = formatdate(self._now(), usegmt=True)
        msg["Message-ID"] = self._message_id(game, seed)
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
        return msg.as_bytes()

    def _position_mails(self, name: str, log: Log, secret: Secret, *, seed: str,
                        notes: dict[str, tuple[str, ...]] | None = None, by: str | None = None,
                        reply_to: Message | None = None) -> list[bytes]:
        """A mail to every player of game ``name`` about where it stands
        (``notes`` for some of them; the mail to ``by`` answers ``reply_to``):
        every view file from one replay, one text form of the public log."""
        public = _public_text(log)
        views = referee.issue_views(log, secret, log.players, notes)
        return [self._view_mail(name, log, views[p], public, seed=f"{seed}:{p}",
                                reply_to=reply_to if p == by else None) for p in log.players]

    def _view_mail(self, name: str, log: Log, vf: ViewFile, public: bytes, *, seed: str,
                   reply_to: Message | None = None) -> bytes:
        """The mail that tells ``vf.player`` where game ``name`` stands: their
        view, their moves when it is their turn, and their view file (what a
        reply must keep), with the public log (``public``, in the text form)
        and a picture attached."""
        from . import textform

        game = games.get(log.game)
        ply = len(log.moves)
        if log.result is not None:
            subject = f"[{name}] Game over ({game.TITLE})"
        elif vf.legal is not None:
            subject = f"[{name}] Your move ({game.TITLE}, move {ply + 1})"
        else:
            subject = f"[{name}] {vf.to_move} to move ({game.TITLE}, move {ply + 1})"
        lines = [present.view_file_text(vf, ASCII), ""]
        if log.result is None:
            lines += _how_to_answer(vf.legal is not None)
        else:
            lines.append("The seed is now in the log: anyone can check the game with")
            lines.append(f"'adjudicator audit {name}.txt' on the attached log.")
        lines += ["", "Your view file (keep it in your reply):", textform.dumps(vf)]
        attachments = [(f"{name}.txt", "text/plain", public)]
        picture = _picture(vf, self.config.picture)
        if picture is not None:
            attachments.append(picture)
        return self._mail(self.roster[name][vf.player], subject, "\n".join(lines), game=name,
                          seed=seed, reply_to=reply_to, attachments=attachments,
                          auto="auto-replied" if reply_to is not None else "auto-generated")

    def _error_mail(self, message: Message, text: str, game: str | None, seed: str) -> bytes:
        subject = _PREFIX.sub("", str(message.get("Subject", "")))[:60] or "your mail"
        sender = parseaddr(str(message.get("From", "")))[1]
        body = "\n".join([present.fold(f"Error: {text}", ASCII), "",
                          "Nothing was recorded. Reply 'help' for the commands."])
        return self._mail(sender, f"Re: {subject}", body, game=game, seed=seed,
                          reply_to=message, auto="auto-replied")

    def _help_mail(self, message: Message, seed: str) -> bytes:
        sender = parseaddr(str(message.get("From", "")))[1]
        return self._mail(sender, "Re: help", HELP, game=None, seed=seed, reply_to=message,
                          auto="auto-replied")

    # -- handling one message --

    def handle(self, data: bytes, filed: str | None = None) -> str:
        """Handle one incoming message; returns a line saying what was done."""
        self._carry_out()
        message, message_id, unreadable = None, "", f"larger than {MAX_MESSAGE} bytes"
        if len(data) <= MAX_MESSAGE:
            try:
                message = _readable(BytesParser(policy=policy.default).parsebytes(data))
            except Exception as e:  # noqa: BLE001 - the email package's own failures
                # It recurses once per nested part (a message nested a
                # thousand deep is not a mail anyone wrote), and some damaged
                # headers make it raise while it parses.
                message, unreadable = None, f"not a readable mail message ({type(e).__name__})"
            else:
                message_id = " ".join(str(message.get("Message-ID", "") or "").split())
        # A message without an id is known by its bytes: delivered twice, it
        # is still handled once.
        message_id = message_id or f"<digest:{_digest(data)}>"
        key = "msg:" + message_id
        state = self._load_state()
        if message_id in state.seen:
            if filed:
                self._file(filed)
            return f"{message_id}: already handled"
        seed = key
        try:
            if message is None:
                raise _Ignore(unreadable)
            outcome = self._decide(message, data, seed)
        except _Ignore as e:
            self.note(f"{message_id}: ignored: {e}")
            self._journal(key, None, None, None, (), filed)
            return f"{message_id}: ignored: {e}"
        except OSError:
            raise  # a disk or a file that fails is not the message's fault
        except Exception as e:  # noqa: BLE001 - any fault of deciding on this message
            # Deciding is computing from the message and the game: a failure
            # is a fault of the referee's own that this message triggers, and
            # would trigger again on every start. (Failing to record, below,
            # is not the message's fault: it stops the referee, and the
            # message waits for the next start.)
            raise _Faulty(one_line(f"{type(e).__name__}: {e}")) from e
        game, before, after, mails, said = outcome
        self.note(f"{message_id}: {said}")
        self._journal(key, game, before, after, mails, filed)
        return f"{message_id}: {said}"

    def _decide(self, message: Message, data: bytes,
                seed: str) -> tuple[str | None, bytes | None, bytes | None, list[bytes], str]:
        """What a message leads to: (game, log before, log after, mails, a line)."""
        try:
            # The email package parses a header when it is read, and some
            # damaged ones (an address cut short) raise instead of a defect.
            why = is_automatic(message, self.config.address)
            sender = parseaddr(str(message.get("From", "")))[1].lower()
            subject = str(message.get("Subject", ""))
        except (ValueError, TypeError, IndexError, AttributeError):
            raise _Ignore("unreadable headers") from None
        if why is not None:
            raise _Ignore(why)
        mine = {name: next(p for p, a in seats.items() if a == sender)
                for name, seats in self.roster.items() if sender in seats.values()}
        if not mine:
            raise _Ignore(f"{sender or 'no sender'} plays no game here")
        try:
            from .mailparse import message_texts

            bodies = [text for _, depth, text in message_texts(message) if depth == 0]
        except (ValueError, TypeError, LookupError, IndexError, AttributeError, UnicodeError):
            bodies = []
        command = find_command(subject, bodies, mine)
        if command is None:
            return None, None, None, [self._error_mail(
                message, "no command found: write one on the first line, e.g. 'move 3D'",
                None, seed)], f"from {sender}: no command"
        if command.word == "help":
            return None, None, None, [self._help_mail(message, seed)], f"help for {sender}"
        name = command.game or self._game_of(message, mine)
        if name is None:
            return None, None, None, [self._error_mail(
                message, f"say which game: {command.word} GAME ... (yours: "
                f"{', '.join(sorted(mine))})", None, seed)], f"from {sender}: which game?"
        player = mine[name]
        path = self._path(name)
        raw = path.read_bytes()
        log, secret = logmod.decode(raw, str(path)), self._secret(name)
        try:
            if command.word in ("show", "legal"):
                vf = referee.issue_view(log, secret, player)
                return None, None, None, [self._view_mail(
                    name, log, vf, _public_text(log), seed=seed, reply_to=message)], \
                    f"{command.word} {name} for {player}"
            vf = self._proof(data, log, secret, player, name)
            new, notes = self._apply(command, log, secret, vf, player)
        except (AdjudicatorError, RecursionError) as e:
            text = str(e) if not isinstance(e, RecursionError) else "the mail is nested too deep"
            return None, None, None, [self._error_mail(message, f"{name}: {text}", name, seed)], \
                f"{name}: refused {player}'s {command.word}: {one_line(text)}"
        if new.result is not None and new.seed is None:
            new = referee.signed(match.reveal(new, secret), secret)
        after = logmod.encode(new)
        mails = self._position_mails(name, new, secret, seed=seed, notes={player: notes},
                                     by=player, reply_to=message)
        done = (f"{player}: {', '.join(notes)}" if notes else
                f"{player}: {command.word} {' '.join(command.args)}".strip())
        return name, raw, after, mails, f"{name}: {done}"

    def _game_of(self, message: Message, mine: dict[str, str]) -> str | None:
        """The game a reply is about: a referee's Message-ID it answers, a
        ``[GAME]`` in its subject, or the sender's only game."""
        refs = " ".join(str(message.get(h, "")) for h in ("In-Reply-To", "References"))
        for name in re.findall(rf"<adj\.([a-z0-9_-]+)\.[0-9a-f]+@{re.escape(self.domain)}>",
                               refs):
            if name in mine:
                return name
        for name in re.findall(r"\[([a-z0-9_-]+)\]", str(message.get("Subject", "")).lower()):
            if name in mine:
                return name
        return next(iter(mine)) if len(mine) == 1 else None

    def _proof(self, data: bytes, log: Log, secret: Secret, player: str, name: str) -> ViewFile:
        """The player's view file in their mail (quoted or attached), checked:
        issued by this referee to this player at the current position."""
        from .mailparse import extract_all

        try:
            found = extract_all(data, "your mail")
        except AdjudicatorError:
            found = []
        views = [f.value for f in found if isinstance(f.value, ViewFile)
                 and f.value.log.commitment == log.commitment and f.value.player == player]
        if not views:
            raise Refused(f"your mail holds no view file of yours for {name}: reply to the "
                          "referee's latest mail and keep its text")
        newest = max(views, key=lambda vf: len(vf.log.moves))
        # Checked against the game as it stood when the file was issued, so
        # that a genuine but old file is told apart from a forged one, and
        # answered with what a player can do (not "send ann a new view file").
        n = len(newest.log.moves)
        then = msgspec.structs.replace(log, moves=log.moves[:n])
        referee.current(then, secret, newest, "the view file in your mail")
        if n < len(log.moves):
            raise Refused(f"your mail answers move {n + 1}, but the game is at move "
                          f"{len(log.moves) + 1}: reply to the referee's latest mail "
                          f"('show {name}' sends it again)")
        return newest

    def _apply(self, command: Command, log: Log, secret: Secret, vf: ViewFile,
               player: str) -> tuple[Log, tuple[str, ...]]:
        """The log after the player's command, and the notes for them."""
        word, args = command.word, command.args
        if word == "move":
            if not args:
                raise Refused("move: which move? e.g. 'move 3D' (several queue)")
            chosen = referee.choose(vf, _moves(vf, args), source="your move")
            taken = referee.take(log, secret, chosen, "your move")
            return taken.log, taken.notes()
        if word == "propose":
            what = [a.lower() for a in args]
            if what[:1] == ["takeback"] and len(what) == 2 and what[1].isdigit():
                event = f"@takeback {int(what[1])}"
            elif what == ["abandon"]:
                event = "@abandon"
            else:
                raise Refused("propose takeback N, or propose abandon")
        elif word in ("accept", "reject", "resign"):
            if args:
                raise Refused(f"{word} takes nothing after it")
            event = f"@{word}"
        else:  # pragma: no cover - find_command returns only COMMANDS
            raise Refused(f"unknown command {word!r}")
        return referee.record(log, secret, [event], as_player=player), (f"recorded: {event}",)

    # -- announcements, the spool, the Maildir --

    def announce(self) -> list[str]:
        """Send every game's players mail about any change to its log not yet
        announced (a new game, a move recorded by hand)."""
        self._carry_out()
        state = self._load_state()
        out = []
        for name in self.roster:
            raw = self._path(name).read_bytes()
            if state.announced.get(name) == _digest(raw):
                continue
            log = logmod.decode(raw, str(self._path(name)))
            key = f"announce:{name}:{_digest(raw)}"
            mails = self._position_mails(name, log, self._secret(name), seed=key)
            self.note(f"{name}: sent the position after move {len(log.moves)} to every player")
            self._journal(key, name, None, None, mails, None)
            out.append(name)
        return out

    def flush(self) -> tuple[int, str | None]:
        """Send the spool, oldest first; stop at the first failure (kept for
        the next try). Returns how many were sent, and the failure."""
        self._carry_out()
        sent = 0
        spool = self.root / "spool"
        for path in sorted(spool.glob("*.eml"), key=lambda p: (p.stat().st_mtime_ns, p.name)):
            data = path.read_bytes()
            message = BytesParser(policy=policy.default).parsebytes(data, headersonly=True)
            to = [a for _, a in getaddresses([str(message.get("To", ""))]) if a]
            try:
                self._send(self.config.address, to, data)
            except Exception as e:  # noqa: BLE001 - any failure keeps the mail for later
                import smtplib

                if isinstance(e, smtplib.SMTPRecipientsRefused):
                    (spool / "failed").mkdir(exist_ok=True)
                    os.replace(path, spool / "failed" / path.name)
                    self.note(f"refused by the server, kept in spool/failed: {path.name} to "
                              f"{', '.join(to)}")
                    continue
                if not isinstance(e, (OSError, smtplib.SMTPException)):
                    raise
                reason = one_line(f"{type(e).__name__}: {e}")
                return sent, reason
            path.unlink()
            sent += 1
        return sent, None

    def _smtp_send(self, sender: str, to: list[str], data: bytes) -> None:
        import smtplib
        import ssl

        server = self.config.smtp
        if server is None:
            raise OSError("no [smtp] server in referee.toml")
        if server.security == "tls":
            smtp: smtplib.SMTP = smtplib.SMTP_SSL(server.host, server.port, timeout=60,
                                                  context=ssl.create_default_context())
        else:
            smtp = smtplib.SMTP(server.host, server.port, timeout=60)
        with smtp:
            if server.security == "starttls":
                smtp.starttls(context=ssl.create_default_context())
            if server.user is not None:
                smtp.login(server.user, server.password or "")
            smtp.sendmail(sender, to, data)

    def fetch(self) -> int:
        """Copy unread mail from the IMAP mailbox into the Maildir, then mark
        it read there. A crash between the two copies a message twice, which
        its Message-ID makes harmless."""
        server = self.config.imap
        if server is None:
            return 0
        import imaplib
        import mailbox
        import ssl

        box = mailbox.Maildir(str(self.root / "Maildir"), create=True)
        if server.security == "tls":
            imap: imaplib.IMAP4 = imaplib.IMAP4_SSL(server.host, server.port, timeout=60,
                                                    ssl_context=ssl.create_default_context())
        else:
            imap = imaplib.IMAP4(server.host, server.port, timeout=60)
            if server.security == "starttls":
                imap.starttls(ssl_context=ssl.create_default_context())
        count = 0
        try:
            imap.login(server.user or self.config.address, server.password or "")
            imap.select(server.folder)
            _, found = imap.uid("search", None, "UNSEEN")
            for uid in (found[0] or b"").split():
                _, parts = imap.uid("fetch", uid, "(BODY.PEEK[])")
                body = next((p[1] for p in parts if isinstance(p, tuple)), None)
                if body is None:
                    continue
                box.add(body)
                imap.uid("store", uid, "+FLAGS", "(\\Seen)")
                count += 1
        finally:
            try:
                imap.logout()
            except (OSError, imaplib.IMAP4.error):
                pass
        return count

    def waiting(self) -> list[str]:
        """The messages waiting in ``Maildir/new``, oldest first."""
        new = self.root / "Maildir" / "new"
        names = [p for p in new.iterdir() if p.is_file() and not p.name.startswith(".")]
        return [p.name for p in sorted(names, key=lambda p: (p.stat().st_mtime_ns, p.name))]

    def run_once(self) -> list[str]:
        """One round: finish a journal left by a crash, fetch, handle every
        waiting message, announce, send the spool. Returns what was done."""
        self._carry_out()
        done: list[str] = []
        try:
            self.fetch()
        except (OSError, Exception) as e:  # noqa: BLE001 - IMAP down: try again next round
            done.append(f"IMAP: {one_line(f'{type(e).__name__}: {e}')}")
        for name in self.waiting():
            path = self.root / "Maildir" / "new" / name
            try:
                data = path.read_bytes()
            except FileNotFoundError:
                continue
            try:
                done.append(self.handle(data, filed=name))
            except _Faulty as e:
                # A message this referee cannot decide on (a fault of its own)
                # must not stop every game: it is put aside for the organiser.
                # A failure to record it (a full disk) is no fault of the
                # message: it stops the referee, and the message waits in
                # Maildir/new (and any journal in state/) for the next start.
                (self.root / "quarantine").mkdir(exist_ok=True)
                os.replace(path, self.root / "quarantine" / name)
                line = f"{name}: put aside in quarantine/: {e}"
                self.note(line)
                done.append(line)
        self.announce()
        sent, failure = self.flush()
        if failure is not None:
            done.append(f"SMTP: {failure}; {len(list((self.root / 'spool').glob('*.eml')))} "
                        "mails wait in the spool")
        return done


def _public_text(log: Log) -> bytes:
    """The public log in the text form, as attached to every mail."""
    from . import textform

    return textform.dumps(log).encode("ascii")


def _readable(message: Message) -> Message:
    """``message`` without the headers the email package cannot read.

    It parses a header each time it is read, and some damaged ones (an
    address or a Message-ID cut short) raise then, even NameError: such a
    header is treated as absent, everywhere the referee looks."""
    for part in message.walk():
        for name in set(part.keys()):
            try:
                for value in part.get_all(name, ()):
                    str(value)
            except Exception:  # noqa: BLE001 - the email package's own failures
                del part[name]
    return message


def _moves(vf: ViewFile, args: Sequence[str]) -> list[str]:
    """The moves of ``move A, B`` (commas or semicolons between moves), or of
    ``move A B``: the whole text when it is one move in the game's tolerant
    notation (``move 3 dawn``), else one move per word."""
    text = " ".join(args)
    if "," in text or ";" in text:
        return [m.strip() for m in text.replace(";", ",").split(",") if m.strip()]
    if len(args) > 1 and vf.legal is not None:
        try:
            games.get(vf.log.game).read_listed(referee.check_view(vf), vf.legal, text)
            return [text]
        except MoveError:
            return list(args)
    return [text]


class _Ignore(Exception):
    """A message answered with nothing (an automatic reply, a stranger)."""


class _Faulty(Exception):
    """A message the referee could not decide on: put aside in quarantine/."""


def _how_to_answer(to_move: bool) -> list[str]:
    if to_move:
        return [
            "To play, reply to this mail with your move on the first line, e.g.",
            "'move 3D' (several moves queue: 'move 3D, 5W'). Keep the quoted text:",
            "the view file in it proves the move is yours.",
        ]
    return ["Not your turn: you will get a mail when it is. You may reply with",
            "'propose takeback N', 'accept', 'reject' or 'resign'."]


def _picture(vf: ViewFile, kind: str) -> tuple[str, str, bytes] | None:
    """The board as the player sees it: PNG (when resvg is installed, else
    SVG), SVG, or none."""
    if kind == "none":
        return None
    from . import drawing

    game = games.get(vf.log.game)
    try:
        seen = referee.check_view(vf)
        last = (vf.log.moves[-1].by, vf.log.moves[-1].move) if vf.log.moves else None
        scene = drawing.Scene(title=game.TITLE, players=vf.log.players, viewer=vf.player,
                              to_move=vf.to_move, ply=len(vf.log.moves), last=last,
                              standing=vf.log.result, final=vf.log.result is not None)
        svg = game.draw(seen, scene)
    except (AdjudicatorError, KeyError, IndexError, ValueError, TypeError, AttributeError):
        return None
    if kind == "png":
        try:
            return ("board.png", "image/png", drawing.png(svg))
        except (ImportError, AdjudicatorError):
            pass
    return ("board.svg", "image/svg+xml", svg.encode("utf-8"))


HELP = """\
Commands, one on the first line of a mail to the referee (a reply to the
referee's mail needs no game name; otherwise put it after the command):

  move [GAME] MOVE [MOVE ...]   your move; more moves queue, applied
                                while they stay yours and legal
  show [GAME]                   your view of the game
  legal [GAME]                  the same, with your legal moves
  propose [GAME] takeback N     take back the last N moves, if all
                                agree
  propose [GAME] abandon        end the game with no result, if all
                                agree
  accept [GAME] / reject [GAME] answer a proposal
  resign [GAME]                 leave the game, ranked last
  help                          this text

A mail that changes a game (move, propose, accept, reject, resign) must
keep the view file of the referee's latest mail to you, quoted or
attached: it proves the mail is yours and answers the current position.
"""
