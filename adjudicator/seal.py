"""Tamper evidence and secret seeds: the digest chain, the seed commitment,
the secret deal and the Ed25519 signatures of referees and players.

Both are specified byte for byte in ``notation/README.md`` ("Digest chain",
"Refereed games") so that another program can check them. Every piece of
text is hashed as a *field*: its UTF-8 bytes preceded by their length as 4
bytes, big-endian, so that no two different lists of fields hash alike.
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

from .engine import Value

CHAIN_DOMAIN = "adjudicator/chain/v1"
COMMIT_DOMAIN = "adjudicator/commit/v1"
DEAL_DOMAIN = "adjudicator/deal/v1"
CONTRIBUTION_DOMAIN = "adjudicator/contribution/v1"
JOINT_DOMAIN = "adjudicator/joint/v1"
FINGERPRINT_DOMAIN = "adjudicator/fingerprint/v1"
LOG_SIGN_DOMAIN = "adjudicator/sign/log/v1"
VIEW_SIGN_DOMAIN = "adjudicator/sign/view/v1"
MOVE_SIGN_DOMAIN = "adjudicator/sign/move/v1"
ORDERS_DOMAIN = "adjudicator/orders/v1"
KEY_PREFIX = "ed25519:"


_LENGTH = struct.Struct(">I").pack
_sha256 = hashlib.sha256


def fields(items: Iterable[str]) -> bytes:
    """Each item as a field: its UTF-8 bytes after their length (4 bytes, big-endian)."""
    out = bytearray()
    for item in items:
        data = item.encode("utf-8")
        out += _LENGTH(len(data)) + data
    return bytes(out)


def param_text(value: Value) -> str:
    """A parameter value as the header hashes it: typed, ``b:true``, ``i:3``, ``s:text``."""
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
    referee: str | None = None,
    keys: Mapping[str, str] | None = None,
    *,
    rules: int | None = None,
    tags: Mapping[str, str] | None = None,
    clock: bool = False,
    deadline: int | None = None,
    started: str | None = None,
    time: str | None = None,
    deal: tuple[tuple[str, str, str], ...] = (),
) -> bytes:
    """The digest every move entry is chained to.

    A refereed game is bound to its commitment, not its seed, so revealing
    the seed later does not break the chain (the seed is checked against the
    commitment instead).
    """
    # All but the seed (or the commitment) and the start time recur from log
    # to log: their fields are kept, keyed by what they are made of (the
    # type of each parameter too, as True == 1).
    players = tuple(players)
    key = (format_, version, game, tuple(params.items()), tuple(map(type, params.values())),
           players, commitment is None, referee, tuple((keys or {}).items()), rules,
           tuple((tags or {}).items()), clock, deadline, time, deal)
    parts = _HEADERS.get(key)
    if parts is None:
        parts = header_parts(format_, version, game, params, players, commitment is None, referee,
                             keys or {}, rules, tags or {}, clock, deadline, time, deal)
        if len(_HEADERS) >= 1000:  # bound the memory a stream of odd logs can take
            _HEADERS.clear()
        _HEADERS[key] = parts
    return header_digest_of(parts, (seed or "") if commitment is None else commitment, started)


def header_digest_of(parts: tuple[bytes, bytes | None], bound: str, started: str | None) -> bytes:
    """:func:`header_digest` from the fields of :func:`header_parts` and
    the seed (or the commitment) the header is bound to, and its start time."""
    head, middle = parts
    data = bound.encode("utf-8")
    data = head + _LENGTH(len(data)) + data
    if middle is not None:
        stamp = (started or "").encode("utf-8")
        data += middle + _LENGTH(len(stamp)) + stamp
    return _sha256(data).digest()


_HEADERS: dict[tuple, tuple[bytes, bytes | None]] = {}


def header_parts(
    format_: str, version: int, game: str, params: Mapping[str, Value], players: tuple[str, ...],
    open_: bool, referee: str | None, keys: Mapping[str, str], rules: int | None,
    tags: Mapping[str, str], clock: bool, deadline: int | None, time: str | None = None,
    deal: tuple[tuple[str, str, str], ...] = (),
) -> tuple[bytes, bytes | None]:
    """The fields of a header before its seed (or commitment), and (version
    2) those between it and the start time. ``time`` is the time control as
    its canonical JSON (:func:`adjudicator.chain.canonical`); ``deal`` the
    players' contributions to the deal, each (name, commitment or ``words``,
    value), in order of name. A header without either hashes as it did
    before they existed."""
    items = [CHAIN_DOMAIN, format_, str(version), game, str(len(params))]
    for name in sorted(params):
        items += [name, param_text(params[name])]
    items += [str(len(players)), *players]
    items.append("seed" if open_ else "commitment")
    if version < 2:
        return fields(items), None
    # Version 2 binds the referee's key and the players' keys: swapping
    # a key breaks the chain of every entry.
    more = ["referee", referee or "", str(len(keys))]
    for name in sorted(keys):
        more += [name, keys[name]]
    more += ["rules", str(rules or 1), "tags", str(len(tags))]
    for name in sorted(tags):
        more += [name, tags[name]]
    more += ["clock", "true" if clock else "false",
             "deadline", "" if deadline is None else str(deadline)]
    if time is not None:
        more += ["time", time]
    if deal:
        more += ["deal", str(len(deal))]
        for item in deal:
            more += list(item)
    more.append("started")
    return fields(items), fields(more)


class Link(NamedTuple):
    """What one link of the chain hashes: a move entry's fields."""

    by: str
    move: str
    comment: str | None
    at: str | None


