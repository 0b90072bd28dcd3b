"""Atlas: the fast path of validation (:mod:`adjudicator.games.atlas.fast`)
against the checked path (:mod:`adjudicator.games.atlas.rules`).

``fast_apply(state, text)`` must give exactly the state that reading,
applying and formatting the move give (``match.replay``'s checked path)
when ``text`` is the canonical notation of a legal move, and None for any
other text: a move spelled another way, an illegal move, garbage. Random
games from fixed seeds are played with either path, move by move; every
text that could ever be canonical is tried at every position of some of
them, and the starting cards of the deal are compared with :mod:`chance`.
``fast_play`` (a whole log's texts at once) must give the seats and the state
that ``fast_apply`` gives text after text, and stop at the first it refuses.
``fast_game`` (self-play's whole game at once) must play the game that the
checked loop (legal_moves, format_move, apply) plays with the same picks.
"""

from __future__ import annotations

import random

import pytest

from adjudicator.chance import Chance
from adjudicator.errors import MoveError
from adjudicator.games.atlas import GAME as game, fast, notation, rules
from test_conformance import checked_game  # self-play by the checked loop, for any game

NAMES = ("ann", "bob", "cy", "dee")
EVERY_CANONICAL = list(notation.CANONICAL)  # 32 cards x (alone, 1-5 on Time, 1-5 on Place)


def checked(state, text: str):
    """The checked path, as match.replay runs it: the state, or None if refused."""
    try:
        move = game.parse_move(state, text)
        after = game.apply(state, move)
        canonical = game.format_move(state, move)
    except MoveError:
        return None
    return after if canonical == text else None


def spelled_otherwise(text: str) -> list[str]:
    """Texts that read as ``text`` but are not its canonical spelling, and near misses."""
    card, _, bet = text.partition("+")
    out = [text.lower(), f" {text}", f"{text} ", text.replace("+", " "), text.replace("+", "/")]
    out += [card[::-1], f"{card[0]} of {card[1]}", f"{card}+0T", f"{card}+6P", f"{card}+2"]
    if bet:
        out += [f"{card}+{bet[1]}{bet[0]}", f"{card}+0{bet}", f"{card}{bet}"]
    return [t for t in out if t != text]


def consistent(state) -> None:
    """The state's masks agree with its lists (they are kept side by side)."""
    assert state.up & state.down == 0
    assert state.on_time == rules.mask(s.card for s in state.stacks if s.side == rules.TIME)
    assert state.on_place == rules.mask(s.card for s in state.stacks if s.side == rules.PLACE)
    assert len({s.card for s in state.stacks}) == len(state.stacks)
    cards = [c for h in state.hands for c in h] + list(state.deck) + list(state.removed)
    assert len(cards) == len(set(cards))
    assert rules.mask(cards) & (state.up | state.down) == 0


def play(players: int, seed: str, every_text: bool):
    """A random game; at each position the fast path is compared with the
    checked path on the legal moves and on texts that must be refused."""
    rng = random.Random(f"fast/{players}/{seed}")
    state = game.setup({}, NAMES[:players], seed)
    while game.to_move(state) is not None:
        consistent(state)
        legal = [game.format_move(state, m) for m in game.legal_moves(state)]
        texts = EVERY_CANONICAL if every_text else rng.sample(EVERY_CANONICAL, 40) + legal
        for text in texts:
            assert fast.fast_apply(state, text) == checked(state, text), text
        for text in rng.sample(legal, min(3, len(legal))):
            for other in spelled_otherwise(text):
                assert fast.fast_apply(state, other) is None, other
        if every_text:
            assert sorted(t for t in EVERY_CANONICAL if fast.fast_apply(state, t)) == sorted(legal)
        state = fast.fast_apply(state, rng.choice(legal))
    consistent(state)
    for text in rng.sample(EVERY_CANONICAL, 20):
        assert fast.fast_apply(state, text) is None  # the game is over
    return state


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", [str(i) for i in range(4)])
def test_fast_path_every_text_at_every_position(players, seed):
    play(players, f"all-{seed}", every_text=True)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_fast_path_many_random_games(players):
    for k in range(40):
        play(players, f"many-{k}", every_text=False)


def test_the_starting_cards_are_those_of_the_stream():
    """Game Set Up 3 with 4 players: the two face-up cards of the deal are
    those that Chance draws from the stream 'start' (redraws included, and
    the seeds that need more than four draws)."""
    longer = 0
    for k in range(600):
        seed = f"start-{k}"
        draws, first, second = _draws(seed)
        assert rules.starting_cards(seed) == (first, second)
        assert game.setup({}, NAMES, seed).up == 1 << first | 1 << second
        longer += draws > 4
    assert longer >= 1, "the seeds must include deals of more than four draws"


