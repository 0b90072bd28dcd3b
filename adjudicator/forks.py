"""Histories that cannot fork unseen: the player's memory of each refereed
game's chain head, and the view files players kept held against the
revealed deal and the final log.

A referee who shows two players two histories, or rewrites a move or the
result after the game, signs every copy validly: each copy passes alone.
What catches it is a copy kept from before. The player's tool remembers,
for each refereed game it is shown (by the referee's commitment), the
number of moves, the chain head and the result it last saw
(``heads.json`` in the user's data directory, :mod:`adjudicator.userdata`),
and refuses loudly a later copy that does not extend it (:func:`witness`).
After the reveal, :func:`check_views` checks every view file a player kept:
its proof is the referee's, its history is the final log's, and what it
showed is what the revealed deal gives there.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from .errors import AdjudicatorError, BadLogError
from .log import Log, ViewFile

HEADS = "heads.json"
#: The most games remembered; the oldest are forgotten first.
MAX_GAMES = 10_000


class ForkError(BadLogError):
    """A copy of a game that does not extend the copy seen before."""


class Seen(msgspec.Struct, frozen=True, kw_only=True):
    """What was last seen of one game: its moves, chain head and result."""

    moves: int
    head: str
    result: str = ""


def _result(log: Log) -> str:
    return "" if log.result is None else msgspec.json.encode(log.result).decode("utf-8")


def _head(log: Log) -> str:
    from .chain import head_digest

    return log.moves[-1].digest if log.moves else head_digest(log).hex()


def witness(log: Log, *, remember: bool = True) -> str | None:
    """Hold a copy of a refereed game (already checked: chain, signatures)
    to the copy of it last seen here, and remember this one if it is
    newer. Raises :class:`ForkError` for a copy that does not extend it;
    gives a line for a copy older than the one seen (nothing is wrong with
    it, but it is not the latest), else None."""
    from . import dealing, userdata

    if log.commitment is None:
        return None
    for player in log.deal:
        dealing.check_kept(log, player)
    if dealing.pending(log):
        return None  # the header still grows with the contributions
    key = log.commitment
    data = userdata.read(HEADS)
    table = _decode(data)
    seen = table.get(key)
    now = Seen(moves=len(log.moves), head=_head(log), result=_result(log))
    if seen is not None:
        _compare(log, seen)
        if seen.moves > now.moves:
            return (f"an older copy: you have seen this game at move {seen.moves}; this copy "
                    f"stops at move {now.moves}")
        if seen == now:
            return None
    if remember:
        def change(old: bytes | None) -> bytes | None:
            table = _decode(old)
            before = table.get(key)
            if before is not None:
                _compare(log, before)
                if before.moves > now.moves or before == now:
                    return None
            table.pop(key, None)
            table[key] = now
            while len(table) > MAX_GAMES:
                table.pop(next(iter(table)))
            return msgspec.json.encode(table) + b"\n"

        try:
            userdata.update(HEADS, change)
        except ForkError:
            raise
        except AdjudicatorError as e:
            # Nothing wrong with the copy; say that it was not remembered.
            return f"this copy could not be remembered: {e}"
    return None


def _compare(log: Log, seen: Seen) -> None:
    from .chain import head_digest

    n = len(log.moves)
    if seen.moves == 0:
        mine = head_digest(log).hex()
    elif n >= seen.moves:
        mine = log.moves[seen.moves - 1].digest
    else:
        return  # older: its moves are checked when a copy as long comes
    if mine != seen.head:
        raise ForkError(
            f"WARNING: THIS COPY DOES NOT EXTEND THE ONE YOU SAW: you saw this game at move "
            f"{seen.moves}, and this copy's history up to there differs: the referee shows "
            "two histories or rewrote one; keep both copies (adjudicator diff)")
    if n == seen.moves and seen.result and _result(log) != seen.result:
        raise ForkError("WARNING: THIS COPY DOES NOT EXTEND THE ONE YOU SAW: the same moves, "
                        "but another result: the referee rewrote it; keep both copies")


def _decode(data: bytes | None) -> dict[str, Seen]:
    if not data:
        return {}
    try:
        return msgspec.json.decode(data, type=dict[str, Seen])
    except msgspec.DecodeError:
        from . import userdata

        raise AdjudicatorError(f"{userdata.path(HEADS)}: damaged (remove it to start "
                               "afresh)") from None


def check_views(final: Log, views: Sequence[tuple[str, ViewFile]]) -> list[tuple[str, str, str]]:
    """Each view file a player kept, against the final log: its proof is the
    referee's, its history is the final log's up to its move, and (once the
    seed is revealed) what it shows is what the deal gives that player
    there. One (status, what, text) each: ``ok``, ``failed`` or
    ``unchecked`` (the seed is still secret)."""
    from . import referee
    from .chain import head_digest

    out: list[tuple[str, str, str]] = []
    for name, vf in views:
        what = f"view {name}"
        try:
            referee.check_view(vf, name)
        except AdjudicatorError as e:
            out.append(("failed", what, str(e)))
            continue
        if (vf.log.game, vf.log.commitment, vf.log.referee) != (
                final.game, final.commitment, final.referee) or final.commitment is None:
            out.append(("failed", what, "a view file of another game (or of no refereed game)"))
            continue
        n = len(vf.log.moves)
        if head_digest(vf.log) != head_digest(final) or final.moves[:n] != vf.log.moves:
            parted = next((i for i, (a, b) in enumerate(zip(vf.log.moves, final.moves), 1)
                           if a != b), min(n, len(final.moves)) + 1)
            out.append(("failed", what, f"{vf.player}'s view at move {n} shows a history "
                        f"the final log does not hold (they part at move {parted}): the "
                        "referee showed two histories, or rewrote one"))
            continue
        if final.seed is None:
            out.append(("unchecked", what, f"{vf.player}'s at move {n}: in the final log; "
                        "what it shows is checked once the seed is revealed"))
            continue
        revealed = msgspec.structs.replace(vf.log, seed=final.seed, salt=final.salt)
        try:
            expected = referee.issue_view(revealed, None, vf.player)
        except AdjudicatorError as e:
            out.append(("failed", what, f"it cannot be replayed with the revealed deal: {e}"))
            continue
        game = vf.log.game
        if (referee.decoded_view(vf.view, game), vf.legal, vf.to_move, vf.since) != (
                referee.decoded_view(expected.view, game), expected.legal, expected.to_move,
                expected.since):
            out.append(("failed", what, f"what it showed {vf.player} at move {n} is not what "
                        "the revealed deal gives: the referee lied in it"))
            continue
        out.append(("ok", what, f"{vf.player}'s at move {n}: the referee's, in the final "
                    "log, and what the revealed deal gives"))
    return out
