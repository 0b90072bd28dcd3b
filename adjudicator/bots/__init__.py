"""Players for every seat: bots that decide from one player's view.

A bot is a function of a :class:`Position` (what one seat may see: its view,
the public parameters, its legal moves, a seed) that returns a
:class:`Decision`: the move, in canonical notation, and optionally the moves
it weighed with their estimated values. It never receives the game's state,
so it can know nothing its player could not (the tests re-deal everything
hidden from the seat and require the same choice).

The levels (:data:`LEVELS`):

``random``
    a uniform choice among the legal moves (self-play's player);
``greedy``
    the move that does best for the mover right now: the score after it,
    ahead of the best other player (:mod:`.simple`);
``standard``
    information-set Monte Carlo tree search (:mod:`.search`) at a fixed
    number of iterations per game, about a second a move on a small machine;
``search:N`` / ``search:Ns``
    the same search with ``N`` iterations, or for ``N`` seconds of CPU time
    (a seconds budget is not reproducible; an iterations budget is, with the
    same seed).

A program plugs in its own player with the same signature,
``(position: Position) -> Decision | str``, and names it ``module:function``
wherever a level is asked for (:func:`get`).

>>> from adjudicator import games
>>> g = games.get("atlas")
>>> state = g.setup({}, ("ann", "bob"), "7")
>>> decide(g, {}, ("ann", "bob"), g.view(state, 0), level="greedy", seed="x").move
'2D+2T'
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..engine import GameSpec, Value
from ..errors import UsageError


@dataclass(frozen=True)
class Position:
    """What a bot is given to decide a move: one seat's view, never the state.

    ``legal`` are the seat's legal moves in canonical notation (the view
    determines them); ``seed`` makes the decision reproducible.
    """

    game: GameSpec
    params: Mapping[str, Value]
    players: tuple[str, ...]
    seat: int
    view: Any
    legal: tuple[str, ...]
    seed: str


@dataclass(frozen=True)
class Ranked:
    """One move a bot weighed and how many simulations (or samples) went into
    its ``value``: for the search, what the mover can expect from it, 0 to
    1 (:mod:`.values`: mostly the share of the table finished above and the
    share of the win, partly the score margin over the best other player;
    solo, how often the goal is met); for ``greedy``, the
    points it leaves the mover ahead of the best other player."""

    move: str
    value: float
    visits: int


@dataclass(frozen=True)
class Decision:
    """A bot's move (canonical notation) and, best first, what it weighed;
    for a search, how many iterations it ran and moves it simulated."""

    move: str
    ranked: tuple[Ranked, ...] = ()
    iterations: int = 0
    plies: int = 0


#: A player: a function of a position. May return the move text alone.
Bot = Callable[[Position], "Decision | str"]


def _search(iterations: int | None = None, seconds: float | None = None) -> Bot:
    from .search import Search

    return Search(iterations=iterations, seconds=seconds)


def _simple(name: str) -> Bot:
    from . import simple

    player: Bot = getattr(simple, name)
    return player


#: The built-in levels, weakest first, and what each is.
LEVELS: dict[str, str] = {
    "random": "a uniform choice among the legal moves",
    "greedy": "the move that leaves the mover furthest ahead right now",
    "standard": "the tree search at its standard budget (about a second a move)",
}


def get(level: str) -> Bot:
    """The player named ``level``: a built-in level, ``search:N`` (iterations),
    ``search:Ns`` (seconds of CPU time), or ``module:function`` (a program's
    own player, imported); raises :class:`UsageError` for anything else."""
    name = level.strip()
    if name in ("random", "greedy"):
        return _simple(name)
    if name == "standard":
        return _search()
    if name.startswith("search:"):
        budget = name[len("search:"):]
        try:
            if budget.endswith("s"):
                seconds = float(budget[:-1])
                if not 0 < seconds <= 3600:
                    raise ValueError
                return _search(seconds=seconds)
            iterations = int(budget)
            if not 1 <= iterations <= 10_000_000:
                raise ValueError
            return _search(iterations=iterations)
        except ValueError:
            raise UsageError(f"bot {level!r}: search:N takes a number of iterations "
                             "(search:2000) or of seconds (search:0.5s)") from None
    module, colon, function = name.partition(":")
    if colon and module and function:
        try:
            player = getattr(importlib.import_module(module), function)
        except (ImportError, AttributeError) as e:
            raise UsageError(f"bot {level!r}: cannot load it ({e})") from None
        if not callable(player):
            raise UsageError(f"bot {level!r}: {function} is not a function")
        result: Bot = player
        return result
    raise UsageError(f"unknown bot {level!r} (levels: {', '.join(LEVELS)}, search:N, "
                     "search:Ns, or module:function)")


def ask(bot: Bot, position: Position) -> Decision:
    """The bot's decision on ``position``, held to the rules of the game: a
    move that is not one of the legal moves is refused with one line."""
    answer = bot(position)
    decision = Decision(move=answer) if isinstance(answer, str) else answer
    if not isinstance(decision, Decision) or decision.move not in position.legal:
        move = getattr(decision, "move", decision)
        raise UsageError(f"bot for {position.players[position.seat]} answered {move!r}, "
                         "which is not one of the legal moves")
    return decision


def decide(game: GameSpec, params: Mapping[str, Value], players: tuple[str, ...], view: Any,
           *, level: str | Bot = "standard", seed: str = "") -> Decision:
    """The decision of the player ``level`` for the seat whose ``view`` this is.

    The legal moves come from the view (on any state consistent with it,
    they are the same).
    """
    seat = view_seat(view, players)
    state = game.consistent(view, params, "bot")
    if game.to_move(state) != seat:
        raise UsageError(f"it is not {players[seat]}'s move")
    legal = tuple(game.format_move(state, m) for m in game.legal_moves(state))
    bot = get(level) if isinstance(level, str) else level
    return ask(bot, Position(game, params, players, seat, view, legal, seed))


def move_for(game: GameSpec, state: Any, params: Mapping[str, Value],
             players: tuple[str, ...], *, level: str | Bot = "standard", seed: str = "") -> str:
    """The move a stand-in plays for the seat to move in ``state``.

    The one call a referee makes for a seat whose player is away: the bot
    is handed that seat's view only, cut here, so it cannot see more than
    the player would. With a built-in level and an iterations budget, the
    same ``seed`` gives the same move, so anyone holding the revealed log
    can check the stand-in's choice.
    """
    seat = game.to_move(state)
    if seat is None:
        raise UsageError("the game is over: there is no move to play")
    view = game.view(state, seat)
    legal = tuple(game.format_move(state, m) for m in game.legal_moves(state))
    bot = get(level) if isinstance(level, str) else level
    return ask(bot, Position(game, params, players, seat, view, legal, seed)).move


def view_seat(view: Any, players: tuple[str, ...]) -> int:
    """The seat a view belongs to: every game's view names its ``viewer``
    (a spectator's view names none)."""
    viewer = getattr(view, "viewer", None)
    if viewer is None or viewer not in players:
        raise UsageError("a bot needs a player's view, not the public view")
    return players.index(viewer)
