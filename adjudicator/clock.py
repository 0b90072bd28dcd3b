"""The judge's clock: when a player's time runs out, read from the log alone.

A game's time control (:class:`adjudicator.log.TimeControl`, in the signed
header) says how long each player has and when the clock runs; the log's
entries, each stamped by the referee, say when every turn began and every
act of the clock. From these two, and nothing the referee keeps aside,
:func:`timeline` works out the clock of the player to move and
:func:`due` the next act the referee owes: a reminder, a late notice, or
what the policy does when grace ends. Anyone holding the log can redo the
sum, so the referee cannot time a player out early (``validate`` checks
every act of the clock against it: :func:`check_act`).

The clock acts are entries of the log by ``referee`` (:mod:`adjudicator.events`):

``@remind P``, ``@late P``, ``@timeout P``
    P was reminded; P's deadline passed (grace runs); P's grace ran out.
``@stand-in P``
    the next entry is P's move, played by a bot from P's view.
``@orders P DIGEST``
    P left standing orders for a stand-in: DIGEST commits to them (they
    stay with the referee until the reveal; :func:`stand_in_move`).
``@order-stand-in P UNTIL``
    the organiser ordered a stand-in for P: for P's next move (``move``)
    or for every turn of P's until P is back (``back``).
``@forfeit P``
    P resigns on time.
``@pause`` / ``@resume``
    the organiser stopped and restarted every clock of the game.
``@outage FROM``
    the referee was down from FROM to this entry: no clock ran meanwhile.
``@extend P HOURS``
    P's deadline for this turn moves HOURS of running time later.
``@absent P FROM TO`` / ``@back P``
    P's clock does not run from FROM to TO (within the header's cap);
    ``@back`` ends an absence, or a stand-in that plays until P is back.
``@replace P NAME``
    the organiser gave seat P to a new player, NAME: the seat keeps its
    name in the log (its moves are P's), and this entry says who held it
    from when.
``@eject P``
    the organiser put P out of the game: it ends as if P resigned.

A player's name that holds a space is written in double quotes
(``@stand-in "Ann Smith"``, :func:`act_text`); any other as it is.

Times are UTC stamps (``2026-11-23T09:15:00Z``); days and hours of the
clock are read in the time control's zone (an IANA name, through
:mod:`zoneinfo`), so a clock that stops at night follows summer time.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Sequence
from datetime import UTC, date, datetime, time as daytime, timedelta
from typing import Any

import msgspec

from . import names as naming
from .errors import BadLogError, IllegalMoveError, UsageError
from .log import Log, Orders, TimeControl

#: The rule cited when a clock act is not one the log allows.
CLAUSE = "adjudicator time control, notation/README.md"
DAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
EXPIRY = ("wait", "stand-in", "forfeit")
UNTIL = ("move", "back")
#: The acts of the clock: the referee's entries that start no turn.
ACTS = ("remind", "late", "timeout", "stand-in", "forfeit", "pause", "resume", "outage",
        "extend", "absent", "back", "replace", "eject", "order-stand-in", "orders")
STAMP_FORMAT = "%Y-%m-%dT%H:%M:%SZ"
_SPEC_KEYS = {
    "per-move": "per_move", "bank": "bank", "increment": "increment", "cap": "cap",
    "grace": "grace", "days": "days", "hours": "hours", "zone": "zone", "expiry": "expiry",
    "stand-in": "stand_in", "until": "until", "remind": "remind", "absence": "absence",
}


def act_text(kind: str, *args: str) -> str:
    """An act as the log writes it, each name that holds a space quoted.

    >>> act_text("replace", "Ann Smith", "dee")
    '@replace "Ann Smith" dee'
    """
    return "@" + naming.join([kind, *args])


def act_parts(text: str) -> tuple[str, list[str]]:
    """The kind and the arguments of an act (:func:`act_text`'s inverse).

    >>> act_parts('@stand-in "Ann Smith"')
    ('stand-in', ['Ann Smith'])
    """
    kind, *args = naming.split(text[1:]) or [""]
    return kind, args


def stamp(when: datetime) -> str:
    """``when`` as the log writes it (UTC, to the second)."""
    return when.astimezone(UTC).strftime(STAMP_FORMAT)


@functools.lru_cache(maxsize=8192)
def parse_stamp(text: str) -> datetime:
    """A stamp of the log as a moment (UTC). Kept for the texts met: the
    referee reads a game's clock every round, each time from every entry's
    stamp, and parsing them again was a fifth of its time in a long game."""
    return datetime.strptime(text, STAMP_FORMAT).replace(tzinfo=UTC)


# --- the time control ---------------------------------------------------------------------------


def parse(spec: str) -> TimeControl:
    """A time control from its command-line form: ``KEY=VALUE`` words.

    Durations take ``h`` (hours, the default) or ``d`` (days).

    >>> parse("per-move=3d grace=12h days=mon-fri zone=Europe/Stockholm expiry=stand-in")
    TimeControl(per_move=72, bank=None, increment=0, cap=None, grace=12, days='mon-fri', \
hours='', zone='Europe/Stockholm', expiry='stand-in', stand_in='standard', until='move', \
remind=80, absence=0)
    """
    values: dict[str, Any] = {}
    for word in spec.replace(",", " , ").split():
        if word == ",":
            continue
        key, eq, value = word.partition("=")
        name = _SPEC_KEYS.get(key.strip().lower())
        if not eq or name is None:
            raise UsageError(f"time control: {word!r} is not KEY=VALUE with a key among "
                             f"{', '.join(_SPEC_KEYS)}")
        if name in ("per_move", "bank", "increment", "cap", "grace", "absence"):
            values[name] = _hours(key, value)
        elif name == "remind":
            values[name] = _int(key, value.rstrip("%"))
        else:
            values[name] = value
    try:
        control = TimeControl(**values)
    except TypeError as e:
        raise UsageError(f"time control: {e}") from None
    problem = check(control)
    if problem:
        raise UsageError(f"time control: {problem}")
    return control


def _int(key: str, text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise UsageError(f"time control: {key}={text!r} is not a number") from None


def _hours(key: str, text: str) -> int:
    text = text.strip().lower()
    if text.endswith("d"):
        return _int(key, text[:-1]) * 24
    return _int(key, text.removesuffix("h"))


def check(tc: TimeControl) -> str | None:
    """What is wrong with a time control, or None."""
    from . import bots

    if (tc.per_move is None) == (tc.bank is None):
        return "give per-move or a bank, not both nor neither"
    for name in ("per_move", "bank", "cap"):
        value = getattr(tc, name)
        if value is not None and not 1 <= value <= 100_000:
            return f"{name.replace('_', '-')} is a number of hours from 1 to 100000"
    for name in ("increment", "grace", "absence"):
        if not 0 <= getattr(tc, name) <= 100_000:
            return f"{name} is a number of hours from 0 to 100000"
    if tc.per_move is not None and (tc.increment or tc.cap is not None):
        return "increment and cap go with a bank"
    if tc.cap is not None and tc.bank is not None and tc.cap < tc.bank:
        return "the cap is below the bank"
    if not 1 <= tc.remind <= 99:
        return "remind is a share of the time from 1 to 99 (percent)"
    if tc.expiry not in EXPIRY:
        return f"expiry is one of {', '.join(EXPIRY)}"
    if tc.until not in UNTIL:
        return f"until is one of {', '.join(UNTIL)}"
    if tc.stand_in not in bots.LEVELS and not re.fullmatch(r"search:[1-9][0-9]{0,6}",
                                                          tc.stand_in):
        return (f"stand-in {tc.stand_in!r}: a stand-in plays a reproducible level (random, "
                "greedy, standard or search:N), so anyone can check its moves")
    try:
        weekdays(tc.days)
        window(tc.hours)
        zone(tc.zone)
    except ValueError as e:
        return str(e)
    if not any(weekdays(tc.days)) or window(tc.hours)[0] == window(tc.hours)[1]:
        return "the clock never runs"
    return None


def weekdays(text: str) -> tuple[bool, ...]:
    """Which days of the week (Monday first) the clock runs: ``mon-fri``, ``sat,sun``."""
    if not text.strip():
        return (True,) * 7
    runs = [False] * 7
    for part in re.split(r"[ ,]+", text.strip().lower()):
        first, dash, last = part.partition("-")
        if first not in DAYS or (dash and last not in DAYS):
            raise ValueError(f"days {text!r}: name days as mon, tue, ... sun, or a range mon-fri")
        i, j = DAYS.index(first), DAYS.index(last if dash else first)
        k = i
        while True:
            runs[k] = True
            if k == j:
                break
            k = (k + 1) % 7
    return tuple(runs)


def window(text: str) -> tuple[int, int]:
    """The hours of a day the clock runs, ``08-22`` (from 08:00 to 22:00); all day if empty."""
    if not text.strip():
        return (0, 24)
    m = re.fullmatch(r"\s*(\d{1,2})\s*-\s*(\d{1,2})\s*", text)
    if m is None or not 0 <= int(m.group(1)) < int(m.group(2)) <= 24:
        raise ValueError(f"hours {text!r}: write FROM-TO in whole hours, e.g. 08-22")
    return int(m.group(1)), int(m.group(2))


def zone(name: str) -> Any:
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise ValueError(f"zone {name!r} is not an IANA time zone (e.g. Europe/Stockholm)") \
            from None


# --- running time --------------------------------------------------------------------------------


class Calendar(msgspec.Struct, frozen=True):
    """When a time control's clock runs, less the times it was stopped."""

    tc: TimeControl
    stopped: tuple[tuple[datetime, datetime], ...] = ()

    def runs(self, start: datetime) -> Iterator[tuple[datetime, datetime]]:
        """The stretches of running time from ``start`` on, in order (without end)."""
        days, (h0, h1), tz = weekdays(self.tc.days), window(self.tc.hours), zone(self.tc.zone)
        stops = sorted(s for s in self.stopped if s[1] > start)
        local: date = start.astimezone(tz).date() - timedelta(days=1)
        while True:
            if days[local.weekday()]:
                lo = datetime.combine(local, daytime(h0), tz).astimezone(UTC)
                hi = (datetime.combine(local + timedelta(days=1), daytime(0), tz) if h1 == 24
                      else datetime.combine(local, daytime(h1), tz)).astimezone(UTC)
                lo = max(lo, start)
                yield from _less(lo, hi, stops)
            local += timedelta(days=1)

    def hours(self, start: datetime, end: datetime) -> float:
        """Hours of running time from ``start`` to ``end``."""
        total = 0.0
        if end <= start:
            return 0.0
        for lo, hi in self.runs(start):
            if lo >= end:
                break
            total += (min(hi, end) - lo).total_seconds()
        return total / 3600

    def after(self, start: datetime, hours: float) -> datetime:
        """The moment ``hours`` of running time after ``start``."""
        left = hours * 3600
        if left <= 0:
            return start
        for lo, hi in self.runs(start):
            span = (hi - lo).total_seconds()
            if span >= left:
                return lo + timedelta(seconds=left)
            left -= span
        raise AssertionError("unreachable: runs() never ends")


def _less(lo: datetime, hi: datetime,
          stops: Sequence[tuple[datetime, datetime]]) -> Iterator[tuple[datetime, datetime]]:
    """``[lo, hi)`` less the stopped stretches."""
    for s0, s1 in stops:
        if s1 <= lo or s0 >= hi:
            continue
        if s0 > lo:
            yield lo, s0
        lo = max(lo, s1)
        if lo >= hi:
            return
    if lo < hi:
        yield lo, hi


# --- the clock of a game, from its log ----------------------------------------------------------


class Turn(msgspec.Struct):
    """The clock of the player to move: when their turn began and its acts so far."""

    player: str | None = None
    began: datetime | None = None
    acts: set[str] = msgspec.field(default_factory=set)
    extra: int = 0  # hours added by @extend this turn


class Timeline(msgspec.Struct):
    """Everything the clock needs, read from a log's entries."""

    tc: TimeControl
    players: tuple[str, ...]
    bank: dict[str, float]
    turn: Turn
    stopped: list[tuple[datetime, datetime]]
    absent: dict[str, list[tuple[datetime, datetime]]]
    paused: datetime | None = None
    #: Players a stand-in plays for at every turn until they are back
    #: (``until=back``, or the organiser's ``@order-stand-in P back``).
    standing_in: set[str] = msgspec.field(default_factory=set)
    #: Players a stand-in plays for at their next turn only (the organiser's
    #: ``@order-stand-in P move``, spent by that move, whoever plays it).
    once: set[str] = msgspec.field(default_factory=set)
    last: datetime | None = None  # the stamp of the last entry

    def calendar(self, player: str) -> Calendar:
        return Calendar(self.tc, tuple(self.stopped) + tuple(self.absent.get(player, ())))

    def allowed(self, player: str) -> float:
        """Hours ``player`` has for this turn."""
        base = self.tc.per_move if self.tc.per_move is not None else self.bank[player]
        return max(0.0, base + self.turn.extra)

    def deadline(self) -> datetime | None:
        """When the player to move must have moved (None: no clock runs now)."""
        turn = self.turn
        if turn.player is None or turn.began is None or self.paused is not None:
            return None
        return self.calendar(turn.player).after(turn.began, self.allowed(turn.player))

    def moments(self) -> dict[str, datetime] | None:
        """When each act of this turn falls due: remind, late (the deadline)
        and timeout (the end of grace)."""
        turn = self.turn
        if turn.player is None or turn.began is None or self.paused is not None:
            return None
        cal = self.calendar(turn.player)
        allowed = self.allowed(turn.player)
        deadline = cal.after(turn.began, allowed)
        return {"remind": cal.after(turn.began, allowed * self.tc.remind / 100),
                "late": deadline,
                "timeout": cal.after(deadline, self.tc.grace) if self.tc.grace else deadline}

    def absence_used(self, player: str) -> float:
        return sum((b - a).total_seconds() for a, b in self.absent.get(player, ())) / 3600


def timeline(log: Log, to_move: str | None, upto: int | None = None) -> Timeline:
    """The clock of ``log`` (its first ``upto`` entries) with ``to_move``
    the player to move after them (None once the game is over)."""
    return Running(log).at(len(log.moves) if upto is None else upto, to_move)


class Running:
    """The clock of ``log`` read entry by entry, forward only: a replay
    asks it at every act of the clock it checks, and each answer goes on
    from the one before instead of reading the log from its first entry
    again (which made checking a long timed game quadratic in its length:
    a 15 Days game with a stand-in's every move took most of a second).
    """

    def __init__(self, log: Log) -> None:
        tc = log.time
        assert tc is not None and log.started is not None
        self.log = log
        self.began = began = parse_stamp(log.started)
        self.line = Timeline(tc, log.players, dict.fromkeys(log.players, float(tc.bank or 0)),
                             Turn(), [], {p: [] for p in log.players})
        self.line.last = began
        self.line.turn.began = began
        self.read = 0  # the entries read so far

    def at(self, upto: int, to_move: str | None) -> Timeline:
        """The clock after the first ``upto`` entries (never fewer than
        asked before), ``to_move`` to move. The same object each time: the
        caller reads it before asking again."""
        if upto < self.read:
            raise ValueError(f"the clock has read {self.read} entries, not {upto}")
        line, began, tc = self.line, self.began, self.line.tc
        for entry in self.log.moves[self.read:upto]:
            at = parse_stamp(entry.at) if entry.at is not None else began
            line.last = at
            text = entry.move
            if text.startswith("@") and act_parts(text)[0] in ACTS:
                _act(line, text, at)
                continue
            # A move or a player's event: a new turn begins now.
            mover = entry.by
            if tc.bank is not None and mover in line.bank and not text.startswith("@") \
                    and line.turn.began is not None:
                used = line.calendar(mover).hours(line.turn.began, at)
                kept = line.bank[mover] + line.turn.extra - used + tc.increment
                line.bank[mover] = min(float(tc.cap), kept) if tc.cap is not None else kept
            if not text.startswith("@"):
                line.once.discard(mover)  # the turn the organiser's order was for is played
            line.turn = Turn(began=at)
        self.read = upto
        line.turn.player = to_move
        if line.turn.began is None:
            line.turn.began = began
        return line


def _act(line: Timeline, text: str, at: datetime) -> None:
    kind, args = act_parts(text)
    if kind in ("remind", "late", "timeout"):
        line.turn.acts.add(kind)
    elif kind == "stand-in":
        line.turn.acts.add(kind)
        if args[0] in line.once:
            line.once.discard(args[0])  # the organiser's, for this move only
        elif line.tc.until == "back":
            line.standing_in.add(args[0])
    elif kind == "order-stand-in":
        (line.standing_in if args[1] == "back" else line.once).add(args[0])
    elif kind == "pause":
        line.paused = at
    elif kind == "resume":
        if line.paused is not None:
            line.stopped.append((line.paused, at))
        line.paused = None
    elif kind == "outage":
        line.stopped.append((parse_stamp(args[0]), at))
    elif kind == "extend":
        line.turn.extra += int(args[1])
    elif kind == "absent":
        line.absent[args[0]].append((parse_stamp(args[1]), parse_stamp(args[2])))
    elif kind == "back":
        who = args[0]
        line.standing_in.discard(who)
        line.once.discard(who)
        spans = line.absent[who]
        if spans and spans[-1][0] <= at < spans[-1][1]:
            spans[-1] = (spans[-1][0], at)
        elif spans and at < spans[-1][0]:
            spans.pop()  # back before the absence began: it never happened


class Due(msgspec.Struct, frozen=True):
    """An act the clock owes now: ``kind`` (remind, late, timeout, stand-in)
    for ``player``, due since ``when``."""

    kind: str
    player: str
    when: datetime


def due(log: Log, to_move: str | None, now: datetime) -> Due | None:
    """The next act the referee owes at ``now`` in a game with a time
    control, or None. Acted on one at a time: after recording it, ask again."""
    if log.time is None or to_move is None:
        return None
    line = timeline(log, to_move)
    if line.paused is not None:
        return None
    if to_move in line.standing_in or to_move in line.once:
        return Due("stand-in", to_move, line.last or now)
    moments = line.moments()
    if moments is None:
        return None
    acts = line.turn.acts
    if "timeout" in acts:
        return None  # the policy acted (wait: the organiser decides)
    # Every act once, in the order they fall due, even when several are
    # owed at once (the referee was not running when the first fell due).
    if "remind" not in acts and now >= moments["remind"]:
        return Due("remind", to_move, moments["remind"])
    if line.tc.grace and "late" not in acts and now >= moments["late"]:
        return Due("late", to_move, moments["late"])
    if now >= moments["timeout"]:
        return Due("timeout", to_move, moments["timeout"])
    return None


# --- checking the acts of a log ----------------------------------------------------------------


def check_event(log: Log, number: int, text: str, at: str | None, to_move: str | None,
                previous: str | None, running: Running | None = None) -> str:
    """Check the clock act ``text`` (entry ``number``, stamped ``at``) against
    the log before it; returns the act's kind. Raises :class:`IllegalMoveError`
    citing :data:`CLAUSE` for an act the clock did not owe then, or a
    malformed one. ``running``: the log's clock as a replay reads it (else
    read from the first entry)."""
    kind, args = act_parts(text)
    tc = log.time
    shapes = {"remind": 1, "late": 1, "timeout": 1, "stand-in": 1, "forfeit": 1, "pause": 0,
              "resume": 0, "outage": 1, "extend": 2, "absent": 3, "back": 1, "replace": 2,
              "eject": 1, "order-stand-in": 2, "orders": 2}
    if len(args) != shapes[kind]:
        raise IllegalMoveError(f"@{kind} takes {shapes[kind]} argument(s)", CLAUSE)
    if act_text(kind, *args) != text:
        raise IllegalMoveError(f"{text!r} is not written as the log writes it: "
                               f"{act_text(kind, *args)!r}", CLAUSE)
    if kind in ("replace", "eject"):  # the organiser's, in any refereed game
        return _check_seat_act(log, kind, args, number)
    if tc is None or at is None:
        raise IllegalMoveError("a clock act needs a time control in the header", CLAUSE)
    when = parse_stamp(at)
    line = (timeline(log, to_move, number - 1) if running is None else
            running.at(number - 1, to_move))
    player = args[0] if args and kind not in ("outage",) else None
    if player is not None and player not in log.players:
        raise IllegalMoveError(f"{player!r} is not a player of this game", CLAUSE)
    if kind in ("remind", "late", "timeout"):
        if player != to_move:
            raise IllegalMoveError(f"it is {to_move}'s turn, not {player}'s", CLAUSE)
        moments = line.moments()
        if moments is None:
            raise IllegalMoveError("the clock is stopped", CLAUSE)
        if kind in line.turn.acts:
            raise IllegalMoveError(f"{player} was already given @{kind} this turn", CLAUSE)
        if when < moments[kind]:
            raise IllegalMoveError(f"@{kind} {player} at {at}, before it was due "
                                   f"({stamp(moments[kind])})", CLAUSE)
    elif kind == "stand-in":
        if player != to_move:
            raise IllegalMoveError(f"it is {to_move}'s turn, not {player}'s", CLAUSE)
        if player not in line.standing_in and player not in line.once:
            if tc.expiry != "stand-in":
                raise IllegalMoveError("the time control's policy is not stand-in, and the "
                                       f"organiser ordered no stand-in for {player}", CLAUSE)
            if previous != act_text("timeout", player or ""):
                raise IllegalMoveError(f"a stand-in plays for {player} only once their time "
                                       "ran out, or when the organiser orders it", CLAUSE)
    elif kind == "orders":
        if not re.fullmatch(r"[0-9a-f]{64}", args[1]):
            raise IllegalMoveError("@orders P DIGEST: DIGEST is 64 hex digits", CLAUSE)
    elif kind == "order-stand-in":
        if args[1] not in UNTIL:
            raise IllegalMoveError(f"@order-stand-in P UNTIL: UNTIL is {' or '.join(UNTIL)}",
                                   CLAUSE)
    elif kind == "forfeit":
        if tc.expiry != "forfeit" or previous != act_text("timeout", player or ""):
            raise IllegalMoveError(f"{player} forfeits only when their time runs out under "
                                   "the forfeit policy", CLAUSE)
    elif kind == "pause" and line.paused is not None:
        raise IllegalMoveError("the clock is already paused", CLAUSE)
    elif kind == "resume" and line.paused is None:
        raise IllegalMoveError("the clock is not paused", CLAUSE)
    elif kind == "outage":
        since = _stamp_arg(args[0])
        if since > when or (line.last is not None and since < line.last):
            raise IllegalMoveError("an outage lies between the entry before and this one", CLAUSE)
    elif kind == "extend":
        if not args[1].isdigit() or not 1 <= int(args[1]) <= 100_000:
            raise IllegalMoveError("@extend P HOURS takes 1 to 100000 hours", CLAUSE)
    elif kind == "absent":
        start, end = _stamp_arg(args[1]), _stamp_arg(args[2])
        if not start < end:
            raise IllegalMoveError("an absence ends after it begins", CLAUSE)
        assert player is not None
        used = line.absence_used(player) + (end - start).total_seconds() / 3600
        if used > tc.absence:
            raise IllegalMoveError(f"{player} may be absent {tc.absence} hours in this game; "
                                   f"this would make {used:g}", CLAUSE)
    return kind


def holders(log: Log, upto: int | None = None) -> dict[str, str]:
    """Who holds each seat after the first ``upto`` entries: its own name,
    or the last ``@replace`` of it."""
    out = {p: p for p in log.players}
    for entry in log.moves if upto is None else log.moves[:upto]:
        if entry.move.startswith("@replace "):
            _, (seat, name) = act_parts(entry.move)
            out[seat] = name
    return out


def _check_seat_act(log: Log, kind: str, args: list[str], number: int) -> str:
    seat = args[0]
    if seat not in log.players:
        raise IllegalMoveError(f"{seat!r} is not a seat of this game", CLAUSE)
    if kind == "replace":
        name = args[1]
        held = holders(log, number - 1)
        if not naming.valid(name) or naming.key(name) == "referee":
            raise IllegalMoveError(f"{name!r} is not a player's name", CLAUSE)
        if any(naming.key(h) == naming.key(name) for s, h in held.items()):
            raise IllegalMoveError(f"{name} already holds a seat of this game", CLAUSE)
    return kind


def _stamp_arg(text: str) -> datetime:
    try:
        return parse_stamp(text)
    except ValueError:
        raise IllegalMoveError(f"{text!r} is not a time (UTC, 2026-11-23T09:15:00Z)",
                               CLAUSE) from None


def check_header(log: Log) -> None:
    """A time control is well formed and goes with the clock."""
    if log.time is None:
        return
    if not log.clock:
        raise BadLogError("header: a time control needs the clock")
    if log.deadline is not None:
        raise BadLogError("header: give a time control or a deadline, not both")
    problem = check(log.time)
    if problem:
        raise BadLogError(f"header: time control: {problem}")


# --- the stand-in's move ---------------------------------------------------------------------------


def stand_in_seed(log: Log) -> str:
    """The seed of a stand-in's move after ``log``'s entries: the digest of
    the last entry that is not an act of the clock (a move or a player's
    event, which the referee does not choose; the header's digest before the
    first move)."""
    from .chain import head_digest

    for entry in reversed(log.moves):
        if not (entry.move.startswith("@") and act_parts(entry.move)[0] in ACTS):
            return entry.digest
    return head_digest(log).hex()


#: The most standing orders a player may leave, and the longest each.
MAX_ORDERS = 20
MAX_ORDER = 60


def orders_of(text: str) -> list[str]:
    """The standing orders in a text, in order of preference: ``3D, *S*``."""
    return [o.strip() for o in text.split(",") if o.strip()]


def orders_in_force(log: Log, player: str) -> str | None:
    """The digest of ``player``'s standing orders after ``log``'s entries
    (their last ``@orders``), or None."""
    for entry in reversed(log.moves):
        if entry.move.startswith("@orders "):
            _kind, args = act_parts(entry.move)
            if args[:1] == [player] and len(args) == 2:
                return args[1]
    return None


def follow_orders(game: Any, state: Any, log: Log, orders: Sequence[str]) -> str | None:
    """The first of ``orders`` that is a legal move of the player to move
    in ``state``, read from that player's view as a move they typed
    (:func:`adjudicator.reading.read_listed`); an order with ``*`` or ``?``
    is a pattern over the canonical notation of their legal moves (the
    first, in the game's order, that it matches). None if none is."""
    from fnmatch import fnmatchcase

    from .errors import MoveError
    from .reading import read_listed

    seat = game.to_move(state)
    view = game.view(state, seat)
    listed = tuple(game.format_move(state, m) for m in game.legal_moves(state))
    for order in orders:
        if "*" in order or "?" in order:
            found = next((m for m in listed if fnmatchcase(m, order)), None)
            if found is not None:
                return found
            continue
        try:
            return read_listed(game, view, listed, order, log.params)
        except MoveError:
            continue
    return None


def stand_in_move(game: Any, state: Any, log: Log, orders: Sequence[Orders] = ()) -> str:
    """The move a stand-in plays for the player to move in ``state``, after
    ``log``'s entries: the first of that player's standing orders in force
    (their last ``@orders``, whose text is among ``orders``) that is legal
    (:func:`follow_orders`); else the header's bot level on that player's
    view, with :func:`stand_in_seed`. Anyone holding the state and the
    orders (the revealed log) gets the same move."""
    from . import bots, seal

    assert log.time is not None
    player = log.players[game.to_move(state)]
    digest = orders_in_force(log, player)
    if digest is not None:
        kept = next((o for o in orders if o.player == player
                     and seal.orders_digest(o.player, o.salt, o.text) == digest), None)
        if kept is None:
            raise IllegalMoveError(f"{player}'s standing orders ({digest[:12]}...) are not "
                                   "revealed", CLAUSE)
        chosen = follow_orders(game, state, log, orders_of(kept.text))
        if chosen is not None:
            return chosen
    return bots.move_for(game, state, log.params, log.players, level=log.time.stand_in,
                         seed=stand_in_seed(log))


def check_orders(log: Log) -> int:
    """Every ``@orders`` entry of a revealed log has its orders revealed,
    matching its digest, and nothing else is revealed: raises
    :class:`IllegalMoveError` at the first that does not; returns how many."""
    from . import seal

    revealed = {seal.orders_digest(o.player, o.salt, o.text): o for o in log.orders}
    used: set[str] = set()
    for number, entry in enumerate(log.moves, 1):
        if not entry.move.startswith("@orders "):
            continue
        _, (player, digest) = act_parts(entry.move)
        kept = revealed.get(digest)
        if kept is None or kept.player != player:
            raise IllegalMoveError(f"entry {number} commits {player} to standing orders "
                                   "that the revealed orders do not match (digest "
                                   f"{digest[:12]}...)", CLAUSE)
        used.add(digest)
    extra = set(revealed) - used
    if extra:
        raise IllegalMoveError(f"{len(extra)} revealed standing orders match no @orders entry",
                               CLAUSE)
    return len(used)


def check_stand_ins(game: Any, log: Log, states: Sequence[Any]) -> int:
    """Every stand-in's move of ``log`` (revealed: ``states`` is its replay's,
    the state before each entry and after the last) played again, with the
    standing orders then in force: raises :class:`IllegalMoveError` at the
    first that is not the stand-in's; returns how many were checked."""
    count = 0
    for i, entry in enumerate(log.moves[:-1]):
        if not entry.move.startswith("@stand-in "):
            continue
        prefix = replace_moves(log, log.moves[:i + 1])
        expected = stand_in_move(game, states[i + 1], prefix, log.orders)
        played = log.moves[i + 1]
        if played.move != expected:
            raise IllegalMoveError(
                f"move {i + 2} ({played.by}) {played.move!r} was recorded as a stand-in's, but "
                f"the stand-in ({log.time.stand_in if log.time else '?'}, with the standing "
                f"orders then in force) plays {expected!r}", CLAUSE)
        count += 1
    return count


def replace_moves(log: Log, moves: Any) -> Log:
    import msgspec

    return msgspec.structs.replace(log, moves=tuple(moves))
