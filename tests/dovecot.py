"""A real IMAP server for the tests: Debian's Dovecot (``dovecot-imapd``),
started in the foreground from its own configuration in a temporary
directory, listening on 127.0.0.1 on a port of its own, with one user
(passwd-file, plain password) whose mail is a Maildir there. Nothing of the
machine's own Dovecot is used or touched.

Missing, the tests that need it are skipped, naming the package; with
``ADJUDICATOR_REQUIRE_DOVECOT=1`` (set by .ci/run, which installs it) they
fail instead.
"""

from __future__ import annotations

import grp
import imaplib
import os
import pwd
import socket
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

DOVECOT = "/usr/sbin/dovecot"
USER, PASSWORD = "referee", "s3cret"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def require() -> None:
    """Skip (or fail, in CI) when Dovecot is not installed."""
    if os.access(DOVECOT, os.X_OK) and os.access("/usr/lib/dovecot/imap", os.X_OK):
        return
    why = f"needs Dovecot's IMAP server ({DOVECOT}): apt-get install dovecot-imapd"
    if os.environ.get("ADJUDICATOR_REQUIRE_DOVECOT"):
        pytest.fail(f"{why} (ADJUDICATOR_REQUIRE_DOVECOT is set)")
    pytest.skip(why)


def _config(root: Path, port: int) -> Path:
    uid = os.getuid()
    if uid == 0:  # as root (CI): Dovecot's own unprivileged users, from its package
        internal, login = "dovecot", "dovenull"
        owner = pwd.getpwnam(internal)
        mail_uid, mail_gid = owner.pw_uid, owner.pw_gid
    else:  # as anyone else, everything runs as that user
        internal = login = pwd.getpwuid(uid).pw_name
        mail_uid, mail_gid = uid, os.getgid()
    for sub in ("run", "home"):
        (root / sub).mkdir(mode=0o755)
    os.chown(root / "home", mail_uid, mail_gid)
    (root / "passwd").write_text(f"{USER}:{{PLAIN}}{PASSWORD}::::::\n", encoding="utf-8")
    conf = root / "dovecot.conf"
    conf.write_text(f"""\
base_dir = {root}/run
state_dir = {root}/state
log_path = {root}/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
default_internal_user = {internal}
default_internal_group = {grp.getgrgid(mail_gid).gr_name}
default_login_user = {login}
first_valid_uid = {mail_uid}
last_valid_uid = {mail_uid}
mail_location = maildir:~/Maildir
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {root}/passwd
}}
userdb {{
  driver = static
  args = uid={mail_uid} gid={mail_gid} home={root}/home/%u
}}
service imap-login {{
  chroot =
  inet_listener imap {{
    address = 127.0.0.1
    port = {port}
  }}
  inet_listener imaps {{
    port = 0
  }}
}}
service anvil {{
  chroot =
}}
""", encoding="utf-8")
    return conf


@contextmanager
def dovecot() -> Iterator[int]:
    """Dovecot serving IMAP on 127.0.0.1 for one test; yields its port."""
    require()
    # Its own directory, which Dovecot's users can reach when it runs as
    # root (pytest's tmp_path lies under a directory of mode 0700).
    root = Path(tempfile.mkdtemp(prefix="adjudicator-dovecot-"))
    os.chmod(root, 0o711)
    port = free_port()
    conf = _config(root, port)
    proc = subprocess.Popen([DOVECOT, "-F", "-c", str(conf)], stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        end = time.monotonic() + 10
        while True:  # ready when a login succeeds (its auth process starts last)
            try:
                client(port).logout()
                break
            except (OSError, imaplib.IMAP4.error):
                if proc.poll() is not None or time.monotonic() > end:
                    log = root / "dovecot.log"
                    raise RuntimeError("dovecot did not start: " + (
                        log.read_text() if log.exists() else "")) from None
                time.sleep(0.05)
        yield port
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        shutil.rmtree(root, ignore_errors=True)


def client(port: int) -> imaplib.IMAP4:
    """Another mail client of the referee's mailbox (a person reading it)."""
    imap = imaplib.IMAP4("127.0.0.1", port, timeout=30)
    imap.login(USER, PASSWORD)
    imap.select("INBOX")
    return imap


def append(port: int, data: bytes, seen: bool = False) -> None:
    """Deliver ``data`` into the mailbox, as an IMAP client would (APPEND)."""
    imap = client(port)
    try:
        imap.append("INBOX", "(\\Seen)" if seen else None, None, data)
    finally:
        imap.logout()