def chain(previous: bytes, entries: Iterable[Link] | Iterable[Any]) -> list[bytes]:
    """The digest of each entry in turn (anything with ``by``, ``move``,
    ``comment`` and ``at``, as a log's move entries), each chained to the
    digest before it, the first to ``previous``: the one definition of the
    digest chain (``notation/README.md``, "Digest chain").

    A link hashes the previous digest, then the fields of the mover and the
    move, the comment's where there is one, and ``@at`` and the time where
    the entry is stamped, so no entry with one hashes like an entry without.
    """
    # fields() spelled out, with the fields of names and moves kept: this
    # runs once per move of every log validated.
    get, field, sha256 = _FIELDS.get, _field, _sha256
    out: list[bytes] = []
    append = out.append
    for entry in entries:
        by, move = entry.by, entry.move
        data = previous + (get(by) or field(by)) + (get(move) or field(move))
        if entry.comment is not None:
            data += field(entry.comment)
        if entry.at is not None:
            data += field("@at") + field(entry.at)
        previous = sha256(data).digest()
        append(previous)
    return out


def entry_digest(previous: bytes, by: str, move: str, comment: str | None,
                 at: str | None = None) -> bytes:
    """The digest of one move entry, chained to the digest before it (:func:`chain`)."""
    return chain(previous, (Link(by, move, comment, at),))[0]


_FIELDS: dict[str, bytes] = {}


def _field(text: str) -> bytes:
    data = text.encode("utf-8")
    field = _LENGTH(len(data)) + data
    if len(_FIELDS) < 100_000 and len(text) < 64:
        _FIELDS[text] = field
    return field


def new_salt() -> str:
    import secrets  # loaded when a game starts, not by every command

    return secrets.token_hex(16)


def new_secret_seed() -> str:
    import secrets  # loaded when a game starts, not by every command

    return secrets.token_hex(16)


def commit(seed: str, salt: str) -> str:
    """The public commitment to a secret seed: hex SHA-256 over the domain, salt and seed."""
    return hashlib.sha256(fields([COMMIT_DOMAIN, salt, seed])).hexdigest()


def orders_digest(player: str, salt: str, text: str) -> str:
    """The commitment to a player's standing orders (``@orders P DIGEST``):
    hex SHA-256 over the domain, the salt, the player and the text."""
    return hashlib.sha256(fields([ORDERS_DOMAIN, salt, player, text])).hexdigest()


