"""Signatures and secrets: the referee's signature over a log, the players'
over their moves, and unlocking a refereed log with the referee's secret.

The keys and the signatures themselves are :mod:`adjudicator.seal`'s; this
module says what each signature covers and when a log must carry one.
"""

from __future__ import annotations

import msgspec

from . import seal
from .chain import head_digest
from .clock import act_text
from .errors import BadLogError, IllegalMoveError, ParameterError, UsageError
from .log import Log, MoveEntry, Orders, Secret


def signed_items(log: Log) -> list[str]:
    """What the referee's signature of a log covers: the chain head (which
    covers the header and every entry) and the result."""
    head = log.moves[-1].digest if log.moves else head_digest(log).hex()
    result = "" if log.result is None else msgspec.json.encode(log.result, order="deterministic").decode()
    return [seal.LOG_SIGN_DOMAIN, head, result]

def sign(log: Log, secret: Secret) -> Log:
    """``log`` signed by its referee (after every write of a refereed log)."""
    if secret.signing_key is None:
        if log.version >= 2:
            raise BadLogError("the secret file holds no signing key (it is of version 1)")
        return log
    if log.referee != seal.public_key(secret.signing_key):
        raise BadLogError("the secret file belongs to another game (its signing key differs)")
    return msgspec.structs.replace(log, signature=seal.sign(secret.signing_key, signed_items(log)))

def check_signature(log: Log) -> None:
    """A version 2 refereed log must carry its referee's signature over its
    chain head and result; an open log must carry none."""
    if log.version < 2:
        if log.referee is not None or log.keys or log.signature is not None or any(
            e.signature is not None for e in log.moves
        ):
            raise BadLogError("header: keys and signatures need version 2")
        return
    if log.commitment is None:
        if log.referee is not None or log.signature is not None:
            raise BadLogError("header: an open game has no referee key or signature")
        return
    if log.referee is None or not seal.valid_public_key(log.referee):
        raise BadLogError("header: a refereed game of version 2 must name its referee's key")
    if not seal.verify(log.referee, log.signature, signed_items(log)):
        what = "has no" if log.signature is None else "does not carry a valid"
        raise BadLogError(
            f"signature: the log {what} signature of its referee over its "
            f"{len(log.moves)} moves and result: it was changed after the referee wrote it"
        )

def unlock(log: Log, secret: Secret | None) -> Log:
    """``log`` with the seed filled in from the referee's ``secret``, for replay.

    The secret must belong to the log: the same commitment, and a seed and
    salt that hash to it. An open or revealed log needs no secret.
    """
    if secret is None or log.seed is not None:
        return log
    if log.commitment is None:
        raise BadLogError("header: the log has neither a seed nor a commitment")
    if secret.commitment != log.commitment or secret.game != log.game:
        raise BadLogError("the secret file belongs to another game (its commitment differs)")
    if seal.commit(secret.seed, secret.salt) != secret.commitment:
        raise BadLogError("the secret file is damaged: its seed and salt do not give its commitment")
    return msgspec.structs.replace(log, seed=secret.seed, salt=secret.salt)

def publish(log: Log, like: Log) -> Log:
    """``log`` as it may be written where ``like`` was: a seed kept secret there stays out."""
    if like.seed is None and log.seed is not None:
        return msgspec.structs.replace(log, seed=None, salt=None, orders=())
    return log

def reveal(log: Log, secret: Secret) -> Log:
    """The log with its seed and salt published, so anyone can check every move."""
    if log.commitment is None:
        raise BadLogError("this is an open game: its seed is in the log already")
    return msgspec.structs.replace(unlock(log, secret), orders=revealed_orders(log, secret))


def revealed_orders(log: Log, secret: Secret) -> tuple[Orders, ...]:
    """The standing orders of ``secret`` that the ``@orders`` entries of
    ``log`` commit to, in the order of those entries (each once)."""
    kept = {seal.orders_digest(o.player, o.salt, o.text): o for o in secret.orders}
    out: list[Orders] = []
    for entry in log.moves:
        if entry.move.startswith("@orders "):
            digest = entry.move.split(" ")[-1]
            if digest in kept and kept[digest] not in out:
                out.append(kept[digest])
    return tuple(out)

def check_keys(log: Log) -> None:
    """Player keys: only for players of the game, each a well-formed public key."""
    for name, key in log.keys.items():
        if name not in log.players:
            raise BadLogError(f"header: a key for {name!r}, who is not a player")
        if not seal.valid_public_key(key):
            raise BadLogError(f"header: {name}'s key is not an ed25519 public key")

def check_player_signatures(log: Log) -> None:
    """Every entry by a player who has a key must carry their signature."""
    if not log.keys:
        if any(e.signature is not None for e in log.moves):
            raise BadLogError("a move carries a signature but the header lists no player key")
        return
    for number, entry in enumerate(log.moves, 1):
        key = log.keys.get(entry.by)
        if key is None:
            if entry.signature is not None:
                raise IllegalMoveError(f"{entry.by} has no key in the header, yet the move is "
                                       "signed").at(number, entry.by, entry.move)
            continue
        if entry.signature is None and number > 1 and log.moves[number - 2].by == "referee" \
                and log.moves[number - 2].move == act_text("stand-in", entry.by):
            # The clock's stand-in played for them: not their move to sign,
            # and no choice of the referee's (audit plays the bot's move again).
            continue
        if not seal.verify(key, entry.signature, [seal.MOVE_SIGN_DOMAIN, entry.digest]):
            what = "unsigned" if entry.signature is None else "signed with another key"
            raise IllegalMoveError(
                f"{what}: {entry.by} signs their moves (their key is in the header)"
            ).at(number, entry.by, entry.move)

def sign_move(entry: MoveEntry, private: str) -> MoveEntry:
    """``entry`` signed by its player."""
    return msgspec.structs.replace(
        entry, signature=seal.sign(private, [seal.MOVE_SIGN_DOMAIN, entry.digest])
    )

def sign_own(log: Log, entry: MoveEntry, player_key: str | None) -> MoveEntry:
    """``entry`` signed by its player if the header lists their key."""
    key = log.keys.get(entry.by)
    if key is None:
        return entry
    if player_key is None:
        raise UsageError(f"{entry.by} signs their moves: give their key file (--key FILE)")
    if seal.public_key(player_key) != key:
        raise ParameterError(f"the key given is not {entry.by}'s (it is not the key in the header)")
    return sign_move(entry, player_key)

def check_seals(log: Log) -> None:
    """The signatures: the referee's over a refereed log, the players' over their moves."""
    check_keys(log)
    check_signature(log)
    check_player_signatures(log)
