"""A referee you can recognise: long-term referee keys, their fingerprints,
and the player's file of known referees (SSH's known_hosts: trust on first
use, loud on change).

A club or an event makes one referee key (``adjudicator key new-referee``)
and signs every game with it (``new --referee --referee-key FILE``). A
player names the referee they expect with ``--referee-key``: the key
itself, its fingerprint, a key file, or a name from their known referees
(``known_referees`` in the user's data directory, :mod:`adjudicator.userdata`),
which a name seen for the first time is added to. A log whose ``event`` tag
is a known name is held to that name's key without being asked. A log with
tournament tags (``event`` or ``round``) that no referee signed (open, or
version 1) is refused where a referee is expected, unless the user allows it.
Specified in ``notation/README.md`` ("Known referees").
"""

from __future__ import annotations

import re

import msgspec

from . import seal
from .errors import BadLogError, ParameterError
from .log import Log

KNOWN = "known_referees"
FINGERPRINT = re.compile(r"[A-Z2-7]{4}-[A-Z2-7]{4}-[A-Z2-7]{4}")
#: The tags that make a log part of a tournament.
TOURNAMENT_TAGS = ("event", "round")


class Trust(msgspec.Struct, frozen=True, kw_only=True):
    """What a user expects of a log's referee: a key (``ed25519:...``) or a
    fingerprint, or a ``name`` of their known referees, and whether a log
    with tournament tags may come unsigned. ``known`` is the known referees
    as read when the command began."""

    expected: str | None = None
    name: str | None = None
    known: dict[str, str] = {}
    allow_unsigned_event: bool = False


def parse_known(text: str) -> dict[str, str]:
    """The known referees file: one ``NAME KEY`` a line (the key last, the
    name may hold spaces), ``#`` comments and blank lines ignored."""
    out: dict[str, str] = {}
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name, _, key = line.rpartition(" ")
        if name.strip() and seal.valid_public_key(key):
            out[name.strip()] = key
    return out


def known() -> dict[str, str]:
    """The user's known referees (none when the file is not there yet)."""
    from . import userdata

    data = userdata.read(KNOWN)
    return {} if data is None else parse_known(data.decode("utf-8", "replace"))


def trust(given: str | None = None, *, allow_unsigned_event: bool = False) -> Trust:
    """A :class:`Trust` from ``--referee-key``: a public key, a fingerprint,
    a key file (``key new-referee``) or a name of the known referees."""
    from pathlib import Path

    from . import log as logmod

    table = known()
    if given is None:
        return Trust(known=table, allow_unsigned_event=allow_unsigned_event)
    given = given.strip()
    if seal.valid_public_key(given) or FINGERPRINT.fullmatch(given.upper()):
        return Trust(expected=given if given.startswith(seal.KEY_PREFIX) else given.upper(),
                     known=table, allow_unsigned_event=allow_unsigned_event)
    if given not in table and Path(given).is_file():
        data = Path(given).read_bytes()
        if logmod.kind_of(data) == logmod.KEY_FORMAT:
            public = logmod.decode_key(data, given).public
            return Trust(expected=public, known=table, allow_unsigned_event=allow_unsigned_event)
    if not given or "\n" in given or len(given) > 200:
        raise ParameterError("--referee-key: a key, a fingerprint, a key file or a name")
    return Trust(name=given, known=table, allow_unsigned_event=allow_unsigned_event)


def matches(public: str, expected: str) -> bool:
    """Whether ``public`` is the key ``expected`` names (a key or a fingerprint)."""
    return public == expected or seal.fingerprint(public) == expected


def check(log: Log, trusted: Trust | None, *, remember: bool = True) -> str | None:
    """Hold ``log``'s referee to what the user expects; raises
    :class:`BadLogError` (one loud line) for a log that is not that
    referee's. Gives a line to tell the user when a name was trusted for
    the first time. The signature itself is checked where the log is, and
    first: a name is learnt (``remember``) only from a log found sound."""
    if trusted is None:
        return None
    event = log.tags.get("event")
    name = trusted.name
    expected = trusted.expected
    if expected is None and name is not None:
        expected = trusted.known.get(name)
    if expected is None and name is None and event is not None and event in trusted.known:
        name, expected = event, trusted.known[event]
    asked = expected is not None or name is not None
    tournament = any(tag in log.tags for tag in TOURNAMENT_TAGS)
    if log.referee is None or log.version < 2 or log.commitment is None:
        what = ("an open game" if log.commitment is None else "a refereed game of version 1")
        if tournament and not trusted.allow_unsigned_event and asked:
            tags = ", ".join(f"{t} {log.tags[t]!r}" for t in TOURNAMENT_TAGS if t in log.tags)
            raise BadLogError(f"this log carries tournament tags ({tags}) but is {what}, signed "
                              "by no referee: it may be forged (--allow-unsigned-event to "
                              "accept it anyway)")
        if asked and not tournament:
            raise BadLogError(f"this log is {what}, signed by no referee: it is not the game of "
                              "the referee you named")
        return None
    public = log.referee
    if expected is not None:
        if matches(public, expected):
            return None
        whose = f"{name!r} is known by" if name is not None else "you expected"
        shown = expected if FINGERPRINT.fullmatch(expected) else seal.fingerprint(expected)
        raise BadLogError(
            f"WARNING: THE REFEREE'S KEY DIFFERS: this log is signed by {seal.fingerprint(public)}, "
            f"but {whose} {shown}: a forged game, or a referee's new key: ask them in person")
    if name is None or not remember:
        return None
    _remember(name, public)
    return (f"first use: {name!r} is now known as referee {seal.fingerprint(public)} "
            "(adjudicator keeps it among your known referees)")


def _remember(name: str, public: str) -> None:
    """Add ``name`` and its key to the known referees, unless someone else
    added the name meanwhile with another key (then refused)."""
    from . import userdata

    def add(data: bytes | None) -> bytes | None:
        text = "" if data is None else data.decode("utf-8", "replace")
        have = parse_known(text).get(name)
        if have == public:
            return None
        if have is not None:
            raise BadLogError(f"WARNING: THE REFEREE'S KEY DIFFERS: {name!r} is known as "
                              f"{seal.fingerprint(have)}, this log is signed by "
                              f"{seal.fingerprint(public)}")
        if not text:
            text = "# Known referees: NAME KEY, one a line (adjudicator --referee-key NAME)\n"
        return (text + ("" if text.endswith("\n") else "\n") + f"{name} {public}\n").encode("utf-8")

    userdata.update(KNOWN, add)
