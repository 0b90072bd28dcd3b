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
VERSION = 1


class MoveEntry(
    msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True
):
    """One move: who made it and what it was, in canonical notation."""

    by: str
    move: str
    comment: str | None = None


class Log(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A whole game, as exchanged between players."""

    format: Literal["adjudicator-log"]
    version: int
    game: str
    params: dict[str, Value]
    players: tuple[str, ...]
    seed: str
    moves: tuple[MoveEntry, ...]
    result: Outcome | None


_decoder = msgspec.json.Decoder(Log)


def decode(data: bytes | str, source: str = "log") -> Log:
    """Read a log; any problem becomes a one-line :class:`BadLogError`.

    >>> decode('{"format": "adjudicator-log"}').game
    Traceback (most recent call last):
    ...
    adjudicator.errors.BadLogError: log: Object missing required field `version`
    """
    try:
        log = _decoder.decode(data)
    except msgspec.DecodeError as e:
        # ValidationError is a DecodeError; both carry msgspec's own message.
        raise BadLogError(f"{source}: {_one_line(str(e))}") from None
    if log.version != VERSION:
        raise BadLogError(
            f"{source}: version {log.version} is not supported (this tool reads version "
            f"{VERSION}) - at `$.version`"
        )
    return log


def encode(log: Log) -> bytes:
    """The canonical bytes of a log."""
    raw = msgspec.json.encode(log, order="deterministic")
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
