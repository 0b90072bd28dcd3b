"""Turn of Time: the unchecked paths, for speed only (the engine's Accelerator).

Validating a log calls :func:`fast_play` once (:func:`fast_apply` text after
text, building only the last state), and self-play calls :func:`fast_game`
once (the whole game, the moves listed as ``legal_moves`` lists them, and
only the last state built); :func:`fast_step` plays one listed move. Each plays a move
only if it is written (or listed) in canonical form and is legal: every
check of ``rules.apply``, in its cheapest form, read from the tables of
``tables.py``; anything else is left to the checked path, which says what
is wrong. The tests hold every function here to parse, apply and format,
move by move.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from msgspec.structs import replace

from . import tables
from .cards import CARDS, CENTRE, FLIPPED, KIND, NEIGHBOURS, OFF, ROW_COL, SIZE, Move, flip
from ...engine import Value
from .rules import NO_BOX, State, seasons_drawn, setup
from .tables import (
    CLASS, ORDER_AT, ORDER_ID, ORDER_PARTS, REL_INDEX, RESULTS, ROW, SIG_E, SIG_N, SIG_S, SIG_W, SIGS,
    SUFFIX,
)  # fmt: skip

# A move text in canonical form read back: (kind, the first entry of its
# relative card's rows in tables.ROW_OF, the shares of the signature turned
# back as the card is (tables.SIG_SHARES), the card's code and the card
# turned over; its order's place in a row and mask (tables.ORDER_AT); the
# square, its neighbours, its row and column).
_Known = tuple[
    int, int, tuple[tuple[int, ...], ...], tuple[int, int], int, int,
    int, tuple[int, int, int, int], int, int,
]
# The texts without an order -> their entry. A text with one is read as its
# first 7 characters and the order.
_TEXTS: dict[str, _Known] = {}
# The same entries by card code and square: _KNOWN[code * OFF + square].
_KNOWN: list[_Known] = []

# What the hot paths read, bound by prepare() from the tables once read.
_ROW_OF: Sequence[int] | None = None
_ROWS = b""

# The rows (or the columns) the cards span, first and last as one number,
# first * SIZE + last: _SPAN[span * SIZE + i] is the span after a card in
# row (column) i, -1 where the cards would span more than 4 (5.1b). Made by
# prepare(), not at import.
_SPAN: tuple[int, ...] = ()

# Per number of players: the seat after each seat, and the seats taking
# CARDS turns in a row from each seat.
_FOLLOWING = tuple(tuple((s + 1) % n for s in range(n)) if n else () for n in range(5))
_TURNS = tuple(
    tuple(tuple((s + k) % n for k in range(CARDS)) for s in range(n)) if n else ()
    for n in range(5)
)


def prepare() -> None:
    """Make what the fast paths read with the tables, reading them first if
    need be (and again after :func:`tables.load`)."""
    global _ROW_OF, _ROWS, _SPAN
    if tables.ROW_OF is None:
        tables.load()
    shares, base = tables.SIG_SHARES, tables.BASE
    squares = [(sq, NEIGHBOURS[sq], *ROW_COL[sq]) for sq in range(SIZE * SIZE)]
    known: list[_Known] = []
    _TEXTS.clear()
    for c in range(16):
        card = (KIND[c], REL_INDEX[c] * SIGS, shares[CLASS[c][1]], (c, FLIPPED[c]), 1, 0)
        entries: list[Any] = [card + square for square in squares]
        _TEXTS.update(zip(base[c], entries))
        known += entries
    _KNOWN[:] = known
    _PLAYS.clear()
    _SIG_MOVES[:] = [None] * SIGS
    _SPAN = tuple(
        -1 if max(i, last) - min(i, first) > 3 else min(i, first) * SIZE + max(i, last)
        for first in range(SIZE)
        for last in range(SIZE)
        for i in range(SIZE)
    )
    _ROWS = tables.ROWS
    _ROW_OF = tables.ROW_OF


def _decode(text: str) -> _Known | None:
    """The entry of a text in canonical form (``FaSp-e5``, ``FaSp-e5:sw``);
    None for any other text."""
    if _ROW_OF is None:
        prepare()
    head = _TEXTS.get(text[:7])  # the texts without an order, all 7 characters
    order = ORDER_PARTS.get(text[7:])
    if head is None or order is None:
        return None
    return head[:4] + order + head[6:]


def fast_apply(state: State, text: str) -> State | None:
    """The state after the move written ``text``, if that is the canonical
    notation of a legal move here; otherwise None (``apply`` says why).
    ``fast_apply(state, "FaSp-e5:sw")``; ``"fasp-e5 sw"`` gives None.

    The hot path of validation: every check of ``apply``, in its cheapest
    form, and the new state built at once.
    """
    known = _TEXTS.get(text) or _decode(text)
    return None if known is None else _play(state, known, known[4], known[5])


def _play(state: State, known: _Known, place: int, mask: int) -> State | None:
    """:func:`fast_apply` of the text whose entry is ``known``, with the
    order read at ``place`` in a row and of directions ``mask``."""
    kind, rows_at, shares, faces, _, _, sq, nbrs, r, c = known
    seat = state.seat
    board = state.board
    if seat < 0 or board[sq] >= 0:
        return None
    n, e, s, w = nbrs
    # The placement turned back to its relative card (see tables.py).
    sig_n, sig_e, sig_s, sig_w = shares
    sig = sig_n[board[n]] + sig_e[board[e]] + sig_s[board[s]] + sig_w[board[w]]
    row = _ROW_OF[rows_at + sig] * ROW  # type: ignore[index]
    if mask and _ROWS[row] != mask:  # the order names other neighbours (5.2)
        return None
    res = RESULTS[_ROWS[row + place]]
    if res is None:  # not the canonical way of writing a move
        return None
    if sig:  # 5.1a: next to a card; 5.1b: the cards still fit a 4x4 box
        r0, r1, c0, c1 = state.box
        if r < r0:
            r0 = r
        elif r > r1:
            r1 = r
        if c < c0:
            c0 = c
        elif c > c1:
            c1 = c
        if r1 - r0 > 3 or c1 - c0 > 3:
            return None
        box = (r0, r1, c0, c1)
    elif state.placed == 0 and sq == CENTRE:
        box = (r, r, c, c)
    else:
        return None
    deck = state.deck
    hands = state.hands
    if deck:  # 7: the card drawn
        if deck[0] != kind:
            return None
        deck = deck[1:]
    else:  # 3: a card of one's own
        hand = hands[seat]
        left = (_LEFT.get(hand) or _left(hand)).get(kind)
        if left is None:
            return None
        rest = list(hands)
        rest[seat] = left
        hands = tuple(rest)
    turned, flips = res
    new = list(board)
    new[sq] = faces[turned]
    for d in flips:
        j = nbrs[d]
        new[j] = FLIPPED[new[j]]
    placed = state.placed + 1
    return replace(
        state,
        board=tuple(new),
        hands=hands,
        deck=deck,
        placed=placed,
        seat=-1 if placed == CARDS else (seat + 1) % len(state.players),
        box=box,
        last=sq,
    )


# Per hand: the hand left after playing each kind of card in it (few hands
# recur across games: a deal and the cards played from it).
_LEFT: dict[tuple[int, ...], dict[int, tuple[int, ...]]] = {}


def _left(hand: tuple[int, ...]) -> dict[int, tuple[int, ...]]:
    if len(_LEFT) > 20_000:
        _LEFT.clear()
    out = _LEFT[hand] = {k: hand[:i] + hand[i + 1 :] for i, k in enumerate(hand)}
    return out


def fast_setup(params: Mapping[str, Value], players: tuple[str, ...], seed: str) -> State | None:
    """:func:`.rules.setup`, kept: with 2 to 4 players the deal follows from
    the order the seasons are drawn in (24 orders), the players and the
    parameters setup reads (as text, as it reads them), so a deal met once
    is not dealt again. None solo (a shuffled deck: nothing recurs).

    >>> params = {"absent-doubles": "own-season", "goal": "dominance", "tie_order": "players"}
    >>> fast_setup(params, ("ann", "bob", "cy"), "doc") == setup(params, ("ann", "bob", "cy"), "doc")
    True
    """
    if len(players) == 1:
        return None
    key = (seasons_drawn(seed), players, str(params["absent-doubles"]), str(params["goal"]),
           str(params.get("tie_order", "players")))
    state = _SETUPS.get(key)
    if state is None:
        if len(_SETUPS) > 1_000:
            _SETUPS.clear()
        state = _SETUPS[key] = setup(params, players, seed)
    return state


# Per order of the seasons, players and the parameters setup reads: the state
# rules.setup dealt (a State is never changed, so one serves every log).
_SETUPS: dict[tuple[Any, ...], State] = {}


def fast_step(state: State, move: Move) -> tuple[str, State] | None:
    """``(format_move(state, move), apply(state, move))`` for a legal move
    in its canonical form (as ``legal_moves`` lists them); None for any
    other move. Self-play's hot path: the move's text is spelled at once, and
    played only if it is the canonical notation of a legal move here, so
    the text is the one ``format_move`` gives."""
    step = _PLAYS.get(move) or _step_of(move)
    if step is None:
        return None
    known, place, mask, text = step
    after = _play(state, known, place, mask)
    return None if after is None else (text, after)


# Per move met: its entry of _KNOWN, its order's place in a row and mask
# (tables.ORDER_AT) and its text; legal_moves lists the same few moves
# again and again. Kept for moves some canonical text spells.
_PLAYS: dict[Move, tuple[_Known, int, int, str]] = {}


def _step_of(move: Move) -> tuple[_Known, int, int, str] | None:
    face, back, sq, order = move
    oid = ORDER_ID.get(order)
    if oid is None or not (0 <= face < 4 and 0 <= back < 4 and 0 <= sq < OFF):
        return None
    if _ROW_OF is None:
        prepare()
    code = face * 4 + back
    if len(_PLAYS) > 60_000:
        _PLAYS.clear()
    place, mask = ORDER_AT[oid]
    out = _PLAYS[move] = (
        _KNOWN[code * OFF + sq], place, mask, tables.BASE[code][sq] + SUFFIX[oid]
    )
    return out


def fast_play(state: State, texts: Sequence[str]) -> tuple[list[int], State]:
    """:func:`fast_apply` over a whole log at once: ``texts`` played in turn
    from ``state`` for as long as each is the canonical notation of a legal
    move. The seats that played them, one per text played, and the state
    after the last; fewer seats than texts when ``texts[len(seats)]`` is
    refused (the checked path then says why).

    The state after every text is exactly :func:`fast_apply`'s (the tests
    compare the two move by move), but only the last is built: between moves
    the board is a list changed in place and the rest lives in local
    variables. Whether each text was written by the player whose seat it
    lists is for the caller to check.

    >>> from adjudicator.games.turn_of_time.rules import setup
    >>> start = setup({"absent-doubles": "own-season", "goal": "dominance"}, ("ann", "bob"), "doc")
    >>> seats, after = fast_play(start, ["SpSu-d4", "FaWi-d5", "SpSp-x9"])
    >>> seats, after == fast_apply(fast_apply(start, "SpSu-d4"), "FaWi-d5")
    ([0, 1], True)
    """
    if _ROW_OF is None:
        prepare()
    seat = state.seat
    placed = state.placed
    if seat < 0:
        return [], state
    board = list(state.board)
    hands = list(map(list, state.hands))
    deck = state.deck
    size = len(deck)
    drawn = 0  # solo: cards taken from the deck so far
    # The rows and the columns the cards span, each as a number of _SPAN.
    r0, r1, c0, c1 = state.box
    rspan, cspan = r0 * SIZE + r1, c0 * SIZE + c1
    span = _SPAN
    last = state.last
    n_players = len(state.players)
    following = _FOLLOWING[n_players]
    known_texts, order_parts = _TEXTS, ORDER_PARTS
    row_of, rows, results, flipped = _ROW_OF, _ROWS, RESULTS, FLIPPED
    assert row_of is not None
    # At most the cards left are played: a text after the last is refused (6).
    for text in texts[: CARDS - placed] if len(texts) > CARDS - placed else texts:
        known = known_texts.get(text)
        if known is not None:
            kind, rows_at, shares, faces, place, mask, sq, nbrs, r, c = known
        else:  # with an order (as _decode reads it), or not in canonical form
            known = known_texts.get(text[:7])
            order = order_parts.get(text[7:])
            if known is None or order is None:
                break
            kind, rows_at, shares, faces, _, _, sq, nbrs, r, c = known
            place, mask = order
        if board[sq] >= 0:
            break
        n, e, s, w = nbrs
        sig_n, sig_e, sig_s, sig_w = shares
        sig = sig_n[board[n]] + sig_e[board[e]] + sig_s[board[s]] + sig_w[board[w]]
        row = row_of[rows_at + sig] * ROW
        if mask and rows[row] != mask:  # the order names other neighbours (5.2)
            break
        res = results[rows[row + place]]
        if res is None:  # not the canonical way of writing a move
            break
        if sig:  # 5.1a: next to a card; 5.1b: the cards still fit a 4x4 box
            rspan_after, cspan_after = span[rspan * SIZE + r], span[cspan * SIZE + c]
            if rspan_after < 0 or cspan_after < 0:
                break
        elif placed == 0 and sq == CENTRE:
            rspan_after, cspan_after = r * SIZE + r, c * SIZE + c
        else:
            break
        if drawn < size:  # 7: the card drawn
            if deck[drawn] != kind:
                break
            drawn += 1
        else:  # 3: a card of one's own
            try:
                hands[seat].remove(kind)  # the hand stays sorted
            except ValueError:  # not in the hand
                break
        turned, flips = res
        board[sq] = faces[turned]
        for d in flips:
            j = nbrs[d]
            board[j] = flipped[board[j]]
        rspan, cspan = rspan_after, cspan_after
        placed += 1
        last = sq
        seat = following[seat]
    played = placed - state.placed
    if not played:
        return [], state
    after = replace(
        state,
        board=tuple(board),
        hands=tuple(map(tuple, hands)),
        deck=deck[drawn:],
        placed=placed,
        seat=-1 if placed == CARDS else seat,
        box=(*divmod(rspan, SIZE), *divmod(cspan, SIZE)),
        last=last,
    )
    # Seats take turns: the seats of the texts played follow from the first.
    return list(_TURNS[n_players][state.seat][:played]), after


def fast_game(
    state: State, pick: Callable[[int], int], limit: int | None = None
) -> tuple[list[str], list[int], State]:
    """Self-play at once: from ``state``, at each position the move
    ``legal_moves(state)[pick(len(legal_moves(state)))]``, spelled as
    ``format_move`` spells it and played as ``apply`` plays it, until the
    game ends or ``limit`` moves are played. The texts, the seats that
    played them and the state after the last.

    The moves are listed as :func:`rules.legal_moves` lists them (the same
    blocks of ``tables``, in the same order), but the board is a list
    changed in place, and the blocks of the open squares are kept from move
    to move: a card changes only the signatures of the empty squares next
    to it and next to the cards it turns over. So is how many moves each
    card code has on all the open squares, as one number, so a pick reads
    its code at once instead of summing square by square; and so are the
    squares the box leaves open (its window), with what each placement
    closes. The tests compare the whole game with the checked loop
    (legal_moves, format_move, apply), from every point of it.

    >>> from adjudicator.chance import Chance
    >>> from adjudicator.games.turn_of_time.rules import setup
    >>> start = setup({"absent-doubles": "own-season", "goal": "dominance"}, ("ann", "bob"), "doc")
    >>> texts, seats, after = fast_game(start, Chance("doc", "simulate").below, 3)
    >>> texts, seats, after.placed
    (['WiSp-d4', 'SuFa-c4', 'SpSu-c5'], [0, 1, 0], 3)
    """
    if _ROW_OF is None:
        prepare()
    texts: list[str] = []
    seats: list[int] = []
    seat = state.seat
    placed = state.placed
    if seat < 0 or (limit is not None and limit <= 0):
        return texts, seats, state
    board = list(state.board)
    hands = list(state.hands)
    deck = state.deck
    size = len(deck)
    drawn = 0  # solo: cards taken from the deck so far
    last = state.last
    following = _FOLLOWING[len(state.players)]
    stop = CARDS if limit is None else min(CARDS, placed + limit)
    row_of, rows, results, flipped = _ROW_OF, _ROWS, RESULTS, FLIPPED
    assert row_of is not None
    codes_of, sig_moves, base, suffix, order_at = _CODES, _SIG_MOVES, tables.BASE, SUFFIX, ORDER_AT
    sig_n, sig_e, sig_s, sig_w = SIG_N, SIG_E, SIG_S, SIG_W
    # Of every empty square next to a card, the moves there by signature
    # (_sig_moves); None elsewhere. Of those the box leaves open (5.1b),
    # their numbers of moves per code packed in one number (_sig_moves),
    # ``counted``; 0 elsewhere. ``total`` is their sum: how many moves each
    # code has on all the open squares, read at once.
    open_moves: list[Any] = [None] * (OFF + 1)
    counted = [0] * (OFF + 1)
    m: Any  # an entry of _SIG_MOVES
    window = (_WINDOWS.get(state.box) or _window(state.box)) if placed else _FIRST
    squares, inside = window.squares, window.inside
    if placed:
        for sq in _near_cards(board):
            n, e, s, w = NEIGHBOURS[sq]
            sig = sig_n[board[n]] + sig_e[board[e]] + sig_s[board[s]] + sig_w[board[w]]
            m = open_moves[sq] = sig_moves[sig] or _sig_moves(sig)
            if inside[sq]:
                counted[sq] = m[2]
    else:  # 5.1a: the first card goes on d4
        m = open_moves[CENTRE] = sig_moves[0] or _sig_moves(0)
        counted[CENTRE] = m[2]
    total = sum(counted)
    while placed < stop:
        # The listing (tables.listing): the moves code by code, and for each
        # code square by square in the order of their names, each square's
        # in the order of its orders; only the one picked is made.
        hand = deck[drawn : drawn + 1] if drawn < size else hands[seat]
        codes, mask = codes_of.get(hand) or _codes(hand)
        # The moves of the hand's codes: their fields of ``total`` summed
        # (2**16 is 1 modulo 2**16 - 1, and they sum to far less).
        k = pick((total & mask) % _FIELD)
        for code in codes:  # the code of the move picked
            here = total >> (code << 4) & _FIELD
            if k < here:
                break
            k -= here
        for sq in squares:  # and its square
            if (m := open_moves[sq]) is not None:
                if k < m[1][code]:
                    break
                k -= m[1][code]
        oids = m[0][code]
        oid = oids[k]
        text = base[code][sq] + suffix[oid]
        known = _KNOWN[code * OFF + sq]
        place = order_at[oid][0]
        kind, rows_at, shares, faces, _, _, sq, nbrs, _, _ = known
        # The move is listed, so legal: its result read as _play reads it.
        n, e, s, w = nbrs
        sh_n, sh_e, sh_s, sh_w = shares
        sig = sh_n[board[n]] + sh_e[board[e]] + sh_s[board[s]] + sh_w[board[w]]
        turned, flips = results[rows[row_of[rows_at + sig] * ROW + place]]
        board[sq] = faces[turned]
        open_moves[sq] = None
        total -= counted[sq]
        counted[sq] = 0
        grown, closed = window.after[sq] or window.grow(sq)
        if grown is not window:  # the box grows: squares may close
            for j in closed:
                total -= counted[j]
                counted[j] = 0
            window = grown
            squares, inside = window.squares, window.inside
        changed = list(nbrs)
        for d in flips:
            j = nbrs[d]
            board[j] = flipped[board[j]]
            changed += NEIGHBOURS[j]
        for j in changed:  # the empty squares whose neighbours changed
            if board[j] < 0 and j != OFF:
                n, e, s, w = NEIGHBOURS[j]
                sig = sig_n[board[n]] + sig_e[board[e]] + sig_s[board[s]] + sig_w[board[w]]
                m = open_moves[j] = sig_moves[sig] or _sig_moves(sig)
                if inside[j]:
                    total += m[2] - counted[j]
                    counted[j] = m[2]
        if drawn < size:  # 7: the card drawn
            drawn += 1
        else:  # 3: a card of one's own
            held = hands[seat]
            hands[seat] = (_LEFT.get(held) or _left(held))[kind]
        texts.append(text)
        seats.append(seat)
        placed += 1
        last = sq
        seat = following[seat]
    after = replace(
        state,
        board=tuple(board),
        hands=tuple(hands),
        deck=deck[drawn:],
        placed=placed,
        seat=-1 if placed == CARDS else seat,
        box=window.box,
        last=last,
    )
    return texts, seats, after


def _near_cards(board: Sequence[int]) -> set[int]:
    """The empty squares of the frame next to a card."""
    return {j for sq in range(OFF) if board[sq] >= 0 for j in NEIGHBOURS[sq]
            if j != OFF and board[j] < 0}


# Per signature of the neighbours of a square, the canonical moves of every
# card code there (what tables.fill puts in a block, whatever the square):
# per code the numbers of their orders (tables.ORDERS), in the order of the
# listing; per code how many; and those numbers packed in one, code c's in
# bits 16c to 16c + 15 (at most 9 moves a code on a square, so a sum over
# the open squares fits its field). None: not worked out yet.
_SigMoves = tuple[tuple[tuple[int, ...], ...], tuple[int, ...], int]
_SIG_MOVES: list[_SigMoves | None] = [None] * SIGS
_FIELD = 0xFFFF


def _sig_moves(sig: int) -> _SigMoves:
    if _ROW_OF is None:
        prepare()
    assert _ROW_OF is not None
    turned = [tables.turn_sig(sig, t) for t in range(4)]
    orders = tuple(
        tuple([ORDER_ID[o] for o in tables.ORDER_SETS[
            tables.ROW_SET[_ROW_OF[REL_INDEX[code] * SIGS + turned[CLASS[code][1]]]]]])
        for code in range(16)
    )
    counts = tuple(map(len, orders))
    out = _SIG_MOVES[sig] = (orders, counts, sum(k << 16 * code for code, k in enumerate(counts)))
    return out


# Per hand: its card codes (both faces of each card), ascending (the order
# of the listing), and the mask of their fields in _sig_moves' packed numbers.
_CODES: dict[tuple[int, ...], tuple[tuple[int, ...], int]] = {}


def _codes(hand: tuple[int, ...]) -> tuple[tuple[int, ...], int]:
    if len(_CODES) > 10_000:
        _CODES.clear()
    codes = tuple(sorted({c for k in hand for c in (k, flip(k))}))
    out = _CODES[hand] = (codes, sum(_FIELD << 16 * c for c in codes))
    return out


class _Window:
    """Per box of a table with cards: the squares where a card may go next
    as far as the box goes (5.1b: the cards still fit a 4x4 box), in the
    order of their names (as tables.listing takes them); per square whether
    it is one of them; and per square, once a card has gone there, the
    window of the box after it and the squares that placement closes
    (worked out when first met, by :meth:`grow`). Kept in _WINDOWS: at most
    8**4 boxes."""

    __slots__ = ("box", "squares", "inside", "after")

    def __init__(self, box: tuple[int, int, int, int], squares: tuple[int, ...]) -> None:
        inside = bytearray(OFF + 1)
        for sq in squares:
            inside[sq] = 1
        self.box = box
        self.squares = squares
        self.inside = bytes(inside)
        self.after: list[tuple[_Window, tuple[int, ...]] | None] = [None] * OFF

    def grow(self, sq: int) -> tuple[_Window, tuple[int, ...]]:
        """The window after a card goes on ``sq``, and the squares it closes."""
        r, c = ROW_COL[sq]
        r0, r1, c0, c1 = self.box
        box = (min(r, r0), max(r, r1), min(c, c0), max(c, c1))
        if box == self.box:
            out: tuple[_Window, tuple[int, ...]] = (self, ())
        else:
            grown = _WINDOWS.get(box) or _window(box)
            out = (grown, tuple(j for j in self.squares if not grown.inside[j]))
        self.after[sq] = out
        return out


_WINDOWS: dict[tuple[int, int, int, int], _Window] = {}


def _window(box: tuple[int, int, int, int]) -> _Window:
    r0, r1, c0, c1 = box
    rows = range(max(r1 - 3, r0 - 1, 0), min(r0 + 3, r1 + 1, SIZE - 1) + 1)
    cols = range(max(c1 - 3, c0 - 1, 0), min(c0 + 3, c1 + 1, SIZE - 1) + 1)
    out = _WINDOWS[box] = _Window(box, tuple(r * SIZE + c for c in cols for r in rows))
    return out


# The window of the empty table: the first card goes on d4 (5.1a).
_FIRST = _Window(NO_BOX, (CENTRE,))