def test_fast_setup_is_the_rules_setup():
    """fast_setup deals what rules.setup deals, at every player count; with 4
    players it takes the starting cards from the stream's first block and
    declines (None) exactly the deals that need a fifth draw of two."""
    longer = 0
    for k in range(600):
        seed = f"start-{k}"
        for n in (2, 3):
            assert fast.fast_setup({}, NAMES[:n], seed) == rules.setup({}, NAMES[:n], seed)
        dealt = fast.fast_setup({}, NAMES, seed)
        draws = _draws(seed)[0]
        if draws > 4:
            longer += 1
            assert dealt is None, seed
            if longer == 1:  # validation then deals by the rules
                from adjudicator import accelerated, match

                log = match.simulate("atlas", NAMES, seed)
                assert accelerated.started(log)[1] == rules.setup({}, NAMES, seed)
                rep = accelerated.validated(log)
                assert rep is not None and rep.state == match.replay(log, keep=True).state
        else:
            assert dealt == rules.setup({}, NAMES, seed), seed
    assert longer >= 1, "the seeds must include deals of more than four draws"


def test_starting_from_takes_what_the_stream_would():
    """starting_from reads the draws as Chance would: each pair a number below
    32, then below 31 among the others; a pair sharing a suit or a number is
    put back; a word below() would throw away ends the shortcut."""
    from adjudicator.chance import limit

    # 4W (card 3), then the 11th of the 31 others, 4D (card 11): the same
    # number, put back; the next pair, 1W (card 0) and 3D (card 10), is taken.
    assert fast.starting_from([3, 10, 0, 9]) == (0, 10)
    assert fast.starting_from([3, 10]) is None  # no pair taken
    assert fast.starting_from([0, limit(31)]) is None  # below(31) puts that word back
    assert fast.starting_from([0, limit(31) - 1]) == _pair(0, (limit(31) - 1) % 31)
    assert limit(32) == 2**32  # below(32) never puts a word back


def _pair(first: int, second: int) -> tuple[int, int] | None:
    second += second >= first
    return (first, second) if first // 8 != second // 8 and first % 8 != second % 8 else None


def _draws(seed: str) -> tuple[int, int, int]:
    """How many draws of two the deal of the starting cards takes, and the two."""
    chance, draws = Chance(seed, "start"), 0
    while True:
        draws += 1
        first = chance.below(32)
        second = chance.below(31)
        second += second >= first
        if first // 8 != second // 8 and first % 8 != second % 8:
            return draws, first, second


def random_game(players: int, seed: str):
    """A random game: its texts, the seat that played each, and the state before
    each text and after the last (from fast_apply)."""
    rng = random.Random(f"whole/{players}/{seed}")
    state = game.setup({}, NAMES[:players], seed)
    texts, seats, states = [], [], [state]
    while (seat := game.to_move(state)) is not None:
        text = rng.choice([game.format_move(state, m) for m in game.legal_moves(state)])
        state = fast.fast_apply(state, text)
        texts.append(text)
        seats.append(seat)
        states.append(state)
    return texts, seats, states


@pytest.mark.parametrize("players", [2, 3, 4])
def test_fast_play_is_fast_apply_move_after_move(players):
    """fast_play of any stretch of a game gives the seats that played it and
    exactly the state fast_apply reaches, the last play (End of Game) included;
    nothing is played once the game is over."""
    for k in range(12):
        texts, seats, states = random_game(players, f"play-{k}")
        for start in range(0, len(texts) + 1, 4):
            for stop in range(start, len(texts) + 1):
                got = fast.fast_play(states[start], texts[start:stop])
                assert got == (seats[start:stop], states[stop]), (start, stop)
        assert fast.fast_play(states[0], texts + texts[:1]) == (seats, states[-1])
        assert states[-1].seat == -1
        assert fast.fast_play(states[-1], texts) == ([], states[-1])


@pytest.mark.parametrize("players", [2, 3, 4])
def test_fast_play_stops_at_the_first_text_fast_apply_refuses(players):
    """A text that is not the canonical notation of a legal move (another
    spelling, an illegal move, an event) stops fast_play before it: the seats
    and the state are those of the texts before it. Every text that can ever be
    canonical is tried at some positions."""
    rng = random.Random(f"stop/{players}")
    for k in range(6):
        texts, seats, states = random_game(players, f"stop-{k}")
        for at in rng.sample(range(len(texts)), 6):
            refused = [t for t in EVERY_CANONICAL if fast.fast_apply(states[at], t) is None]
            refused += spelled_otherwise(texts[at]) + ["@resign", "", "garbage"]
            for bad in rng.sample(refused, 25) + refused[-3:]:
                got = fast.fast_play(states[0], texts[:at] + [bad] + texts[at:])
                assert got == (seats[:at], states[at]), (at, bad)
            for text in EVERY_CANONICAL:
                after = fast.fast_apply(states[at], text)
                want = ([seats[at]], after) if after is not None else ([], states[at])
                assert fast.fast_play(states[at], [text]) == want, text


