"""Whether a mail is its sender's own: the DKIM signature of their mail
provider, checked, and the signed message kept for anyone to check later.

A player with no key of their own (a mail client only) is vouched for by
their provider: a DKIM signature (RFC 6376) by the domain of their
``From:`` address (or a parent of it: DMARC's relaxed alignment, RFC 7489
3.1.1), over the ``From:`` header and the whole body. The signature is
checked with dkimpy against the provider's key in DNS (``dns``: dkimpy's
``dnsfunc``, a resolver stub in tests). The raw message of a move so
vouched for is kept, as received, in ``DIR/signed/GAME/``: anyone with
that file and the provider's key can check that the mail, and the move on
its first line, came from the player's provider; the view file quoted in it
names the game, the player and the chain head it answers.

What is refused, when the roster requires it (``require = ["dkim"]``): a
mail with no signature, one whose signature fails (a body re-encoded,
truncated or edited after signing; a key not in DNS), a signature by
another domain, a signature that covers only the first ``l=`` bytes of the
body (anything could follow them), and a mail with more than one ``From:``.
Not checked: DMARC's published policy (``_dmarc`` records) and SPF; the
alignment is by domain suffix, not by the public suffix list.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from .. import files
from ..errors import one_line
from .incoming import digest

__all__ = ["DNS", "Vouched", "aligned", "dkim", "keep", "vouch"]

#: How dkimpy asks DNS for a TXT record: ``dns(name, timeout=5)`` gives the
#: record's bytes or None.
DNS = Callable[..., "bytes | None"]

_HEADER = re.compile(rb"^([!-9;-~]+)[ \t]*:", re.M)


@dataclass(frozen=True)
class Vouched:
    """A valid DKIM signature for the sender: by ``domain``, selector ``selector``."""

    domain: str
    selector: str


def _headers(data: bytes) -> list[bytes]:
    """The names of the message's header fields, lower-cased, in order."""
    head = re.split(rb"\r?\n\r?\n", data, maxsplit=1)[0]
    return [m.group(1).lower() for m in _HEADER.finditer(head)]


def aligned(signer: str, sender_domain: str) -> bool:
    """Whether a signature by ``signer`` vouches for an address at
    ``sender_domain``: the same domain or a parent of it (of two labels at
    least: a top-level domain vouches for nobody)."""
    signer, sender_domain = signer.lower().rstrip("."), sender_domain.lower().rstrip(".")
    return "." in signer and (sender_domain == signer or sender_domain.endswith("." + signer))


def dkim(data: bytes, sender: str, dns: DNS | None = None) -> Vouched | str:
    """The DKIM signature of the raw message ``data`` that vouches for
    ``sender`` (an address), or in words why none does."""
    import dkim as dkimpy  # type: ignore[import-untyped]  # loaded only for a mail to check

    if _headers(data).count(b"from") != 1:
        return "the mail has more than one From: header"
    domain = sender.rpartition("@")[2]
    count = _headers(data).count(b"dkim-signature")
    if count == 0:
        return "the mail carries no DKIM signature"
    why = ""
    for idx in range(min(count, 8)):  # a bound: a provider adds one or two
        checker = dkimpy.DKIM(data, minkey=1024)
        try:
            good = checker.verify(idx=idx, dnsfunc=dns or dkimpy.dnsplug.get_txt)
        except Exception as e:  # noqa: BLE001 - dkimpy's own failures on a damaged header
            signer = checker.signature_fields.get(b"d", b"?").decode("ascii", "replace")[:80]
            # dkimpy's words, without the digests it quotes
            said = one_line(str(e)).split(" (")[0][:80]
            why = why or (f"its DKIM signature by {signer} does not match the mail's body "
                          "(changed after it was signed)" if "body hash" in said else
                          f"its DKIM signature by {signer} cannot be checked: {said}")
            continue
        fields = checker.signature_fields
        signer = fields.get(b"d", b"").decode("ascii", "replace")[:80]
        if not good:
            why = why or (f"its DKIM signature by {signer} does not match the mail (changed "
                          "after it was signed)")
        elif b"from" not in [h.strip().lower() for h in fields.get(b"h", b"").split(b":")]:
            why = why or f"its DKIM signature by {signer} does not cover the From: line"
        elif b"l" in fields:
            why = why or f"its DKIM signature by {signer} covers only part of the body (l=)"
        elif not aligned(signer, domain):
            why = why or f"its DKIM signature is by {signer}, not by {domain}"
        else:
            return Vouched(signer, fields.get(b"s", b"").decode("ascii", "replace"))
    return why


def keep(root: Path, game: str, number: int, data: bytes) -> Path:
    """Keep the raw message ``data`` that carried entry ``number`` of
    ``game``, as received, readable by the referee alone; named by its
    digest, so keeping it twice keeps one file."""
    folder = root / "signed" / game
    files.private_dir(folder.parent)  # made first: a parent mkdir makes follows the umask
    files.private_dir(folder)
    path = folder / f"{number:04}-{digest(data)[:16]}.eml"
    if not path.exists():
        files.write(str(path), data, private=True)
    return path


def vouch(data: bytes, sender: str, required: bool, dns: DNS | None = None) -> Vouched | str | None:
    """A mail that changes a game, from ``sender``: its valid DKIM signature;
    where the roster ``required`` one and it has none, why, in one line for
    the player; None when none was required and it has none that holds."""
    if not required and b"dkim-signature" not in _headers(data):
        return None
    found = dkim(data, sender, dns)
    if isinstance(found, str):
        return (f"your mail must carry your provider's DKIM signature (the roster asks it of "
                f"you), and {found}: send it from your own provider, unchanged" if required
                else None)
    return found
