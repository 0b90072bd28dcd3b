"""Turn of Time: a move told as one viewer saw it (:func:`narrate`).

It works from views alone, never from a state, so it cannot tell a player
what they may not see (in Turn of Time that is little, R10: only the order
of the solo deck is hidden). The meetings of 5.2/5.3 are told one by one,
with the rules' :func:`rules.flips`, on the cards the view before the move
shows.
"""

from __future__ import annotations

from .cards import FILES, SEASON_NAMES as NAMES, SEASONS, SQUARES
from .notation import parse_move
from .rules import View, flips

_STEPS = ((0, 1), (1, 0), (0, -1), (-1, 0))  # n, e, s, w as (file, rank) steps

Card = tuple[int, int]  # (face, back), seasons 0-3 in seasonal order


def _card(text: str) -> Card:
    """'FaSp' -> (2, 0): the face shown, then the back."""
    return SEASONS.index(text[:2]), SEASONS.index(text[2:4])


def _name(card: Card) -> str:
    return SEASONS[card[0]] + SEASONS[card[1]]


def _neighbour(square: str, d: int) -> str | None:
    f, r = FILES.index(square[0]) + _STEPS[d][0], int(square[1:]) + _STEPS[d][1]
    return f"{FILES[f]}{r}" if 0 <= f < 7 and 1 <= r <= 7 else None


def _around(board: dict[str, str], square: str) -> dict[int, tuple[str, Card]]:
    """The cards next to ``square``, by direction: (their square, the card)."""
    out = {}
    for d in range(4):
        q = _neighbour(square, d)
        if q is not None and q in board:
            out[d] = (q, _card(board[q]))
    return out


def _turn(card: Card) -> Card:
    return card[1], card[0]


class _Step:
    """One meeting (5.2): the placed card, showing ``mine``, meets ``theirs``."""

    __slots__ = ("d", "square", "mine", "theirs", "me", "them")

    def __init__(self, d: int, square: str, mine: Card, theirs: Card) -> None:
        self.d, self.square, self.mine, self.theirs = d, square, mine, theirs
        self.me = flips(theirs[0], mine[0])  # the placed card is flipped
        self.them = flips(mine[0], theirs[0])  # the neighbour is flipped


def _meet(
    card: Card, around: dict[int, tuple[str, Card]], order: tuple[int, ...]
) -> tuple[Card, dict[int, Card], list[_Step]]:
    """5.2/5.3: ``card`` placed meets the neighbours in ``order``: the card it
    ends as, each neighbour after, and the meetings."""
    cur = card
    after = {d: c for d, (_, c) in around.items()}
    steps = []
    for d in order:
        q, theirs = around[d]
        step = _Step(d, q, cur, theirs)
        steps.append(step)
        if step.them:
            after[d] = _turn(theirs)
        if step.me:
            cur = _turn(cur)
    return cur, after, steps


# --- narrate ---------------------------------------------------------------------------


def _card_words(card: Card) -> str:
    if card[0] == card[1]:
        return f"the single {NAMES[card[0]]}"
    return f"{NAMES[card[0]]} with a {NAMES[card[1]]} back"


def _step_words(step: _Step, start: Card) -> str:
    """One meeting in words; ``start`` is the card as placed (for "back to")."""
    mine, theirs, q = step.mine, step.theirs, step.square
    me_single, them_single = mine[0] == mine[1], theirs[0] == theirs[1]
    me = f"{'back ' if mine[1] == start[0] else ''}to {NAMES[mine[1]]}"
    if step.me and step.them:
        mine_after = f"it stays {NAMES[mine[0]]}" if me_single else f"it {me}"
        theirs_after = (f"{q} stays {NAMES[theirs[0]]}" if them_single
                        else f"{q} to {NAMES[theirs[1]]}")
        return (f"it and the {NAMES[theirs[0]]} on {q} flip each other "
                f"({mine_after}, {theirs_after})")
    if step.me:
        if me_single:
            return (f"the {NAMES[theirs[0]]} on {q} turns it over "
                    f"(a single card: still {NAMES[mine[0]]})")
        return f"the {NAMES[theirs[0]]} on {q} flips it {me}"
    if them_single:
        return f"it turns over the single {NAMES[theirs[0]]} on {q} (still {NAMES[theirs[0]]})"
    return f"it flips the {NAMES[theirs[0]]} on {q} to {NAMES[theirs[1]]}"


def _owners(view: View) -> list[int]:
    """Season -> the seat playing for it, -1 for nobody (3 players)."""
    owner = [-1] * 4
    for seat, seasons in enumerate(view.seasons):
        for s in seasons:
            owner[SEASONS.index(s)] = seat
    return owner


