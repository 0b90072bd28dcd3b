"""Moving mail: the Maildir that incoming mail is delivered to (or fetched
into by IMAP), the spool of mail to send, and sending it by SMTP (one
connection for the whole spool).

Nothing here reads what a message says; each step that changes a
directory is one rename or one removal, so that the service above can
repeat any of them after a crash.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from email import policy
from email.parser import BytesParser
from email.utils import getaddresses
from pathlib import Path
from typing import Any

from .. import files
from ..errors import one_line
from .config import Server

__all__ = ["Fetched", "Maildir", "SMTPSession", "Sender", "Spool", "fetch_imap", "prune",
           "smtp_send"]

#: Delivers one message (envelope sender, recipients, bytes); raises
#: :class:`OSError` or :class:`smtplib.SMTPException` when it cannot.
Sender = Callable[[str, list[str], bytes], None]


def private(path: Path) -> None:
    """A player's mail, delivered as the mail delivery agent's umask allows,
    made its owner's alone (never loosened)."""
    mode = path.stat().st_mode & 0o777
    if mode & 0o077:
        os.chmod(path, mode & 0o700)


@dataclass(frozen=True)
class Maildir:
    """Incoming mail: ``new/`` waiting, ``cur/`` handled (any mail delivery
    agent, or :func:`fetch_imap`, fills ``new/``)."""

    path: Path

    def make(self) -> None:
        self.path.mkdir(mode=0o700, parents=True, exist_ok=True)
        for sub in ("new", "cur", "tmp"):  # the players' mail: the referee's alone
            (self.path / sub).mkdir(mode=0o700, parents=True, exist_ok=True)

    def waiting(self) -> list[str]:
        """The messages waiting in ``new/``, oldest first."""
        new = self.path / "new"
        names = [p for p in new.iterdir() if p.is_file() and not p.name.startswith(".")]
        return [p.name for p in sorted(names, key=lambda p: (p.stat().st_mtime_ns, p.name))]

    def read(self, name: str) -> bytes | None:
        """A waiting message, or None if it is gone (handled meanwhile)."""
        try:
            return (self.path / "new" / name).read_bytes()
        except FileNotFoundError:
            return None

    def file(self, name: str) -> None:
        """Move a handled message from ``new/`` to ``cur/``, marked seen."""
        src = self.path / "new" / name
        if src.exists():
            private(src)
            os.replace(src, self.path / "cur" / f"{name.partition(':')[0]}:2,S")

    def put_aside(self, name: str, where: Path) -> None:
        """Move a waiting message out of the Maildir, into ``where``."""
        files.private_dir(where)
        private(self.path / "new" / name)
        os.replace(self.path / "new" / name, where / name)


def prune(folder: Path, before: float) -> int:
    """Remove the files of ``folder`` last changed before ``before`` (a POSIX
    time): handled mail the referee no longer needs, which may quote a
    player's hand. Returns how many went; a missing folder holds none."""
    gone = 0
    try:
        paths = list(folder.iterdir())
    except FileNotFoundError:
        return 0
    for path in paths:
        try:
            if path.is_file() and path.stat().st_mtime < before:
                path.unlink()
                gone += 1
        except FileNotFoundError:  # removed meanwhile
            continue
    return gone


@dataclass(frozen=True)
class Spool:
    """Outgoing mail not sent yet, one ``.eml`` file each; ``failed/`` holds
    what the server refused for good."""

    path: Path

    def put(self, name: str, data: bytes) -> None:
        files.write(str(self.path / name), data, private=True)  # a mail holds a hand

    def count(self) -> int:
        return len(list(self.path.glob("*.eml")))

    def flush(self, sender: str, send: Sender,
              note: Callable[[str], None]) -> tuple[int, str | None]:
        """Send the spool, oldest first; stop at the first failure (kept for
        the next try). Returns how many were sent, and the failure."""
        sent = 0
        for path in sorted(self.path.glob("*.eml"), key=lambda p: (p.stat().st_mtime_ns, p.name)):
            data = path.read_bytes()
            # The referee's own mail: its headers read as plain text (compat32),
            # without the header objects the default policy builds.
            message = BytesParser(policy=policy.compat32).parsebytes(data, headersonly=True)
            to = [a for _, a in getaddresses([str(message.get("To", ""))]) if a]
            try:
                send(sender, to, data)
            except Exception as e:  # noqa: BLE001 - any failure keeps the mail for later
                import smtplib

                if isinstance(e, smtplib.SMTPRecipientsRefused):
                    files.private_dir(self.path / "failed")
                    os.replace(path, self.path / "failed" / path.name)
                    note(f"refused by the server, kept in spool/failed: {path.name} to "
                         f"{', '.join(to)}")
                    continue
                if not isinstance(e, (OSError, smtplib.SMTPException)):
                    raise
                return sent, one_line(f"{type(e).__name__}: {e}")
            path.unlink()
            sent += 1
        return sent, None


