"""15 Days: a move told as one viewer saw it (``narrate``).

Told from views alone, never from a state, so it cannot say what the viewer
may not see: a card drawn face down is named only to the player who drew it.
"""

from __future__ import annotations

from collections import Counter

from .notation import parse_move
from .rules import (
    ANIMALS,
    CARDS,
    FROG,
    OTTER_LIMIT,
    RABBIT,
    SEASON_NAMES,
    SEASONS,
    SOURCES,
    SQUIRREL,
    CornerView,
    View,
    plural,
    read_turn,
)

_ANIMAL_OF = {"D": SQUIRREL, "T": RABBIT, "P": FROG}  # the power an action may have


def _seat(view: View, name: str | None) -> int:
    return next((i for i, p in enumerate(view.players) if p.name == name), -1)


# --- narrate ---------------------------------------------------------------------------


def _holders(view: View) -> dict[str, str | None]:
    """Animal -> the name of the player holding its token (None: the supply)."""
    out: dict[str, str | None] = dict.fromkeys(ANIMALS)
    for p in view.players:
        for a in p.animals:
            out[a] = p.name
    return out


def _corner_view(view: View, seat: int, season: int) -> CornerView | None:
    """The corner of ``season`` on a seat's board in the view, or None."""
    return next((c for c in view.players[seat].corners if c.season == SEASONS[season]), None)


def _corner_text(view: View, seat: int, season: int) -> tuple[str, str] | None:
    """The corner of ``season`` on a board: its name and its cards in order,
    as ``show`` writes them: ('top-left', 'Autumn 6* 5 4 3')."""
    c = _corner_view(view, seat, season)
    if c is None:
        return None
    return c.corner, " ".join([SEASON_NAMES[season], *(t[2:] for t in c.cards)])


def _drawn(before: View, after: View, seat: int) -> str | None:
    """The card the mover drew, if the viewer is the mover (their own hand)."""
    a, b = before.players[seat].hand, after.players[seat].hand
    if a is None or b is None:
        return None
    new = Counter(b) - Counter(a)
    return next(iter(new), None) if sum(new.values()) == 1 else None


def _final(view: View) -> str:
    """The result, from the view: the most points, then the most cards in
    hand, then the most wild cards played; still tied, a shared place."""
    players = view.players
    key = {p.name: (p.score, p.hand_size, p.wilds) for p in players}
    order = sorted(players, key=lambda p: tuple(-k for k in key[p.name]))
    text = "the game is over: " + ", ".join(f"{p.name} {p.score}" for p in order)
    ties = []
    for a, b in zip(order, order[1:]):
        ka, kb = key[a.name], key[b.name]
        if ka[0] != kb[0]:
            continue
        if ka == kb:
            ties.append(f"{a.name} and {b.name} share a place")
        else:
            why = "cards in hand" if ka[1] != kb[1] else "wild cards played"
            ties.append(f"{a.name} ahead of {b.name} on {why}")
    if ties:
        text += f" ({'; '.join(ties)})"
    winners = [p.name for p in order if key[p.name] == key[order[0].name]]
    if len(winners) > 1:
        return f"{text}; {' and '.join(winners)} share the win"
    return f"{text}; {winners[0]} wins"


