"""The organiser's acts by mail, signed: a ``From:`` line is not enough.

An organiser listed in referee.toml (``[organisers]``, their address and
public key, made with ``adjudicator key new``) mails the referee two lines:

    admin pause cup-3
    signature: NONCE SIGNATURE

``adjudicator key sign-admin`` writes them. The signature is Ed25519 over
the fields ``adjudicator-admin/v1``, the referee's address, the nonce and
each word of the act, so it is good for this referee, this act and once:
the referee remembers every nonce it took (a replayed mail, however
re-addressed, is refused), and a forged ``From:`` without the key, or a
signature moved to another act, is refused with one line.

A name of several words is one word of the act, written in double quotes
(``admin stand-in cup-3 "Ann Smith"``; :func:`adjudicator.names.join`), so
the words signed are the words read.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterable

from .. import names, seal

__all__ = ["DOMAIN", "Signed", "find", "sign", "verify"]

DOMAIN = "adjudicator-admin/v1"
_ADMIN = re.compile(r"^\s*admin\s+(.+?)\s*$", re.I)
_SIGNATURE = re.compile(r"^\s*signature:\s*([0-9a-f]{32})\s+(\S+)\s*$", re.I)


def items(referee: str, nonce: str, words: list[str]) -> list[str]:
    return [DOMAIN, referee.lower(), nonce, *words]


def sign(private: str, referee: str, words: list[str], nonce: str | None = None) -> str:
    """The two lines of a signed act, to put at the top of a mail to ``referee``."""
    nonce = secrets.token_hex(16) if nonce is None else nonce
    words = [names.clean(w) for w in words]
    return (f"admin {names.join(words)}\n"
            f"signature: {nonce} {seal.sign(private, items(referee, nonce, words))}\n")


class Signed:
    """An act found in a mail: its words, nonce and signature (unchecked)."""

    def __init__(self, words: list[str], nonce: str, signature: str) -> None:
        self.words, self.nonce, self.signature = words, nonce, signature


def find(lines: Iterable[str]) -> Signed | None | str:
    """The signed act at the top of a mail's own text: a :class:`Signed`,
    None when the mail holds no ``admin`` line, or why it cannot be read."""
    own = [line for line in lines if line.strip() and not line.lstrip().startswith(">")][:2]
    if not own or not (m := _ADMIN.match(own[0])):
        return None
    words = names.split(m.group(1))
    s = _SIGNATURE.match(own[1]) if len(own) > 1 else None
    if s is None:
        return "an organiser's act needs its signature on the next line " \
               "(adjudicator key sign-admin writes both)"
    return Signed(words, s.group(1).lower(), s.group(2))


def verify(public: str, referee: str, signed: Signed) -> bool:
    """Whether ``signed`` is the organiser's, for this referee and this act."""
    return seal.verify(public, signed.signature, items(referee, signed.nonce, signed.words))
