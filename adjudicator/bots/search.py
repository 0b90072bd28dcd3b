"""Information-set Monte Carlo tree search, for any game on the engine contract.

Single-observer ISMCTS (Cowling, Powley & Whitehouse, 2012) with
multi-player values:

1. *Determinize*: each iteration starts from a state consistent with the
   bot's view (the game's ``consistent``, a new seed each time), so hidden
   cards are guessed afresh and the tree is shared by every guess.
2. *Select*: down the tree, at a node the seat to move takes the child with
   the best upper confidence bound on *its own* value; a child's bound
   counts the iterations in which its move was available (a move of a
   hidden hand exists only in some guesses).
3. *Expand* one untried move, then *roll out* to the end of the game (or
   score it as it stands after :data:`ROLLOUT_CAP` moves): uniformly random
   moves, except that the bot's own seat plays by the game's play-out
   policy where the game declares one for the player count
   (:class:`adjudicator.engine.Playout`).
4. *Back up* the value of the result to every seat (:mod:`.values`).

The move played is the root's most visited. Randomness comes from the
position's seed through Python's seeded generator (never the global one):
the same view, seed and iterations budget give the same move.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .values import values

if TYPE_CHECKING:
    from . import Decision, Position

#: What one iteration costs in the budget besides the moves it plays: a
#: state drawn from the view and a walk down the tree, about as much as this
#: many moves (near the end of a game, when rollouts are short, iterations
#: would otherwise multiply without bound).
ITERATION_COST = 20
#: The exploration constant of the bound (values are in [0, 1]). The margin
#: part of the values (:mod:`.values`) squeezes them together, but a smaller
#: constant did not pay: Atlas 3 players against random at a quarter of the
#: budget, on the same 144 deals, won 79% with 0.7 and 80% with 0.3
#: (``benchmarks/results/``).
EXPLORATION = 0.7
#: A rollout longer than this many moves is scored as the game stands.
ROLLOUT_CAP = 600


class Node:
    """A node of the tree: the moves tried from it, and what they were worth."""

    __slots__ = ("children", "visits", "avail", "total")

    def __init__(self, n: int) -> None:
        self.children: dict[Any, Node] = {}
        self.visits = 0
        self.avail = 1
        self.total = [0.0] * n


class Search:
    """The search as a player: ``Search(iterations=N)``, ``Search(seconds=S)``,
    ``Search(plies=N)`` (moves simulated, tree and rollouts together, each
    iteration counting :data:`ITERATION_COST` more), or by
    default the game's standard budget (its ``bot_plies``). ``exploration``
    is the constant of the bound (default :data:`EXPLORATION`), for the arena
    to measure another."""

    def __init__(self, iterations: int | None = None, seconds: float | None = None,
                 plies: int | None = None, clock: Callable[[], float] = time.process_time,
                 *, exploration: float = EXPLORATION) -> None:
        self.iterations = iterations
        self.seconds = seconds
        self.plies = plies
        self.clock = clock
        self.exploration = exploration

    def __call__(self, position: Position) -> Decision:
        from . import Decision, Ranked

        if len(position.legal) == 1:
            return Decision(move=position.legal[0],
                            ranked=(Ranked(position.legal[0], math.nan, 0),))
        root, texts, iterations, plies = self.grow(position)
        ranked = sorted(
            (child for child in root.children.items() if child[0] in texts),
            key=lambda item: (-item[1].visits, position.legal.index(texts[item[0]])))
        seat = position.seat
        out = tuple(Ranked(texts[m], node.total[seat] / node.visits, node.visits)
                    for m, node in ranked)
        seen = {r.move for r in out}
        out += tuple(Ranked(m, math.nan, 0) for m in position.legal if m not in seen)
        return Decision(move=out[0].move, ranked=out, iterations=iterations, plies=plies)

    def grow(self, position: Position) -> tuple[Node, dict[Any, str], int, int]:
        """The tree after the budget, the root's moves spelled, the iterations
        run and the moves simulated."""
        game, params, view = position.game, position.params, position.view
        players = position.players
        n = len(players)
        rules = game.rules
        to_move, legal_moves, apply = rules.to_move, rules.legal_moves, rules.apply
        outcome, standing = rules.outcome, rules.standing
        step = None if game.fast is None else game.fast.fast_step
        me = position.seat
        policy = None if game.playout is None else game.playout.policy(n)
        rng = random.Random(f"ismcts/{position.seed}")
        root = Node(n)
        texts: dict[Any, str] = {}
        legal = set(position.legal)
        log, sqrt = math.log, math.sqrt
        c = self.exploration
        deadline = None if self.seconds is None else self.clock() + self.seconds
        budget = self.plies
        if self.iterations is None and self.seconds is None and budget is None:
            budget = game.bot_plies
        plies = 0
        iteration = 0

        def play(state: Any, move: Any) -> Any:
            done = None if step is None else step(state, move)
            return apply(state, move) if done is None else done[1]

        while True:
            if self.iterations is not None and iteration >= self.iterations:
                break
            if budget is not None and plies >= budget:
                break
            if deadline is not None and iteration and self.clock() >= deadline:
                break
            iteration += 1
            plies += ITERATION_COST
            state = game.consistent(view, params, f"{position.seed}/{iteration}")
            if not texts:
                for move in legal_moves(state):
                    text = game.format_move(state, move)
                    if text in legal:
                        texts[move] = text
            node = root
            path = [root]
            # Select and expand.
            while (seat := to_move(state)) is not None:
                moves = legal_moves(state)
                children = node.children
                untried = []
                best: Node | None = None
                best_move = None
                best_bound = -1.0
                for move in moves:
                    child = children.get(move)
                    if child is None:
                        untried.append(move)
                        continue
                    child.avail += 1
                    if not untried:
                        bound = (child.total[seat] / child.visits
                                 + c * sqrt(log(child.avail) / child.visits))
                        if bound > best_bound:
                            best, best_move, best_bound = child, move, bound
                if untried:
                    move = untried[rng.randrange(len(untried))]
                    child = children[move] = Node(n)
                    state = play(state, move)
                    plies += 1
                    path.append(child)
                    break
                assert best is not None
                node = best
                state = play(state, best_move)
                plies += 1
                path.append(node)
            # Roll out.
            depth = 0
            while (seat := to_move(state)) is not None and depth < ROLLOUT_CAP:
                moves = legal_moves(state)
                if seat == me and policy is not None:
                    state = play(state, policy(state, moves, rng))
                else:
                    state = play(state, moves[rng.randrange(len(moves))])
                depth += 1
            plies += depth
            result = outcome(state)
            worth = values(standing(state) if result is None else result, players)
            # Back up.
            for node in path:
                node.visits += 1
                total = node.total
                for i in range(n):
                    total[i] += worth[i]
        return root, texts, iteration, plies