def deal_seed(seed: str, salt: str) -> str:
    """The seed every shuffle and draw of a refereed game (version 2) comes from.

    The referee's seed may be a word a person typed; the salt is 128 random
    bits kept secret with it until the reveal, so nobody holding only the
    public log and their view can recompute the deal by trying seeds.
    """
    return hashlib.sha256(fields([DEAL_DOMAIN, salt, seed])).hexdigest()


def contribution_commit(player: str, value: str) -> str:
    """A player's commitment to their contribution to the deal: hex SHA-256
    of the fields ``adjudicator/contribution/v1``, the player and the value."""
    return hashlib.sha256(fields([CONTRIBUTION_DOMAIN, player, value])).hexdigest()


def joint_seed(deal: str, values: Iterable[tuple[str, str]]) -> str:
    """The seed of a deal the players contributed to: hex SHA-256 of the
    fields ``adjudicator/joint/v1``, the referee's deal seed
    (:func:`deal_seed`), the number of contributions and each player's name
    and value, in order of name. Fair if any one of them was unknown when
    the others were fixed."""
    items = sorted(values)
    flat = [text for pair in items for text in pair]
    return hashlib.sha256(fields([JOINT_DOMAIN, deal, str(len(items)), *flat])).hexdigest()


def fingerprint(public: str) -> str:
    """A public key's fingerprint, short enough to read aloud: the first 60
    bits of SHA-256 over ``adjudicator/fingerprint/v1`` and the key, in
    base32 as three groups of four (``KQ4M-7ZD2-XW3P``)."""
    import base64

    digest = hashlib.sha256(fields([FINGERPRINT_DOMAIN, public])).digest()
    text = base64.b32encode(digest[:8]).decode("ascii")[:12]
    return "-".join(text[i:i + 4] for i in range(0, 12, 4))


# --- Ed25519 signatures (the ``cryptography`` package, imported when needed) -------------


def _b64(data: bytes) -> str:
    import base64

    return base64.b64encode(data).decode("ascii")


def _unb64(text: str, size: int) -> bytes | None:
    import base64
    import binascii

    try:
        data = base64.b64decode(text.encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError, ValueError):
        return None
    return data if len(data) == size else None


def new_signing_key() -> str:
    """A new private key, as the base64 of its 32 raw bytes."""
    import secrets

    return _b64(secrets.token_bytes(32))


def public_key(private: str) -> str:
    """The public key of a private key, as ``ed25519:`` and the base64 of 32 bytes."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    raw = _unb64(private, 32)
    if raw is None:
        raise ValueError("a private key is the base64 of 32 bytes")
    key = Ed25519PrivateKey.from_private_bytes(raw).public_key()
    data = key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return KEY_PREFIX + _b64(data)


def valid_public_key(text: str) -> bool:
    return text.startswith(KEY_PREFIX) and _unb64(text[len(KEY_PREFIX):], 32) is not None


def sign(private: str, items: Iterable[str]) -> str:
    """The base64 Ed25519 signature of the fields ``items`` by ``private``."""
    raw = _unb64(private, 32)
    if raw is None:
        raise ValueError("a private key is the base64 of 32 bytes")
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    return _b64(Ed25519PrivateKey.from_private_bytes(raw).sign(fields(items)))


def verify(public: str, signature: str | None, items: Iterable[str]) -> bool:
    """Whether ``signature`` is ``public``'s signature of the fields ``items``."""
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    if signature is None or not public.startswith(KEY_PREFIX):
        return False
    key, sig = _unb64(public[len(KEY_PREFIX):], 32), _unb64(signature, 64)
    if key is None or sig is None:
        return False
    try:
        Ed25519PublicKey.from_public_bytes(key).verify(sig, fields(items))
    except (InvalidSignature, ValueError):
        return False
    return True
