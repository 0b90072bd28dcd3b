"""What a message leads to, decided in memory: nothing here reads or
writes a file, so the service can record all of it at once, or none.

:func:`address` reads who a message is from and what it asks; most
messages are decided there (ignored, answered with help or an error).
What is left is a :class:`Request` about one game, which :func:`decide`
turns, given that game's log and secret, into the new log and the mails
to send, or a refusal.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from email.message import Message
from email.utils import parseaddr

import msgspec

from .. import events, log as logmod, match, referee
from ..played import Replay
from ..errors import AdjudicatorError, one_line
from ..log import Log, Secret, ViewFile
from .commands import Command, Refused, example_move, find_command
from .compose import Composer, public_text
from .incoming import Incoming, is_automatic

__all__ = ["YOUR_MAIL", "Decision", "Organised", "Overview", "Preferring", "Request", "address",
           "decide",
           "game_of",
           "ignored", "overview_text",
           "position_mails", "proof"]

#: How the player's mail is named in the errors about what it holds.
YOUR_MAIL = "your mail"


@dataclass(frozen=True)
class Decision:
    """What a message leads to: a line for the organiser, the mails to send
    and, when it changes a game, that game's log before and after (bytes)."""

    said: str
    mails: tuple[bytes, ...] = ()
    game: str | None = None
    before: bytes | None = None
    after: bytes | None = None
    #: An observer to add to (True) or remove from (False) a game: (game, address, add).
    observe: tuple[str, str, bool] | None = None
    #: An organiser's signed act to queue: (nonce, words).
    admin: tuple[str, list[str]] | None = None
    #: The game's secret file after it (bytes), written before the log.
    secret: bytes | None = None
    #: A player's choice of the daily digest: (address, on).
    digest: tuple[str, bool] | None = None
    #: A player's mail preferences to keep: (address, name -> value).
    prefs: tuple[str, dict[str, str]] | None = None


def ignored(why: str) -> Decision:
    """A message answered with nothing (an automatic reply, a stranger)."""
    return Decision(f"ignored: {why}")


@dataclass(frozen=True)
class Request:
    """A message from ``player`` of game ``game`` with a command about it."""

    incoming: Incoming
    message: Message
    player: str
    game: str
    #: None for a mail in which no command was found.
    command: Command | None
    texts: list[tuple[str, int, str]]

    @property
    def seed(self) -> str:
        """What the mails it leads to are named by (their Message-IDs)."""
        return "msg:" + self.incoming.message_id


def address(incoming: Incoming, roster: Mapping[str, Mapping[str, str]],
            composer: Composer) -> Decision | Request | Overview | Organised | Preferring:
    """Who a message is from and what it asks: a request about one of their
    games, or already the decision (ignored; help; no command; which game?)."""
    message, seed = incoming.message, "msg:" + incoming.message_id
    if message is None:
        return ignored(incoming.unreadable)
    try:
        # The email package parses a header when it is read, and some
        # damaged ones (an address cut short) raise instead of a defect.
        why = is_automatic(message, composer.config.address)
        sender = parseaddr(str(message.get("From", "")))[1].lower()
        subject = str(message.get("Subject", ""))
    except (ValueError, TypeError, IndexError, AttributeError):
        return ignored("unreadable headers")
    if why is not None:
        return ignored(why)
    watching = observing(incoming, subject, roster, composer, sender, seed)
    if watching is not None:
        return watching
    acting = organising(incoming, composer, sender, seed)
    if acting is not None:
        return acting
    mine = {name: player for name in roster
            if (player := composer.player_of(name, sender)) is not None}
    if not mine:
        return ignored(f"{sender} plays no game here" if sender else
                       "the mail names no sender: no player's move")
    texts = incoming.texts()
    found = find_command(subject, [text for _, depth, text in texts if depth == 0], mine)
    if found is None:
        name = game_of(message, mine, composer.domain)
        if name is not None:  # answered with the player's view file (decide)
            return Request(incoming, message, mine[name], name, None, texts)
        return Decision(f"from {sender}: no command", (composer.error_mail(
            message, "no command found: write one on the first line, e.g. 'show GAME' "
            f"(yours: {', '.join(sorted(mine))})", None, seed),))
    command = found.mail_command
    if command.name == "games":
        return Overview(incoming, message, mine)
    if command.name == "digest":
        choice = [a.lower() for a in found.args]
        if choice not in (["on"], ["off"]):
            return Decision(f"from {sender}: digest {' '.join(found.args)}", (
                composer.error_mail(message, "write: digest on, or digest off", None, seed),))
        on = choice == ["on"]
        text = ("You will get a mail each day, from the first round after "
                f"{composer.config.digest_hour:02}:00 ({composer.config.digest_zone}), when a "
                "game of yours waits on you. 'digest off' stops it." if on else
                "No more daily digest. 'games' lists your games whenever you ask.")
        return Decision(f"digest {choice[0]} for {sender}",
                        (composer.answer_mail(message, "digest", fill(text), seed),),
                        digest=(sender, on))
    if command.name == "prefs":
        return Preferring(incoming, message, sender, found.args)
    if not command.about_a_game:
        return Decision(f"{command.name} for {sender}",
                        (composer.answer_mail(message, command.name, command.answer(), seed),))
    name = found.game or game_of(message, mine, composer.domain)
    if name is None:
        return Decision(f"from {sender}: which game? ({found.word})", (composer.error_mail(
            message, f"say which game: {found.word} GAME ... (yours: "
            f"{', '.join(sorted(mine))})", None, seed),))
    return Request(incoming, message, mine[name], name, found, texts)


