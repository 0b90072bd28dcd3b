"""Turn of Time by mail: a move told as one viewer saw it (``narrate``), and
the tolerant reader of a refereed player's view file (``read_listed``).

Both work from views alone, never from a state, so neither can tell a
player what they may not see. In Turn of Time that is little (R10: only the
order of the solo deck is hidden), but the reader still knows only the
player's view and listed moves, and says why a move that reads well is not
among them in the words ``apply`` would use.

The meetings of 5.2/5.3 are worked out here again, from the rule text (R1:
a season flips the one before it in the year, opposites flip each other;
R3: the placed card meets each neighbour once, with its new face once it
has flipped, and no chain reactions), on the cards a view shows.
"""

from __future__ import annotations

from itertools import permutations

from ...errors import AmbiguousMoveError, NotationError
from .notation import parse_move
from .rules import DIRS, FILES, SEASON_NAMES as NAMES, SEASONS, SQUARES, TITLE, View

_STEPS = ((0, 1), (1, 0), (0, -1), (-1, 0))  # n, e, s, w as (file, rank) steps

Card = tuple[int, int]  # (face, back), seasons 0-3 in seasonal order


def _card(text: str) -> Card:
    """'FaSp' -> (2, 0): the face shown, then the back."""
    return SEASONS.index(text[:2]), SEASONS.index(text[2:4])


def _name(card: Card) -> str:
    return SEASONS[card[0]] + SEASONS[card[1]]


def _kind(card: Card) -> Card:
    """The card as held in a hand: its two seasons, whichever is up."""
    return (card[0], card[1]) if card[0] <= card[1] else (card[1], card[0])


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


def _flips(x: int, y: int) -> bool:
    """4 (R1): a card showing season ``x`` flips one showing ``y``: the season
    after it in the year, or the opposite season."""
    return (x - y) % 4 in (1, 2)


def _turn(card: Card) -> Card:
    return card[1], card[0]


class _Step:
    """One meeting (5.2): the placed card, showing ``mine``, meets ``theirs``."""

    __slots__ = ("d", "square", "mine", "theirs", "me", "them")

    def __init__(self, d: int, square: str, mine: Card, theirs: Card) -> None:
        self.d, self.square, self.mine, self.theirs = d, square, mine, theirs
        self.me = _flips(theirs[0], mine[0])  # the placed card is flipped
        self.them = _flips(mine[0], theirs[0])  # the neighbour is flipped


def _meet(
    card: Card, around: dict[int, tuple[str, Card]], order
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


def _outcome(card: Card, around: dict[int, tuple[str, Card]], order) -> tuple:
    """What the table looks like around the square after the move: the placed
    card and each neighbour (a turned single card is the same card, R2)."""
    cur, after, _ = _meet(card, around, order)
    return (cur, tuple(sorted(after.items())))


# --- read_listed ---------------------------------------------------------------------


def _spelled(card: Card, square: str, order: tuple[int, ...]) -> str:
    text = f"{_name(card)}-{square}"
    return text + ":" + "".join(DIRS[d] for d in order) if order else text


def _refuse(spelled: str, reason: str, clause: str) -> NotationError:
    return NotationError(f"{spelled} is not one of your legal moves: {reason}", f"{TITLE} {clause}")


def read_listed(view: View, listed: tuple[str, ...], text: str) -> str:
    """The listed move ``text`` names, read as ``parse_move`` reads it and
    resolved on the player's view: ``fall/spring e5 sw`` is ``FaSp-e5:sw``,
    and ``FaSp-e5:ws`` is ``SpFa-e5:ws`` when that leaves the same table.

    Raises NotationError (the text does not read as a move, or names no
    listed move: then the reason ``apply`` would give, with its clause) or
    AmbiguousMoveError (the order of meetings is needed, with the choices).
    """
    move = parse_move(None, text)  # a move reads the same in every position
    card: Card = (move.face, move.back)
    square = SQUARES[move.square]
    order = tuple(move.order)
    spelled = _spelled(card, square, order)
    if spelled in listed:
        return spelled
    if view.to_move is None:
        raise _refuse(spelled, "the game is over: all 16 cards are on the table", "6")
    if view.drawn is not None:  # solo: the card drawn (7)
        drawn = _card(view.drawn)
        if _kind(drawn) != _kind(card):
            raise _refuse(spelled, f"the card drawn is {view.drawn}, not {_name(card)}", "7")
    else:
        hand = view.hands[view.players.index(view.to_move)]
        if _kind(card) not in {_kind(_card(c)) for c in hand}:
            raise _refuse(spelled, f"{view.to_move} holds no {_name(card)} card", "3")
    board = view.board
    if square in board:
        raise _refuse(spelled, f"{square} already holds a card", "5.1")
    around = _around(board, square)
    if not board:
        if square != "d4":
            raise _refuse(
                spelled, "the first card goes on d4, the centre of the notation's frame", "5.1a"
            )
    else:
        if not around:
            raise _refuse(spelled, f"{square} is not adjacent to any card", "5.1a")
        files = [FILES.index(q[0]) for q in (*board, square)]
        ranks = [int(q[1:]) for q in (*board, square)]
        rows, cols = max(ranks) - min(ranks) + 1, max(files) - min(files) + 1
        if rows > 4 or cols > 4:
            raise _refuse(
                spelled,
                f"a card on {square} would spread the cards over {rows} rows and {cols} "
                "columns, more than a 4x4 grid",
                "5.1b",
            )
    dirs = tuple(sorted(around))
    if order:
        if sorted(order) != list(dirs):
            named = ", ".join(DIRS[d] for d in dirs) or "none"
            raise _refuse(
                spelled,
                "the order of meetings must name each neighbouring card once "
                f"(neighbours of {square}: {named})",
                "5.2",
            )
        wanted = _outcome(card, around, order)
    else:
        # The first order (n, e, s, w taken in that order) of each outcome.
        results: dict[tuple, tuple[int, ...]] = {}
        for perm in permutations(dirs):
            results.setdefault(_outcome(card, around, perm), perm)
        wanted = next(iter(results))
    found: dict[tuple, str] = {}
    for m in listed:
        lm = parse_move(None, m)
        if SQUARES[lm.square] == square and _kind((lm.face, lm.back)) == _kind(card):
            found[_outcome((lm.face, lm.back), around, tuple(lm.order) or dirs)] = m
    if not order and len(results) > 1:
        options = tuple(found[res] for res in results if res in found)
        raise AmbiguousMoveError(
            "the order of meetings changes the outcome; add it: " + " or ".join(options),
            f"{TITLE} 5.2",
            options,
        )
    if wanted in found:
        return found[wanted]
    raise NotationError(  # not reached while the view and the list agree
        f"{spelled} is not one of your legal moves ({len(listed)} listed)", f"{TITLE} 5"
    )


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
        for k, s in enumerate(seasons):
            drawn[SEASONS.index(s)] = 2 * k + seat  # seat 0 drew 1st and 3rd
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
    (totals, order), = readings
    text = ", ".join(f"{view.players[p]} {totals[p]} points" for p in order)
    if totals[0] == totals[1]:
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
