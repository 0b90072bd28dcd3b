"""Atlas by mail: what a move did, told from one player's views
(:func:`narrate`), and the listed move a player typed, read from their view
and their list alone (:func:`read_listed`).

Both read only views, so neither can tell anything a player may not see:
another hand, the draw pile or the cards removed unseen (ruling R16). A
reading of a move never depends on the position (notation/atlas.md), so a
view file takes exactly the spellings the log takes; a move that reads but is
not listed is refused with the reason the rules give, told from the view.
"""

from __future__ import annotations

from ...errors import NotationError
from .cards import (
    CARD_INDEX, CARD_TEXT, MAX_BET, NUMBERS, SIDE_NAMES, SUIT_NAMES, SUITS, TURN_CLAUSE, Move,
    card_words, clause, plural,
)  # fmt: skip
from .notation import CANONICAL, format_move, parse_move
from .rules import View

#: How a refusal of a readable move begins; the rules' own reason follows.
NOT_LISTED = "not one of your legal moves"


# --- reading a move typed into a view file -------------------------------------------


def read_listed(view: View, listed: tuple[str, ...], text: str) -> str:
    """The listed move (canonical notation) the player to move typed as ``text``.

    Every spelling :func:`parse_move` takes (it reads a move the same way in
    every position), with its errors; a move that reads but is not listed is
    refused with the rules' reason, told from the view alone.

    >>> v = View(viewer="ann", players=("ann", "bob"), to_move="ann", face_up=(),
    ...          face_down=(), out_of_game=("8W", "8D", "8S", "8N"), last=None,
    ...          stacks=(), chips=(16, 16), hand=("3D",), hand_sizes=(1, 1),
    ...          draw_pile=0, removed=2, played=0)
    >>> read_listed(v, ("3D", "3D+1T", "3D+1P"), "3 of day, 1 chip on place")
    '3D+1P'
    >>> read_listed(v, ("3D", "3D+1T", "3D+1P"), "day 4")
    Traceback (most recent call last):
    ...
    adjudicator.errors.NotationError: not one of the legal moves listed in your view file: \
ann does not hold the 4 of Day (Atlas: Play a Card)
    """
    if text in listed:
        return text
    move = parse_move(None, text)  # raises as the log's reader does
    canonical = format_move(None, move)
    if canonical in listed:
        return canonical
    why = refusal(view, move)
    if why is None:
        # Legal as far as the view tells, but not on the list: the list was edited.
        raise NotationError(f"not one of the {len(listed)} legal moves listed in your view file")
    reason, section = why
    raise NotationError(f"{NOT_LISTED}: {reason}", clause(section))


def completes(view: View, card: int) -> tuple[bool, bool]:
    """Whether playing ``card`` completes a Time, and a Place, on the board of
    ``view`` (Explaining Time and Place; rulings R7 and R8): the stretch of its
    row through it, face-down cards bridged and empty places ending it, holds
    4 face-up cards with it; all four of its number are on the board with at
    most one face down."""
    up = {CARD_INDEX[c] for c in view.face_up}
    down = {CARD_INDEX[c] for c in view.face_down}
    row = card - card % NUMBERS
    showing = 1
    for step in (-1, 1):
        c = card + step
        while row <= c < row + NUMBERS and (c in up or c in down):
            showing += c in up
            c += step
    column = [card % NUMBERS + NUMBERS * s for s in range(len(SUITS))]
    others = [c for c in column if c != card]
    place = all(c in up or c in down for c in others) and sum(c in down for c in others) <= 1
    return showing >= 4, place


def refusal(view: View, move: Move) -> tuple[str, str] | None:
    """Why the player to move may not make ``move``, told from public facts and
    their own hand: (reason, section of the rule text), in the rules' words;
    None if the view shows no reason (then the move is legal)."""
    to_move = view.to_move
    if to_move is None:
        return "the game is over: every hand is empty", "End of Game and Final Scoring"
    if view.viewer != to_move:
        return f"it is {to_move}'s turn", TURN_CLAUSE.removeprefix("Atlas: ")
    card, side, chips = move
    text = CARD_TEXT[card]
    if text not in (view.hand or ()):
        # Ruling R17: the same words wherever the card is, unless it is public.
        if text in view.face_up or text in view.face_down:
            return f"{card_words(card)} is already on the board", "Play a Card"
        if text in view.out_of_game:
            return f"the 8s are out of the game with {len(view.players)} players", "Game Set Up 3"
        return f"{to_move} does not hold {card_words(card)}", "Play a Card"
    if not side:
        return None
    time, place = completes(view, card)
    if time or place:
        done = " and ".join(w for w, c in (("a Time", time), ("a Place", place)) if c)
        return (
            f"{card_words(card)} completes {done}: no prediction may be placed on it",
            "Play a Card A",
        )
    if not 1 <= chips <= MAX_BET:
        return f"a prediction is 1 to {MAX_BET} chips, not {chips}", "Play a Card B"
    have = view.chips[view.players.index(to_move)]
    if chips > have:
        left = "no chips" if not have else f"only {plural(have, 'chip')}"
        return f"{to_move} has {left} left", "Play a Card B"
    return None