@dataclass(frozen=True)
class Overview:
    """A ``games`` message: the sender plays ``mine`` (game -> their name);
    the referee answers from the games' logs."""

    incoming: Incoming
    message: Message
    mine: Mapping[str, str]

    @property
    def seed(self) -> str:
        return "msg:" + self.incoming.message_id


@dataclass(frozen=True)
class Preferring:
    """A ``prefs`` message from ``sender`` (a player here), with ``args``:
    the referee answers from, and keeps, the preferences it holds."""

    incoming: Incoming
    message: Message
    sender: str
    args: tuple[str, ...]

    @property
    def seed(self) -> str:
        return "msg:" + self.incoming.message_id


def overview_text(rows: Sequence[tuple[str, str, str, str | None]],
                  now: datetime | None = None) -> str:
    """The ``games`` answer: one line per game (name, what it is, where it
    stands, its deadline and, given ``now``, the time left), folded at 72
    columns: the player's moves first, then the games going on, then those
    over; the nearest deadline first within each."""
    def urgency(row: tuple[str, str, str, str | None]) -> tuple[int, int, str, str]:
        name, _, state, due = row
        return (0 if state.startswith("your move") else 1 if not state.startswith("over") else 2,
                0 if due is not None else 1, due or "", name)

    lines = ["Your games, most urgent first:", ""]
    for name, title, state, due in sorted(rows, key=urgency):
        when = f", due {due}" if due is not None else ""
        if due is not None and now is not None:
            when += f" ({time_left(due, now)})"
        lines.append(fill(f"{name} ({title}): {state}{when}", "  ", "      "))
    return "\n".join([*lines, "", "Reply 'show GAME' for a game's position."])