def standing_by_definition(state):
    """End of Game and Final Scoring as the rule text says it, written plainly
    (and apart from rules.standing)."""
    from adjudicator.engine import Outcome, Standing

    players = state.players
    n = len(players)
    scored = [[] for _ in range(n)]
    riding = [[] for _ in range(n)]
    for s in sorted(state.stacks):
        (scored if state.down >> s.card & 1 else riding)[s.seat].append(s.chips)

    def counted(k, word):
        return f"{k} {word}{'s' * (k != 1)}"

    def stacks_words(chips):
        if not chips:
            return "no stack"
        if len(chips) == 1:
            return f"1 stack ({counted(chips[0], 'chip')})"
        return (f"{counted(len(chips), 'stack')} ({' + '.join(str(c) for c in chips)} = "
                f"{counted(sum(chips), 'chip')})")

    score = [sum(c) + len(c) for c in scored]
    count = [len(c) for c in scored]
    order = sorted(range(n), key=lambda p: (-score[p], -count[p], p))
    places = []
    for i, p in enumerate(order):
        q = order[i - 1] if i else None
        places.append(places[-1] if q is not None and (score[p], count[p]) == (score[q], count[q])
                      else i + 1)
    details = [f"{players[p]}: {stacks_words(scored[p])} on face-down cards - "
               f"{counted(sum(scored[p]), 'point')} for chips + {counted(count[p], 'point')} "
               f"for stacks = {counted(score[p], 'point')}" for p in range(n)]
    if state.seat < 0:
        lost = [f"{players[p]} {state.unscored[p]}" for p in range(n) if state.unscored[p]]
        if lost:
            details.append("chips left on face-up cards at the end, removed unscored: "
                           + ", ".join(lost))
    else:
        for p in range(n):
            if riding[p]:
                details[p] += f"; {stacks_words(riding[p])} still on face-up cards"
    ordinal = {1: "1st", 2: "2nd", 3: "3rd"}
    for i in range(n - 1):
        hi, lo = order[i], order[i + 1]
        if score[hi] != score[lo]:
            continue
        both = f"{players[hi]} and {players[lo]} both have {counted(score[hi], 'point')}"
        if count[hi] != count[lo]:
            details.append(f"{both}; {players[hi]} ranks higher with more stacks "
                           f"({count[hi]} to {count[lo]}) ({rules.END_CLAUSE})")
        else:
            details.append(f"{both} and {counted(count[hi], 'stack')}: they share "
                           f"{ordinal.get(places[i], f'{places[i]}th')} place ({rules.END_CLAUSE})")
    return Outcome(
        standings=tuple(Standing(player=players[p], score=score[p], place=place)
                        for p, place in zip(order, places)),
        winners=tuple(players[p] for p, place in zip(order, places) if place == 1),
        details=tuple(details),
    )


@pytest.mark.parametrize("players", [2, 3, 4])
def test_standing_is_the_score_by_definition(players):
    """rules.standing gives the outcome of the rule text at every position of
    random games: riding stacks, ties, chips removed unscored at the end."""
    ties = unscored = 0
    for k in range(40):
        _, _, states = random_game(players, f"score-{k}")
        for state in states:
            got = rules.standing(state)
            assert got == standing_by_definition(state)
            ties += len({s.place for s in got.standings}) < players
        unscored += any(states[-1].unscored)
    assert ties and unscored


@pytest.mark.parametrize("players", [2, 3, 4])
def test_fast_game_is_the_checked_loop(players):
    """``fast_game`` plays the game the checked loop plays with the same
    picks, text for text, seat for seat, to the same state: from the start
    and from every position of a game, to the end or for a few moves; a
    finished game or a limit of 0 plays nothing. The games include
    completions that discard stacks, players short of chips and the last
    play (End of Game), which the test checks it met."""
    met = {"discard": 0, "short": 0, "unscored": 0}
    for seed in range(16):
        start = game.setup({}, NAMES[:players], f"whole-{seed}")
        picks = f"{players}/{seed}"
        texts, seats, end = checked_game(game, start, Chance(picks, "simulate").below, None)
        assert fast.fast_game(start, Chance(picks, "simulate").below) == (texts, seats, end)
        state = start
        for k, text in enumerate(texts):
            for limit in (None, 0, 1, 3):
                pick = f"{players}/{seed}/{k}/{limit}"
                want = checked_game(game, state, Chance(pick, "pick").below, limit)
                assert fast.fast_game(state, Chance(pick, "pick").below, limit) == want, (k, limit)
            after = game.apply(state, game.parse_move(state, text))
            met["discard"] += len(after.stacks) < len(state.stacks)
            met["short"] += min(state.chips) < rules.MAX_BET
            state = after
        met["unscored"] += sum(end.unscored) > 0
        assert fast.fast_game(end, Chance("over", "pick").below) == ([], [], end)
    assert all(met.values()), met
