"""Tamper evidence and secret seeds: the digest chain and the seed commitment.

Both are specified byte for byte in ``notation/README.md`` ("Digest chain",
"Refereed games") so that another program can check them. Every piece of
text is hashed as a *field*: its UTF-8 bytes preceded by their length as 4
bytes, big-endian, so that no two different lists of fields hash alike.
"""

from __future__ import annotations

import hashlib
import secrets
import struct
from collections.abc import Iterable, Mapping

from .engine import Value

CHAIN_DOMAIN = "adjudicator/chain/v1"
COMMIT_DOMAIN = "adjudicator/commit/v1"


_LENGTH = struct.Struct(">I").pack
_sha256 = hashlib.sha256


def _fields(items: Iterable[str]) -> bytes:
    out = bytearray()
    for item in items:
        data = item.encode("utf-8")
        out += _LENGTH(len(data)) + data
    return bytes(out)


def _param(value: Value) -> str:
    # Typed, so that the text "3" and the number 3 are different parameters.
    if isinstance(value, bool):
        return "b:" + ("true" if value else "false")
    if isinstance(value, int):
        return f"i:{value}"
    return f"s:{value}"


def header_digest(
    format_: str,
    version: int,
    game: str,
    params: Mapping[str, Value],
    players: Iterable[str],
    seed: str | None,
    commitment: str | None,
) -> bytes:
    """The digest every move entry is chained to.

    A refereed game is bound to its commitment, not its seed, so revealing
    the seed later does not break the chain (the seed is checked against the
    commitment instead).
    """
    players = list(players)
    items = [CHAIN_DOMAIN, format_, str(version), game, str(len(params))]
    for name in sorted(params):
        items += [name, _param(params[name])]
    items += [str(len(players)), *players]
    items += ["commitment", commitment] if commitment is not None else ["seed", seed or ""]
    return hashlib.sha256(_fields(items)).digest()


def entry_digest(previous: bytes, by: str, move: str, comment: str | None) -> bytes:
    """The digest of one move entry, chained to the digest before it."""
    # _fields() spelled out, with the fields of names and moves kept: this
    # runs once per move of every log validated.
    data = previous + (_FIELDS.get(by) or _field(by)) + (_FIELDS.get(move) or _field(move))
    if comment is not None:
        data += _field(comment)
    return _sha256(data).digest()


_FIELDS: dict[str, bytes] = {}


def _field(text: str) -> bytes:
    data = text.encode("utf-8")
    field = _LENGTH(len(data)) + data
    if len(_FIELDS) < 100_000 and len(text) < 64:
        _FIELDS[text] = field
    return field


def new_salt() -> str:
    return secrets.token_hex(16)


def new_secret_seed() -> str:
    return secrets.token_hex(16)


def commit(seed: str, salt: str) -> str:
    """The public commitment to a secret seed: hex SHA-256 over the domain, salt and seed."""
    return hashlib.sha256(_fields([COMMIT_DOMAIN, salt, seed])).hexdigest()
