"""Audit and diff: a log checked item by item as an organiser settling a
dispute would, and two copies of a log compared."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Literal

import msgspec

from . import seal
from .chain import check_chain
from .errors import BadLogError, MoveError, counted
from .log import Log, MoveEntry, Secret, ViewFile
from .played import Replay
from .replaying import check_result, describe, replay
from .signing import check_seals, unlock
from .starting import check_header


class AuditItem(msgspec.Struct, frozen=True):
    """One check: ``ok`` when it was made and holds; ``status`` says
    ``ok``, ``failed``, or ``unchecked`` (it needs a seed still secret)."""

    what: str
    ok: bool
    text: str
    status: Literal["ok", "failed", "unchecked"] = "ok"

class AuditReport(msgspec.Struct, frozen=True):
    """``passed``: every check was made and holds. ``status`` is ``passed``,
    ``failed`` (a check failed), or ``pending`` (nothing failed, and what
    needs the seed waits for the referee to reveal it)."""

    passed: bool
    items: tuple[AuditItem, ...]
    status: Literal["passed", "failed", "pending"] = "passed"

def report_of(items: Sequence[AuditItem]) -> AuditReport:
    """The report of ``items``: failed if one failed, pending if one waits."""
    statuses = {i.status for i in items}
    status: Literal["passed", "failed", "pending"] = "passed"
    if "failed" in statuses:
        status = "failed"
    elif "unchecked" in statuses:
        status = "pending"
    return AuditReport(status == "passed", tuple(items), status)

def audit(log: Log, secret: Secret | None = None,
          views: Sequence[tuple[str, ViewFile]] = ()) -> AuditReport:
    """Check a log as an organiser settling a dispute would, item by item.

    The header, the seed (against the commitment of a refereed game), the
    digest chain, the signatures, every move and the stored result. A
    refereed game whose seed is still secret has what can be checked without
    it checked (the header, the chain, the signatures: the moves and result
    are the referee's), and the seed, the moves and the result marked
    unchecked until the reveal (a version 1 log, which its referee did not
    sign, fails: nothing in it can be checked).

    ``views`` are view files players kept, each with its name: each is
    checked against this log and the revealed deal (:func:`forks.check_views`).
    """
    items: list[AuditItem] = []

    def item(what: str, ok: bool, text: str) -> bool:
        items.append(AuditItem(what, ok, text, "ok" if ok else "failed"))
        return ok

    def unchecked(what: str, text: str) -> None:
        items.append(AuditItem(what, False, text, "unchecked"))

    try:
        game = check_header(log)
        item("header", True, f"{game.title}, {len(log.players)} players: {', '.join(log.players)}")
    except BadLogError as e:
        item("header", False, str(e))
        return report_of(items)
    unlocked = log
    if log.commitment is None:
        item("seed", True, "an open game: the seed is in the log")
    elif log.seed is not None:
        ok = log.salt is not None and seal.commit(log.seed, log.salt) == log.commitment
        item("seed", ok, "revealed, and it matches the commitment" if ok else
             "revealed, but it does not match the commitment made at the start")
    elif secret is not None:
        try:
            unlocked = unlock(log, secret)
            item("seed", True, "secret; the referee's file matches the commitment")
        except BadLogError as e:
            item("seed", False, str(e))
    elif log.referee is not None:
        unchecked("seed", "secret until the referee reveals it (adjudicator reveal); then "
                          "checked against the commitment made before the first move")
    else:
        item("seed", False, "secret: the moves cannot be checked until the referee reveals it "
                            "(adjudicator reveal) or gives --secret")
    if log.deal:
        _deal_item(log, item, unchecked)
    try:
        check_chain(log)
        item("digest chain", True, f"intact over {len(log.moves)} entries")
    except MoveError as e:
        item("digest chain", False, str(e))
    try:
        check_seals(log)
        said = []
        if log.referee is not None:
            said.append("the referee's signature covers every move and the result")
        if log.keys:
            said.append(f"every move of {', '.join(sorted(log.keys))} is signed by its player")
        item("signatures", True, "; ".join(said) if said else "none: an open, unsigned game")
    except (BadLogError, MoveError) as e:
        item("signatures", False, str(e))
    if unlocked.seed is None and all(i.status != "failed" for i in items):
        entries = f"{len(log.moves)} {'entry' if len(log.moves) == 1 else 'entries'}"
        unchecked("moves", f"{entries} as the referee signed them; whether each was legal "
                           "is checked once the seed is revealed")
        unchecked("result", f"as the referee signed it: {describe(log.result)}; checked against "
                            "the moves once the seed is revealed" if log.result is not None else
                  "none yet: the game goes on, as the referee signed it")
    elif all(i.ok for i in items):
        try:
            rep = replay(unlocked, keep=unlocked.time is not None)
            item("moves", True, f"all {len(log.moves)} by the player to move, legal and canonical")
            if unlocked.time is not None:
                _clock_items(unlocked, rep, item)
            try:
                check_result(rep)
                over = rep.outcome
                item("result", True, f"matches: {describe(over)}" if over is not None else
                     f"none yet: the game goes on, {rep.to_move()} to move")
            except BadLogError as e:
                item("result", False, str(e))
        except (BadLogError, MoveError) as e:
            item("moves", False, str(e))
    if views:
        from .forks import check_views

        for status, what, text in check_views(log, views):
            if status == "unchecked":
                unchecked(what, text)
            else:
                item(what, status == "ok", text)
    return report_of(items)

def _deal_item(log: Log, item: Callable[[str, bool, str], bool],
               unchecked: Callable[[str, str], None]) -> None:
    """The players' contributions to the deal: each value against its
    commitment (the header's checks), and whether every one is in."""
    from . import dealing

    waiting = dealing.pending(log)
    if waiting:
        unchecked("deal", f"waits for {', '.join(waiting)} to contribute; no move may be made "
                          "before")
        return
    committed = sorted(n for n, p in log.deal.items() if not p.words)
    words = sorted(n for n, p in log.deal.items() if p.words)
    said = []
    if committed:
        said.append(f"{', '.join(committed)} committed, then revealed values that match")
    if words:
        said.append(f"{', '.join(words)} sent words")
    item("deal", True, f"from the referee's committed seed and {len(log.deal)} contributions: "
                       + "; ".join(said))


def _clock_items(log: Log, rep: Replay, item: Callable[[str, bool, str], bool]) -> None:
    """The acts of the clock, each owed when recorded (the replay checked
    that), listed; the standing orders revealed, each against its digest;
    and every stand-in's move played again, with the orders then in force."""
    from . import clock, events

    acts = [e.move for e in log.moves if events.act_of(e.move) is not None]
    counts: dict[str, int] = {}
    for text in acts:
        kind = text[1:].split(" ", 1)[0]
        counts[kind] = counts.get(kind, 0) + 1
    said = ", ".join(f"{n} {kind}" for kind, n in counts.items()) or "none"
    item("clock", True, f"every act owed when recorded: {said}")
    if "orders" in counts or log.orders:
        try:
            n = clock.check_orders(log)
            item("standing orders", True, f"all {n} revealed, each matching the digest its "
                                          "@orders entry committed to")
        except MoveError as e:
            item("standing orders", False, str(e))
    if "stand-in" in counts:
        try:
            n = clock.check_stand_ins(rep.game, log, rep.states)
            item("stand-ins", True, f"all {n} stand-in moves are the bot's, played again")
        except MoveError as e:
            item("stand-ins", False, str(e))


class Comparison(msgspec.Struct, frozen=True):
    """Two copies of a log compared: whether they are the same (game, moves
    and result), whether they hold the same game at all, the first move at
    which their moves part (None when one is a prefix of the other, or they
    are different games) and lines saying how they differ."""

    same: bool
    same_game: bool
    parted_at: int | None
    lines: tuple[str, ...]

def compare(a: Log, b: Log, name_a: str = "A", name_b: str = "B") -> Comparison:
    """Whether two copies hold the same game and moves, and how they differ."""
    for field in ("game", "players", "params", "commitment", "referee", "keys"):
        if getattr(a, field) != getattr(b, field):
            return Comparison(False, False, None, (
                f"different games: {field} differs ({name_a}: {getattr(a, field)!r}, "
                f"{name_b}: {getattr(b, field)!r})",))
    if a.seed is not None and b.seed is not None and a.seed != b.seed:
        return Comparison(False, False, None, (
            f"different games: the seed differs ({name_a}: {a.seed!r}, {name_b}: {b.seed!r})",))
    common = 0
    for x, y in zip(a.moves, b.moves):
        if x != y:
            break
        common += 1
    na, nb = len(a.moves), len(b.moves)
    parted = common + 1 if common < min(na, nb) else None
    if common == na == nb:
        if a.result != b.result:
            return Comparison(False, True, None, (f"the same {counted(na, 'move')}, but the stored results differ",))
        return Comparison(True, True, None, (f"the same game: {counted(na, 'identical move')}",))
    if common == min(na, nb):
        short, long_, n = (name_a, name_b, na) if na < nb else (name_b, name_a, nb)
        extra = (b if na < nb else a).moves[n]
        return Comparison(False, True, None, (
            f"the same game; {short} stops after move {n}, {long_} goes on to move "
            f"{max(na, nb)} (move {n + 1}: {extra.by} {extra.move})",))

    def show(entry: MoveEntry | None) -> str:
        return "nothing" if entry is None else f"{entry.by} {entry.move!r}"

    left = a.moves[common] if common < na else None
    right = b.moves[common] if common < nb else None
    return Comparison(False, True, parted, (
        f"the copies part at move {common + 1}, after {counted(common, 'identical move')}",
        f"  {name_a}: {show(left)} ({counted(na, 'move')})",
        f"  {name_b}: {show(right)} ({counted(nb, 'move')})",
    ))

def diff(a: Log, b: Log, name_a: str = "A", name_b: str = "B") -> tuple[bool, list[str]]:
    """Whether two copies hold the same game and moves; lines saying how they differ
    (:func:`compare` says it as a value)."""
    found = compare(a, b, name_a, name_b)
    return found.same, list(found.lines)
