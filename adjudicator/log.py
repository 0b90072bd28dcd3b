"""The JSON game log: its Structs and its stable encoding.

A log is a header (format, version, game, parameters, players, seed), the
moves in order and, once the game is over, the result. The format is
specified in ``notation/README.md`` and as a JSON Schema in
``notation/log.schema.json`` (``adjudicator schema``).

Decoding is strict: unknown fields, wrong types and missing fields are
rejected with msgspec's path (`` at `$.moves[3].by` ``). Encoding is stable:
fields in declaration order, parameters sorted by name, 2-space indent and a
trailing newline, so two copies of one game are byte-identical.
"""

from __future__ import annotations

import functools
from typing import Final, Literal, TypeVar

import msgspec

from .engine import Outcome, Value
from .errors import BadLogError

FORMAT: Final = "adjudicator-log"
SECRET_FORMAT: Final = "adjudicator-secret"
VIEW_FORMAT: Final = "adjudicator-view"
KEY_FORMAT: Final = "adjudicator-key"
VERSION = 2  # what this tool writes
VERSIONS = (1, 2)  # what it reads


# gc=False (MoveEntry, Log): they hold strings, numbers, tuples and dicts of
# those, never a cycle, so the garbage collector need not track them; bulk
# validation decodes a log and its entries by the thousand.


class MoveEntry(
    msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True,
    gc=False,
):
    """One move: who made it, what it was in canonical notation, an optional
    comment, and the digest chaining it to the header and the entries before."""

    by: str
    #: The move in the game's canonical notation, or an event of the log
    #: itself, which starts with ``@`` (``@resign``, ``@takeback 2``,
    #: ``@accept``, ``@reject``, ``@abandon``): no game's move does.
    move: str
    comment: str | None = None
    #: When it was recorded, UTC, ``2026-11-23T09:15:00Z``: in a log whose
    #: header asks for a clock (version 2).
    at: str | None = None
    digest: str
    #: The mover's own Ed25519 signature of ``digest``, when the header lists
    #: a key for them (version 2).
    signature: str | None = None


class TimeControl(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True,
                  omit_defaults=True):
    """The time control of a game, in its header (version 2, signed with it):
    how long each player has, when the clock runs, and what the referee does
    when time runs out. Specified in ``notation/README.md`` ("Time control");
    the clock itself is :mod:`adjudicator.clock`."""

    #: Hours a player has for each move, counted while the clock runs.
    per_move: int | None = None
    #: Or a bank: the hours each player starts with, ``increment`` hours
    #: added after each of their moves, at most ``cap`` hours kept.
    bank: int | None = None
    increment: int = 0
    cap: int | None = None
    #: Hours of grace after the deadline before the policy acts.
    grace: int = 0
    #: The days the clock runs (``mon-fri``, ``sat,sun``; empty: every day)
    #: and the hours of each of them (``08-22``; empty: all day), in ``zone``.
    days: str = ""
    hours: str = ""
    zone: str = "UTC"
    #: When grace ends: ``wait`` (the organiser decides), ``stand-in`` (a bot
    #: at level ``stand_in`` plays the seat, for that move or, with
    #: ``until = "back"``, until the player says they are back) or
    #: ``forfeit`` (the player resigns on time).
    expiry: str = "wait"
    stand_in: str = "standard"
    until: str = "move"
    #: The share of the time used, in percent, at which the player is reminded.
    remind: int = 80
    #: Hours of absence each player may take in this game.
    absence: int = 0


