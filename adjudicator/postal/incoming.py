"""A message as the referee reads it: parsed once, its damaged headers
dropped, its texts and the view files in them found once."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from functools import cached_property
from email import policy
from email.message import Message
from email.parser import BytesParser
from email.utils import parseaddr

from .. import mailparse
from ..errors import AdjudicatorError
from ..textform import Found

__all__ = ["MAX_MESSAGE", "Incoming", "digest", "is_automatic", "read", "readable",
           "strip_reply_prefix"]

#: Incoming messages larger than this are refused unread (a game's reply is
#: a few hundred kilobytes at most).
MAX_MESSAGE = 4 * 1024 * 1024

_PREFIX = re.compile(r"^\s*((re|fwd?|aw|sv|vs|antw|odp)\s*(\[\d+\])?\s*:\s*)+", re.I)


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def strip_reply_prefix(subject: str) -> str:
    """A subject less ``Re:``, ``Fwd:`` and their kin in other languages."""
    return _PREFIX.sub("", subject)


@dataclass(frozen=True)
class Incoming:
    """One incoming message: its bytes, the message read from them (None
    when it cannot be read, and why), and the id it is known by: its
    Message-ID, or for a message without one a digest of its bytes (so that
    delivered twice, it is still handled once)."""

    data: bytes
    message: Message | None
    message_id: str
    unreadable: str = ""

    def texts(self) -> list[tuple[str, int, str]]:
        """Its readable parts (:func:`mailparse.message_texts`); none when the
        email package cannot decode them. Decoded once, however often asked
        (the observer, the organiser and the command are looked for in them)."""
        return list(self._texts)

    @cached_property
    def _texts(self) -> tuple[tuple[str, int, str], ...]:
        if self.message is None:
            return ()
        try:
            return tuple(mailparse.message_texts(self.message))
        except (ValueError, TypeError, LookupError, IndexError, AttributeError, UnicodeError):
            return ()

    def view_files(self, texts: list[tuple[str, int, str]], source: str) -> list[Found]:
        """Every log and view file in it (quoted or attached), from ``texts``
        (its :meth:`texts`), as :func:`mailparse.extract_all` finds them; none
        if a copy that could be the one meant is damaged."""
        return self.view_files_or_damage(texts, source)[0]

    def view_files_or_damage(self, texts: list[tuple[str, int, str]],
                             source: str) -> tuple[list[Found], str | None]:
        """:meth:`view_files`, and when none is found because a copy that
        could be the one meant is damaged, what is wrong with it. A body in
        plain text and HTML whose plain text holds a damaged copy or none
        (a w3m or lynx rendering of the HTML can lose a line) is read again from
        its HTML."""
        data = self.data
        damage: str | None = None
        try:
            if data.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"{") or \
                    not mailparse.looks_like_mail(data):
                # Not read as a mail by the extractor either: the bytes are the text.
                return mailparse.extract_all(data, source), None
            found = mailparse.found_in_texts(texts, source)
            if found:
                return found, None
        except AdjudicatorError as e:
            damage = str(e)
        if self.message is not None:
            try:
                if mailparse.has_html_alternative(self.message):
                    found = mailparse.found_in_texts(
                        mailparse.message_texts(self.message, html=True), source)
                    if found:
                        return found, None
            except (AdjudicatorError, ValueError, TypeError, LookupError, IndexError,
                    AttributeError, UnicodeError):
                pass
        return [], damage

def read(data: bytes) -> Incoming:
    """``data`` read as a mail message, once."""
    message: Message | None = None
    message_id, unreadable = "", f"larger than {MAX_MESSAGE} bytes"
    if len(data) <= MAX_MESSAGE:
        try:
            message = readable(BytesParser(policy=policy.default).parsebytes(data))
        except Exception as e:  # noqa: BLE001 - the email package's own failures
            # It recurses once per nested part (a message nested a thousand
            # deep is not a mail anyone wrote), and some damaged headers make
            # it raise while it parses.
            message, unreadable = None, f"not a readable mail message ({type(e).__name__})"
        else:
            message_id = " ".join(str(message.get("Message-ID", "") or "").split())
    return Incoming(data, message, message_id or f"<digest:{digest(data)}>",
                    "" if message is not None else unreadable)


def readable(message: Message) -> Message:
    """``message`` without the headers the email package cannot read.

    It parses a header each time it is read, and some damaged ones (an
    address or a Message-ID cut short) raise then, even NameError: such a
    header is treated as absent, everywhere the referee looks."""
    for part in message.walk():
        for name in set(part.keys()):
            try:
                for value in part.get_all(name, ()):
                    str(value)
            except Exception:  # noqa: BLE001 - the email package's own failures
                del part[name]
    return message


def is_automatic(message: Message, referee_address: str) -> str | None:
    """Why ``message`` must not be answered (RFC 3834: an automatic reply, a
    bounce, a list; or the referee's own mail come back), or None."""
    auto = str(message.get("Auto-Submitted", "no")).strip().lower()
    if auto and not auto.startswith("no"):
        return f"Auto-Submitted: {auto}"
    if str(message.get("Precedence", "")).strip().lower() in ("bulk", "junk", "list"):
        return "Precedence: " + str(message.get("Precedence")).strip().lower()
    for header in ("X-Autoreply", "X-Autorespond", "List-Id"):
        if message.get(header) is not None:
            return header
    if message.get("Return-Path") is not None and str(message["Return-Path"]).strip() == "<>":
        return "a bounce (empty Return-Path)"
    if message.get_content_type() == "multipart/report":
        return "a delivery report"
    sender = parseaddr(str(message.get("From", "")))[1].lower()
    local = sender.partition("@")[0]
    if local in ("mailer-daemon", "postmaster", "noreply", "no-reply"):
        return f"from {sender}"
    if sender == referee_address:
        return "the referee's own mail"
    return None
