"""Self-play: whole games of random legal moves, or of bots in every seat, as complete logs."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from . import accelerated
from .chain import sealed
from .chance import Chance
from .log import Log
from .starting import new_log_and_state


def simulate(
    game_id: str,
    players: Sequence[str],
    seed: str,
    params: Mapping[str, Any] | None = None,
    *,
    play_seed: str | None = None,
    max_moves: int | None = None,
) -> Log:
    """A game of uniformly random legal moves, as a complete log.

    The moves are chosen with :class:`Chance` over ``play_seed`` (default: the
    game's seed) and the label ``"simulate"``, so the same arguments always
    give the same log.
    """
    log, game, state = accelerated.new_open(game_id, players, seed, params)
    rng = Chance(seed if play_seed is None else play_seed, "simulate")
    players = log.players
    whole = None if game.fast is None else game.fast.fast_game(state, rng.below, max_moves)
    if whole is not None:  # the accelerator played the game at once
        texts, seats, state = whole
        played = [(players[seat], text, None) for seat, text in zip(seats, texts)]
        return msgspec.structs.replace(log, moves=sealed(log, played), result=game.outcome(state))
    entries: list[tuple[str, str, str | None]] = []
    # The layers' own functions, bound once: self-play is a hot path.
    rules, notation = game.rules, game.notation
    to_move, legal, fmt, apply = rules.to_move, rules.legal_moves, notation.format_move, rules.apply
    # The text of a legal move is canonical, so fast_apply plays it as apply
    # plays the move; fast_step spells and plays it at once (the games'
    # tests compare them with format_move and apply).
    fast = None if game.fast is None else game.fast.fast_apply
    step = None if game.fast is None else game.fast.fast_step
    while (seat := to_move(state)) is not None:
        if max_moves is not None and len(entries) >= max_moves:
            break
        moves = legal(state)
        move = moves[rng.below(len(moves))]
        done = None if step is None else step(state, move)
        if done is None:
            text = fmt(state, move)
            after = None if fast is None else fast(state, text)
            state = apply(state, move) if after is None else after
        else:
            text, state = done
        entries.append((players[seat], text, None))
    return msgspec.structs.replace(log, moves=sealed(log, entries), result=game.outcome(state))


class Thought(msgspec.Struct, frozen=True):
    """How long a seat's player thought over one move (CPU seconds)."""

    seat: int
    seconds: float


def bot_game(
    game_id: str,
    players: Sequence[str],
    seed: str,
    seats: Sequence[Any],
    params: Mapping[str, Any] | None = None,
    *,
    play_seed: str | None = None,
    max_moves: int | None = None,
    clock: Any = None,
) -> tuple[Log, list[Thought]]:
    """A game played by a bot in every seat (``seats``, one
    :data:`adjudicator.bots.Bot` per player), as a complete log, and how long
    each move took to decide.

    Each bot is handed its seat's view only, and a seed made of ``play_seed``
    (default: the game's seed) and the move number, so the same arguments
    give the same log whenever every bot is reproducible.
    """
    import time

    from .bots import Position, ask

    log, game, state = new_log_and_state(game_id, players, seed, params,
                                         checked=accelerated.checked_new)
    if len(seats) != len(log.players):
        raise ValueError(f"{len(seats)} bots for {len(log.players)} seats")
    tick = time.process_time if clock is None else clock
    base = seed if play_seed is None else play_seed
    entries: list[tuple[str, str, str | None]] = []
    thoughts: list[Thought] = []
    names = log.players
    while (seat := game.to_move(state)) is not None:
        if max_moves is not None and len(entries) >= max_moves:
            break
        moves = game.legal_moves(state)
        texts = tuple(game.format_move(state, m) for m in moves)
        position = Position(game, log.params, names, seat, game.view(state, seat), texts,
                            f"{base}/{len(entries) + 1}")
        began = tick()
        decision = ask(seats[seat], position)
        thoughts.append(Thought(seat, tick() - began))
        state = game.apply(state, moves[texts.index(decision.move)])
        entries.append((names[seat], decision.move, None))
    return (msgspec.structs.replace(log, moves=sealed(log, entries), result=game.outcome(state)),
            thoughts)
