"""The player's own small files, kept between commands in the user's data
directory: the referees they know, the last chain head of each game they
saw, the values they contributed to deals.

The directory is ``platformdirs``' user data directory for ``adjudicator``
(``~/.local/share/adjudicator`` on Linux), or the one the environment
variable ``ADJUDICATOR_DATA_DIR`` names (tests point it at a directory of
their own). It and every file in it are their owner's alone.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from .errors import AdjudicatorError

ENV = "ADJUDICATOR_DATA_DIR"


def data_dir() -> Path:
    """The directory the player's files are kept in (not made here)."""
    given = os.environ.get(ENV)
    if given:
        return Path(given)
    import platformdirs  # loaded by the commands that keep something, not at start-up

    return Path(platformdirs.user_data_dir("adjudicator", appauthor=False))


def path(name: str) -> Path:
    """The file ``name`` in the data directory."""
    return data_dir() / name


def read(name: str) -> bytes | None:
    """The bytes of the file ``name``, or None when there is none yet."""
    try:
        return path(name).read_bytes()
    except FileNotFoundError:
        return None
    except OSError as e:
        raise AdjudicatorError(f"{path(name)}: cannot read: {e.strerror or e}") from None


def update(name: str, change: Callable[[bytes | None], bytes | None]) -> None:
    """Replace the file ``name`` by what ``change`` makes of its bytes (None:
    leave it), under a lock, so two commands at once lose nothing."""
    from filelock import FileLock, Timeout

    from . import files

    target = path(name)
    try:
        files.private_dir(target.parent)
    except OSError as e:
        raise AdjudicatorError(f"{target.parent}: cannot make it: {e.strerror or e}") from None
    try:
        with FileLock(files.lock_path(str(target)), timeout=30):
            new = change(read(name))
            if new is not None:
                files.write(str(target), new, private=True)
    except Timeout:
        raise AdjudicatorError(f"{target}: another command holds its lock") from None
    except OSError as e:
        raise AdjudicatorError(f"{target}: cannot write: {e.strerror or e}") from None