class Orders(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A player's standing orders for a stand-in, as the referee keeps them
    (in its secret file) and reveals them with the seed: the entry
    ``@orders PLAYER DIGEST`` commits to them, DIGEST being
    :func:`adjudicator.seal.orders_digest` of these three fields. ``text``
    is the orders in order of preference, separated by ``, `` (empty: none)."""

    player: str
    salt: str
    text: str


class Contribution(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True,
                   omit_defaults=True):
    """One player's part of the deal of a refereed game (version 2; the
    commit-reveal of ``notation/README.md``, "A deal nobody chooses").

    A player with the tool commits first (``commitment``, the hex SHA-256 of
    their value: :func:`adjudicator.seal.contribution_commit`) and reveals
    ``value`` once every other commitment is fixed. A player with only a mail
    client sends ``words`` instead: ``value`` then holds their words, with no
    commitment."""

    commitment: str | None = None
    value: str | None = None
    words: bool = False


class Log(
    msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True,
    gc=False,
):
    """A whole game, as exchanged between players.

    An open game has its ``seed``. A refereed game has a ``commitment`` to a
    seed the referee keeps secret; ``seed`` and ``salt`` stay null until the
    referee reveals them. From version 2 a refereed game names the referee's
    public key and carries the referee's ``signature`` over the chain head
    and the result, renewed at every write; ``keys`` lists the public keys
    of players who sign their own moves. (Fields added by version 2 are left
    out of the encoding when empty, so a version 1 log encodes as it was.)
    """

    format: Literal["adjudicator-log"]
    version: int
    game: str
    #: The version of the game's rules the log is played under (version 2;
    #: absent means 1): an engine that changes a rule keeps the old one for
    #: the logs that pinned it.
    rules: int | None = None
    params: dict[str, Value]
    players: tuple[str, ...]
    #: PGN-style tags: event, site, round, date and any others (version 2).
    tags: dict[str, str] = {}
    #: Entries carry the time they were recorded (version 2).
    clock: bool = False
    #: Hours a player has to answer, counted from the previous entry; the
    #: tool reports it, the organiser decides what happens (version 2).
    deadline: int | None = None
    #: When the game began, UTC, in a log with a clock (version 2).
    started: str | None = None
    #: The time control the referee keeps (version 2; it needs the clock).
    time: TimeControl | None = None
    seed: str | None
    salt: str | None
    commitment: str | None
    referee: str | None = None
    keys: dict[str, str] = {}
    #: The players' contributions to the deal of a refereed game, by name
    #: (version 2): the deal is drawn from the referee's seed and all of them.
    deal: dict[str, Contribution] = {}
    moves: tuple[MoveEntry, ...]
    result: Outcome | None
    signature: str | None = None
    #: The standing orders its ``@orders`` entries commit to, revealed with
    #: the seed (version 2; empty until then).
    orders: tuple[Orders, ...] = ()

    @property
    def refereed(self) -> bool:
        return self.commitment is not None


class Secret(
    msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True
):
    """The referee's file of a refereed game: the seed and the salt of its
    commitment and (version 2) the referee's private signing key."""

    format: Literal["adjudicator-secret"]
    version: int
    game: str
    players: tuple[str, ...]
    commitment: str
    seed: str
    salt: str
    signing_key: str | None = None
    #: The standing orders players left for a stand-in (``@orders``), kept
    #: secret until the reveal.
    orders: tuple[Orders, ...] = ()


