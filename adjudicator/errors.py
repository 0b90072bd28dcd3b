"""The project's errors: one base class, one subclass per kind of bad input.

Every message is one lowercase line that quotes the input and, for a move,
says where it stands in the game and which rule it breaks:

    move 7 (bob) 'FaSp-c3': not adjacent to any card (Turn of Time 5.1a)

The game engines raise these without knowing the move number or the player;
the replay layer adds them with :meth:`MoveError.at`.
"""

from __future__ import annotations

from typing import Self

import unicodedata


class AdjudicatorError(ValueError):
    """Base of every error caused by bad input (never by a bug)."""


class ParameterError(AdjudicatorError):
    """A game parameter, player list or seed that the game cannot take."""


class UsageError(ParameterError):
    """Options used wrongly: a player who is not in the game, a move number
    out of range, a missing or conflicting option. The command line exits
    with status 2 for it, as for its own usage errors."""


class BadLogError(AdjudicatorError):
    """A log that cannot be read or does not describe a valid game."""


class MoveError(AdjudicatorError):
    """A move that cannot be made; subclasses say why.

    ``reason`` is the bare explanation, ``clause`` the rule it cites
    (e.g. ``"Turn of Time 5.1a"``); ``number``, ``player`` and ``text`` locate
    the move in a game once :meth:`at` has been called.
    """

    def __init__(self, reason: str, clause: str | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.clause = clause
        self.number: int | None = None
        self.player: str | None = None
        self.text: str | None = None

    def at(self, number: int, player: str | None, text: str) -> Self:
        """Locate the error at move ``number`` (1-based) typed by ``player``
        (``None`` when nobody could have made it: after the end)."""
        self.number, self.player, self.text = number, player, text
        return self

    def __str__(self) -> str:
        head = ""
        if self.number is not None:
            who = f" ({self.player})" if self.player else ""
            head = f"move {self.number}{who} {self.text!r}: "
        elif self.text is not None:
            head = f"{self.text!r}: "
        tail = f" ({self.clause})" if self.clause else ""
        return f"{head}{self.reason}{tail}"


class NotationError(MoveError):
    """Text that does not read as a move of the game (bad syntax)."""


class IllegalMoveError(MoveError):
    """A well-formed move that the rules forbid in this position."""


class ChainError(MoveError):
    """A move entry whose digest does not follow from the header and the entries
    before it: the log was edited after it was written."""


class AmbiguousMoveError(MoveError):
    """A move that could mean several different legal moves.

    ``candidates`` holds their canonical notation.
    """

    def __init__(
        self, reason: str, clause: str | None = None, candidates: tuple[str, ...] = ()
    ) -> None:
        super().__init__(reason, clause)
        self.candidates = candidates


def one_line(text: str) -> str:
    """``text`` with line breaks and other control characters escaped.

    Names and moves come from files that travel by email; whatever they hold,
    an error stays one line and cannot forge another.
    """
    return "".join(
        repr(ch)[1:-1] if unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp") else ch
        for ch in text
    )


def counted(n: int, word: str) -> str:
    """``n`` and ``word``, plural unless ``n`` is 1: ``1 move``, ``3 moves``.

    >>> counted(1, "move"), counted(0, "move")
    ('1 move', '0 moves')
    """
    return f"{n} {word}{'s' * (n != 1)}"
