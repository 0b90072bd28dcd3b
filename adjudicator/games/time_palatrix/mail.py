"""Time Palatrix by mail: what a move did, told from one player's views
(:func:`narrate`), and the listed move a player typed, read from their view
and their list alone (:func:`read_listed`).

Both read only views, so neither can tell another player's cards. A move
reads the same in every position (notation/time-palatrix.md) except a card
typed without its location, which goes to the only location the listed
moves give it, or is refused as ambiguous naming the listed choices; a move
that reads but is not listed is refused with the reason the rules give,
told from the view (the player's own hand, the boards and their follow
suits are all a placement depends on).
"""

from __future__ import annotations

from ...errors import AmbiguousMoveError, NotationError
from .cards import (
    BID_TEXT, BIDDING, CANONICAL, CARD_NAMES, GAME_FLOW, HAND_CARDS, MAX_BID, NEXT_HAND, PAWNS,
    PLACE_TEXT, PLACEMENT, PREPARATION, SUIT_NAMES, SUITS, VARIANT, Bid, Move, Place, bid_text,
)  # fmt: skip
from .notation import parse_move
from .rules import View

#: How a refusal of a readable move ends: the move, spelled, comes first, and
#: the rules' own reason after it.
NOT_LISTED = "is not one of your legal moves"


# --- reading a move typed into a view file -------------------------------------------


def read_listed(view: View, listed: tuple[str, ...], text: str) -> str:
    """The listed move (canonical notation) the player to move typed as ``text``.

    Every spelling :func:`parse_move` takes, with its errors. A card typed
    without a location goes to the only location the list gives it; with
    several, it is refused as ambiguous, naming them. A move that reads but
    is not listed is refused with the rules' reason, told from the view.

    >>> v = View(viewer="ann", players=("ann", "bob", "cy"), locations=3, hand=1,
    ...          hands_in_game=3, round=1, rounds=4, phase="placement",
    ...          start_player="ann", to_move="ann", bids=("6", "3+", "3"),
    ...          tricks=(0, 0, 0), scores=(0, 0, 0), cards_in_hand=(1, 1, 1),
    ...          my_cards=("O8",), boards=((None, None, None),) * 3,
    ...          follow=(None,) * 3, follow_set_by=(None,) * 3, tricks_played=(),
    ...          results=())
    >>> read_listed(v, ("O8-1", "O8-2", "O8-3"), "orange 8 on black")
    'O8-1'
    >>> read_listed(v, ("O8-1", "O8-2", "O8-3"), "o8")
    Traceback (most recent call last):
    ...
    adjudicator.errors.AmbiguousMoveError: O8 may go on several locations; add one: \
O8-1 or O8-2 or O8-3 (Time Palatrix: Trick Placement)
    """
    if text in listed:
        return text
    move = parse_move(None, text)  # raises as the log's reader does
    if type(move) is Bid:
        canonical = BID_TEXT.get(move) or bid_text(*move)
    else:
        card, loc = move
        if loc < 0 and view.phase == "placement":
            # Where the card may go is what the list says of it (Trick Placement).
            options = tuple(
                t for t in listed if type(m := CANONICAL.get(t)) is Place and m.card == card
            )
            if len(options) == 1:
                return options[0]
            if options:
                raise AmbiguousMoveError(
                    f"{CARD_NAMES[card]} may go on several locations; add one: "
                    + " or ".join(options),
                    PLACEMENT,
                    options,
                )
        canonical = PLACE_TEXT.get(move) or CARD_NAMES[card]
    if canonical in listed:
        return canonical
    why = refusal(view, move)
    if why is None:
        # Legal as far as the view tells, but not on the list: the list was edited.
        raise NotationError(f"{canonical} {NOT_LISTED} ({len(listed)} listed)")
    raise NotationError(f"{canonical} {NOT_LISTED}: {why[0]}", why[1])


def _where(loc: int) -> str:
    return f"location {loc + 1} ({PAWNS[loc]})"


def _locations_for(view: View, seat: int, card: int) -> list[int]:
    """The empty locations of the player's board where ``card`` may go (Trick
    Placement): a location without a follow suit, or whose follow suit is the
    card's, or is a suit the player's hand does not hold."""
    held = {SUITS.index(c[0]) for c in view.my_cards or ()}
    board = view.boards[seat]
    out = []
    for loc in range(view.locations):
        follow = view.follow[loc]
        must = -1 if follow is None else SUIT_NAMES.index(follow)
        if board[loc] is None and (must < 0 or must == card >> 4 or must not in held):
            out.append(loc)
    return out


def refusal(view: View, move: Move) -> tuple[str, str] | None:
    """Why the player to move may not make ``move``, told from the view: their
    own hand, the boards and their follow suits; (reason, clause) in the
    rules' words, or None if the view shows no reason (the move is legal)."""
    players = view.players
    if view.phase == "over":
        return f"the game is over: all {len(players)} hands have been played", NEXT_HAND
    to_move = view.to_move
    if to_move is None or view.viewer != to_move:
        return f"it is {to_move}'s turn", PLACEMENT
    seat = players.index(to_move)
    if type(move) is Bid:
        if view.phase != "bidding":
            return "the bids of this hand are made; now place a card, e.g. G7-2", GAME_FLOW
        if move.tricks > MAX_BID:
            return f"a bid is 0 to {MAX_BID} tricks: a hand has only {HAND_CARDS} tricks", BIDDING
        return None
    card, loc = move
    name = CARD_NAMES[card]
    if view.phase == "bidding":
        return f"the hand begins with the bids: {to_move} bids now, e.g. 3 or 3+", GAME_FLOW
    if name not in (view.my_cards or ()):
        # Preparation: with 3 players the 10 to 12 of each suit stay in the box.
        if len(players) == 3 and card & 15 > 9:
            return (
                f"there is no {name} with 3 players: the 10 to 12 of each suit are out of "
                "the game",
                PREPARATION,
            )
        return f"{to_move} holds no {name}", PLACEMENT
    if loc < 0:
        where = _locations_for(view, seat, card)
        if where:
            return None  # one location, or several (ambiguous): said by the list
        return f"{name} may go on no empty location: each follow suit there must be followed", \
            PLACEMENT
    if loc >= view.locations:
        side = "front side, with 3" if view.locations == 3 else "back side, with 4"
        return f"there is no location {loc + 1}: the boards are played on the {side} locations", \
            VARIANT
    board = view.boards[seat]
    if board[loc] is not None:
        return f"{_where(loc)} of {to_move}'s board already holds {board[loc]}", PLACEMENT
    follow = view.follow[loc]
    if follow is not None and loc not in _locations_for(view, seat, card):
        setter = view.follow_set_by[loc]
        first = view.boards[players.index(setter)][loc]
        return (
            f"the follow suit of {_where(loc)} is {follow} (set by {setter}'s {first}) and "
            f"{to_move} holds {follow}: follow it there or place on another empty location",
            PLACEMENT,
        )
    return None


# --- narrating a move ----------------------------------------------------------------


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
    words = f"places {name} on {_where(loc)}"
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
            f"{t.winner} takes {_where(t.location - 1)} with {t.why}" for t in new
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

