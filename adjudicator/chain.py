"""The digest chain of a log: its head, each entry's link, and time stamps.

Every entry of a log carries the digest of the one before it and of itself
(:func:`seal.chain`, the one definition of the chain), starting from the
digest of the header, so an entry changed, dropped or reordered after it was
written breaks every link after it. Specified byte for byte in
``notation/README.md`` ("Digest chain").
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from . import seal
from .errors import BadLogError, ChainError
from .log import Log, MoveEntry, TimeControl
from datetime import UTC


def head_digest(log: Log) -> bytes:
    """The digest the first move entry is chained to."""
    return seal.header_digest(
        log.format, log.version, log.game, log.params, log.players, log.seed, log.commitment,
        log.referee, log.keys, rules=log.rules, tags=log.tags, clock=log.clock,
        deadline=log.deadline, started=log.started,
        time=None if log.time is None else canonical(log.time), deal=deal_fields(log),
    )


def deal_fields(log: Log) -> tuple[tuple[str, str, str], ...]:
    """The players' contributions as the header digest binds them: (name,
    ``words`` or the commitment, the value or the empty text), by name."""
    if not log.deal:
        return ()
    return tuple((name, "words" if c.words else c.commitment or "", c.value or "")
                 for name, c in sorted(log.deal.items()))


def canonical(time: TimeControl) -> str:
    """The time control as the header digest binds it: compact JSON, fields
    in declaration order, defaults left out."""
    import msgspec

    return msgspec.json.encode(time).decode("utf-8")


def check_chain(log: Log, upto: int | None = None) -> bytes:
    """Check the digest chain of the first ``upto`` entries; the last digest.

    The first entry whose digest does not follow raises, located at that move.
    """
    entries = log.moves if upto is None else log.moves[:upto]
    digests = seal.chain(head_digest(log), entries)
    for number, (entry, digest) in enumerate(zip(entries, digests), 1):
        if digest.hex() != entry.digest:
            raise broken(entry, number)
    return digests[-1] if digests else head_digest(log)


def broken(entry: MoveEntry, number: int) -> ChainError:
    """The error of an entry whose digest does not follow the chain."""
    return ChainError(
        "the digest chain breaks here: this entry, an earlier one or the header "
        "was changed after it was written"
    ).at(number, entry.by, entry.move)

#: A time stamp: UTC, to the second.
STAMP = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z")


def now_stamp() -> str:
    """The time now, as the log writes it."""
    from datetime import datetime

    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


@lru_cache(maxsize=8192)
def check_stamp(text: str) -> bool:
    """Whether ``text`` is a time stamp of the log (UTC, to the second, a
    real date). Kept for the texts met, as :func:`clock.parse_stamp`: every
    validation checks every entry's stamp, the referee validates a game at
    each move and each round, and strptime was a tenth of its time."""
    from datetime import datetime

    if not STAMP.fullmatch(text):
        return False
    try:
        datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ")
    except ValueError:
        return False
    return True


def sealed(log: Log, entries: Iterable[tuple[str, str, str | None]],
           at: str | None = None) -> tuple[MoveEntry, ...]:
    """Move entries (by, move, comment) appended to ``log``'s, with their
    digests (and the time stamp ``at`` where the log has a clock)."""
    previous = bytes.fromhex(log.moves[-1].digest) if log.moves else head_digest(log)
    out = list(log.moves)
    if log.clock and at is None:
        at = now_stamp()
    stamp = at if log.clock else None
    if stamp is not None:
        last = log.moves[-1].at if log.moves else log.started
        if not check_stamp(stamp):
            raise BadLogError(f"the time stamp {stamp!r} is not UTC, 2026-11-23T09:15:00Z")
        if last is not None and stamp < last:
            # Time never runs backwards in a log: a clock set back refuses
            # to write rather than write a log that no longer validates.
            raise BadLogError(f"this machine's clock says {stamp}, before the log's last "
                              f"entry ({last}): check the clock; nothing recorded")
    # Links made as tuples (no call of Link's own __new__), entries given
    # only the fields they set: self-play seals every move this way.
    links = [_link(seal.Link, (by, move, comment, stamp)) for by, move, comment in entries]
    append = out.append
    for (by, move, comment, _), digest in zip(links, seal.chain(previous, links)):
        if comment is None and stamp is None:
            append(MoveEntry(by=by, move=move, digest=digest.hex()))
        else:
            append(MoveEntry(by=by, move=move, comment=comment, at=stamp, digest=digest.hex()))
    return tuple(out)


_link = tuple.__new__
