"""15 Days examples (see make.py).

Every example is made by the tool. Three are random self-play
(``match.simulate``) and end, as random games do, when a draw pile runs out.
The fourth shows the other end of the game, a player completing all four
Season sets. Random play never gets there, so its moves are chosen by two
simple scripted styles, through ``match.extend`` like moves typed by players:

* ann plays greedily: at each decision she takes the move after which her
  position is best by a plain count (cards on her board, useful cards in
  hand, tokens and feathers), avoiding the end of the game;
* bob and cy play the market: they never draw face down (so the piles last),
  play the first card they can, else take face-up cards, and discard first
  the cards ann's board is missing, which she can then take from the discard
  pile.

The first seed whose game ends with ann's board complete is used, so the file
depends only on the rules and the chance derivation. Run it after a change
that alters canonical notation or play, then review the diff.
"""

from __future__ import annotations

from collections.abc import Callable

from make import first

from adjudicator import match
from adjudicator.games.fifteen_days import GAME as game
from adjudicator.log import Log

GAME = game.id
FOLDER = "fifteen-days"


# --- the scripted styles of the completed-sets example ---------------------------------


def _useful(v, seat: int, card: str) -> bool:
    """Whether ``card`` could still go on the board of ``seat`` (by the view)."""
    corners = v.players[seat].corners
    for c in corners:
        if c.season == card[:2]:
            return all(x.rstrip("*") != card or x.endswith("*") for x in c.cards)
    return any(c.season is None for c in corners)


def _worth(state, seat: int) -> float:
    """ann's plain count of how well she is doing, from what she sees."""
    v = game.view(state, seat)
    me = v.players[seat]
    if game.to_move(state) is None:
        return 1e9 if all(c.complete for c in me.corners) else -1e9
    worth = 100.0 * sum(len(c.cards) for c in me.corners)
    kinds = set(me.hand or ())
    worth += sum(30 if _useful(v, seat, card) else 8 for card in kinds)
    worth += 8 * (len(me.hand or ()) - len(kinds))
    worth += 5 * me.feathers + 20 * len(me.animals)
    if v.end is not None:
        worth -= 5000  # a pile ran out: the game is ending before her board is full
    return worth


def greedy(state, seat: int):
    moves = game.legal_moves(state)
    return max(moves, key=lambda m: _worth(game.apply(state, m), seat))


def market_player(state, seat: int, helped: int):
    """Never draw face down; discard what ``helped`` is missing first."""
    moves = game.legal_moves(state)
    texts = [game.format_move(state, m) for m in moves]
    if all(t.startswith("X") for t in texts):
        v = game.view(state, seat)
        return max(moves, key=lambda m: _useful(v, helped, game.format_move(state, m)[1:]))
    plays = [m for t, m in zip(texts, moves) if t.startswith("P")]
    if plays:
        return plays[0]
    for wanted in ("E", "Td", "Ta", "Tb", "Tc"):
        if wanted not in texts:
            continue
        if wanted in ("Ta", "Tb", "Tc") and len(state.market["abc".index(wanted[1])]) < 2:
            continue  # leave a column's last card: taking it would rebuild from the piles
        return moves[texts.index(wanted)]
    return moves[0]


def scripted(players: list[str], seed: str) -> Log:
    log = match.new_log(GAME, players, seed, {"first-player": "seat-0"})
    _, state = match.start(log)
    texts = []
    while (seat := game.to_move(state)) is not None:
        move = greedy(state, 0) if seat == 0 else market_player(state, seat, 0)
        texts.append(game.format_move(state, move))
        state = game.apply(state, move)
    return match.extend(log, texts)


def ended(how: str) -> Callable[[Log], bool]:
    def check(log: Log) -> bool:
        return match.replay(log).state.ended == how
    return check


def examples() -> dict[str, Log]:
    sim = match.simulate
    return {
        f"{FOLDER}/2-players.json": sim(GAME, ["ann", "bob"], "2p"),
        f"{FOLDER}/3-players.json": sim(GAME, ["ann", "bob", "cy"], "3p"),
        f"{FOLDER}/4-players.json": sim(
            GAME, ["ann", "bob", "cy", "dee"], "4p", {"feathers": "one-per-action"}
        ),
        f"{FOLDER}/3-players-completed-sets.json": first(
            lambda k: scripted(["ann", "bob", "cy"], f"sets-{k}"), ended("sets")
        ),
    }
