"""The commands a mail to the referee may carry.

Each command is one class: its name, its usage and help (from which the
``help`` mail is written) and what it does. :data:`TABLE` lists them in the
order the help shows them; adding a command is adding a class to it.

A command is of one of three kinds: about no game (``help``: it answers
with a text), about a game without changing it (``show``: the referee
answers with the player's view), or a change to a game, which must carry
the player's latest view file as proof and :meth:`MailCommand.play` says
what it records.
"""

from __future__ import annotations

import functools
import re
import shlex
import textwrap
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import ClassVar

from .. import games, reading, referee
from ..errors import AdjudicatorError, MoveError
from ..log import Log, Secret, ViewFile
from ..played import Replay
from .compose import view_of
from .incoming import strip_reply_prefix

__all__ = ["COMMANDS", "TABLE", "Absent", "Accept", "Back", "Command", "Commit", "Contribute",
           "Digest", "Games", "Help", "Legal", "MailCommand", "Move", "PREFERENCES", "Prefs",
           "example_move",
           "Played", "StandingOrders", "Propose", "Refused", "Reject", "Resign", "Reveal", "Show",
           "Words", "find_command", "help_text", "moves_of", "signs_own"]


class Refused(AdjudicatorError):
    """A message the referee answers with one line and records nothing for."""


@dataclass(frozen=True)
class Played:
    """What a command did to a game: the log after it, the notes for the
    player (their next view file's) and, where the command played the game
    through, its replay (so the views are issued without replaying again)."""

    log: Log
    notes: tuple[str, ...]
    replayed: Replay | None = None
    #: The game's secret, where the command changed it (standing orders).
    secret: Secret | None = None


class MailCommand:
    """One command: ``name``, its ``usage`` lines and the ``help`` of each."""

    name: ClassVar[str]
    #: (usage, what it does) for the help mail; a line break in what it does
    #: is kept.
    help: ClassVar[tuple[tuple[str, str], ...]]
    #: Whether it is about one game (then named after it, or found from the reply).
    about_a_game: ClassVar[bool] = True
    #: Whether it changes the game, and so needs the player's view file as proof.
    changes: ClassVar[bool] = True
    #: Whether only the sender is mailed about the change (the others see it
    #: in their next mail).
    private: ClassVar[bool] = False

    def answer(self) -> str:
        """The answer of a command about no game."""
        raise NotImplementedError(self.name)

    def play(self, args: Sequence[str], log: Log, secret: Secret, vf: ViewFile,
             player: str, at: str | None = None) -> Played:
        """What a change records, given the player's checked view file ``vf``
        of the current position, stamped ``at`` (the referee's clock); raises
        :class:`AdjudicatorError` (one line for the player) for a change
        that cannot be made."""
        raise NotImplementedError(self.name)


class Move(MailCommand):
    name = "move"
    help = (("move [GAME] MOVE [MOVE ...]",
             "your move; more moves queue, applied\nwhile they stay yours and legal"),)

    def play(self, args: Sequence[str], log: Log, secret: Secret, vf: ViewFile,
             player: str, at: str | None = None) -> Played:
        if vf.move is not None:
            # The player recorded (and, if they sign, signed) the move in
            # the view file itself: that entry is the move, taken as it is.
            return self.recorded(args, log, secret, vf, at)
        if vf.log.keys.get(player):
            raise Refused(signs_own(player))
        if not args:
            raise Refused(f"move: which move? e.g. 'move {example_move(log, vf.legal)}' "
                          "(several queue, with commas between)")
        # The proof was checked as this referee's file of the current
        # position (decision.proof): neither is checked again.
        chosen = referee.choose(vf, moves_of(vf, args), source="your move", view=view_of(vf),
                                at=at)
        # A file issued before reminders and notices still answers the
        # position (decision.proof checked that nothing else came since).
        relaid = len(vf.log.moves) < len(log.moves)
        taken = referee.take(log, secret, chosen, "your move", checked=True, at=at,
                             relaid=relaid)
        return Played(taken.log, taken.notes(), taken.replayed)

    def recorded(self, args: Sequence[str], log: Log, secret: Secret, vf: ViewFile,
                 at: str | None) -> Played:
        """The move a player recorded in their view file (``extend FILE
        MOVE``, signed with ``--key``), with the moves queued after it; a
        move also typed after ``move`` must be the same."""
        assert vf.move is not None
        if vf.move.move.startswith("@"):
            raise Refused(f"your mail says 'move', but the view file in it holds "
                          f"{vf.move.move!r}: send one of them")
        if args:
            try:
                typed = reading.read_listed(games.get(vf.log.game), view_of(vf), vf.legal or (),
                                            moves_of(vf, args)[0], vf.log.params)
            except MoveError:
                typed = None
            if typed != vf.move.move:
                raise Refused(f"your mail says 'move {' '.join(args)}', but the view file "
                              f"in it holds the move {vf.move.move}: send one of them")
        taken = referee.take(log, secret, vf, "your view file", checked=True, at=at)
        return Played(taken.log, taken.notes(), taken.replayed)