class SMTPSession:
    """One connection to ``server`` (``[smtp]`` of referee.toml) for many
    messages: a :data:`Sender` that connects (TLS or STARTTLS, login) at its
    first message only, so that a spool of a hundred mails costs one
    handshake, not a hundred (about ten round trips each). A connection the
    server closed meanwhile is opened again once. Use it in a ``with``
    block: the connection is closed at its end."""

    def __init__(self, server: Server | None) -> None:
        self.server = server
        self.smtp: Any = None

    def __enter__(self) -> SMTPSession:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def connect(self) -> Any:
        import smtplib
        import ssl

        server = self.server
        if server is None:
            raise OSError("no [smtp] server in referee.toml")
        if server.security == "tls":
            smtp: smtplib.SMTP = smtplib.SMTP_SSL(server.host, server.port, timeout=60,
                                                  context=ssl.create_default_context())
        else:
            smtp = smtplib.SMTP(server.host, server.port, timeout=60)
        try:
            if server.security == "starttls":
                smtp.starttls(context=ssl.create_default_context())
            if server.user is not None:
                smtp.login(server.user, server.password or "")
        except BaseException:
            smtp.close()
            raise
        return smtp

    def __call__(self, sender: str, to: list[str], data: bytes) -> None:
        import smtplib

        fresh = self.smtp is None
        if fresh:
            self.smtp = self.connect()
        try:
            self.smtp.sendmail(sender, to, data)
        except smtplib.SMTPServerDisconnected:
            self.close()
            if fresh:
                raise
            self.smtp = self.connect()  # the server timed out an idle connection: once more
            self.smtp.sendmail(sender, to, data)
        except (OSError, smtplib.SMTPException) as e:
            if not isinstance(e, smtplib.SMTPRecipientsRefused):
                self.close()  # a connection in an unknown state is not used again
            raise

    def close(self) -> None:
        import smtplib

        smtp, self.smtp = self.smtp, None
        if smtp is None:
            return
        try:
            smtp.quit()
        except (OSError, smtplib.SMTPException):
            smtp.close()


def smtp_send(server: Server | None, sender: str, to: list[str], data: bytes) -> None:
    """Send one message through ``server`` (``[smtp]`` of referee.toml), on a
    connection of its own."""
    with SMTPSession(server) as send:
        send(sender, to, data)


@dataclass(frozen=True)
class Fetched:
    """Where a fetch stopped in an IMAP folder: the folder's UIDVALIDITY and
    the highest UID copied. UIDs mean nothing under another UIDVALIDITY
    (RFC 3501 2.3.1.1): then the whole folder is fetched again."""

    uidvalidity: int
    uid: int


def fetch_imap(server: Server, user: str, maildir: Maildir,
               since: Fetched | None = None) -> tuple[int, Fetched | None]:
    """Copy every message of the IMAP folder after ``since`` (by UID, under
    the same UIDVALIDITY; the whole folder when there is none) into
    ``maildir``; returns how many, and where it stopped.

    Whether a message was read does not count: someone who opened the
    mailbox first leaves it \\Seen, and it is still taken. A message is
    marked \\Seen once copied, for people reading the mailbox. A crash
    before the caller records where it stopped copies messages again,
    which their Message-IDs make harmless."""
    import imaplib
    import mailbox
    import ssl

    box = mailbox.Maildir(str(maildir.path), create=True)
    if server.security == "tls":
        imap: imaplib.IMAP4 = imaplib.IMAP4_SSL(server.host, server.port, timeout=60,
                                                ssl_context=ssl.create_default_context())
    else:
        imap = imaplib.IMAP4(server.host, server.port, timeout=60)
        if server.security == "starttls":
            imap.starttls(ssl_context=ssl.create_default_context())
    count = 0
    reached = since
    try:
        imap.login(server.user or user, server.password or "")
        status, _ = imap.select(server.folder)
        if status != "OK":
            raise OSError(f"IMAP folder {server.folder!r} cannot be opened")
        _, answer = imap.response("UIDVALIDITY")
        valid = [int(v) for v in answer if v is not None and bytes(v).strip().isdigit()]
        if not valid:
            raise OSError("the IMAP server gave no UIDVALIDITY")
        uidvalidity = valid[-1]
        last = since.uid if since is not None and since.uidvalidity == uidvalidity else 0
        reached = Fetched(uidvalidity, last)
        _, found = imap.uid("search", f"UID {last + 1}:*")
        # 'N:*' includes the highest UID even when it is below N.
        uids = sorted(u for u in (int(w) for w in bytes(found[0] or b"").split()) if u > last)
        for uid in uids:
            _, parts = imap.uid("fetch", str(uid), "(BODY.PEEK[])")
            body = next((p[1] for p in parts if isinstance(p, tuple)), None)
            if body is not None:
                private(maildir.path / "new" / box.add(body))
                count += 1
                try:
                    imap.uid("store", str(uid), "+FLAGS", "(\\Seen)")
                except imaplib.IMAP4.error:
                    pass  # a flag for people only: the UID is what counts
            reached = Fetched(uidvalidity, uid)
    finally:
        try:
            imap.logout()
        except (OSError, imaplib.IMAP4.error):
            pass
    return count, reached
