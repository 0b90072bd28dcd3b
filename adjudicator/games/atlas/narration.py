"""Atlas's narration: what a move did, told from one player's views (the
engine's Narration layer).

It reads only views, so it can tell nothing a player may not see: another
hand, the draw pile or the cards removed unseen (ruling R16). The card drawn
is named to its drawer alone.
"""

from __future__ import annotations

from .cards import CARD_INDEX, CARD_TEXT, SIDE_NAMES, SUIT_NAMES, SUITS, card_words, plural
from .notation import CANONICAL, parse_move
from .rules import StackView, View


def _cards(texts: list[str]) -> str:
    """``the 1, 2 and 4 of Day`` (one suit) or ``the 3 of Dawn, Day and Night``
    (one number): the cards of a Time or a Place, in the rule text's words."""
    numbers = sorted({t[:-1] for t in texts}, key=int)
    suits = [SUIT_NAMES[i] for i in sorted({SUITS.index(t[-1]) for t in texts})]

    def listed(words: list[str]) -> str:
        return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]

    return f"the {listed(numbers)} of {listed(suits)}"


def _stack(s: StackView) -> str:
    return f"{s.owner}'s {plural(s.chips, 'chip')} on {s.card} ({s.side})"


def _score(stacks: tuple[StackView, ...]) -> dict[str, tuple[int, int]]:
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


def describe(view: View | None, move: str) -> str:
    """What the legal move ``move`` would do, in a short phrase: the card
    played and the prediction stacked on it (Play a Card A and B). The
    card drawn after it is unknown until drawn, so it is not told.

    >>> describe(None, "3D+2T")
    'play the 3 of Day, predicting Time with 2 chips'
    """
    card, side, chips = CANONICAL.get(move) or parse_move(None, move)
    words = f"play {card_words(card)}"
    if side:
        words += f", predicting {SIDE_NAMES[side]} with {plural(chips, 'chip')}"
    return words
