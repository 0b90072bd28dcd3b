"""Reading and writing logs on disk: atomic replacement and no lost writes.

A log is replaced by writing a temporary file beside it and renaming it over
the old one, so a reader never sees half a log. Rewriting a log that may be
rewritten by someone else at the same time (a referee script handling two
mails, two players answering one position) goes through :func:`update`:
under a lock on the log (``filelock``, a well-kept cross-platform library),
the file must still hold exactly the bytes the change was computed from, or
nothing is written and the caller is told the log changed meanwhile.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from .errors import AdjudicatorError


class ConcurrentChangeError(AdjudicatorError):
    """The log changed between reading it and writing it back."""


def read(path: str) -> bytes:
    """The bytes of ``path``, or of standard input for ``-``."""
    if path == "-":
        return sys.stdin.buffer.read()
    try:
        return Path(path).read_bytes()
    except FileNotFoundError:
        raise AdjudicatorError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise AdjudicatorError(f"{path}: cannot read: it is a directory, not a file") from None
    except OSError as e:
        raise AdjudicatorError(f"{path}: cannot read: {e.strerror or e}") from None


def umask() -> int:
    """The process's umask (read without changing it where the system can)."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    old = os.umask(0o077)
    os.umask(old)
    return old


def write(path: str, data: bytes, *, replace: bool = True, private: bool = False) -> None:
    """Write ``data`` to ``path`` atomically: a temporary file, then a rename.

    A ``private`` file (a secret, a hand) is readable and writable by its
    owner alone. Another keeps the mode of the file it replaces, and a new
    one gets what the umask allows (never more).
    """
    import tempfile

    target = Path(path)
    if not replace and target.exists():
        raise AdjudicatorError(f"{path}: already exists (use --force to replace it)")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp",
                                   dir=target.parent or ".")
    except OSError as e:
        raise AdjudicatorError(f"{path}: cannot write: {e.strerror or e}") from None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        mode = target.stat().st_mode & 0o777 if target.exists() else 0o666 & ~umask()
        os.chmod(tmp, 0o600 if private else mode)
        if not replace and target.exists():
            raise AdjudicatorError(f"{path}: already exists (use --force to replace it)")
        os.replace(tmp, target)
    except BaseException as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(e, OSError):
            raise AdjudicatorError(f"{path}: cannot write: {e.strerror or e}") from None
        raise


def private_dir(path: Path) -> None:
    """Make the directory ``path`` (and its parents) if missing; it, made or
    found, is then its owner's alone (a mode never loosened)."""
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    mode = path.stat().st_mode & 0o777
    if mode & 0o077:
        os.chmod(path, mode & 0o700)


def tighten(path: Path) -> None:
    """Make the files directly in ``path`` their owner's alone (files a
    previous version wrote readable by others)."""
    for entry in path.iterdir() if path.is_dir() else []:
        if entry.is_file() and not entry.is_symlink():
            mode = entry.stat().st_mode & 0o777
            if mode & 0o077:
                os.chmod(entry, mode & 0o700)


def readable_by_others(path: Path) -> bool:
    """Whether the file ``path`` may be read by its group or by anyone."""
    try:
        return bool(os.stat(path).st_mode & 0o044)
    except OSError:
        return False


def lock_path(path: str) -> str:
    target = Path(path)
    return str(target.with_name(f".{target.name}.lock"))


def update(path: str, before: bytes, after: bytes, *, what: str = "extending it",
           timeout: float = 30) -> None:
    """Replace ``path``'s content ``before`` with ``after``, unless it changed.

    Raises :class:`ConcurrentChangeError` (and writes nothing) when the file
    no longer holds ``before``: someone else wrote it since it was read.
    """
    from filelock import FileLock, Timeout

    try:
        with FileLock(lock_path(path), timeout=timeout):
            try:
                now = Path(path).read_bytes()
            except OSError:
                now = None
            if now != before:
                raise ConcurrentChangeError(
                    f"{path}: the log changed while {what}; nothing recorded (read it again)"
                )
            write(path, after)
    except Timeout:
        raise ConcurrentChangeError(
            f"{path}: another command holds the log's lock ({lock_path(path)}); nothing recorded"
        ) from None
    except OSError as e:
        raise AdjudicatorError(f"{path}: cannot lock: {e.strerror or e}") from None
