"""How often the referee answers, and what it tells the organiser it
ignored: two small tables the service keeps in ``state/``, each of a
bounded size whatever strangers send.

**Answers** (vacation(1)'s rule, per sender): an answer that records
nothing (an error, ``help``, a view sent again) goes to the same address
with the same words at most once per ``repeat`` minutes, and at most
``answers`` such answers go to one address in an hour. A robot that
ignores ``Auto-Submitted`` and answers every answer gets one answer an
interval, not a loop; a forger who asks ``show`` in a player's name a
thousand times makes the referee send the player one view.

**Ignored mail** (from addresses that play no game here, list and
automatic mail): counted per sender, the first :data:`MAX_LISTED` senders
named, and told to the organiser in one mail per ``notices`` hours.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

__all__ = ["HOUR", "MAX_KEYS", "MAX_LISTED", "Answers", "Ignored", "printable"]

HOUR = 3600.0
#: The most addresses and answers the table of answers remembers (the
#: oldest are forgotten first).
MAX_KEYS = 10_000
#: The most senders a notice to the organiser names (the others are counted).
MAX_LISTED = 20


def _key(*parts: str) -> str:
    return hashlib.sha256("\0".join(parts).encode("utf-8", "replace")).hexdigest()[:32]


def printable(text: str, width: int = 50) -> str:
    """A stranger's words as one short ASCII line that no mail client takes
    for a quotation."""
    out = "".join(ch if " " <= ch <= "~" else "?" for ch in " ".join(str(text).split()))
    out = out if len(out) <= width else out[:width - 3] + "..."
    return out.lstrip(">").strip() or "-"


@dataclass
class Answers:
    """Answers sent lately: the same answer to the same address (by a
    digest, when last), and each address's answers of the last hour."""

    same: dict[str, float] = field(default_factory=dict)
    recent: dict[str, list[float]] = field(default_factory=dict)

    @classmethod
    def from_json(cls, data: Any) -> Answers:
        try:
            return cls({str(k): float(v) for k, v in data["same"].items()},
                       {str(k): [float(t) for t in v] for k, v in data["recent"].items()})
        except (TypeError, KeyError, ValueError, AttributeError):
            return cls()

    def to_json(self) -> dict[str, Any]:
        return {"same": self.same, "recent": self.recent}

    def refused(self, to: str, what: str, now: float, repeat: float, per_hour: int) -> str | None:
        """Why answer ``what`` may not go to ``to`` now (None: it may).
        ``repeat`` is in seconds."""
        self.forget(now, repeat)
        last = self.same.get(_key(to, what))
        if last is not None and now - last < repeat:
            return f"the same answer went to {to} {int((now - last) // 60)} minutes ago"
        if len(self.recent.get(_key(to), ())) >= per_hour:
            return f"{per_hour} answers went to {to} in the last hour"
        return None

    def sent(self, to: str, what: str, now: float) -> None:
        self.same.pop(_key(to, what), None)
        self.same[_key(to, what)] = now
        self.recent.setdefault(_key(to), []).append(now)

    def forget(self, now: float, repeat: float) -> None:
        """Drop what no longer limits anything, and the oldest beyond :data:`MAX_KEYS`."""
        self.same = {k: t for k, t in self.same.items() if now - t < repeat}
        self.recent = {k: kept for k, times in self.recent.items()
                       if (kept := [t for t in times if now - t < HOUR])}
        for table in (self.same, self.recent):
            while len(table) > MAX_KEYS:
                del table[next(iter(table))]


@dataclass
class Ignored:
    """Mail ignored since the organiser was last told: how many, and per
    sender (the first :data:`MAX_LISTED`) how many, why and a subject."""

    told: float | None = None
    since: float | None = None
    count: int = 0
    senders: dict[str, list[Any]] = field(default_factory=dict)

    @classmethod
    def from_json(cls, data: Any) -> Ignored:
        try:
            return cls(data["told"], data["since"], int(data["count"]),
                       {str(k): list(v) for k, v in data["senders"].items()})
        except (TypeError, KeyError, ValueError, AttributeError):
            return cls()

    def to_json(self) -> dict[str, Any]:
        return {"told": self.told, "since": self.since, "count": self.count,
                "senders": self.senders}

    def add(self, sender: str, why: str, subject: str, now: float) -> None:
        self.count += 1
        if self.since is None:
            self.since = now
        sender = printable(sender or "no sender", 60)
        if sender in self.senders:
            self.senders[sender][0] += 1
        elif len(self.senders) < MAX_LISTED:
            self.senders[sender] = [1, printable(why, 40), printable(subject, 40)]

    def due(self, now: float, every: float) -> bool:
        """Whether the organiser is to be told now (``every`` in seconds)."""
        return self.count > 0 and (self.told is None or now - self.told >= every)

    def report(self) -> str:
        """The notice to the organiser: one line per sender (72 columns at most)."""
        lines = [f"The referee ignored {self.count} mail{'s' * (self.count != 1)} since it "
                 "last told you:", ""]
        for sender, (n, why, subject) in self.senders.items():
            lines.append(f"  {sender}: {n} ({why})")
            lines.append(f"    subject: {subject}")
        others = self.count - sum(n for n, _, _ in self.senders.values())
        if others:
            lines.append(f"  and {others} more from other senders")
        lines += ["", "A player writing from an address of theirs that the roster does not",
                  "list: add it to their line in roster.toml, e.g.",
                  '  ann = ["ann@example.org", "ann@work.example"]',
                  "Each mail has a line in referee.log."]
        return "\n".join(line if len(line) <= 72 else line[:69] + "..." for line in lines)

    def reset(self, now: float) -> None:
        self.told, self.since, self.count, self.senders = now, None, 0, {}