class KeyFile(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A player's own signing key (``adjudicator key new``): keep it private."""

    format: Literal["adjudicator-key"]
    version: int
    public: str
    private: str


class ViewFile(
    msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True
):
    """What the referee sends one player: the public log, what that player
    sees now, their legal moves when it is their turn, and, once they have
    chosen, the move they send back.

    ``proof`` (version 2) is the referee's signature binding the game, the
    player, the position, the view and the listed moves: it is what
    authorises the move the player records here, and nothing else does.

    ``since`` tells what happened since the player last moved, as they saw
    it; ``notes`` are the referee's word on the player's last file (which
    queued moves were applied, which dropped and why); both are covered by
    the proof. ``queued`` are further moves the player typed after
    ``move``, for the referee to apply in order while each is still legal
    and still theirs to make.
    """

    format: Literal["adjudicator-view"]
    version: int
    player: str
    to_move: str | None
    log: Log
    view: msgspec.Raw
    legal: tuple[str, ...] | None
    move: MoveEntry | None
    proof: str | None = None
    since: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    queued: tuple[str, ...] = ()


@functools.cache
def _decoder_of(kind: type[_File]) -> msgspec.json.Decoder[_File]:
    """The decoder of ``kind``, made when first needed: making one resolves
    every type the file holds, which ``show`` of a log need not pay for the
    secret, view and key files."""
    return msgspec.json.Decoder(kind)


def decode(data: bytes | str, source: str = "log") -> Log:
    """Read a log; any problem becomes a one-line :class:`BadLogError`.

    >>> decode('{"format": "adjudicator-log"}').game
    Traceback (most recent call last):
    ...
    adjudicator.errors.BadLogError: log: Object missing required field `version`
    """
    return _checked(_decoder_of(Log), data, source)


def decode_secret(data: bytes | str, source: str = "secret") -> Secret:
    """Read a referee's secret file."""
    return _checked(_decoder_of(Secret), data, source)


def decode_view(data: bytes | str, source: str = "view") -> ViewFile:
    """Read a player's view file."""
    return _checked(_decoder_of(ViewFile), data, source)


def decode_key(data: bytes | str, source: str = "key") -> KeyFile:
    """Read a player's key file."""
    return _checked(_decoder_of(KeyFile), data, source)


def kind_of(data: bytes | str) -> str | None:
    """The ``format`` a file declares, if it is a JSON object that declares one."""
    try:
        head = msgspec.json.decode(text_of(data), type=_Head)
    except (msgspec.DecodeError, RecursionError, BadLogError):
        return None
    return head.format if isinstance(head.format, str) else None


class _Head(msgspec.Struct):
    format: object = None


class _Versioned(msgspec.Struct):
    format: object = None
    version: object = None


def _head_problem(data: bytes | str) -> str | None:
    """What is wrong with a JSON object that is no file of ours, in words:
    it names no format (``{}``), or a version this tool does not read (a
    version 9 log lacks fields a version 2 log has, which would be said
    instead). ``None`` when the head is right and a field is the problem."""
    try:
        head = msgspec.json.decode(data, type=_Versioned)
    except (msgspec.DecodeError, RecursionError):
        return None
    if head.format is None:
        return ('not an adjudicator file: it names no format (a log begins '
                '{"format": "adjudicator-log", "version": 2, ...})')
    if isinstance(head.version, int) and not isinstance(head.version, bool) \
            and head.version not in VERSIONS:
        return (f"version {head.version} is not supported (this tool reads versions "
                f"{', '.join(map(str, VERSIONS))}) - at `$.version`")
    return None


# Each file kind decodes to its own Struct; every one of them has a version.
_File = TypeVar("_File", Log, Secret, ViewFile, KeyFile)


def _checked(decoder: msgspec.json.Decoder[_File], data: bytes | str, source: str) -> _File:
    if isinstance(data, bytes) and data[:1] == b"{" and data[1:2] != b"\x00" and data.isascii():
        # The common case, a file as this tool writes it: ASCII, which text_of
        # would decode as UTF-8 to the very same characters, so msgspec reads
        # the bytes themselves (without a copy of the text) and finds the same.
        pass
    else:
        data = text_of(data, source)
        # (Not data.strip(), which copies the text to find it is not all
        # whitespace: isspace() stops at the first character that is not.)
        if not data or data.isspace():
            raise BadLogError(f"{source}: the file is empty")
    try:
        value = decoder.decode(data)
    except msgspec.DecodeError as e:
        # ValidationError is a DecodeError; both carry msgspec's own message,
        # unless the head says more plainly what the file is not.
        raise BadLogError(f"{source}: {_head_problem(data) or _one_line(str(e))}") from None
    except RecursionError:
        raise BadLogError(f"{source}: nested too deeply to be a log") from None
    if value.version not in VERSIONS:
        raise BadLogError(
            f"{source}: version {value.version} is not supported (this tool reads versions "
            f"{', '.join(map(str, VERSIONS))}) - at `$.version`"
        )
    return value


_BOMS = (
    (b"\xef\xbb\xbf", "utf-8"),
    (b"\xff\xfe\x00\x00", "utf-32-le"),
    (b"\x00\x00\xfe\xff", "utf-32-be"),
    (b"\xff\xfe", "utf-16-le"),
    (b"\xfe\xff", "utf-16-be"),
)


_UNMARKED: dict[tuple[bool, ...], str] = {
    (True, True, True, False): "utf-32-be",
    (False, True, True, True): "utf-32-le",
    (True, False, True, False): "utf-16-be",
    (False, True, False, True): "utf-16-le",
}


def text_of(data: bytes | str, source: str = "log") -> str:
    """The text of a file as a mail client may have left it.

    UTF-8, UTF-16 or UTF-32 with or without a byte order mark, and Latin-1
    / Windows-1252 (what a mail client re-encoding a message produces) are
    all read; the digest chain then tells whether anything
    was lost on the way. Bytes that fit none of them are refused, naming
    what was found.
    """
    if isinstance(data, str):
        return data[1:] if data.startswith("\ufeff") else data
    if data[:1] == b"{" and data[1:2] != b"\x00":
        # The common case, a log as this tool writes it: no byte order mark
        # (none starts with "{") and not UTF-16 or UTF-32 (a zero byte would
        # follow the "{"), so what follows below comes down to this.
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            pass
    for bom, codec in _BOMS:
        if data.startswith(bom):
            try:
                return data[len(bom):].decode(codec)
            except UnicodeDecodeError:
                raise BadLogError(f"{source}: starts with a {codec} byte order mark but is not "
                                  f"valid {codec}") from None
    # JSON starts with an ASCII character, so UTF-16 and UTF-32 without a byte
    # order mark show themselves by where the zero bytes are (RFC 4627, 3);
    # read as UTF-8 they would be valid, and nonsense.
    unmarked = _UNMARKED.get(tuple(b == 0 for b in data[:4]))
    if unmarked is not None:
        try:
            return data.decode(unmarked)
        except UnicodeDecodeError:
            raise BadLogError(f"{source}: binary data (NUL bytes), not a text file") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    if b"\x00" in data:
        raise BadLogError(f"{source}: binary data (NUL bytes), not a text file")
    try:
        return data.decode("cp1252")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def encode(value: Log | Secret | ViewFile | KeyFile) -> bytes:
    """The canonical bytes of a log (or of a secret or view file)."""
    raw = msgspec.json.encode(value, order="deterministic")
    return msgspec.json.format(raw, indent=2) + b"\n"


def schema() -> dict:
    """The JSON Schema of the log format."""
    doc = msgspec.json.schema(Log)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "adjudicator game log",
        "description": (
            f"A game log, format {FORMAT!r} version {VERSION}. "
            "Specified in notation/README.md."
        ),
        **doc,
    }


def schema_text() -> str:
    """The schema as stable, indented JSON text with a trailing newline."""
    import json  # only for printing a schema

    return json.dumps(schema(), indent=2, sort_keys=True) + "\n"


def _one_line(text: str) -> str:
    return " ".join(text.split())