def signs_own(player: str) -> str:
    """The refusal of a change typed in a mail by a player who signs their
    moves: the referee cannot sign for them, so only their signed entry counts."""
    return (f"{player} signs their moves (their key is in the game's header): record the "
            "move in your view file with 'adjudicator extend --key KEY FILE MOVE' and send "
            "the file back with 'move' on the first line")


class Show(MailCommand):
    name = "show"
    help = (("show [GAME]", "your view of the game"),)
    changes = False


class Legal(MailCommand):
    # The view mail lists the moves whenever it is the player's turn.
    name = "legal"
    help = (("legal [GAME]", "the same, with your legal moves"),)
    changes = False


class Event(MailCommand):
    """A command recorded as an event (:mod:`adjudicator.events`)."""

    def event(self, args: Sequence[str]) -> str:
        """The event, from the words after the command."""
        if args:
            raise Refused(f"{self.name} takes nothing after it")
        return f"@{self.name}"

    def play(self, args: Sequence[str], log: Log, secret: Secret, vf: ViewFile,
             player: str, at: str | None = None) -> Played:
        event = self.event(args)
        if vf.move is not None:
            # Recorded (and, if they sign, signed) in the view file itself.
            if vf.move.move != event:
                raise Refused(f"your mail says '{self.name}', but the view file in it holds "
                              f"{vf.move.move!r}: send one of them")
            return Played(referee.take_event(log, secret, vf, "your view file", checked=True,
                                             at=at), (f"recorded: {event}",))
        if vf.log.keys.get(player):
            # The entry would be theirs, and the referee holds no key of
            # theirs to sign it with: recording it unsigned would be forging it.
            words = " ".join([self.name, "FILE", *(a.lower() for a in args)])
            raise Refused(f"{player} signs their moves (their key is in the game's header), "
                          f"so only a signed '{self.name}' counts: record it in your view file "
                          f"with 'adjudicator {words} --as {shlex.quote(player)} --key KEY' and send the "
                          f"file back with '{self.name}' on the first line")
        return Played(referee.record(log, secret, [event], as_player=player, at=at),
                      (f"recorded: {event}",))


class Propose(Event):
    name = "propose"
    help = (("propose [GAME] takeback N", "take back the last N moves, if all\nagree"),
            ("propose [GAME] abandon", "end the game with no result, if all\nagree"))

    def event(self, args: Sequence[str]) -> str:
        what = [a.lower() for a in args]
        if what[:1] == ["takeback"] and len(what) == 2 and what[1].isdigit():
            return f"@takeback {int(what[1])}"
        if what == ["abandon"]:
            return "@abandon"
        raise Refused("propose takeback N, or propose abandon")


class Accept(Event):
    name = "accept"
    help = (("accept [GAME]", "answer a proposal"),)


class Reject(Event):
    name = "reject"
    help = (("reject [GAME]", "answer a proposal"),)


class Resign(Event):
    name = "resign"
    help = (("resign [GAME]", "leave the game, ranked last"),)


class Absent(MailCommand):
    """A request to the game's clock (:func:`adjudicator.timekeeper.player_act`)."""

    name = "absent"
    help = (("absent [GAME] FROM TO", "away from date FROM to TO (2026-12-24):\n"
                                      "your clock stops, within the game's cap"),)

    def play(self, args: Sequence[str], log: Log, secret: Secret, vf: ViewFile,
             player: str, at: str | None = None) -> Played:
        from datetime import UTC, datetime

        from .. import clock, timekeeper

        now = datetime.now(UTC) if at is None else clock.parse_stamp(at)
        acted = timekeeper.player_act(log, secret, player, [self.name, *args], now)
        return Played(acted.log, (f"recorded: {acted.words}",), acted.replayed)


