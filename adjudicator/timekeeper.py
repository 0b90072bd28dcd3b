"""The referee keeps time: the act of the clock owed now, recorded and signed.

:func:`next_act` asks the clock (:mod:`adjudicator.clock`) what the game
owes at ``now`` and records it in the log, signed by the referee, with the
words to tell the players: a reminder, a late notice, and when grace ends
the policy of the time control (``wait``: the organiser decides;
``stand-in``: a bot plays the seat from that player's view, through
:func:`adjudicator.bots.move_for`; ``forfeit``: the player resigns on
time). :func:`outage` records a stretch the referee was down, during which
no clock ran. Nothing here sends mail or touches a file: the referee by
mail journals what these return and sends the mails (:mod:`adjudicator.postal`).

The organiser may order a stand-in (:func:`organise`, ``stand-in``), and
a player may leave standing orders for one (:func:`leave_orders`): the log
gets their digest, the secret keeps them until the reveal, and a stand-in
plays the first of them that is legal before it asks the bot.

A stand-in's move is reproducible: its seed is the digest of the last
entry before the clock acted that was not itself an act of the clock (a
move or a player's event, which the referee does not choose), and its level
is the header's. So anyone holding the revealed log can play the bot again
and find the same move (``audit`` does).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from . import clock, match
from .log import Log, Orders, Secret
from .played import Replay
from .recording import act
from .referee import signed


@dataclass(frozen=True)
class Acted:
    """One act of the clock, recorded: its kind, whom it is about, the new
    log (published and signed), its replay (unlocked, every state kept),
    the words for the players, and whether the whole table is told (else
    only ``player``)."""

    kind: str
    player: str | None
    log: Log
    replayed: Replay
    words: str
    table: bool


def stand_in_move(rep: Replay, orders: Sequence[Orders] = ()) -> str:
    """The move a stand-in plays for the player to move in ``rep`` (an
    unlocked replay whose log has a time control), following the standing
    orders in force among ``orders`` (the secret's): :func:`clock.stand_in_move`."""
    return clock.stand_in_move(rep.game, rep.state, rep.log, orders)


def next_act(log: Log, secret: Secret, now: datetime) -> Acted | None:
    """The act of the clock owed at ``now`` in ``log`` (a refereed game with
    a time control), recorded; None when nothing is owed. Ask again after
    each: acts fall due one after another (a reminder, then a late notice)."""
    if log.time is None:
        return None
    unlocked = match.unlock(log, secret)
    rep = match.validate(unlocked, keep=True, now=now)
    due = clock.due(unlocked, rep.to_move(), now)
    if due is None:
        return None
    tc, who, at = log.time, due.player, clock.stamp(now)
    if due.kind == "remind":
        deadline = clock.timeline(unlocked, who).moments()
        assert deadline is not None
        rep = act(unlocked, clock.act_text("remind", who), at=at)
        return _done(log, secret, rep, "remind", who,
                     f"reminder: your move is due by {clock.stamp(deadline['late'])}", False)
    if due.kind == "late":
        moments = clock.timeline(unlocked, who).moments()
        assert moments is not None
        rep = act(unlocked, clock.act_text("late", who), at=at)
        return _done(log, secret, rep, "late", who,
                     f"{who}'s time is up; grace runs until {clock.stamp(moments['timeout'])}",
                     True)
    if due.kind == "stand-in":  # until the player is back, or the organiser's order
        back = who in clock.timeline(unlocked, who).standing_in
        return _stand_in(log, secret, unlocked, rep, who, at, "", back)
    # The end of grace: the policy.
    rep = act(unlocked, clock.act_text("timeout", who), at=at)
    if tc.expiry == "wait":
        return _done(log, secret, rep, "timeout", who,
                     f"{who}'s time ran out: the organiser decides", True)
    if tc.expiry == "forfeit":
        rep = act(rep.log, clock.act_text("forfeit", who), at=at)
        return _done(log, secret, rep, "forfeit", who,
                     f"{who}'s time ran out: {who} forfeits, ranked last", True)
    return _stand_in(log, secret, rep.log, rep, who, at, f"{who}'s time ran out: ",
                     tc.until == "back")


def _stand_in(log: Log, secret: Secret, unlocked: Log, rep: Replay, who: str, at: str,
              why: str, back: bool) -> Acted:
    assert log.time is not None
    move = stand_in_move(rep, secret.orders)
    level = log.time.stand_in
    done = act(unlocked, clock.act_text("stand-in", who), at=at, then=move,
               comment=f"played by a stand-in ({level})")
    until = " until they are back ('back' by mail)" if back else ""
    return _done(log, secret, done, "stand-in", who,
                 f"{why}a stand-in ({level}) played {move} for {who}{until}", True)


def _done(log: Log, secret: Secret, rep: Replay, kind: str, who: str | None, words: str,
          table: bool) -> Acted:
    new = rep.log
    if new.result is not None and log.seed is None:
        new = match.reveal(match.publish(new, log), secret)  # over: anyone may audit it
    else:
        new = match.publish(new, log)
    return Acted(kind, who, signed(new, secret), rep, words, table)


def outage(log: Log, secret: Secret, since: datetime, now: datetime) -> Acted | None:
    """``log`` with ``@outage SINCE`` stamped ``now``: the referee was down
    from ``since``, so no clock of the game ran meanwhile. ``since`` is set
    to the last entry's time if that is later (an outage lies between two
    entries); None when the last entry is already as late as ``now``."""
    unlocked = match.unlock(log, secret)
    last = unlocked.moves[-1].at if unlocked.moves else unlocked.started
    start = clock.stamp(since)
    if last is not None and start < last:
        start = last
    if start >= clock.stamp(now):
        return None
    rep = act(unlocked, f"@outage {start}", at=clock.stamp(now))
    return _done(log, secret, rep, "outage", None,
                 f"the referee was down from {start} to {clock.stamp(now)}: no clock ran "
                 "meanwhile", True)


#: The organiser's acts (``adjudicator referee DIR admin ...``) and the
#: arguments each takes after the game's name (``[...]``: may be left out).
ORGANISER = {"pause": (), "resume": (), "extend": ("PLAYER", "HOURS"),
             "replace": ("PLAYER", "NEW"), "eject": ("PLAYER",),
             "stand-in": ("PLAYER", "[move|back]")}


def organiser_args(kind: str, args: Sequence[str], players: Sequence[str],
                   shape: Sequence[str] | None = None) -> list[str]:
    """The arguments of the organiser's act ``kind`` as typed (``ORGANISER``'s
    shape, or ``shape``), each name found: a player's name in any case, and
    a name of several words quoted or not (``stand-in Ann Smith back``)
    where the words read one way only (:func:`adjudicator.names.fit`).
    Words that read no way come back as they are, for the act to refuse;
    words that read two ways are refused, asking for quotes."""
    from . import names
    from .errors import UsageError

    readings: list[list[str]] = []
    for reading in names.fit(args, ORGANISER.get(kind, ()) if shape is None else shape, players):
        if reading not in readings:
            readings.append(reading)
    if len(readings) > 1:
        ways = " or ".join(repr(names.join(r)) for r in readings[:2])
        raise UsageError(f"{kind} {' '.join(args)}: reads as {ways}: put each name of "
                         'several words in double quotes ("Ann Smith")')
    return readings[0] if readings else list(args)


def organise(log: Log, secret: Secret, words: list[str], now: datetime) -> Acted:
    """The organiser's act ``words`` (the act and its arguments after the
    game's name: ``pause``, ``resume``, ``extend PLAYER HOURS``, ``replace
    PLAYER NEW``, ``eject PLAYER``, ``stand-in PLAYER [move|back]``) on
    ``log``, recorded at ``now`` and signed. Raises :class:`AdjudicatorError`
    with one line for an act the log refuses."""
    from .errors import UsageError

    if not words or words[0] not in ORGANISER:
        raise UsageError(f"the organiser's acts: {', '.join(ORGANISER)}")
    kind, args = words[0], organiser_args(words[0], words[1:], log.players)
    if kind == "stand-in":
        return _order_stand_in(log, secret, args, now)
    if len(args) != len(ORGANISER[kind]):
        raise UsageError(f"write: {' '.join([kind, 'GAME', *ORGANISER[kind]])}")
    if log.time is None and kind not in ("replace", "eject"):
        raise UsageError("this game has no time control: there is no clock to act on")
    rep = act(match.unlock(log, secret), clock.act_text(kind, *args), at=clock.stamp(now))
    said = {"pause": "the organiser paused every clock of the game",
            "resume": "the organiser restarted the clocks",
            "extend": f"the organiser gave {args[0]} {args[-1]} more hours" if args else "",
            "replace": f"the organiser gave {args[0]}'s seat to {args[-1]}" if args else "",
            "eject": f"the organiser put {args[0]} out of the game" if args else ""}
    return _done(log, secret, rep, kind, args[0] if args else None, said[kind], True)


def _order_stand_in(log: Log, secret: Secret, args: list[str], now: datetime) -> Acted:
    """``stand-in PLAYER [move|back]``: the organiser orders a stand-in for
    PLAYER, for their next move or until they are back (by default what the
    time control's ``until`` says), recorded as ``@order-stand-in PLAYER
    UNTIL``; when it is PLAYER's move (and the clock is not paused), the
    stand-in plays it at once."""
    from .errors import UsageError

    if log.time is None:
        raise UsageError("this game has no time control: there is no stand-in to order")
    if len(args) not in (1, 2) or args[1:] not in ([], ["move"], ["back"]):
        raise UsageError("write: stand-in GAME PLAYER [move|back]")
    who, until = args[0], args[1] if len(args) == 2 else log.time.until
    at = clock.stamp(now)
    rep = act(match.unlock(log, secret), clock.act_text("order-stand-in", who, until), at=at)
    said = (f"the organiser ordered a stand-in for {who}"
            + (" until they are back" if until == "back" else " for their next move"))
    owed = clock.due(rep.log, rep.to_move(), now) if rep.ended is None else None
    if owed is not None and owed.kind == "stand-in" and owed.player == who:
        return _stand_in(log, secret, rep.log, rep, who, at, said + ": ", until == "back")
    return _done(log, secret, rep, "order-stand-in", who, said, True)


def player_act(log: Log, secret: Secret, player: str, words: list[str],
               now: datetime) -> Acted:
    """A player's own act of the clock, asked for by mail: ``absent FROM TO``
    (dates, ``2026-12-24``, in the time control's zone: from the start of
    FROM to the end of TO) or ``back``."""
    from .errors import UsageError

    if log.time is None:
        raise UsageError("this game has no time control: there is no clock to stop")
    unlocked = match.unlock(log, secret)
    at = clock.stamp(now)
    if words[:1] == ["back"]:
        rep = act(unlocked, clock.act_text("back", player), at=at)
        return _done(log, secret, rep, "back", player, f"{player} is back", True)
    if words[:1] != ["absent"] or len(words) != 3:
        raise UsageError("write: absent FROM TO (dates: absent 2026-12-24 2026-12-27), or back")
    start, end = absence_span(words[1], words[2], log.time.zone)
    rep = act(unlocked, clock.act_text("absent", player, clock.stamp(start), clock.stamp(end)), at=at)
    return _done(log, secret, rep, "absent", player,
                 f"{player} is away from {words[1]} to {words[2]}: their clock stops then", True)


def leave_orders(log: Log, secret: Secret, player: str, orders: Sequence[str],
                 now: datetime) -> tuple[Acted, Secret]:
    """``player``'s standing orders for a stand-in (in order of preference;
    none clears them), recorded at ``now`` as ``@orders PLAYER DIGEST``, a
    salted commitment: the log and the table see only the digest. Returns
    the act and the secret that keeps the orders until the reveal (the
    caller writes it before the log)."""
    import secrets as random_bytes

    import msgspec

    from . import seal
    from .errors import UsageError

    if log.time is None:
        raise UsageError("this game has no time control: no stand-in will play for you")
    orders = [o.strip() for o in orders if o.strip()]
    if len(orders) > clock.MAX_ORDERS or any(len(o) > clock.MAX_ORDER or "," in o
                                             for o in orders):
        raise UsageError(f"standing orders: at most {clock.MAX_ORDERS}, each at most "
                         f"{clock.MAX_ORDER} characters, separated by commas")
    kept = Orders(player=player, salt=random_bytes.token_hex(16), text=", ".join(orders))
    digest = seal.orders_digest(kept.player, kept.salt, kept.text)
    rep = act(match.unlock(log, secret), clock.act_text("orders", player, digest), at=clock.stamp(now))
    new_secret = msgspec.structs.replace(secret, orders=(*secret.orders, kept))
    said = (f"{player} left standing orders for a stand-in (digest {digest[:12]}...)"
            if orders else f"{player} withdrew their standing orders")
    return _done(log, new_secret, rep, "orders", player, said, True), new_secret


def absence_span(first: str, last: str, zone: str) -> tuple[datetime, datetime]:
    """From the start of day ``first`` to the end of day ``last``, in ``zone``."""
    from datetime import date, time as daytime, timedelta

    from .errors import UsageError

    try:
        a, b = date.fromisoformat(first), date.fromisoformat(last)
    except ValueError:
        raise UsageError("absent FROM TO takes dates written 2026-12-24") from None
    tz = clock.zone(zone)
    start = datetime.combine(a, daytime(0), tz)
    end = datetime.combine(b + timedelta(days=1), daytime(0), tz)
    return start, end
