"""The two players that do not search: ``random`` and ``greedy``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..chance import Chance

if TYPE_CHECKING:
    from . import Decision, Position

#: How many states consistent with the view ``greedy`` scores each move on:
#: what a move scores may hang on cards the mover cannot see.
SAMPLES = 4


def random(position: Position) -> Decision:
    """A uniform choice among the legal moves, from the position's seed."""
    from . import Decision

    legal = position.legal
    return Decision(move=legal[Chance(position.seed, "bot/random").below(len(legal))])


def greedy(position: Position) -> Decision:
    """The move that leaves the mover furthest ahead right now: the most
    points over the best other player in the score so far (the game's
    ``standing``), averaged over a few states consistent with the view;
    ties broken at random from the position's seed."""
    from . import Decision, Ranked

    game, params, seat = position.game, position.params, position.seat
    totals = dict.fromkeys(position.legal, 0.0)
    for k in range(SAMPLES):
        state = game.consistent(position.view, params, f"{position.seed}/greedy/{k}")
        for move in game.legal_moves(state):
            text = game.format_move(state, move)
            if text not in totals:
                continue  # cannot happen: the view fixes the mover's moves
            scores = {line.player: line.score
                      for line in game.standing(game.apply(state, move)).standings}
            mine = scores[position.players[seat]]
            others = [s for name, s in scores.items() if name != position.players[seat]]
            totals[text] += mine - (max(others) if others else 0)
    best = max(totals.values())
    tied = [m for m in position.legal if totals[m] == best]
    move = tied[Chance(position.seed, "bot/greedy").below(len(tied))]
    ranked = sorted(position.legal,
                    key=lambda m: (-totals[m], m != move, position.legal.index(m)))
    return Decision(move=move,
                    ranked=tuple(Ranked(m, totals[m] / SAMPLES, SAMPLES) for m in ranked))