def time_left(due: str, now: datetime) -> str:
    """``2d 3h left``, ``45m left``, or ``overdue``: from ``now`` to the stamp ``due``."""
    from ..clock import parse_stamp

    minutes = int((parse_stamp(due) - now).total_seconds() // 60)
    if minutes <= 0:
        return "overdue"
    days, rest = divmod(minutes, 24 * 60)
    hours, mins = divmod(rest, 60)
    parts = [f"{days}d"] * bool(days) + [f"{hours}h"] * bool(hours) + \
        [f"{mins}m"] * (not days and bool(mins))
    return " ".join(parts or ["0m"]) + " left"


def fill(text: str, first: str = "", rest: str = "") -> str:
    """``text`` folded at 72 columns, between words."""
    import textwrap

    return textwrap.fill(text, 72, initial_indent=first, subsequent_indent=rest,
                         break_long_words=False, break_on_hyphens=False)


def observing(incoming: Incoming, subject: str, roster: Mapping[str, Mapping[str, str]],
              composer: Composer, sender: str, seed: str) -> Decision | None:
    """``observe GAME`` or ``unobserve GAME`` from anyone: a game the
    organiser opened to observers (``observers`` in referee.toml) is
    followed, or no longer; None for any other message."""
    message = incoming.message
    assert message is not None
    bodies = [text for _, depth, text in incoming.texts() if depth == 0]
    first = bodies[0].splitlines()[:1] if bodies else []
    for line in [*first, subject]:  # the first line of the text, then the subject
        words = line.split()
        if len(words) != 2 or words[0].lower() not in ("observe", "unobserve"):
            continue
        add, name = words[0].lower() == "observe", words[1].lower()
        allowed = composer.config.observers
        if name not in roster or not ("*" in allowed or name in allowed):
            return Decision(f"from {sender}: {words[0].lower()} {name}: not open to observers",
                            (composer.error_mail(message, f"{name}: not a game open to "
                                                 "observers here", None, seed),))
        text = (f"You follow {name}: you will get a mail with the public view after "
                f"every move (no hand, no hidden card). 'unobserve {name}' stops them."
                if add else f"You no longer follow {name}.")
        return Decision(f"{name}: {sender} {'observes' if add else 'stopped observing'}",
                        (composer.answer_mail(message, words[0].lower(), text, seed),),
                        observe=(name, sender, add))
    return None


@dataclass(frozen=True)
class Organised:
    """An organiser's act by mail, its signature checked: the service queues
    it (once per nonce) and answers the organiser."""

    incoming: Incoming
    message: Message
    sender: str
    words: tuple[str, ...]
    nonce: str

    @property
    def seed(self) -> str:
        return "msg:" + self.incoming.message_id


def organising(incoming: Incoming, composer: Composer, sender: str,
               seed: str) -> Decision | Organised | None:
    """A mail whose first line is ``admin ...``: the organiser's act when
    its signature is good (:mod:`.organiser`), else refused with one line;
    None for any other mail."""
    from . import organiser

    message = incoming.message
    assert message is not None
    bodies = [text for _, depth, text in incoming.texts() if depth == 0]
    found = organiser.find(bodies[0].splitlines() if bodies else [])
    if found is None:
        return None
    keys = dict(composer.config.organisers)
    why = None
    if isinstance(found, str):
        why = found
    elif sender not in keys:
        why = "only an organiser named in the referee's configuration may act"
    elif not organiser.verify(keys[sender], composer.config.address, found):
        why = "the signature is not this organiser's for this act (forged or edited)"
    if why is not None or isinstance(found, str):
        return Decision(f"from {sender}: organiser's act refused: {why}",
                        (composer.error_mail(message, f"admin: {why}; nothing done", None,
                                             seed),))
    return Organised(incoming, message, sender, tuple(found.words), found.nonce)


def game_of(message: Message, mine: Mapping[str, str], domain: str) -> str | None:
    """The game a reply is about: a referee's Message-ID it answers, a
    ``[GAME]`` in its subject, or the sender's only game."""
    refs = " ".join(str(message.get(h, "")) for h in ("In-Reply-To", "References"))
    for name in re.findall(rf"<adj\.([a-z0-9_-]+)\.[0-9a-f]+@{re.escape(domain)}>", refs):
        if name in mine:
            return name
    for name in re.findall(r"\[([a-z0-9_-]+)\]", str(message.get("Subject", "")).lower()):
        if name in mine:
            return name
    return next(iter(mine)) if len(mine) == 1 else None


def decide(request: Request, raw: bytes, log: Log, secret: Secret,
           composer: Composer) -> Decision:
    """What ``request`` leads to in its game, whose log is ``log`` (``raw``
    as stored) and secret ``secret``: the new log and every player's mail,
    or one error mail to the sender that records nothing."""
    name, player, found = request.game, request.player, request.command
    message, seed = request.message, request.seed
    from . import deal

    if found is None:
        if deal.stage(log) is not None:  # the deal is still being made: no view yet
            return Decision(f"{name}: no command from {player}", (composer.error_mail(
                message, "no command found: write one on the first line ('help' lists "
                "them)", name, seed),))
        mine = referee.issue_view(log, secret, player)
        return Decision(f"{name}: no command from {player}", (composer.error_mail(
            message, f"no command found: write one on the first line, e.g. 'move "
            f"{example_move(log, mine.legal)}'", name, seed, mine),))
    command = found.mail_command
    if found.word in deal.WORDS or deal.stage(log) is not None:  # before the game: its deal
        bodies = [text for _, depth, text in request.texts if depth == 0]
        return deal.decide(found.word, found.args, name, player, message, raw, log, secret,
                           composer, seed, bodies[0] if bodies else "")
    try:
        if not command.changes:
            vf = referee.issue_view(log, secret, player)
            return Decision(f"{found.word} {name} for {player}", (composer.view_mail(
                name, log, vf, public_text(log), seed=seed, reply_to=message),))
        vf = proof(request, log, secret)
        played = command.play(found.args, log, secret, vf, player, at=stamp_now(composer))
    except (AdjudicatorError, RecursionError) as e:
        text = str(e) if not isinstance(e, RecursionError) else "the mail is nested too deep"
        # The player's view file as it is now: a reply to this mail is one
        # to the latest position.
        try:
            current: ViewFile | None = referee.issue_view(log, secret, player)
        except AdjudicatorError:
            current = None
        if found.bare and not isinstance(e, Refused):
            # A mail whose one line is no command, read as a move: if it is
            # none, say both (it may have been a note, not a move).
            example = example_move(log, current.legal if current is not None else None)
            text = (f"no command found (write one on the first line, e.g. 'move {example}'), "
                    f"and {' '.join(found.args)!r} read as a move: {text}")
        return Decision(f"{name}: refused {player}'s {found.word}: {one_line(text)}",
                        (composer.error_mail(message, f"{name}: {text}", name, seed, current),))
    new, notes = played.log, played.notes
    if new.result is not None and new.seed is None:
        new = referee.signed(match.reveal(new, secret), secret)
    kept = None if played.secret is None else logmod.encode(played.secret)
    if command.private:  # told to the sender alone; the others see it in their next mail
        vf = referee.issue_view(new, secret, player, notes)
        return Decision(f"{name}: {player}: {found.word}", (composer.view_mail(
            name, new, vf, public_text(new), seed=f"{seed}:{player}", reply_to=message),),
            name, raw, logmod.encode(new), secret=kept)
    mails = position_mails(name, new, secret, composer, seed=seed, notes={player: notes},
                           by=player, reply_to=message, replayed=played.replayed)
    done = (f"{player}: {', '.join(notes)}" if notes else
            f"{player}: {found.word} {' '.join(found.args)}".strip())
    return Decision(f"{name}: {done}", tuple(mails), name, raw, logmod.encode(new),
                    secret=kept)


#: The acts of the clock after which a view file issued before them still
#: answers the position: none moves a piece or ends the game.
QUIET_ACTS = frozenset({"remind", "late", "timeout", "outage", "pause", "resume", "extend",
                        "order-stand-in", "orders",
                        "absent", "back"})


#: The entries by which another player proposes or answers a proposal: they
#: leave a view file issued before them answering the position, unless the
#: position changed (a takeback agreed).
PROPOSALS = ("@takeback", "@abandon", "@accept", "@reject")


def stamp_now(composer: Composer) -> str:
    """The referee's time now, as a log stamps it."""
    from datetime import UTC, datetime

    from ..clock import stamp

    return stamp(datetime.fromtimestamp(composer.now(), UTC))


def proof(request: Request, log: Log, secret: Secret) -> ViewFile:
    """The player's view file in their mail (quoted or attached), checked:
    issued by this referee to this player at the current position."""
    name, player = request.game, request.player
    found, damage = request.incoming.view_files_or_damage(request.texts, YOUR_MAIL)
    views = [f.value for f in found if isinstance(f.value, ViewFile)
             and f.value.log.commitment == log.commitment and f.value.player == player]
    if not views and damage is not None:
        what = one_line(damage)
        what = what if len(what) <= 160 else what[:157] + "..."
        raise Refused(f"the view file in your mail is damaged ({what}): reply to the "
                      "referee's latest mail and keep its text as it is (send plain text, "
                      "or attach the view file)")
    if not views:
        raise Refused(f"your mail holds no view file of yours for {name}: reply to the "
                      "referee's latest mail and keep its text")
    # The newest position; at it, a file in which the player recorded their
    # move (a signed reply) before the referee's copy quoted beside it.
    newest = max(views, key=lambda vf: (len(vf.log.moves), vf.move is not None))
    # Checked against the game as it stood when the file was issued, so
    # that a genuine but old file is told apart from a forged one, and
    # answered with what a player can do (not "send ann a new view file").
    n = len(newest.log.moves)
    then = msgspec.structs.replace(log, moves=log.moves[:n])
    referee.current(then, secret, newest, "the view file in your mail")
    later = log.moves[n:]
    if later and not newest.log.keys.get(player) and all(
            events.act_of(e.move) in QUIET_ACTS for e in later):
        # Only reminders, notices and the like since: the position the file
        # shows is still the game's, and the player's answer stands.
        return newest
    if later and not newest.log.keys.get(player) and all(
            events.act_of(e.move) in QUIET_ACTS
            or (e.by not in (player, events.REFEREE) and e.move.startswith(PROPOSALS))
            for e in later):
        # Another player proposed (or answered a proposal) after the file was
        # issued: unless that changed the position (a takeback agreed), the
        # player's answer, perhaps sent before, stands, and a move drops the
        # proposal (the players played on).
        unlocked = match.unlock(log, secret)
        before, now = match.replay(unlocked, upto=n), match.replay(unlocked)
        if (before.state, before.to_move()) == (now.state, now.to_move()) \
                and log.result is None:
            return newest
    if n < len(log.moves):
        raise Refused(f"your mail answers move {n + 1}, but the game is at move "
                      f"{len(log.moves) + 1}: reply to the referee's latest mail "
                      f"('show {name}' sends it again)")
    return newest


def position_mails(name: str, log: Log, secret: Secret, composer: Composer, *, seed: str,
                   notes: Mapping[str, Sequence[str]] | None = None, by: str | None = None,
                   reply_to: Message | None = None, replayed: Replay | None = None) -> list[bytes]:
    """A mail to every player of game ``name`` about where it stands
    (``notes`` for some of them; the mail to ``by`` answers ``reply_to``):
    every view file from one replay (``replayed``, where the caller has it)."""
    views = referee.issue_views(log, secret, log.players, notes, replayed=replayed)
    return composer.position_mails(name, log, views, seed=seed, by=by, reply_to=reply_to)