class Back(Absent):
    name = "back"
    help = (("back [GAME]", "you are back: ends an absence, or a\nstand-in that plays for you"),)


class StandingOrders(MailCommand):
    """Orders a stand-in follows if the player's time runs out
    (:func:`adjudicator.timekeeper.leave_orders`): the log gets their digest
    alone, the referee keeps them, and only the player is told what they are."""

    name = "orders"
    help = (("orders [GAME] MOVE, MOVE ...", "standing orders: if a stand-in plays for\n"
                                            "you, it plays the first of them that is\n"
                                            "legal (* and ? match moves), else the\n"
                                            "bot's move; 'orders' alone clears them.\n"
                                            "Secret until the game ends"),)
    private = True

    def play(self, args: Sequence[str], log: Log, secret: Secret, vf: ViewFile,
             player: str, at: str | None = None) -> Played:
        from datetime import UTC, datetime

        from .. import clock, timekeeper

        text = " ".join(args)
        orders = clock.orders_of(text) if "," in text else text.split()
        now = datetime.now(UTC) if at is None else clock.parse_stamp(at)
        acted, kept = timekeeper.leave_orders(log, secret, player, orders, now)
        digest = acted.log.moves[-1].move.split(" ")[-1]
        mine = kept.orders[-1].text
        notes = ((f"your standing orders: {mine}" if mine else "you have no standing orders"),
                 f"the log shows only their digest, {digest}; they are revealed with the "
                 "seed when the game ends")
        return Played(acted.log, notes, acted.replayed, secret=kept)


class Contribute(MailCommand):
    """A player's part of the deal nobody chooses, before any view file
    exists: decided by :func:`adjudicator.postal.deal.decide`."""

    changes = False  # no view file to keep: none is issued before the deal


class Commit(Contribute):
    name = "commit"
    help = (("commit [GAME] NAME HEX", "your commitment to the deal, as\n"
                                       "'adjudicator deal commit' prints it"),)


class Reveal(Contribute):
    name = "reveal"
    help = (("reveal [GAME] NAME VALUE", "your value, once every commitment is in\n"
                                         "('adjudicator deal reveal')"),)


class Words(Contribute):
    name = "words"
    help = (("words [GAME] TEXT", "a few words of yours for the deal, once\n"
                                  "every commitment is in (no tool needed)"),)


class Games(MailCommand):
    """The sender's games: answered by the referee, which reads their logs
    (:meth:`adjudicator.postal.service.MailReferee.overview`)."""

    name = "games"
    help = (("games", "your games: whose move, and by when,\nmost urgent first"),)
    about_a_game = False
    changes = False


class Digest(MailCommand):
    """The daily digest on or off: answered by the referee, which keeps
    the choice (:meth:`adjudicator.postal.service.MailReferee.digests`)."""

    name = "digest"
    help = (("digest on|off", "a mail each morning listing your games,\n"
                              "when one waits on you"),)
    about_a_game = False
    changes = False

#: The mail preferences a player may set (``prefs``), each with its values;
#: the defaults are referee.toml's ``picture`` and ``mail``.
PREFERENCES: dict[str, tuple[str, ...]] = {
    "picture": ("svg", "png", "none"),
    "mail": ("all", "turn"),
}


class Prefs(MailCommand):
    """The sender's mail preferences, for every game of theirs: answered by
    the referee, which keeps them
    (:meth:`adjudicator.postal.service.MailReferee.prefer`)."""

    name = "prefs"
    help = (("prefs [picture=P] [mail=M]", "your mails: the picture svg, png or\n"
                                             "none; mail=all after every move, or\n"
                                             "turn: only when it is your move"),)
    about_a_game = False
    changes = False

    @staticmethod
    def chosen(args: Sequence[str]) -> dict[str, str]:
        """``picture=png mail=turn`` as a mapping; :class:`Refused` for
        anything else (``prefs`` alone asks what they are)."""
        out: dict[str, str] = {}
        for arg in args:
            name, _, value = arg.strip(".,;").lower().partition("=")
            if name not in PREFERENCES or value not in PREFERENCES[name]:
                choices = "; ".join(f"{n}={'|'.join(v)}" for n, v in PREFERENCES.items())
                raise Refused(f"prefs: {arg!r} is not a preference; write e.g. 'prefs "
                              f"picture=svg mail=turn' ({choices})")
            out[name] = value
        return out


