"""Atlas 3 players: why ``standard`` won about 80% against ``random`` (issue #23).

    python benchmarks/atlas_diagnose.py [--games N] [--first K] [--fraction F]
                                        [--cheat none|removed|hands|all]
                                        [--playout random|standard|card|plain|aware|mast|learned]
                                        [--cap K]
                                        [--bias W] [--second seed|removed]
                                        [--trees K] [--merge visits|vote]
                                        [--root ucb|group|halving] [--epsilon E]
                                        [--record FILE] [--weights FILE]
                                        [--json FILE]

Plays the arena's games (deal ``arena-K``, the bot in seat ``K % 3``, the
two other seats ``random``, the play seed the deal's), and prints the win
share as the arena does, then what the lost games looked like: the final
scores, the margin and ties, and how the bot and its opponents staked their
chips (stacks placed, chips staked, stacks scored, chips left unplayed).

``--cheat`` is for diagnosis only and is never a level: ``removed`` lets
the search see the card removed unseen (everything else dealt from each
iteration's seed as usual), ``hands`` the opponents' true hands (the draw
pile and the removed card still dealt from each iteration's seed), ``all``
the whole true state, the order of the draw pile included. They measure what hidden information
costs the search: if a cheat wins no more, the cap is elsewhere.

The trials (:class:`Trial`, a copy of the search's loop with hooks):
``--playout`` the bot's own seat's play-out policy (``random``, the
default, is the search as it was measured before the fitted policy went
into ``adjudicator/games/atlas/playout.py``; ``standard`` the library's
search as it is, that policy included), ``--cap`` the most
chips of a prediction at the root, ``--bias`` a progressive bias at the
root; ``--trees`` a root ensemble (the budget split over K independent
trees, their roots merged by ``--merge``); ``--root group`` the root's
moves grouped by card and side (commit 9a76e54's search), ``--root
halving`` sequential halving at the root; ``--playout mast`` the bot's own
play-out moves by their mean values so far (``--epsilon`` of them at
random); ``--playout learned`` the bot's own play-out moves sampled from
a softmax fitted to the bot's own choices (``benchmarks/atlas_policy.py``,
its weights from ``--weights``; ``--record`` writes the choices it is
fitted to). ``--second`` asks the search again at every decision of the bot
(with another seed, or seeing the removed card) and counts how often it
chooses the same move. ``--json`` keeps every game's record.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import msgspec  # noqa: E402

from adjudicator import bots, games  # noqa: E402
from adjudicator.bots.search import ITERATION_COST, ROLLOUT_CAP, Node, Search  # noqa: E402
from adjudicator.bots.values import values  # noqa: E402
from adjudicator.chance import shuffled  # noqa: E402
from adjudicator.games.atlas.rules import State  # noqa: E402
from adjudicator.games.atlas.rules import apply as apply_move  # noqa: E402
from atlas_policy import choose  # type: ignore[import-not-found]  # noqa: E402

NAMES = ("ann", "bob", "cy")
#: ``--record``: every decision of the bot, the features of its legal moves
#: (``atlas_policy.features``) and the one chosen.
RECORD: list[Any] | None = None
#: ``--playout learned``: the weights of ``atlas_policy``'s softmax.
WEIGHTS: list[float] = []


class Peeking:
    """The game as the search sees it, but with ``consistent`` answering the
    true state (``all``) or the true hands with the rest re-dealt (``hands``)."""

    def __init__(self, game: Any, truth: State, how: str) -> None:
        self._game = game
        self._truth = truth
        self._how = how

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)

    def consistent(self, view: Any, params: Any, seed: str) -> State:
        truth = self._truth
        if self._how == "all":
            return truth
        if self._how == "removed":
            # The view's own deal, with the removed card swapped for the true one.
            state = self._game.consistent(view, params, seed)
            (gone,) = truth.removed
            (guess,) = state.removed
            if gone == guess:
                return state
            held = tuple(h ^ (1 << gone | 1 << guess) if h >> gone & 1 else h
                         for h in state.held)
            deck = tuple(guess if c == gone else c for c in state.deck)
            return msgspec.structs.replace(state, held=held, deck=deck, removed=truth.removed)
        pool = shuffled(seed, "peek", sorted([*truth.deck, *truth.removed]))
        size = len(truth.deck)
        return State(
            truth.players, truth.up, truth.down, truth.stacks, truth.on_time, truth.on_place,
            truth.chips, truth.held, tuple(pool[:size]), tuple(sorted(pool[size:])), truth.seat,
            truth.last, truth.played, truth.unscored,
        )  # fmt: skip


class Trial(Search):
    """The search with another play-out policy for its own seat (``--playout``):
    ``card``, a card of the hand at random, then one of its moves at random;
    ``plain``, a card at random and no prediction (the card alone);
    ``aware``, :meth:`aware`; and with
    ``cap``, no prediction of more than ``cap`` chips at the root; with
    ``bias``, a progressive bias at the root (Chaslot et al., 2008): a move's
    bound gains ``bias`` times what it is worth to the mover right after it
    (:mod:`adjudicator.bots.values` of the standing) over what the position
    is worth now, divided by its visits plus one."""

    def __init__(self, how: str, cap: int | None = None, bias: float = 0.0,
                 trees: int = 1, merge: str = "visits", root: str = "ucb",
                 **kw: Any) -> None:
        super().__init__(**kw)
        self.root = root
        self.chosen: Any = None
        self.how = how
        self.cap = cap
        self.bias = bias
        self.trees = trees
        self.merge = merge

    def own(self, moves: Any, rng: Any) -> Any:
        if self.how == "random":
            return moves[rng.randrange(len(moves))]
        cards = sorted({m.card for m in moves})
        card = cards[rng.randrange(len(cards))]
        if self.how == "plain":
            return next(m for m in moves if m.card == card)
        mine = [m for m in moves if m.card == card]
        return mine[rng.randrange(len(mine))]

    #: ``mast``: the share of the bot's own play-out moves chosen at random.
    epsilon = 0.4

    def mast_move(self, moves: Any, mast: dict[Any, list[Any]], rng: Any,
                  prior: float) -> Any:
        """The ``mast`` policy (Move-Average Sampling, Finnsson & Björnsson,
        2008, epsilon-greedy as Tak, Winands & Björnsson, 2012): with
        probability :attr:`epsilon` a move at random, else the move with the
        best mean value to the bot over this decision's iterations so far in
        which it played it (a move never played counts as the mean of all,
        ties at random)."""
        if rng.random() < self.epsilon or not mast:
            return moves[rng.randrange(len(moves))]
        best: list[Any] = []
        top = -1.0
        for m in moves:
            got = mast.get(m)
            q = prior if got is None else got[0] / got[1]
            if q > top:
                best, top = [m], q
            elif q == top:
                best.append(m)
        return best[rng.randrange(len(best))]

    def aware(self, state: State, moves: Any, rng: Any) -> Any:
        """The ``aware`` policy: a completion that scores the mover more than
        it costs at once; else a card at random, and on 60% of the cards
        that complete nothing 1-3 chips on a side that can still happen on
        this deal (the card removed unseen known, as the bot comes to know
        it), Time or Place at random when both can."""
        seat = state.seat
        by_card: dict[int, list[Any]] = {}
        for m in moves:
            by_card.setdefault(m.card, []).append(m)
        mine_now = _points(state, seat)
        plain = []
        for card, options in by_card.items():
            # One move only, with chips in hand: the card completes something.
            if (len(options) == 1 and state.chips[seat]
                    and _points(apply_move(state, options[0]), seat) > mine_now):
                return options[0]
            plain.append(card)
        card = plain[rng.randrange(len(plain))]
        options = by_card[card]
        if len(options) == 1 or rng.random() >= 0.6:
            return options[0]
        dead = set(state.removed) | {c for c in range(32) if c % 8 == 7}
        row, col = divmod(card, 8)
        low = col
        while low > 0 and row * 8 + low - 1 not in dead:
            low -= 1
        high = col
        while high < 7 and row * 8 + high + 1 not in dead:
            high += 1
        sides = []
        if high - low + 1 >= 4:
            sides.append(1)
        column = [r * 8 + col for r in range(4)]
        if not dead & set(column) and sum(state.down >> c & 1 for c in column) <= 1:
            sides.append(2)
        if not sides:
            return options[0]
        side = sides[rng.randrange(len(sides))]
        staked = [m for m in options if m.side == side and m.chips <= 3]
        return staked[rng.randrange(len(staked))] if staked else options[0]

    def __call__(self, position: bots.Position) -> bots.Decision:
        """The search's decision; with a root that chooses otherwise than by
        the most visited move (``group``, ``halving``), that root's choice."""
        self.chosen = None
        decision = super().__call__(position)
        if self.chosen is None or decision.move == self.chosen:
            return decision
        return bots.Decision(move=self.chosen, ranked=decision.ranked,
                             iterations=decision.iterations, plies=decision.plies)

    def grow(self, position: bots.Position) -> tuple[Any, dict[Any, str], int, int]:
        """The tree after the budget, or with ``trees`` > 1 a root ensemble
        (root parallelization, Chaslot, Winands & van den Herik, 2008): the
        budget split into ``trees`` independent searches, each with its own
        stream of determinizations (the position's seed and the tree's
        number), their roots merged move by move: ``visits`` sums their
        visits and values; ``vote`` gives each tree's most visited move one
        vote (its visits the vote's weight in the merged root's ordering:
        votes first, then summed visits)."""
        if self.trees == 1:
            return self.grow_one(position)
        budget = self.plies
        assert budget is not None, "a root ensemble splits a plies budget"
        merged = Node(len(position.players))
        texts: dict[Any, str] = {}
        iterations = plies = 0
        votes: dict[Any, int] = {}
        try:
            self.plies = max(1, budget // self.trees)
            for k in range(self.trees):
                one = bots.Position(position.game, position.params, position.players,
                                    position.seat, position.view, position.legal,
                                    f"{position.seed}/tree{k}")
                root, t, i, p = self.grow_one(one)
                texts.update(t)
                iterations += i
                plies += p
                merged.visits += root.visits
                top = max(root.children.items(), key=lambda item: (
                    item[1].visits, -position.legal.index(t[item[0]]) if item[0] in t else 0))
                votes[top[0]] = votes.get(top[0], 0) + 1
                for move, child in root.children.items():
                    into = merged.children.get(move)
                    if into is None:
                        into = merged.children[move] = Node(len(position.players))
                        into.visits = 0
                    into.visits += child.visits
                    for s, v in enumerate(child.total):
                        into.total[s] += v
        finally:
            self.plies = budget
            self.chosen = None  # a root's own choice is one tree's: the merge decides
        if self.merge == "vote":
            # The search ranks by visits: votes put first, visits behind.
            big = merged.visits + 1
            for move, child in merged.children.items():
                scale = (votes.get(move, 0) * big + child.visits) / max(1, child.visits)
                child.visits = votes.get(move, 0) * big + child.visits
                child.total = [v * scale for v in child.total]
        return merged, texts, iterations, plies

    def grow_one(self, position: bots.Position) -> tuple[Any, dict[Any, str], int, int]:
        """One tree after the budget, the root's moves spelled, the iterations
        run and the moves simulated."""
        game, params, view = position.game, position.params, position.view
        players = position.players
        n = len(players)
        rules = game.rules
        to_move, legal_moves, apply = rules.to_move, rules.legal_moves, rules.apply
        outcome, standing = rules.outcome, rules.standing
        step = None if game.fast is None else game.fast.fast_step
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
        me = position.seat
        # ``group``: the families (card, side) of the root's moves and their
        # statistics (commit 9a76e54's Families layer, Atlas's grouping).
        families: dict[Any, Node] = {}
        family_of: dict[Any, Any] = {}
        # ``halving``: sequential halving at the root (Karnin, Koren & Somekh,
        # 2013; at the root of a tree, Pepels et al.'s H-MCTS, 2014): the
        # iterations the budget affords split over ceil(log2 k) rounds; each
        # round every surviving move is played out equally often, then the
        # better half by mean value survives.
        # ``mast`` play-outs: each own move's mean value to the bot over the
        # iterations in which the bot played it, anywhere in them.
        mast: dict[Any, list[Any]] = {}
        survivors: list[Any] = []
        queue: list[Any] = []
        rounds = 1
        afford = 1

        def play(state: Any, move: Any) -> Any:
            done = None if step is None else step(state, move)
            return apply(state, move) if done is None else done[1]

        def mean(move: Any) -> float:
            child = root.children.get(move)
            return -1.0 if child is None else child.total[me] / child.visits

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
            if self.root == "halving" and not survivors:
                survivors = [m for m in legal_moves(state)]
                rounds = max(1, math.ceil(math.log2(len(survivors))))
                left = sum(h.bit_count() for h in state.held) + len(state.deck)
                afford = max(1, (budget or 0) // (ITERATION_COST + left))
            if not texts:
                for move in legal_moves(state):
                    text = game.format_move(state, move)
                    if text in legal:
                        texts[move] = text
                # What each root move is worth to the mover as the game stands
                # right after it, less what the position is worth now: what it
                # scores at once is public (the board and the mover's hand).
                me = position.seat
                now = values(standing(state), players)[me]
                prior = {m: values(standing(play(state, m)), players)[me] - now
                         for m in texts}
            node = root
            path = [root]
            family: Node | None = None
            expanded = False
            first = None
            if self.root == "group":
                moves = legal_moves(state)
                if not family_of:
                    family_of.update((m, (m.card, m.side)) for m in moves)
                keys = list(dict.fromkeys(family_of[m] for m in moves))
                fresh = [k for k in keys if k not in families]
                if fresh:
                    key = fresh[rng.randrange(len(fresh))]
                    family = families[key] = Node(n)
                else:
                    lg = log(root.visits)
                    key = max(keys, key=lambda k: families[k].total[me] / families[k].visits
                              + c * sqrt(lg / families[k].visits))
                    family = families[key]
                members = [m for m in moves if family_of[m] == key]
                untried = [m for m in members if m not in root.children]
                if untried:
                    first = untried[rng.randrange(len(untried))]
                else:
                    lg = log(family.visits)
                    first = max(members, key=lambda m: root.children[m].total[me]
                                / root.children[m].visits
                                + c * sqrt(lg / root.children[m].visits))
            elif self.root == "halving":
                if not queue:
                    if len(survivors) > 1 and root.visits:
                        survivors.sort(key=lambda m: -mean(m))
                        survivors = survivors[:math.ceil(len(survivors) / 2)]
                    each = max(1, afford // (rounds * len(survivors)))
                    queue = [m for _ in range(each) for m in survivors][::-1]
                first = queue.pop()
            mine: list[Any] = []  # the own seat's moves of this iteration (mast)
            if first is not None:
                mine.append(first)
                child = root.children.get(first)
                if child is None:
                    child = root.children[first] = Node(n)
                    expanded = True
                state = play(state, first)
                plies += 1
                path.append(child)
                node = child
            # Select and expand.
            while not expanded and (seat := to_move(state)) is not None:
                moves = legal_moves(state)
                if node is root and self.cap is not None:
                    moves = tuple(m for m in moves if m.chips <= self.cap)
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
                        if node is root and self.bias:
                            bound += self.bias * prior[move] / (child.visits + 1)
                        if bound > best_bound:
                            best, best_move, best_bound = child, move, bound
                if untried:
                    move = untried[rng.randrange(len(untried))]
                    child = children[move] = Node(n)
                    if seat == me:
                        mine.append(move)
                    state = play(state, move)
                    plies += 1
                    path.append(child)
                    break
                assert best is not None
                if seat == me:
                    mine.append(best_move)
                node = best
                state = play(state, best_move)
                plies += 1
                path.append(node)
            # Roll out.
            depth = 0
            while to_move(state) is not None and depth < ROLLOUT_CAP:
                moves = legal_moves(state)
                if state.seat == position.seat:
                    if self.how == "learned":
                        move = choose(state, moves, WEIGHTS, rng)
                    elif self.how == "mast":
                        move = self.mast_move(moves, mast, rng, root.total[me] / root.visits
                                              if root.visits else 0.5)
                        mine.append(move)
                    else:
                        move = (self.aware(state, moves, rng) if self.how == "aware"
                                else self.own(moves, rng))
                else:
                    move = moves[rng.randrange(len(moves))]
                state = play(state, move)
                depth += 1
            plies += depth
            result = outcome(state)
            worth = values(standing(state) if result is None else result, players)
            # Back up.
            for move in mine:
                got = mast.get(move)
                if got is None:
                    mast[move] = [worth[me], 1]
                else:
                    got[0] += worth[me]
                    got[1] += 1
            if family is not None:
                family.visits += 1
                for i in range(n):
                    family.total[i] += worth[i]
            for node in path:
                node.visits += 1
                total = node.total
                for i in range(n):
                    total[i] += worth[i]
        if self.root == "group" and families:
            key = max(families, key=lambda k: families[k].visits)
            self.chosen = texts[max((m for m in texts if family_of[m] == key),
                                    key=lambda m: (root.children[m].visits
                                                   if m in root.children else -1,
                                                   -position.legal.index(texts[m])))]
        elif self.root == "halving" and survivors:
            self.chosen = texts[max(survivors, key=mean)]
        return root, texts, iteration, plies


def _points(state: State, seat: int) -> int:
    """The points of ``seat`` as the game stands (its stacks on face-down cards)."""
    return sum(s.chips + 1 for s in state.stacks if s.seat == seat and state.down >> s.card & 1)


def play(number: int, fraction: float, cheat: str, playout: str = "random",
         cap: int | None = None, second: str | None = None, bias: float = 0.0,
         trees: int = 1, merge: str = "visits", root: str = "ucb") -> dict[str, Any]:
    """One game; what the diagnosis needs of it."""
    game = games.get("atlas")
    n = len(NAMES)
    me = number % n
    seed = f"arena-{number}"
    plies = max(1, int(game.bot_plies * fraction))
    search = (Search(plies=plies)
              if playout == "standard" and cap is None and not bias and trees == 1
              and root == "ucb"
              else Trial(playout, cap, bias, trees, merge, root, plies=plies))
    rand = bots.get("random")
    greedy = bots.get("greedy")
    state = game.setup({}, NAMES, seed)
    staked = [0] * n
    placed = [0] * n
    spots: list[dict[str, Any]] = []
    stacks: list[list[int]] = []  # [seat, the seat's turn, card, side, chips]
    turns = [0] * n
    move_no = 0
    thought: list[float] = []  # CPU seconds of each of the bot's decisions
    while (seat := game.to_move(state)) is not None:
        moves = game.legal_moves(state)
        texts = tuple(game.format_move(state, m) for m in moves)
        move_no += 1
        view = game.view(state, seat)
        g = game if seat != me or cheat == "none" else Peeking(game, state, cheat)
        position = bots.Position(g, {}, NAMES, seat, view, texts, f"{seed}/{move_no}")
        began = time.process_time()
        decision = bots.ask(search if seat == me else rand, position)
        if seat == me:
            thought.append(time.process_time() - began)
        move = moves[texts.index(decision.move)]
        if seat == me and RECORD is not None and len(moves) > 1:
            from atlas_policy import features  # type: ignore[import-not-found]

            RECORD.append([features(state, moves), moves.index(move)])
        if seat == me:
            plain = bots.Position(game, {}, NAMES, seat, view, texts, f"{seed}/{move_no}")
            weighed = bots.ask(greedy, plain)
            now = {r.move: r.value for r in weighed.ranked}
            # How much further ahead right now greedy's move leaves the bot
            # than the bot's own (0: as far; > 0: the bot passed up points).
            spots.append({"move": decision.move, "greedy": weighed.move,
                          "gap": now[weighed.move] - now[decision.move]})
            if second is not None and len(moves) > 1:
                # The same search asked again: with another seed (``seed``), or
                # seeing the card removed unseen (``removed``).
                again = bots.Position(
                    game if second == "seed" else Peeking(game, state, second), {}, NAMES,
                    seat, view, texts, f"{seed}/{move_no}" + ("/again" * (second == "seed")))
                other = moves[texts.index(search(again).move)]
                spots[-1]["second"] = (
                    "same" if other == move else "card" if other.card != move.card
                    else "side" if other.side != move.side else "chips")
        if move.side:
            staked[seat] += move.chips
            placed[seat] += 1
            stacks.append([seat, turns[seat], move.card, move.side, move.chips])
        turns[seat] += 1
        state = game.apply(state, move)
    result = game.outcome(state)
    assert result is not None
    scores = {s.player: s.score for s in result.standings}
    places = {s.player: s.place for s in result.standings}
    scored_stacks = [0] * n
    scored_chips = [0] * n
    kept = {(s.card, s.seat) for s in state.stacks}
    for s in state.stacks:
        scored_stacks[s.seat] += 1
        scored_chips[s.seat] += s.chips
    return {
        "number": number, "seat": me,
        "share": (1 / len(result.winners)) if NAMES[me] in result.winners else 0.0,
        "rank": places[NAMES[me]],
        "scores": [scores[p] for p in NAMES],
        "placed": placed, "staked": staked, "scored_stacks": scored_stacks,
        "scored_chips": scored_chips, "kept": list(state.chips),
        "winners": [NAMES.index(w) for w in result.winners],
        "spots": spots,
        "thought": thought,
        # Each prediction: [by the bot (1) or not (0), the seat's turn (0-8),
        # chips, scored (1/0), side (1 Time, 2 Place)]
        "stacks": [[int(seat == me), turn, chips, int((card, seat) in kept), side]
                   for seat, turn, card, side, chips in stacks],
    }


def summary(rows: list[dict[str, Any]]) -> str:
    from arena import mean_interval, wilson  # type: ignore[import-not-found]

    out = []
    wins = sum(r["share"] for r in rows)
    low, high = wilson(wins, len(rows))
    rank, rlow, rhigh = mean_interval([float(r["rank"]) for r in rows])
    out.append(f"games {len(rows)}: win share {wins / len(rows):.0%} ({low:.0%}-{high:.0%}), "
               f"avg rank {rank:.2f} ({rlow:.2f}-{rhigh:.2f})")
    times = sorted(t for r in rows for t in r.get("thought", ()))
    if times:
        out.append(f"CPU seconds a move of the bot (its search alone, as the arena's "
                   f"s/move): median {statistics.median(times):.2f}, max {times[-1]:.2f}")

    def mean(key: str, who: str, which: list[dict[str, Any]]) -> float:
        vals = []
        for r in which:
            me = r["seat"]
            seats = [me] if who == "bot" else [s for s in range(3) if s != me]
            vals += [r[key][s] for s in seats]
        return statistics.fmean(vals) if vals else float("nan")

    lost = [r for r in rows if r["share"] < 1]
    won = [r for r in rows if r["share"] == 1]
    for name, which in (("won", won), ("not won", lost), ("all", rows)):
        if not which:
            continue
        out.append(f"{name} ({len(which)}): " + ", ".join(
            f"{key} bot {mean(key, 'bot', which):.1f} / random {mean(key, 'opp', which):.1f}"
            for key in ("scores", "placed", "staked", "scored_stacks", "scored_chips", "kept")))
    margins = []
    for r in lost:
        me = r["seat"]
        best = max(r["scores"][s] for s in range(3) if s != me)
        margins.append(best - r["scores"][me])
    if margins:
        out.append("not won, best random score minus the bot's: " + " ".join(
            f"{m}:{margins.count(m)}" for m in sorted(set(margins))))
        out.append(f"  shared wins {sum(1 for r in lost if 0 < r['share'] < 1)}, "
                   f"lost by 1-2 points {sum(1 for m in margins if 1 <= m <= 2)}, "
                   f"by 3-5 {sum(1 for m in margins if 3 <= m <= 5)}, "
                   f"by 6+ {sum(1 for m in margins if m >= 6)}")
        winners_scores = [max(r["scores"][s] for s in range(3) if s != r["seat"]) for r in lost]
        out.append(f"  the winning random score in those games: median "
                   f"{statistics.median(winners_scores)}, the bot's median "
                   f"{statistics.median([r['scores'][r['seat']] for r in lost])}")
    for who, name in ((1, "bot"), (0, "random")):
        cells = []
        for turn in range(9):
            mine = [st for r in rows for st in r["stacks"] if st[0] == who and st[1] == turn]
            if mine:
                cells.append(f"{turn + 1}:{len(mine)} {sum(st[3] for st in mine) / len(mine):.0%}")
        out.append(f"predictions of the {name} seat{'s' * (not who)} by its turn "
                   f"(placed, scored): " + ", ".join(cells))
    for who, name in ((1, "bot"), (0, "random")):
        cells = []
        for side, word in ((1, "Time"), (2, "Place")):
            mine = [st for r in rows for st in r["stacks"] if st[0] == who and st[4] == side]
            if mine:
                cells.append(f"{word} {len(mine)}, {sum(st[3] for st in mine) / len(mine):.0%}")
        out.append(f"predictions of the {name} seat{'s' * (not who)} by side (placed, scored): "
                   + "; ".join(cells))
    best_other = [max(r["scores"][s] for s in range(3) if s != r["seat"]) for r in rows]
    mine_scores = [r["scores"][r["seat"]] for r in rows]
    out.append("the best random score of a game: mean "
               f"{statistics.fmean(best_other):.1f}, at least 10 in "
               f"{sum(b >= 10 for b in best_other) / len(rows):.0%} of games, 12: "
               f"{sum(b >= 12 for b in best_other) / len(rows):.0%}, 14: "
               f"{sum(b >= 14 for b in best_other) / len(rows):.0%}, 16: "
               f"{sum(b >= 16 for b in best_other) / len(rows):.0%}")
    out.append(f"the bot's score: mean {statistics.fmean(mine_scores):.1f}, sd "
               f"{statistics.stdev(mine_scores):.1f}, at most 8 in "
               f"{sum(b <= 8 for b in mine_scores) / len(rows):.0%} of games, 10: "
               f"{sum(b <= 10 for b in mine_scores) / len(rows):.0%}")
    agree = [s["move"] == s["greedy"] for r in rows for s in r["spots"]]
    if any("second" in s for r in rows for s in r["spots"]):
        cells = []
        for turn in range(9):
            asked = [r["spots"][turn]["second"] for r in rows
                     if len(r["spots"]) > turn and "second" in r["spots"][turn]]
            if asked:
                cells.append(f"{turn + 1}: " + "/".join(
                    f"{asked.count(k)}" for k in ("same", "card", "side", "chips")))
        out.append("asked again, the search chose (same move/another card/the same card, "
                   "another side/the same side, other chips) by the bot's turn: "
                   + ", ".join(cells))
    for name, which in (("won", won), ("not won", lost)):
        gaps = [s["gap"] for r in which for s in r["spots"]]
        behind = [g for g in gaps if g > 0]
        out.append(f"{name}: the bot's move left it less far ahead right now than greedy's "
                   f"in {len(behind)} of {len(gaps)} decisions"
                   + (f" (by {statistics.fmean(behind):.1f} points on average)" if behind else ""))
    out.append(f"bot's move = greedy's in {sum(agree)}/{len(agree)} decisions")
    return "\n".join(out)


def replayed(row: dict[str, Any]) -> dict[str, Any]:
    """A game's record with its predictions worked out again (with their
    sides, which the first records lacked): the deal, the bot's recorded
    moves and the random seats' moves, which their seeds fix."""
    game = games.get("atlas")
    me, seed = row["seat"], f"arena-{row['number']}"
    rand = bots.get("random")
    state = game.setup({}, NAMES, seed)
    mine = iter(spot["move"] for spot in row["spots"])
    move_no = 0
    turns = [0] * len(NAMES)
    placed = []
    while (seat := game.to_move(state)) is not None:
        moves = game.legal_moves(state)
        texts = tuple(game.format_move(state, m) for m in moves)
        move_no += 1
        if seat == me:
            text = next(mine)
        else:
            text = bots.ask(rand, bots.Position(game, {}, NAMES, seat, game.view(state, seat),
                                                texts, f"{seed}/{move_no}")).move
        move = moves[texts.index(text)]
        if move.side:
            placed.append((seat, turns[seat], move.card, move.side, move.chips))
        turns[seat] += 1
        state = game.apply(state, move)
    result = game.outcome(state)
    assert result is not None
    scores = {s.player: s.score for s in result.standings}
    assert [scores[p] for p in NAMES] == row["scores"], "the replay is not the game"
    kept = {(s.card, s.seat) for s in state.stacks}
    return {**row, "stacks": [[int(seat == me), turn, chips, int((card, seat) in kept), side]
                              for seat, turn, card, side, chips in placed]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=144)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--fraction", type=float, default=0.25)
    parser.add_argument("--cheat", choices=("none", "removed", "hands", "all"), default="none")
    parser.add_argument("--playout", choices=("random", "standard", "card", "plain", "aware", "mast",
                                              "learned"), default="random",
                        help="the play-out policy of the bot's own seat (a trial); random, "
                             "the search as it was before Atlas's play-out policy; standard, "
                             "the library's search as it is")
    parser.add_argument("--cap", type=int, help="no prediction of more chips at the root")
    parser.add_argument("--second", choices=("seed", "removed"),
                        help="ask the search again at each of the bot's decisions, with "
                             "another seed or seeing the card removed unseen, and count "
                             "how often it chooses the same")
    parser.add_argument("--bias", type=float, default=0.0,
                        help="a progressive bias at the root by the standing after each move")
    parser.add_argument("--trees", type=int, default=1,
                        help="a root ensemble: the budget split over this many trees")
    parser.add_argument("--merge", choices=("visits", "vote"), default="visits",
                        help="how the ensemble's roots choose: summed visits, or a vote")
    parser.add_argument("--epsilon", type=float, default=0.4,
                        help="--playout mast: the share of own play-out moves at random")
    parser.add_argument("--root", choices=("ucb", "group", "halving"), default="ucb",
                        help="how the root chooses: the bound over every move (the search's), "
                             "a card and side first (group), sequential halving (halving)")
    parser.add_argument("--record", type=Path,
                        help="write the features of the bot's moves and its choices here "
                             "(JSON lines, for atlas_policy.py FIT)")
    parser.add_argument("--weights", type=Path,
                        help="--playout learned: the weights atlas_policy.py FIT wrote")
    parser.add_argument("--json", type=Path, help="write every game's record here")
    parser.add_argument("--summarize", type=Path, metavar="JSON",
                        help="play nothing: print the summary of a run's --json record again "
                             "(its games replayed for what the record lacks)")
    args = parser.parse_args()
    global RECORD, WEIGHTS
    Trial.epsilon = args.epsilon
    if args.record:
        RECORD = []
    if args.weights:
        from atlas_policy import NAMES as FEATURES

        got = json.loads(args.weights.read_text())
        WEIGHTS = [got[name] for name in FEATURES]
    if args.summarize:
        print(summary([replayed(r) for r in json.loads(args.summarize.read_text())]))
        return
    print(" ".join(["python", "benchmarks/atlas_diagnose.py", *sys.argv[1:]]))
    rows = []
    for k in range(args.first, args.first + args.games):
        rows.append(play(k, args.fraction, args.cheat, args.playout, args.cap, args.second,
                         args.bias, args.trees, args.merge, args.root))
        print(f"game {k}: seat {rows[-1]['seat']} scores {rows[-1]['scores']} "
              f"share {rows[-1]['share']:.2f}", file=sys.stderr, flush=True)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=0))
    if args.record and RECORD is not None:
        args.record.write_text("".join(json.dumps(r) + "\n" for r in RECORD))
    print(summary(rows))


if __name__ == "__main__":
    main()
