"""Reading a move typed into a view file, for every game alike.

A player answering by mail has their view and the list of their legal moves,
never the whole state. Their move is read by the game's own notation and
refused by the game's own rules, on a state rebuilt from the view alone
(:meth:`GameSpec.consistent`, with a fixed seed): so a refusal gives
``apply``'s reason and rule, and since nothing but the view goes in, no word
of it can depend on what the player cannot see (the conformance tests re-deal
the hidden cards and compare the words).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .engine import GameSpec, Value
from .errors import AmbiguousMoveError, MoveError, NotationError

#: How a refusal of a readable move reads: the move first, the rules' reason after.
NOT_LISTED = "is not one of your legal moves"

#: The seed of the hidden parts of the state a typed move is read on. Any
#: fixed value does: no reading and no refusal depends on them.
READER_SEED = "reader"


def read_listed(game: GameSpec, view: Any, listed: tuple[str, ...], text: str,
                params: Mapping[str, Value]) -> str:
    """The listed move (canonical notation) the player to move typed as ``text``.

    ``params`` are the game's parameters (the log's header, public). Every
    spelling the game's ``parse_move`` takes, read as the log reads it.
    A move that reads but is not listed is refused with the rules' reason;
    text that does not read, with the notation's (a :class:`NotationError`);
    a move the rules find ambiguous, with their question and its choices
    (an :class:`AmbiguousMoveError`).

    >>> from adjudicator import games
    >>> g = games.get("q-turn")
    >>> params = {"disks": "4Q,6D,6O", "round-limit": 100}
    >>> start = g.setup(params, ("ann", "bob"), "75")
    >>> listed = tuple(g.format_move(start, m) for m in g.legal_moves(start))
    >>> read_listed(g, g.view(start, 0), listed, " D4 ", params)
    'd4'
    >>> read_listed(g, g.view(start, 0), listed, "b2", params)
    Traceback (most recent call last):
    ...
    adjudicator.errors.NotationError: b2 is not one of your legal moves: your first move \
enters the board on a free corner: a1, d1, a4 or d4 (Q-Turn: Setup and Start)
    """
    if text in listed:
        return text
    state = game.consistent(view, params, READER_SEED)
    move = game.parse_move(state, text)  # raises as the log's reader does
    # The rules first: a canonical form may leave out what the player named
    # (a Q-Turn bounce drops its square), and what they named must hold.
    try:
        game.apply(state, move)
    except AmbiguousMoveError:
        raise  # the rules' own question, with the choices: the player answers it
    except MoveError as e:
        raise NotationError(f"{game.spell_refused(state, move)} {NOT_LISTED}: {e.reason}",
                            e.clause) from None
    canonical = game.format_move(state, move)
    if canonical in listed:
        return canonical
    # Legal as far as the view tells, but not on the list: the list was edited.
    raise NotationError(f"{canonical} {NOT_LISTED} ({len(listed)} listed)")
