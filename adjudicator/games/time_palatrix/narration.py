"""What a Time Palatrix move did, told from one viewer's views (:func:`narrate`).

It reads only views, so it cannot tell another player's cards.
"""

from __future__ import annotations

from .cards import CANONICAL, CARD_NAMES, PAWNS, SUIT_NAMES, Bid, location_name
from .notation import parse_move
from .rules import View


def _bid_words(tricks: int, spare: bool) -> str:
    """Bidding: purple chips for the tricks expected, and the orange spare chip."""
    if spare:
        return (
            f"bids {tricks}+, taking the orange spare chip: {tricks} or {tricks + 1} tricks"
        )
    return f"bids {tricks}: exactly {tricks} trick{'s' * (tricks != 1)}"


def narrate(before: View, after: View, by: int, move: str) -> str:
    """What the move ``move`` of seat ``by`` did, from two views: the bid, or
    the card placed, where, and the follow suit it set or could not follow;
    then the tricks resolved, who won each and why, the start player of the
    next round, the scoring of a hand and the end of the game.

    >>> v = View(viewer=None, players=("ann", "bob", "cy"), locations=3, hand=1,
    ...          hands_in_game=3, round=0, rounds=4, phase="bidding",
    ...          start_player="ann", to_move="ann", bids=(None, None, None),
    ...          tricks=(0, 0, 0), scores=(0, 0, 0), cards_in_hand=(12, 12, 12),
    ...          my_cards=None, boards=((None, None, None),) * 3,
    ...          follow=(None,) * 3, follow_set_by=(None,) * 3, tricks_played=(),
    ...          results=())
    >>> import msgspec
    >>> narrate(v, msgspec.structs.replace(v, to_move="bob", bids=("3+", None, None)), 0, "3+")
    'bids 3+, taking the orange spare chip: 3 or 4 tricks'
    """
    m = CANONICAL.get(move) or parse_move(None, move)
    if type(m) is Bid:
        words = _bid_words(m.tricks, m.spare)
        if after.phase == "placement":
            words += f"; the bids are made, and {after.to_move} places first"
        return words
    card, loc = m
    name = CARD_NAMES[card]
    suit = SUIT_NAMES[card >> 4]
    words = f"places {name} on {location_name(loc)}"
    follow = before.follow[loc]
    if follow is None:
        # Trick Placement: the first card on a location takes its pawn and sets
        # the follow suit.
        words += f", taking the {PAWNS[loc]} pawn: {suit} is its follow suit"
    elif follow != suit:
        # Legal only to a player holding none of the follow suit.
        words += f", not following {follow}: they hold none"
    seen = {(t.hand, t.number) for t in before.tricks_played}
    new = [t for t in after.tricks_played if (t.hand, t.number) not in seen]
    if new:
        # Trick Resolution, location by location.
        words += "; the tricks are resolved: " + "; ".join(
            f"{t.winner} takes {location_name(t.location - 1)} with {t.why}" for t in new
        )
        if after.phase == "placement" and after.hand == before.hand:
            words += f"; {after.start_player} starts round {after.round}"
    for r in after.results[len(before.results):]:
        # Score Calculation.
        scored = ", ".join(
            f"{p} {r.points[i]} (bid {r.bids[i]}, took {r.tricks[i]})"
            for i, p in enumerate(after.players)
        )
        words += f"; hand {r.hand} is scored: {scored}"
    if after.phase == "bidding" and after.hand != before.hand:
        words += (
            f"; {after.start_player}, who won the last trick, starts hand {after.hand} "
            "and bids first"
        )
    if after.phase == "over" and before.phase != "over":
        words += "; " + _the_end(after)
    return words


def _the_end(after: View) -> str:
    """Start of the Next Hand and End of the Game: the highest score wins; a
    tie is shared (ruling R11)."""
    scores = dict(zip(after.players, after.scores))
    best = max(scores.values())
    winners = [p for p in after.players if scores[p] == best]
    total = ", ".join(f"{p} {scores[p]}" for p in after.players)
    if len(winners) == 1:
        won = f"{winners[0]} wins"
    else:
        won = ", ".join(winners[:-1]) + " and " + winners[-1] + " share the win"
    return f"the game is over: final score {total}: {won}"



def describe(view: View | None, move: str) -> str:
    """What the legal move ``move`` would do, in a short phrase, from the
    view of the player to move: the bid, or the card placed, where, and
    whether it takes the pawn and sets the follow suit.

    >>> describe(None, "3+")  # a bid reads no view
    'bid 3+, taking the orange spare chip: 3 or 4 tricks'
    """
    m = CANONICAL.get(move) or parse_move(None, move)
    if type(m) is Bid:
        return _bid_words(m.tricks, m.spare).replace("bids", "bid", 1)
    card, loc = m
    assert view is not None
    suit = SUIT_NAMES[card >> 4]
    words = f"place the {suit} {card & 15} on {location_name(loc)}"
    follow = view.follow[loc]
    if follow is None:
        # Trick Placement: the first card on a location takes its pawn.
        return words + f", taking the {PAWNS[loc]} pawn: {suit} follows"
    if follow != suit:
        return words + f", not following {follow}"
    return words
