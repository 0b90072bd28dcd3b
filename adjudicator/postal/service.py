"""The referee as a service: a directory it owns, the journal that makes
each message's effects happen exactly once, and the round of
:meth:`MailReferee.run_once`.

**Exactly once.** A message is handled in two steps. First everything it
leads to is decided in memory (:mod:`.decision`): the new log, and every
mail to send. That is written as one journal file (``state/pending.json``).
Then the journal is carried out: the log is replaced (compare and swap
under its lock), the mails are put in the spool, the message's id is added
to those seen (one transaction of :mod:`.store`), the message is filed in ``Maildir/cur``, and the journal is
removed. A crash at any point leaves either no journal (nothing happened,
or everything did) or a journal that the next start carries out again;
each of its steps can be done twice with the same result. The spool is
sent only when no journal is waiting, so no mail about a move leaves
before the move is recorded. A message delivered twice has the same
Message-ID and is filed unread the second time.
"""

from __future__ import annotations

import base64
import json
import logging.handlers
import os
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from .. import files, log as logmod, timekeeper
from ..errors import counted, one_line
from ..log import Log, Secret
from . import answers as answers_mod, authenticity, deal, decision, incoming, transport
from .compose import Composer, public_text as compose_public
from .config import Config, ConfigError, load_config, load_requirements, read_roster
from .decision import Decision, Request
from .store import Store, seen_key
from .transport import Maildir, Sender, Spool

__all__ = ["Faulty", "MailReferee", "seen_key"]


class Faulty(Exception):
    """A message the referee could not decide on: put aside in quarantine/."""


#: The longest line ``referee.log`` takes; its size, and how many older
#: files it keeps (``referee.log.1`` ...), before the oldest is dropped.
MAX_LINE = 1000
LOG_BYTES = 1024 * 1024
LOG_FILES = 5


def shown(message_id: str) -> str:
    """A Message-ID as a line of ``referee.log`` shows it: a long one cut."""
    if len(message_id) <= 200:
        return message_id
    return f"{message_id[:120]}... ({len(message_id)} characters, {seen_key(message_id)})"


class _LogFile(logging.handlers.RotatingFileHandler):
    """``referee.log``, rotated; a new file is its owner's alone."""

    def _open(self):
        return open(self.baseFilename, self.mode, encoding=self.encoding,  # noqa: SIM115
                    errors=self.errors,
                    opener=lambda path, flags: os.open(path, flags, 0o600))

    def handleError(self, record: logging.LogRecord) -> None:  # noqa: N802
        raise  # noqa: PLE0704 - a line that cannot be written stops the referee, as before