def _end_words(view: View) -> str:
    """6 (7 solo): the seasons face up, the points, from the final view."""
    counts = [view.face_up[s] for s in SEASONS]
    groups = [view.largest_group[s] for s in SEASONS]
    if len(view.players) == 1:
        if view.goal == "balance":
            met = all(c == 4 for c in counts)
            per = ", ".join(f"{NAMES[s]} {counts[s]}" for s in range(4))
            return (f"the game is over: balance {'met' if met else 'missed'} "
                    f"({per}) (7)")
        best = max(range(4), key=lambda s: (groups[s], -s))
        met = groups[best] >= 7
        return (f"the game is over: dominance {'met' if met else 'missed'} "
                f"(largest group {groups[best]} {NAMES[best]}) (7)")
    owner = _owners(view)
    two = len(view.players) == 2
    # Most face up, then the largest group, then turn order: the seats' order
    # (a season nobody plays for last). Two players: see _two_players.
    turn = [seat if seat >= 0 else 4 for seat in owner]
    ranked = sorted(range(4), key=lambda s: (-counts[s], -groups[s], turn[s]))
    parts = []
    for i, s in enumerate(ranked):
        who = view.players[owner[s]] if owner[s] >= 0 else "nobody"
        text = f"{NAMES[s]} ({who}) {counts[s]}"
        if any(counts[t] == counts[s] for t in range(4) if t != s):
            text += f" (group {groups[s]})"
        if not two:
            text += f": {4 - i} point{'s' * (i != 3)}"
        parts.append(text)
    head = "the game is over (6), face up: " + "; ".join(parts)
    return head + "; " + _two_players(view, counts, groups, owner) if two else head


def _two_players(view: View, counts: list[int], groups: list[int], owner: list[int]) -> str:
    """R7: each player's points, the sum of their two seasons'. A full tie
    between the two players' seasons goes by turn order, which is either the
    players' or the order the seasons were drawn (a ruling the view does not
    carry): the points are told when both readings give the same."""
    drawn = {}
    for seat, seasons in enumerate(view.seasons):
        for k, name in enumerate(seasons):
            drawn[SEASONS.index(name)] = 2 * k + seat  # seat 0 drew 1st and 3rd
    readings = set()
    for turn in (lambda s: drawn[s], lambda s: (owner[s], drawn[s])):
        ranked = sorted(range(4), key=lambda s: (-counts[s], -groups[s], turn(s)))
        totals, best = [0, 0], [4, 4]
        for i, s in enumerate(ranked):
            totals[owner[s]] += 4 - i
            best[owner[s]] = min(best[owner[s]], i)
        order = tuple(sorted(range(2), key=lambda p: (-totals[p], best[p])))
        readings.add((tuple(totals), order))
    if len(readings) > 1:
        ties = []
        for key in sorted({(counts[s], groups[s]) for s in range(4)}, reverse=True):
            tied = [s for s in range(4) if (counts[s], groups[s]) == key]
            if len({owner[s] for s in tied}) > 1:
                names = [NAMES[s] for s in tied]
                ties.append(", ".join(names[:-1]) + " and " + names[-1])
        return f"{'; '.join(ties)} tie on cards and group: turn order decides"
    (points, order), = readings
    text = ", ".join(f"{view.players[p]} {points[p]} points" for p in order)
    if points[0] == points[1]:
        text += f" ({view.players[order[0]]} holds the higher-ranked season)"
    return text


def narrate(before: View, after: View, by: int, move: str) -> str:
    """What placing the card did: the card, each meeting that flipped a card
    (5.2, 5.3), the change in cards face up and, after the 16th card, the
    end of the game (6, 7). Told from the two views alone.

    ``FaSp-e5:sw`` in the worked example of 5.3 (a Spring with a Fall back on
    e4, a Summer on d5) reads: ``Fall with a Spring back on e5: it and the
    Spring on e4 flip each other (it to Spring, e4 to Fall), then the Summer
    on d5 flips it back to Fall; face up: Spring -1, Fall +2``.
    """
    m = parse_move(None, move)
    card: Card = (m.face, m.back)
    square = SQUARES[m.square]
    around = _around(before.board, square)
    order = tuple(m.order) or tuple(sorted(around))
    final, _, steps = _meet(card, around, order)
    head = f"{_card_words(card)} on {square}"
    if not before.board:
        head += " (the first card)"
    events = [_step_words(s, card) for s in steps if s.me or s.them]
    if events:
        text = head + ": " + ", then ".join(events)
    elif around:
        text = head + ": no season flips"
    else:
        text = head
    # The views say what the table shows now; the meetings only tell how.
    if after.board.get(square) != _name(final):  # not reached while the views agree
        text = f"{head}: it shows {after.board.get(square)}"
    gained = [
        f"{NAMES[s]} {d:+d}"
        for s in range(4)
        if (d := after.face_up[SEASONS[s]] - before.face_up[SEASONS[s]])
    ]
    if gained:
        text += "; face up: " + ", ".join(gained)
    if after.to_move is None:
        text += "; " + _end_words(after)
    return text


def describe(view: View, move: str) -> str:
    """What placing the card would do, from the board the player sees: the
    card as placed, each meeting that flips a card (5.2, 5.3) and the face
    it ends showing when that is not the face placed.

    ``FaSp-d5`` beside a Summer with a Spring back on d4 reads: ``place
    Fall with a Spring back on d5: it and the Summer on d4 flip each other
    (it to Spring, d4 to Spring); it shows Spring``.
    """
    m = parse_move(None, move)
    card: Card = (m.face, m.back)
    square = SQUARES[m.square]
    around = _around(view.board, square)
    order = tuple(m.order) or tuple(sorted(around))
    final, _, steps = _meet(card, around, order)
    text = f"place {_card_words(card)} on {square}"
    events = [_step_words(s, card) for s in steps if s.me or s.them]
    if events:
        text += ": " + ", then ".join(events)
    if final[0] != card[0]:
        text += f"; it shows {NAMES[final[0]]}"
    return text
