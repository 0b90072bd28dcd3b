"""Events of a log that are not moves of the game: resignation, takebacks and
abandonment by agreement.

An event is an entry whose move text starts with ``@`` (no game's notation
does), so it is chained, signed and carried like a move and every earlier
copy of a log stays a prefix of the later ones: nothing is ever deleted.

* ``@resign`` - a player resigns, whenever the game is not over: the game
  ends at once. The others are ranked by the score so far (the game's own
  standing, tie-breaks included) and the player who resigned is ranked last,
  below all of them, whatever their score (each game's document repeats
  this ruling). In a solo game the goal is missed.
* ``@takeback N`` - a player proposes taking back the last N moves;
  ``@abandon`` - a player proposes abandoning the game (no result).
* ``@accept`` / ``@reject`` - another player answers the proposal. It takes
  effect once every other player has accepted it (in a refereed game the
  referee, recorded as ``referee``, may accept or reject alone); one
  rejection drops it. A move of the game made while a proposal waits drops
  it too (the players played on). A solo player's proposal takes effect at
  once.

The referee's acts of the clock (``@timeout ann``, ``@stand-in ann``...)
are events too, recorded by ``referee``: see :mod:`adjudicator.clock`.

Specified in ``notation/README.md`` ("Events").
"""

from __future__ import annotations

import re

import msgspec

from .engine import Outcome, Standing
from .errors import IllegalMoveError, NotationError

CLAUSE = "adjudicator events, notation/README.md"
REFEREE = "referee"  # the name under which a referee answers a proposal
_EVENT = re.compile(r"@(resign|abandon|accept|reject|takeback ([1-9][0-9]{0,5}))")


class Pending(msgspec.Struct, frozen=True):
    """A proposal waiting for answers."""

    kind: str  # "takeback" or "abandon"
    by: str
    count: int  # moves to take back; 0 for abandon
    accepted: frozenset[str] = frozenset()

    def words(self) -> str:
        if self.kind == "abandon":
            return f"{self.by} proposes abandoning the game"
        s = "s" * (self.count != 1)
        return f"{self.by} proposes taking back the last {self.count} move{s}"


def act_of(text: str) -> str | None:
    """The kind of a clock act (``@timeout ann`` -> ``timeout``), or None for
    any other entry. The referee's acts of the clock are specified with the
    clock (:mod:`adjudicator.clock`)."""
    from .clock import ACTS

    if text[:1] != "@":
        return None
    kind = text[1:].split(" ", 1)[0]
    return kind if kind in ACTS else None


def act_words(text: str) -> str:
    """What a clock act says, for the players: ``@late ann`` -> ``ann's time
    is up: grace runs``."""
    from .clock import act_parts

    kind, args = act_parts(text)
    who = args[0] if args else ""
    return {
        "remind": f"{who} was reminded to move",
        "late": f"{who}'s time is up: grace runs",
        "timeout": f"{who}'s time ran out",
        "stand-in": f"a stand-in plays {who}'s next move",
        "forfeit": f"{who} forfeits on time: ranked last",
        "pause": "the organiser paused every clock",
        "resume": "the organiser restarted the clocks",
        "outage": f"the referee was down since {who}: no clock ran",
        "extend": f"{who}'s deadline moves {args[1] if len(args) > 1 else '?'} hours later",
        "absent": (f"{who} is away from {args[1]} to {args[2]}: their clock stops"
                   if len(args) > 2 else f"{who} is away"),
        "back": f"{who} is back",
        "replace": (f"the organiser gave {who}'s seat to {args[1]}" if len(args) > 1
                    else f"{who}'s seat has a new player"),
        "eject": f"the organiser put {who} out of the game: ranked last",
        "orders": f"{who} left standing orders for a stand-in (secret until the end)",
        "order-stand-in": (f"the organiser ordered a stand-in for {who} until they are back"
                           if args[1:] == ["back"] else
                           f"the organiser ordered a stand-in for {who}'s next move"),
    }.get(kind, text)


def parse(text: str) -> tuple[str, int]:
    """The kind of an event and its count: ``"@takeback 2"`` -> ``("takeback", 2)``."""
    m = _EVENT.fullmatch(text)
    if m is None:
        raise NotationError(
            "not an event: write @resign, @takeback N, @abandon, @accept or @reject", CLAUSE)
    kind = m.group(1).split()[0]
    return kind, int(m.group(2) or 0)


def resigned(standing: Outcome, players: tuple[str, ...], who: str) -> Outcome:
    """The result when ``who`` resigns, from the standing at that moment."""
    if len(players) == 1:
        score = standing.standings[0].score if standing.standings else 0
        return Outcome(standings=(Standing(player=who, score=score, place=1),), winners=(),
                       details=(f"{who} resigned: the goal is missed",))
    others = [s for s in standing.standings if s.player != who]
    mine = next((s.score for s in standing.standings if s.player == who), 0)
    rows = [Standing(player=s.player, score=s.score,
                     place=1 + sum(1 for o in others if o.place < s.place)) for s in others]
    rows.append(Standing(player=who, score=mine, place=len(players)))
    winners = tuple(s.player for s in rows if s.place == 1)
    return Outcome(standings=tuple(rows), winners=winners,
                   details=(*standing.details, f"{who} resigned: ranked last"))


ABANDONED = Outcome(standings=(), winners=(), details=("abandoned by agreement: no result",))


def answer(pending: Pending | None, kind: str, by: str, players: tuple[str, ...],
           refereed: bool) -> tuple[Pending | None, bool]:
    """The proposal after ``by``'s answer, and whether it now takes effect."""
    if pending is None:
        raise IllegalMoveError(f"there is no proposal to {kind}", CLAUSE)
    if by == pending.by:
        raise IllegalMoveError(f"{by} made the proposal and cannot {kind} it", CLAUSE)
    if by == REFEREE and not refereed:
        raise IllegalMoveError("only a refereed game has a referee", CLAUSE)
    if by in pending.accepted:
        raise IllegalMoveError(f"{by} has already accepted the proposal", CLAUSE)
    if kind == "reject":
        return None, False
    if by == REFEREE:
        return None, True
    accepted = pending.accepted | {by}
    if accepted >= set(players) - {pending.by}:
        return None, True
    return Pending(pending.kind, pending.by, pending.count, accepted), False