# --- narrating a move ----------------------------------------------------------------


def _cards(texts: list[str]) -> str:
    """``the 1, 2 and 4 of Day`` (one suit) or ``the 3 of Dawn, Day and Night``
    (one number): the cards of a Time or a Place, in the rule text's words."""
    numbers = sorted({t[:-1] for t in texts}, key=int)
    suits = [SUIT_NAMES[i] for i in sorted({SUITS.index(t[-1]) for t in texts})]

    def listed(words: list[str]) -> str:
        return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]

    return f"the {listed(numbers)} of {listed(suits)}"


def _stack(s) -> str:
    return f"{s.owner}'s {plural(s.chips, 'chip')} on {s.card} ({s.side})"


def _score(stacks) -> dict[str, tuple[int, int]]:
    """Per owner, (points, stacks) of the stacks on face-down cards (End of Game
    and Final Scoring: 1 point a chip and 1 a stack)."""
    out: dict[str, tuple[int, int]] = {}
    for s in stacks:
        if s.scored:
            points, count = out.get(s.owner, (0, 0))
            out[s.owner] = (points + s.chips + 1, count + 1)
    return out


def narrate(before: View, after: View, by: int, move: str) -> str:
    """What the move ``move`` of seat ``by`` did, as the viewer of ``before``
    and ``after`` saw it: the card played and the prediction on it, the Time
    or Place it completed, the cards flipped and the predictions that stay or
    are discarded, the card drawn (named to its drawer only), the end.

    >>> v = View(viewer=None, players=("ann", "bob"), to_move="ann", face_up=(),
    ...          face_down=(), out_of_game=("8W", "8D", "8S", "8N"), last=None,
    ...          stacks=(), chips=(16, 16), hand=None, hand_sizes=(7, 7),
    ...          draw_pile=12, removed=2, played=0)
    >>> import msgspec
    >>> w = msgspec.structs.replace(v, face_up=("3D",), to_move="bob", draw_pile=11)
    >>> narrate(v, w, 0, "3D")
    'plays the 3 of Day; then draws a card'
    """
    card, side, chips = CANONICAL.get(move) or parse_move(None, move)
    text = CARD_TEXT[card]
    words = f"plays {card_words(card)}"
    if side:
        # Play a Card B: chips stacked on the card played, showing the prediction.
        words += f", predicting {SIDE_NAMES[side]} with {plural(chips, 'chip')}"
    was_down = set(before.face_down)
    flipped = [c for c in after.face_down if c not in was_down]
    if flipped:
        # Play a Card A: the cards of the Time or Place flip; correct predictions
        # remain on them, incorrect ones are discarded.
        time = [c for c in flipped if c[-1] == text[-1]]
        place = [c for c in flipped if c[:-1] == text[:-1]]
        done = []
        if len(time) > 1:
            done.append(f"a Time ({_cards(time)})")
        if len(place) > 1:
            done.append(f"a Place ({_cards(place)})")
        words += f", completing {' and '.join(done)}: the cards flip"
        kept = {s.card for s in after.stacks}
        on_them = [s for s in before.stacks if s.card in flipped]
        stay = [_stack(s) for s in on_them if s.card in kept]
        lost = [_stack(s) for s in on_them if s.card not in kept]
        if stay:
            words += "; correct, staying: " + ", ".join(stay)
        if lost:
            words += "; incorrect, discarded: " + ", ".join(lost)
    # Draw a Card: the drawer sees the card; everybody else sees a card go.
    if after.hand is not None and after.viewer == before.players[by]:
        drawn = sorted(set(after.hand) - set(before.hand or ()), key=CARD_INDEX.__getitem__)
        if drawn:
            words += f"; then draws {card_words(CARD_INDEX[drawn[0]])}"
    elif after.draw_pile < before.draw_pile:
        words += "; then draws a card"
    if after.draw_pile == 0 < before.draw_pile:
        words += ", the last of the draw pile"
    if after.to_move is None and before.to_move is not None:
        words += "; " + _the_end(before, after, side and (text, before.players[by], chips))
    return words


def _the_end(before: View, after: View, new) -> str:
    """End of Game and Final Scoring: the chips left on face-up cards are
    removed, then the final score and the winner (ties: the most stacks;
    still tied, shared, ruling R15)."""
    removed: dict[str, int] = {}
    riding = [(s.card, s.owner, s.chips) for s in before.stacks] + ([new] if new else [])
    for card, owner, chips in riding:
        if card in after.face_up:
            removed[owner] = removed.get(owner, 0) + chips
    words = "every hand is empty: "
    if removed:
        lost = ", ".join(f"{p} {removed[p]}" for p in after.players if p in removed)
        words += f"the chips on face-up cards are removed ({lost}); "
    score = _score(after.stacks)
    points = {p: score.get(p, (0, 0)) for p in after.players}
    best = max(points.values())
    winners = [p for p in after.players if points[p] == best]
    total = ", ".join(f"{p} {points[p][0]}" for p in after.players)
    if len(winners) == 1:
        won = f"{winners[0]} wins"
    else:
        won = " and ".join([", ".join(winners[:-1]), winners[-1]]) + " share the win"
    return f"{words}final score {total}: {won}"