class Help(MailCommand):
    name = "help"
    help = (("help", "this text"),)
    about_a_game = False
    changes = False

    def answer(self) -> str:
        return help_text()


TABLE: dict[str, MailCommand] = {c.name: c for c in (
    Move(), Show(), Legal(), Propose(), Accept(), Reject(), Resign(), Absent(), Back(),
    StandingOrders(), Commit(), Reveal(), Words(), Games(), Digest(), Prefs(), Help())}
COMMANDS = tuple(TABLE)


def help_text() -> str:
    """The ``help`` mail: every command's usage and help, in :data:`TABLE`'s
    order; commands that do the same (``accept`` and ``reject``) share a line."""
    entries: list[tuple[list[str], str]] = []
    for command in TABLE.values():
        for usage, text in command.help:
            if entries and entries[-1][1] == text:
                entries[-1][0].append(usage)
            else:
                entries.append(([usage], text))
    changes = [c.name for c in TABLE.values() if c.changes]
    lines = []
    for usages, text in entries:
        first, *rest = text.split("\n")
        lines.append(f"  {' / '.join(usages):<29} {first}")
        lines += [" " * 32 + more for more in rest]
    return "\n".join([
        "Commands, one on the first line of a mail to the referee (a reply to the",
        "referee's mail needs no game name; otherwise put it after the command):",
        "",
        *lines,
        "",
        textwrap.fill(f"A mail that changes a game ({', '.join(changes)}) must keep the view "
                      "file of the referee's latest mail to you, quoted or attached: it proves "
                      "the mail is yours and answers the current position.", 72),
        "",
    ])


# --- finding the command in a mail ----------------------------------------------------------


@dataclass(frozen=True)
class Command:
    """A command found in a mail: the word, the game named (or None), and
    the rest; ``bare`` when the mail's only line was taken as a move (a
    line that is no move is then no command)."""

    word: str
    game: str | None
    args: tuple[str, ...]
    bare: bool = False

    @property
    def mail_command(self) -> MailCommand:
        return TABLE[self.word]


def _words(line: str) -> list[str]:
    # Typographic dashes and quotes put in by a mail client are the plain ones.
    line = line.translate({0x2010: "-", 0x2011: "-", 0x2012: "-", 0x2013: "-", 0x2014: "-",
                           0x2212: "-", 0x2018: "'", 0x2019: "'", 0x201C: '"', 0x201D: '"',
                           0xA0: " "})
    return line.split()


#: Where the sender's own text ends: a signature, the referee's files, or
#: the start of a quoted mail as clients write it without '>' (Outlook's
#: "-----Original Message-----" or its rule and header block, "On ... wrote:").
_OWN_TEXT_ENDS = re.compile(
    r"-- $|--$|-----BEGIN ADJUDICATOR|-+ ?Original Message ?-+|_{10,}$"
    r"|(From|Sent|De|Von|Fra|Van|Od|Envoy\u00e9) ?:\s"
    r"|.*\bwrote:$|.*\bschrieb:$|.*\b\u00e9crit ?:$|.*\bskrev:$", re.I)
#: Markup and punctuation around a command: '*move 3W*', '**Move:** 3W',
#: '`move 3W`', 'move 3W.'
_AROUND = "*_~`'\"\u00ab\u00bb"


def own_lines(bodies: Iterable[str]) -> list[str]:
    """The lines the sender wrote in the first text part: not quoted, before
    their signature, the referee's files or a quoted mail."""
    lines: list[str] = []
    for body in bodies:
        for line in body.splitlines():
            stripped = line.strip()
            if _OWN_TEXT_ENDS.match(stripped) or _OWN_TEXT_ENDS.match(line):
                break
            if stripped.startswith(">"):
                continue
            lines.append(line)
        break  # the first text part is the body; the others are attachments
    return lines