class MailReferee:
    """The referee by mail of every game in ``root``. ``send`` delivers one
    message (envelope sender, recipients, bytes) and raises
    :class:`OSError` or :class:`smtplib.SMTPException` when it cannot; it
    defaults to the SMTP server of the config."""

    def __init__(self, root: Path | str, *, config: Config | None = None,
                 send: Sender | None = None, now: Callable[[], float] = time.time,
                 dns: authenticity.DNS | None = None) -> None:
        self.root = Path(root)
        self.now = now
        self.dns = dns  # DKIM keys are asked of DNS through it (None: the system's resolver)
        self._log = _LogFile(self.root / "referee.log", maxBytes=LOG_BYTES,
                             backupCount=LOG_FILES, encoding="utf-8", delay=True)
        self._warned: set[Path] = set()
        self.config = config if config is not None else load_config(self.root, warn=self.warn)
        self.roster, self.aliases = read_roster(self.root)
        self.requires = load_requirements(self.root)
        # Seats the organiser gave to new players (admin replace): their
        # addresses (the old player's aliases no longer count).
        for game, seats in self.seats().items():
            if game in self.roster:
                self.roster[game].update((s, a) for s, a in seats.items()
                                         if s in self.roster[game])
                for seat in seats:
                    self.aliases[game].pop(seat, None)
        self.send: Sender = send if send is not None else self.smtp_send
        self.maildir = Maildir(self.root / "Maildir")
        self.spool = Spool(self.root / "spool")
        (self.root / "games").mkdir(parents=True, exist_ok=True)  # the organiser's
        # What the referee writes holds the players' hands: its own alone
        # (files a previous version left readable by others are tightened).
        for sub in ("spool", "spool/failed", "state", "quarantine", "admin"):
            if sub in ("spool", "state") or (self.root / sub).is_dir():
                files.private_dir(self.root / sub)
            files.tighten(self.root / sub)
        #: What the referee remembers (:mod:`.store`).
        self.store = Store(self.root / "state")
        self.compose = Composer(self.config, self.roster, now, self.store.preferences,
                                self.aliases)
        self.domain = self.compose.domain
        if (self.root / "referee.log").is_file():
            os.chmod(self.root / "referee.log", (self.root / "referee.log").stat().st_mode & 0o600)
        self.maildir.make()
        # A referee killed inside files.write leaves the temporary copy it
        # was writing; in the directories only the referee writes, clear them.
        for sub in ("spool", "state"):
            for stale in (self.root / sub).glob(".*.tmp"):
                stale.unlink(missing_ok=True)
        for name, seats in self.roster.items():
            log = self.log(name)
            if set(seats) != set(log.players):
                raise ConfigError(
                    f"roster.toml: [{name}] lists {', '.join(sorted(seats))}, but the log's "
                    f"players are {', '.join(log.players)}")
            if log.commitment is None or log.referee is None:
                raise ConfigError(f"games/{name}.json: not a refereed game with a referee's key "
                                  "(adjudicator new GAME --referee)")
            secret = self.secret(name)
            if secret.signing_key is None or secret.commitment != log.commitment:
                raise ConfigError(f"games/{name}.secret.json: not the secret of games/{name}.json")
            for player, needs in self.requires.get(name, {}).items():
                if "signed" in needs and not log.keys.get(player):
                    raise ConfigError(f"roster.toml: [{name}] {player} must sign, but the game's "
                                      f"header holds no key of theirs (new --key {player}=KEY)")

    # -- files --

    def log_path(self, name: str) -> Path:
        return self.root / "games" / f"{name}.json"

    def log(self, name: str) -> Log:
        path = self.log_path(name)
        return logmod.decode(files.read(str(path)), str(path))

    def secret_path(self, name: str) -> Path:
        return self.root / "games" / f"{name}.secret.json"

    def secret(self, name: str) -> Secret:
        path = self.secret_path(name)
        if path not in self._warned and files.readable_by_others(path):
            self._warned.add(path)
            self.warn(f"warning: {path} is readable by others: chmod 600 {path}")
        return logmod.decode_secret(files.read(str(path)), str(path))

    def note(self, line: str) -> None:
        """One line in ``referee.log``, for the organiser, stamped by the
        referee's clock; the file is rotated (:data:`LOG_BYTES` each, the
        :data:`LOG_FILES` last kept)."""
        stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(self.now()))
        text = one_line(line)
        if len(text) > MAX_LINE:
            text = text[:MAX_LINE] + "..."
        self._log.handle(logging.makeLogRecord({"msg": f"{stamp} {text}", "args": None}))
        self._log.close()  # a line at a time, as other processes may write it too

    def warn(self, line: str) -> None:
        """A warning for the organiser: on standard error and in ``referee.log``."""
        print(line, file=sys.stderr)
        self.note(line)

    # -- the journal --

    def journal(self, key: str, game: str | None, before: bytes | None, after: bytes | None,
                mails: Sequence[bytes], filed: str | None,
                observe: tuple[str, str, bool] | None = None,
                seat: tuple[str, str, str] | None = None,
                admin: tuple[str, list[str]] | None = None,
                secret: bytes | None = None,
                digest: tuple[str, bool | str] | None = None,
                prefs: tuple[str, dict[str, str]] | None = None) -> None:
        """Write what handling one message (or one announcement) leads to, then carry it out.
        Where a game's players are mailed, so are its observers (the public view)."""
        if game is not None and mails:
            mails = [*mails, *self.observer_mails(game, after, key)]
        pending = {
            "key": key,
            "game": game,
            "before": None if before is None else incoming.digest(before),
            "after": None if after is None else base64.b64encode(after).decode("ascii"),
            "mails": [base64.b64encode(m).decode("ascii") for m in mails],
            "filed": filed,
            "observe": None if observe is None else list(observe),
            "seat": None if seat is None else list(seat),
            "admin": None if admin is None else [admin[0], admin[1]],
            "secret": None if secret is None else base64.b64encode(secret).decode("ascii"),
            "digest": None if digest is None else list(digest),
            "prefs": None if prefs is None else [prefs[0], prefs[1]],
        }
        files.write(str(self.root / "state" / "pending.json"),
                    json.dumps(pending).encode("ascii"), private=True)
        self.carry_out(pending)

    def carry_out(self, pending: dict | None = None) -> None:
        """Carry out the journal, if one is waiting; every step may run twice.
        ``pending`` is the journal just written (not read back again)."""
        path = self.root / "state" / "pending.json"
        if pending is None:
            try:
                pending = json.loads(path.read_bytes())
            except FileNotFoundError:
                return
        game, key = pending["game"], pending["key"]
        if pending.get("secret") is not None:
            # Before the log: an entry never commits to orders the referee
            # does not hold (orders held but never recorded are not revealed).
            files.write(str(self.secret_path(game)), base64.b64decode(pending["secret"]),
                        private=True)
        handled = []
        if pending["after"] is not None:
            after = base64.b64decode(pending["after"])
            log_path = self.log_path(game)
            from filelock import FileLock

            with FileLock(files.lock_path(str(log_path)), timeout=60):
                now = log_path.read_bytes()
                if incoming.digest(now) == pending["before"]:
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
            name = incoming.digest(key.encode("utf-8", "replace"))[:24]
            self.spool.put(f"{name}-{i:03}.eml", base64.b64decode(mail))
        if pending.get("observe") is not None:
            self.set_observer(*pending["observe"])
        if pending.get("seat") is not None:
            self.set_seat(*pending["seat"])
        if pending.get("digest") is not None:  # a choice (True/False), or a day sent
            address, what = pending["digest"]
            if isinstance(what, bool):
                self.set_digest(address, on=what)
            else:
                self.set_digest(address, sent=what)
        if pending.get("admin") is not None:  # an organiser's signed act: queued once
            nonce, words = pending["admin"]
            folder = self.root / "admin"
            files.private_dir(folder)
            # Named by the nonce: carried out twice after a crash, one request.
            files.write(str(folder / f"mail-{nonce}.json"),
                        json.dumps(words).encode("utf-8"), private=True)
            handled.append("nonce:" + nonce)
        if key.startswith("msg:"):
            handled.append(key[4:])
        if key.startswith("admin:"):  # the organiser's request, now carried out
            (self.root / "admin" / key[6:]).unlink(missing_ok=True)
        chosen = pending.get("prefs")
        self.store.carried(
            handled=handled,
            announced=None if game is None else
            (game, incoming.digest(self.log_path(game).read_bytes())),
            preferences=None if chosen is None else (chosen[0], chosen[1]))
        if pending["filed"]:
            self.maildir.file(pending["filed"])
        path.unlink()

    # -- handling one message --

    def handle(self, data: bytes, filed: str | None = None) -> str:
        """Handle one incoming message; returns a line saying what was done."""
        self.carry_out()
        mail = incoming.read(data)
        key = "msg:" + mail.message_id
        if self.store.handled(mail.message_id):
            if filed:
                self.maildir.file(filed)
            return f"{shown(mail.message_id)}: already handled"
        try:
            outcome = decision.address(mail, self.roster, self.compose)
            if isinstance(outcome, Request):
                outcome = self.decide(outcome)
            elif isinstance(outcome, decision.Preferring):
                outcome = self.prefer(outcome)
            elif isinstance(outcome, decision.Overview):
                outcome = self.overview(outcome)
            elif isinstance(outcome, decision.Organised):
                outcome = self.signed_act(outcome)
        except OSError:
            raise  # a disk or a file that fails is not the message's fault
        except Exception as e:  # noqa: BLE001 - any fault of deciding on this message
            # Deciding is computing from the message and the game: a failure
            # is a fault of the referee's own that this message triggers, and
            # would trigger again on every start. (Failing to record, below,
            # is not the message's fault: it stops the referee, and the
            # message waits for the next start.)
            raise Faulty(one_line(f"{type(e).__name__}: {e}")) from e
        outcome, answered = self.limited(outcome)
        self.note(f"{shown(mail.message_id)}: {outcome.said}")
        self.journal(key, outcome.game, outcome.before, outcome.after, outcome.mails, filed,
                     outcome.observe, admin=outcome.admin, secret=outcome.secret,
                     digest=outcome.digest, prefs=outcome.prefs)
        if answered:
            self.save_answers(answered)
        if outcome.said.startswith("ignored: ") and self.config.organiser:
            self.ignored(mail, outcome.said.removeprefix("ignored: "))
        return f"{shown(mail.message_id)}: {outcome.said}"

    # -- how often it answers, and what it ignored --

    def limited(self, outcome: Decision) -> tuple[Decision, list[tuple[str, str]]]:
        """``outcome`` less the answers that may not go now
        (:class:`answers.Answers`): only answers that record nothing are
        limited; returns it and the (address, answer) of those that go."""
        if outcome.after is not None or outcome.observe is not None \
                or outcome.admin is not None or outcome.secret is not None \
                or outcome.digest is not None or not outcome.mails:
            return outcome, []
        from email.utils import getaddresses

        table = self.answers()
        kept, answered, refused = [], [], []
        for data in outcome.mails:
            head = incoming.read(data).message
            to = "" if head is None else ",".join(
                a for _, a in getaddresses([str(head.get("To", ""))]))
            subject = "" if head is None else incoming.strip_reply_prefix(
                str(head.get("Subject", "")))
            what = f"{outcome.said}\0{subject}"
            why = table.refused(to, what, self.now(), self.config.repeat * 60,
                                self.config.answers)
            if why is None:
                kept.append(data)
                answered.append((to, what))
                table.sent(to, what, self.now())
            else:
                refused.append(why)
        if not refused:
            return outcome, answered
        from dataclasses import replace

        return replace(outcome, mails=tuple(kept),
                       said=f"{outcome.said}; not answered: {refused[0]}"), answered

    def answers(self) -> answers_mod.Answers:
        try:
            data = json.loads((self.root / "state" / "answers.json").read_bytes())
        except (FileNotFoundError, ValueError):
            return answers_mod.Answers()
        return answers_mod.Answers.from_json(data)

    def save_answers(self, answered: list[tuple[str, str]]) -> None:
        table = self.answers()
        for to, what in answered:
            table.sent(to, what, self.now())
        table.forget(self.now(), self.config.repeat * 60)
        files.write(str(self.root / "state" / "answers.json"),
                    json.dumps(table.to_json()).encode("ascii"), private=True)

    def ignored(self, mail: incoming.Incoming, why: str) -> None:
        """Count an ignored mail for the organiser's next notice."""
        if why == "the referee's own mail":
            return
        path = self.root / "state" / "ignored.json"
        try:
            table = answers_mod.Ignored.from_json(json.loads(path.read_bytes()))
        except (FileNotFoundError, ValueError):
            table = answers_mod.Ignored()
        sender = subject = ""
        if mail.message is not None:
            try:
                from email.utils import parseaddr

                sender = parseaddr(str(mail.message.get("From", "")))[1].lower()
                subject = str(mail.message.get("Subject", ""))
            except (ValueError, TypeError, IndexError, AttributeError):
                pass
        why = why.removeprefix(sender or "no sender").strip()  # "... plays no game here"
        table.add(sender, why, subject, self.now())
        files.write(str(path), json.dumps(table.to_json()).encode("ascii"), private=True)

    def tell_organiser(self) -> list[str]:
        """The organiser's notice of what was ignored, when one is due (one
        per ``notices`` hours at most), through the journal."""
        path = self.root / "state" / "ignored.json"
        if not self.config.organiser or not path.exists():
            return []
        try:
            table = answers_mod.Ignored.from_json(json.loads(path.read_bytes()))
        except ValueError:
            table = answers_mod.Ignored()
        now = self.now()
        if not table.due(now, self.config.notices * 3600):
            return []
        key = f"notice:{int(now)}"
        subject = f"[referee] {table.count} mail{'s' * (table.count != 1)} ignored"
        mails = [self.compose.mail(to, subject, table.report(), game=None, seed=f"{key}:{to}")
                 for to in self.config.organiser]
        line = f"told the organiser of {table.count} ignored mails"
        self.note(line)
        self.journal(key, None, None, None, mails, None)
        table.reset(now)
        files.write(str(path), json.dumps(table.to_json()).encode("ascii"), private=True)
        return [line]

    def decide(self, request: Request) -> Decision:
        """:func:`decision.decide` on the game the request is about, as stored now."""
        path = self.log_path(request.game)
        raw = path.read_bytes()
        log = logmod.decode(raw, str(path))
        vouched = None
        if request.command is not None and request.command.mail_command.changes:
            # its provider's DKIM signature, for the address it came from (the
            # roster's, or an alias of the same player)
            from email.utils import parseaddr

            needs = self.requires.get(request.game, {}).get(request.player, frozenset())
            sender = parseaddr(str(request.message.get("From", "")))[1].lower()
            if self.compose.player_of(request.game, sender) != request.player:
                sender = self.roster[request.game][request.player]
            vouched = authenticity.vouch(request.incoming.data, sender, "dkim" in needs,
                                         self.dns)
            if isinstance(vouched, str):
                return Decision(f"{request.game}: refused {request.player}'s "
                                f"{request.command.word}: {vouched}", (self.compose.error_mail(
                                    request.message, f"{request.game}: {vouched}",
                                    request.game, request.seed),))
        outcome = decision.decide(request, raw, log, self.secret(request.game), self.compose)
        if isinstance(vouched, authenticity.Vouched) and outcome.after is not None:
            # Kept before it is recorded: a crash between leaves a kept mail
            # whose move was not recorded, which proves only that it was sent.
            authenticity.keep(self.root, request.game, len(log.moves) + 1, request.incoming.data)
            outcome = replace(outcome, said=f"{outcome.said} (DKIM: {vouched.domain}, kept)")
        return outcome

    # -- announcements, the spool, the Maildir --

    def announce(self) -> list[str]:
        """Send every game's players mail about any change to its log not yet
        announced (a new game, a move recorded by hand)."""
        self.carry_out()
        out = []
        for name in self.roster:
            raw = self.log_path(name).read_bytes()
            if self.store.announced(name) == incoming.digest(raw):
                continue
            log = logmod.decode(raw, str(self.log_path(name)))
            key = f"announce:{name}:{incoming.digest(raw)}"
            mails = (deal.call_mails(name, log, self.compose, seed=key) if deal.stage(log) else
                     decision.position_mails(name, log, self.secret(name), self.compose, seed=key))
            # Journaled to the spool: sent when the spool is flushed, not yet.
            self.note(f"{name}: asked every player for their part of the deal" if deal.stage(log)
                      else f"{name}: spooled the position after move {len(log.moves)} "
                      "for every player")
            self.journal(key, name, None, None, mails, None)
            out.append(name)
        return out

    def keep_time(self) -> list[str]:
        """Every act of the clock owed now in every game with a time control,
        each journalled like a message (so it happens exactly once), in
        order; first, if the referee was down longer than the config's
        ``outage`` since its last round, that outage in every such game (no
        player's clock ran while nobody could record their move)."""
        from datetime import UTC, datetime, timedelta

        self.carry_out()
        now = datetime.fromtimestamp(self.now(), UTC)
        beat = self.root / "state" / "clock.json"
        alive = None
        if beat.exists():
            alive = datetime.fromtimestamp(json.loads(beat.read_bytes())["alive"], UTC)
        threshold = timedelta(minutes=self.config.outage)
        down_since = alive if alive is not None and now - alive > threshold else None
        done: list[str] = []
        timed = False
        for name in self.roster:
            path = self.log_path(name)
            outage_owed = down_since is not None
            for _ in range(100):  # a bound: each act is one of a few per turn
                raw = path.read_bytes()
                log = logmod.decode(raw, str(path))
                if log.time is None or log.result is not None or deal.stage(log):
                    break  # (the clock waits for the deal: README, "The deal by mail")
                timed = True
                secret = self.secret(name)
                key = f"clock:{name}:{incoming.digest(raw)}"
                if outage_owed and down_since is not None:
                    acted: timekeeper.Acted | None = timekeeper.outage(log, secret, down_since,
                                                                       now)
                    outage_owed = False
                else:
                    acted = timekeeper.next_act(log, secret, now)
                if acted is None:
                    break
                mails = self.clock_mails(name, acted, key)
                line = f"{name}: {acted.words}"
                self.note(line)
                done.append(line)
                self.journal(key, name, raw, logmod.encode(acted.log), mails, None)
        if timed:  # the heartbeat matters only where a clock runs
            files.write(str(beat), json.dumps({"alive": self.now()}).encode("ascii"),
                        private=True)
        return done

    # -- seats given to new players --

    def seats(self) -> dict[str, dict[str, str]]:
        """The addresses of seats the organiser gave to new players
        (``state/seats.json``), over roster.toml's."""
        path = self.root / "state" / "seats.json"
        return json.loads(path.read_bytes()) if path.exists() else {}

    def set_seat(self, game: str, seat: str, address: str) -> None:
        table = self.seats()
        table.setdefault(game, {})[seat] = address
        files.write(str(self.root / "state" / "seats.json"),
                    json.dumps(table, sort_keys=True).encode("ascii"), private=True)
        if game in self.roster:
            self.roster[game][seat] = address
            self.aliases.get(game, {}).pop(seat, None)

    # -- observers --

    def observers(self) -> dict[str, list[str]]:
        """Who follows each game (``state/observers.json``)."""
        path = self.root / "state" / "observers.json"
        return json.loads(path.read_bytes()) if path.exists() else {}

    def set_observer(self, game: str, address: str, add: bool) -> None:
        """Add or remove one observer (the same twice does nothing more)."""
        table = self.observers()
        mine = set(table.get(game, ()))
        mine = mine | {address} if add else mine - {address}
        table[game] = sorted(mine)
        files.write(str(self.root / "state" / "observers.json"),
                    json.dumps(table, sort_keys=True).encode("ascii"), private=True)

    def observer_mails(self, game: str, after: bytes | None, key: str) -> list[bytes]:
        """The public view of ``game`` (the log ``after``, or as stored) for
        each of its observers: the board as a spectator sees it, drawn from
        the spectator's view (no hand), and the public log."""
        watching = self.observers().get(game, [])
        if not watching:
            return []
        from .. import games, match, present
        from ..engine import Style

        raw = after if after is not None else self.log_path(game).read_bytes()
        log = logmod.decode(raw, game)
        if deal.stage(log):
            return []  # nothing to see before the deal
        rep = match.validate(match.unlock(log, self.secret(game)))
        g = games.get(log.game)
        style = Style(unicode=False)
        board = g.render(g.view(rep.state, None), style)
        moves = [f"{i}. {e.by} {e.move}" for i, e in enumerate(log.moves, 1)][-6:]
        status = ("Game over: " + match.describe(log.result) if log.result is not None else
                  f"{rep.to_move()} to move (move {len(log.moves) + 1})")
        body = "\n".join([f"{g.title}, {game}: the public view (you observe this game).",
                          "", *(present.safe(line, style) for line in board.splitlines()),
                          "", "Last moves:",
                          *(f"  {m}" for m in moves), "", status, "",
                          f"Reply 'unobserve {game}' to stop these mails."])
        return [self.compose.mail(address, f"[{game}] {status} (observing)", body, game=game,
                                  seed=f"{key}:observer:{address}",
                                  attachments=[(f"{game}.txt", "text/plain",
                                                compose_public(log))])
                for address in watching]

    def signed_act(self, asked: decision.Organised) -> Decision:
        """An organiser's signed act by mail: queued for this round (the
        same nonce twice is refused: a replayed mail does nothing)."""
        if self.store.handled("nonce:" + asked.nonce):
            return Decision(f"from {asked.sender}: organiser's act refused: a replay",
                            (self.compose.error_mail(
                                asked.message, "admin: this signed act was already taken "
                                "(each signature acts once); nothing done", None, asked.seed),))
        return Decision(f"organiser {asked.sender}: admin {' '.join(asked.words)}",
                        (self.compose.answer_mail(
                            asked.message, "admin", f"Taken: admin {' '.join(asked.words)}. "
                            "It is recorded in the game's log in this round, and its players "
                            "are told; a refusal is in referee.log.", asked.seed),),
                        admin=(asked.nonce, list(asked.words)))

    def request(self, words: list[str]) -> str:
        """Queue the organiser's act ``words`` (``pause GAME``, ``resume
        GAME``, ``extend GAME PLAYER HOURS``) in ``admin/``: the referee
        records it in its next round (:meth:`organise`). Returns its name."""
        import secrets

        folder = self.root / "admin"
        files.private_dir(folder)
        name = f"{int(self.now() * 1000):015d}-{secrets.token_hex(4)}.json"
        files.write(str(folder / name), json.dumps(words).encode("utf-8"), private=True)
        return name

    def organise(self) -> list[str]:
        """Every act the organiser queued in ``admin/``, oldest first, each
        recorded, signed and told to its game's players through the journal
        (so exactly once: the request is removed as the journal is carried
        out), or refused with a line in ``referee.log``."""
        from datetime import UTC, datetime

        from ..errors import AdjudicatorError

        self.carry_out()
        folder = self.root / "admin"
        done: list[str] = []
        for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
            try:
                words = json.loads(path.read_bytes())
                if not (isinstance(words, list) and len(words) >= 2
                        and all(isinstance(w, str) for w in words)):
                    raise ConfigError("not an organiser's act")
                act, name, *args = words
                if name not in self.roster:
                    raise ConfigError(f"no game {name!r} here (games: {', '.join(self.roster)})")
                log_path = self.log_path(name)
                raw = log_path.read_bytes()
                log = logmod.decode(raw, str(log_path))
                args = timekeeper.organiser_args(act, args, log.players, {
                    "replace": ("PLAYER", "NEW", "ADDRESS"), "drop": ("PLAYER",)}.get(act))
                seat_address = None
                if act == "replace":
                    from email.utils import parseaddr

                    if len(args) != 3 or "@" not in parseaddr(args[2])[1]:
                        raise ConfigError("write: replace GAME PLAYER NEW ADDRESS")
                    seat_address = (name, args[0], parseaddr(args[2])[1].lower())
                    holder = self.compose.player_of(name, seat_address[2])
                    if holder is not None and holder != args[0]:
                        raise ConfigError(f"{seat_address[2]} already plays a seat of {name}")
                    args = args[:2]
                if act == "drop":  # the deal's act, not the clock's (postal/deal.py)
                    dropped = deal.drop(name, raw, log, self.secret(name), args, self.compose,
                                        seed=f"admin:{path.name}")
                    self.note(f"{name}: {dropped.said}")
                    done.append(f"{name}: {dropped.said}")
                    self.journal(f"admin:{path.name}", name, raw, dropped.after, dropped.mails,
                                 None)
                    continue
                acted = timekeeper.organise(log, self.secret(name), [act, *args],
                                            datetime.fromtimestamp(self.now(), UTC))
            except (AdjudicatorError, ValueError) as e:
                line = f"organiser's {path.name}: refused: {one_line(str(e))}"
                self.note(line)
                done.append(line)
                path.unlink(missing_ok=True)
                continue
            key = f"admin:{path.name}"
            line = f"{name}: {acted.words}"
            self.note(line)
            done.append(line)
            if seat_address is not None:  # the new player is mailed from now on
                self.roster[name][seat_address[1]] = seat_address[2]
                self.aliases.get(name, {}).pop(seat_address[1], None)
            self.journal(key, name, raw, logmod.encode(acted.log),
                         self.clock_mails(name, acted, key), None, seat=seat_address)
        return done

    def prefer(self, asked: decision.Preferring) -> Decision:
        """The answer to ``prefs``: the sender's mail preferences, changed as
        they ask (kept once the journal is carried out), for all their games."""
        from .commands import PREFERENCES, Prefs, Refused

        try:
            asking = Prefs.chosen(asked.args)
        except Refused as e:
            return Decision(f"from {asked.sender}: {one_line(str(e))}", (self.compose.error_mail(
                asked.message, str(e), None, asked.seed),))
        now = {**self.compose.chosen(asked.sender), **asking}
        lines = [f"Your mail preferences{' are now' if asking else ''}:", ""]
        for name, values in PREFERENCES.items():
            lines.append(f"  {name}={now[name]}   ({', '.join(values)})")
        lines += ["", "picture: the board attached to each mail (svg, a few kilobytes;",
                  "png, ten times larger; none). mail=all: a mail after every move;",
                  "mail=turn: a mail only when it is your move (it says what happened",
                  "since your last), at the start and at the end of a game. Change",
                  "them with e.g. 'prefs picture=png mail=all'."]
        said = (f"prefs for {asked.sender}: " + " ".join(f"{n}={v}" for n, v in asking.items())
                if asking else f"prefs for {asked.sender}")
        return Decision(said, (self.compose.answer_mail(asked.message, "prefs", "\n".join(lines),
                                                        asked.seed),),
                        prefs=(asked.sender, asking) if asking else None)

    def overview(self, asked: decision.Overview) -> Decision:
        """The answer to ``games``: every game of the sender, where it
        stands as they may know it (whose move, the deadline and the time
        left, the result)."""
        from datetime import UTC, datetime

        text = decision.overview_text(self.overview_rows(asked.mine),
                                      datetime.fromtimestamp(self.now(), UTC))
        sender = next(iter(self.roster[n][p] for n, p in asked.mine.items()))
        return Decision(f"games for {sender}",
                        (self.compose.answer_mail(asked.message, "games", text, asked.seed),))

    def overview_rows(self, mine: Mapping[str, str]) -> list[tuple[str, str, str, str | None]]:
        """A row per game of ``mine`` (game -> the player's seat): its name,
        its title, where it stands, its deadline."""
        from .. import clock, games, match

        rows: list[tuple[str, str, str, str | None]] = []
        for name, player in mine.items():
            log = self.log(name)
            title = games.get(log.game).title
            if log.result is not None:
                rows.append((name, title, f"over: {match.describe(log.result)}", None))
                continue
            if deal.stage(log):
                rows.append((name, title, deal.waiting_line(log), None))
                continue
            who = match.validate(match.unlock(log, self.secret(name))).to_move()
            due = None
            if log.time is not None:
                when = clock.timeline(log, who).deadline()
                due = None if when is None else clock.stamp(when)
            state = "your move" if who == player else f"{who} to move"
            rows.append((name, title, f"{state} (move {len(log.moves) + 1})", due))
        return rows

    # -- the daily digest --

    def digest_table(self) -> dict[str, dict[str, Any]]:
        """``state/digest.json``: each address's choice (``on``) and the
        day (in the digest's zone) its last digest was sent (``sent``)."""
        path = self.root / "state" / "digest.json"
        return json.loads(path.read_bytes()) if path.exists() else {}

    def set_digest(self, address: str, on: bool | None = None, sent: str | None = None) -> None:
        table = self.digest_table()
        row = table.setdefault(address, {})
        if on is not None:
            row["on"] = on
        if sent is not None:
            row["sent"] = sent
        files.write(str(self.root / "state" / "digest.json"),
                    json.dumps(table, sort_keys=True).encode("ascii"), private=True)

    def digests(self) -> list[str]:
        """The daily digest (lichess's "games waiting on you"): once a day,
        at the first round from ``[digest] hour`` in its zone, a mail to each
        player who wants it (``digest on``, or the config's default) listing
        their games, whose move and the time left, when one waits on them.
        Each day is marked done for a player in the same journal entry that
        spools their mail, so a crash sends it once."""
        from datetime import UTC, datetime

        from .. import clock

        self.carry_out()
        now = datetime.fromtimestamp(self.now(), UTC)
        local = now.astimezone(clock.zone(self.config.digest_zone))
        if local.hour < self.config.digest_hour:
            return []
        today = local.date().isoformat()
        table = self.digest_table()
        done: list[str] = []
        for address in sorted({a for seats in self.roster.values() for a in seats.values()}):
            row = table.get(address, {})
            if not row.get("on", self.config.digest) or row.get("sent") == today:
                continue
            mine = {name: seat for name, seats in self.roster.items()
                    for seat, a in seats.items() if a == address}
            rows = self.overview_rows(mine)
            key = f"digest:{address}:{today}"
            mails: list[bytes] = []
            if any(state.startswith("your move") for _, _, state, _ in rows):
                text = decision.overview_text(rows, now)
                mails.append(self.compose.mail(
                    address, f"Your games, {today}", f"{text}\nReply 'digest off' to stop "
                    "these mails.", game=None, seed=key))
                line = f"daily digest for {address}"
                self.note(line)
                done.append(line)
            self.journal(key, None, None, None, mails, None, digest=(address, today))
        return done

    def status(self) -> list[str]:
        """A line per game: its moves, who is to move and by when."""
        from datetime import UTC, datetime

        from .. import clock, match

        out = []
        for name in self.roster:
            log = self.log(name)
            if deal.stage(log):
                out.append(f"{name}: {deal.waiting_line(log)}")
                continue
            if log.result is not None:
                out.append(f"{name}: over after {len(log.moves)} entries: "
                           f"{match.describe(log.result)}")
                continue
            rep = match.validate(match.unlock(log, self.secret(name)),
                                 now=datetime.fromtimestamp(self.now(), UTC))
            who = rep.to_move()
            due = ""
            if log.time is not None:
                line = clock.timeline(rep.log, who)
                when = line.deadline()
                due = (" (clock paused)" if line.paused is not None else
                       f", due {clock.stamp(when)}" if when is not None else "")
            out.append(f"{name}: move {len(log.moves) + 1}, {who} to move{due}")
        return out

    def clock_mails(self, name: str, acted: timekeeper.Acted, key: str) -> list[bytes]:
        """The mails an act of the clock sends: the player alone for a
        reminder, the whole table otherwise, each with their view file."""
        from .. import referee

        log = acted.log
        secret = self.secret(name)
        players = log.players if acted.table or acted.player is None else (acted.player,)
        notes = {p: (acted.words,) for p in players}
        views = referee.issue_views(log, secret, players, notes, replayed=acted.replayed)
        headline = {"remind": "Reminder: your move", "late": f"{acted.player} is late",
                    "timeout": f"{acted.player}'s time ran out",
                    "stand-in": f"A stand-in moved for {acted.player}",
                    "outage": "The referee is back"}.get(acted.kind)
        return [self.compose.view_mail(name, log, views[p], compose_public(log),
                                       seed=f"{key}:{p}", headline=headline) for p in players
                if self.compose.wants(name, log, views[p])]

    def flush(self) -> tuple[int, str | None]:
        """Send the spool, oldest first; stop at the first failure (kept for
        the next try). Returns how many were sent, and the failure."""
        self.carry_out()
        if self.send != self.smtp_send:
            return self.spool.flush(self.config.address, self.send, self.note)
        with transport.SMTPSession(self.config.smtp) as session:  # one connection for all
            return self.spool.flush(self.config.address, session, self.note)

    def smtp_send(self, sender: str, to: list[str], data: bytes) -> None:
        """Send one message through the SMTP server of referee.toml."""
        transport.smtp_send(self.config.smtp, sender, to, data)

    def fetch(self) -> int:
        """Copy new mail from the IMAP folder of referee.toml, if any, into
        the Maildir (:func:`transport.fetch_imap`): every message after the
        last UID taken, read or not; where it stopped is kept in
        ``state/imap.json`` (with the folder's UIDVALIDITY)."""
        if self.config.imap is None:
            return 0
        path = self.root / "state" / "imap.json"
        since = None
        try:
            data = json.loads(path.read_bytes())
            if data.get("folder") == self.config.imap.folder:
                since = transport.Fetched(int(data["uidvalidity"]), int(data["uid"]))
        except (FileNotFoundError, ValueError, KeyError, TypeError, AttributeError):
            pass
        count, reached = transport.fetch_imap(self.config.imap, self.config.address,
                                              self.maildir, since)
        if reached is not None and reached != since:
            files.write(str(path), json.dumps({
                "folder": self.config.imap.folder, "uidvalidity": reached.uidvalidity,
                "uid": reached.uid}).encode("ascii"), private=True)
        return count

    def waiting(self) -> list[str]:
        """The messages waiting in ``Maildir/new``, oldest first."""
        return self.maildir.waiting()

    def prune(self) -> list[str]:
        """Handled mail (``Maildir/cur``) and mail the server refused
        (``spool/failed``) older than ``keep`` days, removed: each may quote
        a player's hand, and the referee needs neither (the log and the
        journal hold what happened). Their age is read from the file system's
        own times, by its clock, not the referee's (which tests inject)."""
        if not self.config.keep:
            return []
        before = time.time() - self.config.keep * 86400
        done = []
        for folder, what in ((self.maildir.path / "cur", "handled mail"),
                             (self.spool.path / "failed", "refused mail")):
            gone = transport.prune(folder, before)
            if gone:
                line = (f"removed {counted(gone, 'message')} of {what} older than "
                        f"{self.config.keep:g} days ({folder.parent.name}/{folder.name})")
                self.note(line)
                done.append(line)
        return done

    def run_once(self) -> list[str]:
        """One round: finish a journal left by a crash, fetch, handle every
        waiting message, announce, send the spool. Returns what was done."""
        self.carry_out()
        done: list[str] = []
        try:
            self.fetch()
        except (OSError, Exception) as e:  # noqa: BLE001 - IMAP down: try again next round
            done.append(f"IMAP: {one_line(f'{type(e).__name__}: {e}')}")
        for name in self.waiting():
            data = self.maildir.read(name)
            if data is None:
                continue
            try:
                done.append(self.handle(data, filed=name))
            except Faulty as e:
                # A message this referee cannot decide on (a fault of its own)
                # must not stop every game: it is put aside for the organiser.
                # A failure to record it (a full disk) is no fault of the
                # message: it stops the referee, and the message waits in
                # Maildir/new (and any journal in state/) for the next start.
                self.maildir.put_aside(name, self.root / "quarantine")
                line = f"{name}: put aside in quarantine/: {e}"
                self.note(line)
                done.append(line)
        done += self.tell_organiser()
        done += self.organise()
        done += self.keep_time()
        done += self.digests()
        done += self.prune()
        self.announce()
        sent, failure = self.flush()
        if failure is not None:
            done.append(f"SMTP: {failure}; {self.spool.count()} mails wait in the spool")
        return done