def narrate(before: View, after: View, by: int, move: str) -> str:
    """What the decision ``move`` did, in the rule text's words: the card
    drawn (to its drawer only), taken, played (where, and what it costs),
    paid or discarded, a wild taken, placed or moved, an animal changing
    hands, a Season set completed, the end of the turn, the last round, the
    scores that changed and the end of the game. Told from the two views.

    ``PAu4`` replacing a wild reads: ``played Au4 to the top-left corner,
    replacing its wild (Autumn 5 4 3), to pay 2 cards``.
    """
    m = parse_move(None, move)
    turn = read_turn(before)
    parts = []
    if m.feather and m.op in _ANIMAL_OF:
        parts.append(f"spent a feather on the {ANIMALS[_ANIMAL_OF[m.op]]}")
    op = m.op
    if op == "D":
        card = _drawn(before, after, by)
        if card is None:
            back = before.pile_backs[m.arg]
            if back:
                season = SEASON_NAMES[SEASONS.index(back)]
                card = f"{'an' if season[0] in 'AEIOU' else 'a'} {season}-backed card"
            else:
                card = "a card"
        parts.append(f"drew {card} from pile {m.arg + 1}")
    elif op == "T":
        if m.arg == 3:
            parts.append(f"took {before.discard[-1]} from the discard pile")
        else:
            parts.append(f"took {before.market[m.arg][-1]} from column {SOURCES[m.arg]}")
    elif op == "R":
        col = next((i for i in range(3) if len(after.market[i]) > len(before.market[i])), -1)
        if col >= 0:
            parts.append(f"rebuilt column {SOURCES[col]} with {after.market[col][-1]} "
                         f"from pile {m.arg + 1}")
        else:
            parts.append(f"rebuilt a column from pile {m.arg + 1}")
    elif op == "W" and m.card < 0:
        parts.append("took a wild card, for two cards matching the board")
    elif op == "W":
        name = CARDS[m.card]
        verb = {"move-wild": "moved the replaced wild to",
                "bonus": "placed the bonus wild as"}.get(turn.phase or "", "placed the wild as")
        where = _corner_text(after, by, m.card // 6)
        text = f"{verb} {name}"
        if where and _corner_text(before, by, m.card // 6) is None:
            text += f" in the {where[0]} corner"  # a season new to the board (wild=any)
        parts.append(text + (f" ({where[1]})" if where else ""))
    elif op == "P":
        name = CARDS[m.card]
        where = _corner_text(after, by, m.card // 6)
        text = f"played {name}"
        if where:
            text += f" to the {where[0]} corner"
            old = _corner_view(before, by, m.card // 6)
            if old is not None and f"{name}*" in old.cards:
                text += ", replacing its wild"
            text += f" ({where[1]})"
        owed = read_turn(after)
        if owed.phase == "pay":
            text += f", to pay {plural(owed.owe, 'card')}"
        elif owed.phase is not None:
            text += ", free"
        parts.append(text)
    elif op == "X":
        name = CARDS[m.card]
        parts.append({"wild": f"discarded {name} for the wild",
                      "pay": f"paid {name}",
                      "limit": f"discarded {name} at the hand limit"}.get(
                          turn.phase or "", f"discarded {name}"))
    elif op == "E":
        parts.append("ended the action")
    else:
        parts.append(f"spent a feather on the Otter: a hand limit of {OTTER_LIMIT} "
                     "this turn")
    parts += _consequences(before, after, by)
    return ", ".join(parts[:1]) + "".join(f"; {p}" for p in parts[1:])


def _consequences(before: View, after: View, by: int) -> list[str]:
    """What followed from the move: tokens, sets, the wild's return, the end
    of the turn, the last round, the scores."""
    out = []
    was, now = _holders(before), _holders(after)
    mover = before.players[by].name
    for animal in ANIMALS:
        if was[animal] == now[animal] or now[animal] is None:
            continue
        if was[animal] is None:
            out.append(f"{now[animal]} takes the {animal} from the supply")
            continue
        loser = _seat(after, was[animal])
        feather = after.players[loser].feathers > before.players[loser].feathers
        out.append(f"{now[animal]} takes the {animal} from {was[animal]}"
                   + (", who takes a feather" if feather else ""))
    for a, b in zip(before.players, after.players):
        for ca, cb in zip(a.corners, b.corners):
            if cb.complete and not ca.complete:
                season = SEASON_NAMES[SEASONS.index(cb.season)]
                out.append(f"{b.name} completes the {season} set")
    if after.wild_supply > before.wild_supply:
        out.append("the wild goes back to the supply")
    t_before, t_after = read_turn(before), read_turn(after)
    if after.to_move is None:
        if after.end and after.end != before.end:
            out.append(after.end)
        out.append(_final(after))
        return out
    if t_after.phase == "rebuild" and t_before.phase != "rebuild":
        out.append(f"column {SOURCES[t_after.column]} is to be rebuilt")
    if t_after.phase == "limit" and t_before.phase != "limit":
        out.append(f"end of turn: discard down to {t_after.limit} cards")
    if t_after.phase == "bonus" and t_before.phase != "bonus":
        out.append("end of turn: the bonus wild to place")
    if after.end != before.end and after.end:
        out.append(after.end)
    if after.to_move != mover:
        out.append(f"end of turn, {after.to_move} to play")
    changed = [
        f"{b.name} {b.score} ({b.score - a.score:+d})"
        for a, b in zip(before.players, after.players)
        if a.score != b.score
    ]
    if changed:
        out.append("score " + ", ".join(changed))
    return out


# --- describe --------------------------------------------------------------------------


def _card_words(card: int) -> str:
    """``the Summer 4``: a card in the rule text's words."""
    return f"the {SEASON_NAMES[card // 6]} {card % 6 + 1}"


def describe(view: View, move: str) -> str:
    """What the decision ``move`` would do, in a short phrase, from the view
    of the player to move: the action it begins or goes on with (Draw, Take,
    Play, the wild), what it pays or discards and why, the feather spent.
    A card drawn face down is unknown until drawn, so only its back is told.

    ``PSu4L`` reads ``play the Summer 4 to a left corner (descending)``;
    ``FTb`` ``spend a feather on the Rabbit, then take the top card of
    column b`` with that card named.
    """
    m = parse_move(None, move)
    turn = read_turn(view)
    op = m.op
    if op == "D":
        back = view.pile_backs[m.arg] if m.arg < len(view.pile_backs) else None
        what = "a card"
        if back:
            season = SEASON_NAMES[SEASONS.index(back)]
            what = f"{'an' if season[0] in 'AEIOU' else 'a'} {season}-backed card"
        words = f"draw {what} face down from pile {m.arg + 1}"
    elif op == "T":
        if m.arg == 3:
            top = view.discard[-1] if view.discard else "the top card"
            words = f"take {_named(top)} from the discard pile"
        else:
            column = view.market[m.arg]
            top = column[-1] if column else "the top card"
            words = f"take {_named(top)} from column {SOURCES[m.arg]}"
    elif op == "R":
        words = f"deal a card from pile {m.arg + 1} to rebuild the column"
    elif op == "W" and m.card < 0:
        words = "take a wild card, discarding two cards matching your board"
    elif op == "W":
        verb = {"move-wild": "move the replaced wild to stand for",
                "bonus": "place the bonus wild as"}.get(turn.phase or "", "place the wild as")
        words = f"{verb} {_card_words(m.card)}"
        if m.side >= 0:
            words += f" in a {'left' if m.side == 0 else 'right'} corner"
    elif op == "P":
        words = f"play {_card_words(m.card)}"
        if m.side >= 0:
            way = "left corner (descending)" if m.side == 0 else "right corner (ascending)"
            words += f" to a {way}"
        seat = _seat_of(view)
        if seat >= 0:
            corner = _corner_view(view, seat, m.card // 6)
            if corner is not None and f"{CARDS[m.card]}*" in corner.cards:
                words += ", replacing its wild"
    elif op == "X":
        name = _card_words(m.card)
        words = {"wild": f"discard {name} for the wild",
                 "pay": f"pay {name}",
                 "limit": f"discard {name} at the hand limit"}.get(
                     turn.phase or "", f"discard {name}")
    elif op == "E":
        words = "end the action"
    else:
        return f"spend a feather on the Otter: a hand limit of {OTTER_LIMIT} this turn"
    if m.feather and op in _ANIMAL_OF:
        return f"spend a feather on the {ANIMALS[_ANIMAL_OF[op]]}, then {words}"
    return words


def _named(text: str) -> str:
    """A card of the market or the discard pile (``Su4``) in words."""
    return _card_words(CARDS.index(text)) if text in CARDS else text


def _seat_of(view: View) -> int:
    return _seat(view, view.to_move)