def _command_words(line: str) -> list[str]:
    """The words of a line with the markup around it and its closing
    punctuation taken off (``*move 3W*``, ``**Move:** 3W``, ``move 3W.``);
    its first word lower-cased. Markup inside (``orders *N*``) is kept."""
    text = " ".join(_words(line))
    opening = len(text) - len(text.lstrip(_AROUND))
    if opening and text.endswith(text[:opening][::-1]) and len(text) > 2 * opening:
        text = text[opening:-opening]  # '*move 3W*', '`move 3W`'
    text = text.rstrip(".!;").strip()
    words = text.split()
    if not words:
        return []
    head, colon, more = words[0].strip(_AROUND).partition(":")  # 'Move:', 'move:3W'
    first = head.strip(_AROUND).lower()
    after = [more, *words[1:]] if colon else words[1:]
    rest = [w for w in after if w]
    if rest and colon and rest[0].strip(_AROUND) == "":
        rest = rest[1:]  # '**Move:** 3W': the markup closing the word
    return [first, *rest] if first else rest


def find_command(subject: str, bodies: Iterable[str], known_games: Iterable[str]) -> Command | None:
    """The command of a mail: the first line of its own text (not quoted,
    before a signature or a quoted copy of the referee's files) whose first
    word is a command, however it is indented, prefixed or punctuated
    (``  move 3W``, ``Move: 3W``, ``*move 3W*``, ``move 3W.``); else its
    subject (less ``Re:`` and the like); else, when the mail's own text is
    one short line, that line as a move (``3W``: ``bare``).

    >>> find_command("Re: [g] Your move", ["  **Move:** 3W.", "", "> move 5D"], ["g"])
    Command(word='move', game=None, args=('3W',), bare=False)
    >>> find_command("Re: [g] Your move", ["3W", "", "> show"], ["g"])
    Command(word='move', game=None, args=('3W',), bare=True)
    >>> find_command("x", ["orders g 3D, *N*."], ["g"]).args  # markup inside is kept
    ('3D,', '*N*')
    """
    known = set(known_games)
    own = own_lines(bodies)
    for line in [*own, strip_reply_prefix(subject)]:
        words = _command_words(line)
        if not words or words[0] not in TABLE:
            continue
        word, rest = words[0], words[1:]
        game = None
        if rest and rest[0].lower() in known:
            game, rest = rest[0].lower(), rest[1:]
        return Command(word, game, tuple(rest))
    written = [line for line in own if line.strip()]
    if len(written) == 1:
        words = _command_words(written[0])
        if 1 <= len(words) <= 4 and len(" ".join(words)) <= 40:
            return Command("move", None, tuple(_command_words("x " + written[0])[1:]),
                           bare=True)
    return None


def example_move(log: Log, legal: Sequence[str] | None = None) -> str:
    """A move in the game's own notation, for the hints of the referee's
    mails: the player's first legal move when they have some, else the
    first legal move of a made-up deal of the game (the same every time,
    nothing of this game's deal).

    >>> from adjudicator import match
    >>> example_move(match.new_refereed("q-turn", ["ann", "bob"], seed="s")[0])
    'a1'
    """
    if legal:
        return legal[0]
    import json

    return _example(log.game, json.dumps(log.params, sort_keys=True, default=str),
                    log.players, log.rules)


@functools.lru_cache(maxsize=32)
def _example(game_id: str, params: str, players: tuple[str, ...], rules: int | None) -> str:
    import json

    from ..starting import resolve_params

    game = games.get(game_id)
    try:
        full = resolve_params(game, json.loads(params), complete=True, rules=rules)
        state = game.setup(full, players, "example")
        legal = game.legal_moves(state)
        return game.format_move(state, legal[0]) if legal else "MOVE"
    except (AdjudicatorError, ValueError, TypeError, KeyError, IndexError):
        return "MOVE"


def moves_of(vf: ViewFile, args: Sequence[str]) -> list[str]:
    """The moves of ``move A, B`` (commas or semicolons between moves), or of
    ``move A B``: the whole text when it is one move in the game's tolerant
    notation (``move 3 dawn``), else one move per word. ``vf`` is checked."""
    text = " ".join(args)
    if "," in text or ";" in text:
        return [m.strip() for m in text.replace(";", ",").split(",") if m.strip()]
    if len(args) > 1 and vf.legal is not None:
        try:
            reading.read_listed(games.get(vf.log.game), view_of(vf), vf.legal, text, vf.log.params)
            return [text]
        except MoveError:
            return list(args)
    return [text]
