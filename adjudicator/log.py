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

import json
from typing import Literal

import msgspec

from .engine import Outcome, Value
from .errors import BadLogError

FORMAT = "adjudicator-log"
SECRET_FORMAT = "adjudicator-secret"
VIEW_FORMAT = "adjudicator-view"
VERSION = 1


class MoveEntry(
    msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True
):
    """One move: who made it, what it was in canonical notation, an optional
    comment, and the digest chaining it to the header and the entries before."""

    by: str
    move: str
    comment: str | None = None
    digest: str


class Log(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A whole game, as exchanged between players.

    An open game has its ``seed``. A refereed game has a ``commitment`` to a
    seed the referee keeps secret; ``seed`` and ``salt`` stay null until the
    referee reveals them.
    """

    format: Literal["adjudicator-log"]
    version: int
    game: str
    params: dict[str, Value]
    players: tuple[str, ...]
    seed: str | None
    salt: str | None
    commitment: str | None
    moves: tuple[MoveEntry, ...]
    result: Outcome | None

    @property
    def refereed(self) -> bool:
        return self.commitment is not None


class Secret(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The referee's file of a refereed game: the seed and the salt of its commitment."""

    format: Literal["adjudicator-secret"]
    version: int
    game: str
    players: tuple[str, ...]
    commitment: str
    seed: str
    salt: str


class ViewFile(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """What the referee sends one player: the public log, what that player
    sees now, their legal moves when it is their turn, and, once they have
    chosen, the move they send back."""

    format: Literal["adjudicator-view"]
    version: int
    player: str
    to_move: str | None
    log: Log
    view: msgspec.Raw
    legal: tuple[str, ...] | None
    move: MoveEntry | None


_decoder = msgspec.json.Decoder(Log)
_secret_decoder = msgspec.json.Decoder(Secret)
_view_decoder = msgspec.json.Decoder(ViewFile)


def decode(data: bytes | str, source: str = "log") -> Log:
    """Read a log; any problem becomes a one-line :class:`BadLogError`.

    >>> decode('{"format": "adjudicator-log"}').game
    Traceback (most recent call last):
    ...
    adjudicator.errors.BadLogError: log: Object missing required field `version`
    """
    return _checked(_decoder, data, source)


def decode_secret(data: bytes | str, source: str = "secret") -> Secret:
    """Read a referee's secret file."""
    return _checked(_secret_decoder, data, source)


def decode_view(data: bytes | str, source: str = "view") -> ViewFile:
    """Read a player's view file."""
    return _checked(_view_decoder, data, source)


def kind_of(data: bytes) -> str | None:
    """The ``format`` a file declares, if it is a JSON object that declares one."""
    try:
        head = msgspec.json.decode(data, type=_Head)
    except msgspec.DecodeError:
        return None
    return head.format


class _Head(msgspec.Struct):
    format: str | None = None


def _checked(decoder: msgspec.json.Decoder, data: bytes | str, source: str):  # type: ignore[no-untyped-def]
    try:
        value = decoder.decode(data)
    except msgspec.DecodeError as e:
        # ValidationError is a DecodeError; both carry msgspec's own message.
        raise BadLogError(f"{source}: {_one_line(str(e))}") from None
    if value.version != VERSION:
        raise BadLogError(
            f"{source}: version {value.version} is not supported (this tool reads version "
            f"{VERSION}) - at `$.version`"
        )
    return value


def encode(value: Log | Secret | ViewFile) -> bytes:
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
    return json.dumps(schema(), indent=2, sort_keys=True) + "\n"


def _one_line(text: str) -> str:
    return " ".join(text.split())
