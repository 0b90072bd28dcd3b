"""What the referee remembers across restarts, in an embedded database
(``state/referee.sqlite``, the standard library's :mod:`sqlite3` in WAL
mode): the messages it handled, the log each game's players were last
mailed about, and each player's mail preferences.

A season of a busy club handles a hundred thousand messages: kept in one
JSON file, read and rewritten whole for each message, they made every
decision slower than the one before. Here a message handled is one row
written, and asking whether one was handled is one index look-up, however
many came before. What one message leads to is written in one transaction
(:meth:`Store.carried`), so a crash leaves all of it or none.

The memory of messages stays bounded: the :data:`MAX_SEEN` most recent are
kept, each as a digest of fixed size (:func:`seen_key`), however long the
Message-ID a stranger chose. The file is its owner's alone (it names the
players' addresses).
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from collections.abc import Iterable, Mapping
from pathlib import Path

__all__ = ["MAX_SEEN", "Store", "seen_key"]

#: How many handled messages the referee remembers (the most recent): a
#: message delivered again within them is filed unread.
MAX_SEEN = 100_000

_SCHEMA = """
CREATE TABLE IF NOT EXISTS seen (n INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE);
CREATE TABLE IF NOT EXISTS announced (game TEXT PRIMARY KEY, digest TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS prefs (address TEXT NOT NULL, name TEXT NOT NULL,
                                  value TEXT NOT NULL, PRIMARY KEY (address, name));
"""


def seen_key(message_id: str) -> str:
    """How a handled message is remembered: a digest of fixed size, however
    long the Message-ID a stranger chose."""
    return hashlib.sha256(message_id.encode("utf-8", "replace")).hexdigest()[:32]


class Store:
    """The referee's database in ``folder`` (made if missing; a ``state.json``
    an earlier version wrote there is taken in once, then removed)."""

    def __init__(self, folder: Path, bound: int | None = None) -> None:
        self.path = folder / "referee.sqlite"
        self.bound = bound
        if not self.path.exists():
            # Created its owner's alone: SQLite gives its -wal and -shm
            # files the mode of the database.
            os.close(os.open(self.path, os.O_CREAT | os.O_WRONLY, 0o600))
        self.db = sqlite3.connect(self.path, timeout=60, isolation_level=None,
                                  check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        # Each transaction on disk before the referee goes on (as the fsync
        # of the JSON file it replaces): a power cut loses nothing handled.
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.executescript(_SCHEMA)
        old = folder / "state.json"
        if old.exists():
            self._take_in(old)

    @property
    def most(self) -> int:
        return MAX_SEEN if self.bound is None else self.bound

    def close(self) -> None:
        self.db.close()

    def _take_in(self, old: Path) -> None:
        """The state of an earlier version (Message-IDs, or their digests
        with ``seen_as``), oldest first, then the file removed."""
        try:
            data = json.loads(old.read_bytes())
        except FileNotFoundError:  # taken in by another start meanwhile
            return
        keys = (data["seen"] if data.get("seen_as") == "sha256/32"
                else [seen_key(m) for m in data["seen"]])
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            self._add_keys(keys)
            self.db.executemany("INSERT OR REPLACE INTO announced VALUES (?, ?)",
                                data.get("announced", {}).items())
        old.unlink(missing_ok=True)

    # -- messages handled --

    def handled(self, message_id: str) -> bool:
        return self.db.execute("SELECT 1 FROM seen WHERE key = ?",
                               (seen_key(message_id),)).fetchone() is not None

    def _add_keys(self, keys: Iterable[str]) -> None:
        # In order; one seen again becomes the newest.
        self.db.executemany("INSERT OR REPLACE INTO seen (key) VALUES (?)", ((k,) for k in keys))
        newest = self.db.execute("SELECT max(n) FROM seen").fetchone()[0] or 0
        # The oldest beyond the bound are forgotten (numbers are given in
        # order, so the newest MAX_SEEN have the highest).
        self.db.execute("DELETE FROM seen WHERE n <= ?", (newest - self.most,))

    def remember(self, message_ids: Iterable[str]) -> None:
        """Count ``message_ids`` as handled, in order (the oldest forgotten
        beyond the bound)."""
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            self._add_keys(seen_key(m) for m in message_ids)

    def count(self) -> int:
        """How many handled messages are remembered."""
        return int(self.db.execute("SELECT count(*) FROM seen").fetchone()[0])

    # -- the logs announced --

    def announced(self, game: str) -> str | None:
        """The digest of the log ``game``'s players were last mailed about."""
        row = self.db.execute("SELECT digest FROM announced WHERE game = ?", (game,)).fetchone()
        return None if row is None else str(row[0])

    # -- the players' mail preferences --

    def preferences(self, address: str) -> dict[str, str]:
        """What the player at ``address`` chose (only what they set)."""
        return {str(n): str(v) for n, v in self.db.execute(
            "SELECT name, value FROM prefs WHERE address = ?", (address,))}

    # -- one message's effects, at once --

    def carried(self, *, handled: Iterable[str] = (), announced: tuple[str, str] | None = None,
                preferences: tuple[str, Mapping[str, str]] | None = None) -> None:
        """What carrying out one journal entry leaves to remember, in one
        transaction: messages (or nonces) ``handled``, a game's log
        ``announced`` (game, digest), a player's ``preferences`` (address,
        name -> value). Doing it twice is doing it once."""
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            self._add_keys(seen_key(m) for m in handled)
            if announced is not None:
                self.db.execute("INSERT OR REPLACE INTO announced VALUES (?, ?)", announced)
            if preferences is not None:
                address, chosen = preferences
                self.db.executemany("INSERT OR REPLACE INTO prefs VALUES (?, ?, ?)",
                                    [(address, n, v) for n, v in chosen.items()])
