"""Random-play conformance of every registered game to the engine contract.

For many seeds, player counts and parameter values, a game is played with
random legal moves, and at every position:

* the legal moves are deterministic, distinct in notation, and each one
  formats, parses back to itself and applies;
* move texts gathered from other positions apply exactly when they are in
  the legal list (nothing outside the list applies);
* the validation fast path (``fast_apply``) gives exactly the state of the
  checked path for every listed move, and ``None`` for every text that is
  not the canonical notation of a legal move (other positions' moves, other
  spellings of listed ones); self-play's ``fast_step``, where a game has
  it, gives the canonical text and the state of every listed move, and
  ``None`` or the same as the checked path for any other (and its
  ``fast_game``, a whole game at once, is the checked loop's game);
* each player's view (and the spectator's) is unchanged when everything that
  player cannot see is re-dealt, and so is its picture, byte for byte; the
  rules rebuild a state from each view (``consistent``) whose view is that
  view again; a move typed into the view of the player to move is read as
  the log reads it, and a refusal's words are the same on the true state, on
  re-deals of it and on states rebuilt from the view; every
  view renders in both styles within 72 columns (ASCII only in the ASCII
  style), and its picture is well-formed SVG;

and at the end the log round-trips through encode/decode, replays to the
same states and validates, with its result equal to the game's outcome.

The volume: ``ADJUDICATOR_VOLUME=long`` (what ``.ci/run`` sets) plays six seeds
of every game, player count and parameter value; by default one, so that the
README's test command stays within minutes.
"""

from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET

import msgspec
import pytest
import volume

from adjudicator import drawing, games, log as logmod, match, reading
from adjudicator.chance import Chance
from adjudicator.engine import Accelerator, GameSpec, Notation, Rules, Style
from adjudicator.errors import MoveError

SEEDS = volume.seeds(1, 6)
NAMES = ("ann", "bob", "cy", "dee", "eve", "fay")


def param_sets(game: GameSpec) -> list[dict]:
    """The defaults, then each other choice of each parameter on its own."""
    out: list[dict] = [{}]
    for p in game.params:
        out += [{p.name: c} for c in p.choices if c != p.default]
    return out


CASES = [
    pytest.param(game_id, n, params, seed, id=f"{game_id}-{n}p-{params or 'default'}-{seed}")
    for game_id, game in games.GAMES.items()
    for n in game.players
    for params in param_sets(game)
    for seed in SEEDS
]


def refusal(game: GameSpec, state, listed: set[str], text: str) -> tuple[str, ...] | None:
    """What the reader of a view file finds wrong with ``text`` when it reads
    it on ``state``: None for a listed move, else the refusal's words."""
    try:
        move = game.parse_move(state, text)
    except MoveError as e:
        return ("unreadable", str(e))
    try:
        game.apply(state, move)
    except MoveError as e:
        return (type(e).__name__, game.spell_refused(state, move), e.reason, str(e.clause))
    return None if game.format_move(state, move) in listed else ("legal but not listed",)


def check_reading(game: GameSpec, state, seat: int, seen, texts: list[str], pool: list[str],
                  params: dict, seed: str) -> None:
    """The view file's reader at the position of ``seat`` to move: every
    listed move in every spelling, and the words of every refusal the same
    whatever the player cannot see."""
    listed = tuple(texts)
    for text in texts[:: max(1, len(texts) // 6)]:
        for typed in (text, text.lower(), f" {text.upper()} "):
            assert reading.read_listed(game, seen, listed, typed, params) == text
    states = [state, game.redeal(state, seat, f"{seed}/reading"),
              game.consistent(seen, params, reading.READER_SEED),
              game.consistent(seen, params, f"{seed}/reading")]
    for text in pool[:12]:
        words = {refusal(game, other, set(listed), text) for other in states}
        assert len(words) == 1, f"the refusal of {text!r} depends on hidden cards: {words}"
        (said,) = words
        if said is None or said[0] == "unreadable":
            continue
        with pytest.raises(MoveError) as refused:
            reading.read_listed(game, seen, listed, text, params)
        if said[0] == "AmbiguousMoveError":  # the rules' question, as the rules ask it
            assert (refused.value.reason, str(refused.value.clause)) == said[2:]
        elif said[0] != "legal but not listed":
            assert refused.value.reason == f"{said[1]} {reading.NOT_LISTED}: {said[2]}"


def check_views(game: GameSpec, state, players: int, params: dict, seed: str,
                picture: bool = True) -> None:
    names = NAMES[:players]
    for seat in [None, *range(players)]:
        seen = game.view(state, seat)
        for k in range(2):
            rebuilt = game.consistent(seen, params, f"{seed}/consistent/{k}")
            assert game.view(rebuilt, seat) == seen, f"seat {seat}'s view is not rebuilt"
            assert game.to_move(rebuilt) == game.to_move(state)
        scene = drawing.scene(game, names, state, 0, None, seat)
        svg = game.draw(seen, scene) if picture else None
        if svg is not None:
            assert ET.fromstring(svg).tag == "{http://www.w3.org/2000/svg}svg"
        for k in range(2):
            other = game.redeal(state, seat, f"{seed}/redeal/{k}")
            assert game.to_move(other) == game.to_move(state)
            assert game.view(other, seat) == seen, f"seat {seat} sees a re-deal"
            if svg is not None:
                redrawn = game.draw(game.view(other, seat), drawing.scene(
                    game, names, other, 0, None, seat))
                assert redrawn == svg, f"seat {seat}'s picture shows a re-deal"
            if seat is not None and game.to_move(state) == seat:
                assert [game.format_move(other, m) for m in game.legal_moves(other)] == [
                    game.format_move(state, m) for m in game.legal_moves(state)
                ], "the legal moves reveal hidden information"
        msgspec.json.encode(seen)
        for style in (Style(unicode=True, color=True), Style(unicode=False)):
            text = game.render(seen, style)
            assert text.strip()
            if not style.unicode:
                assert text.isascii()
                assert all(line.isprintable() for line in text.splitlines())
        plain = game.render(seen, Style(unicode=True))
        mailed = game.render(seen, Style(unicode=False)).splitlines()
        for line in plain.splitlines() + mailed:
            assert len(line) <= 72, f"a line of {len(line)} columns: {line!r}"
        # A line that starts with '>' is a quotation to every mail client (#26).
        assert not any(line.startswith(">") for line in mailed), "an ASCII line starts with '>'"


@pytest.mark.parametrize(("game_id", "n", "params", "seed"), CASES)
def test_random_play_conforms(game_id: str, n: int, params: dict, seed: str) -> None:
    play_and_check(game_id, n, params, seed)


def play_and_check(game_id: str, n: int, params: dict, seed: str) -> None:
    """One random game of ``game_id`` with every check of this module's docstring."""
    game = games.get(game_id)
    log = match.new_log(game_id, NAMES[:n], seed, params)
    _, state = match.start(log)
    rng = Chance(seed, "conformance")
    pool: list[str] = []
    entries = []
    states = [state]
    while (seat := game.to_move(state)) is not None:
        legal = game.legal_moves(state)
        assert legal, "a player to move must have a legal move"
        assert legal == game.legal_moves(state), "legal moves must be deterministic"
        texts = [game.format_move(state, m) for m in legal]
        assert len(set(texts)) == len(texts), "each legal move has its own notation"
        for move, text in zip(legal, texts):
            again = game.parse_move(state, text)
            assert game.format_move(state, again) == text
            for typed in (text.lower(), text.upper(), f"  {text} "):
                assert game.format_move(state, game.parse_move(state, typed)) == text
            assert game.apply(state, again) == game.apply(state, move), "notation loses a choice"
        legal_texts = set(texts)
        fast = game.fast
        assert fast is not None
        step = fast.fast_step
        for move, text in zip(legal, texts):
            assert fast.fast_apply(state, text) == game.apply(state, move), "fast path differs"
            # self-play's path: a listed move is spelled and played at once (or left to the checked path)
            assert step(state, move) in (None, (text, game.apply(state, move))), "fast step differs"
            for typed in {text.lower(), text.upper(), f" {text}"} - {text}:
                assert fast.fast_apply(state, typed) is None, f"fast path takes {typed!r}"
        for text in pool:
            if text not in legal_texts:
                assert fast.fast_apply(state, text) is None, f"fast path takes {text!r}"
        for text in pool:
            move = None
            try:
                move = game.parse_move(state, text)
                canonical = game.format_move(state, move)
                game.apply(state, move)
            except MoveError:
                assert text not in legal_texts, f"listed move {text!r} refused"
                if move is not None:
                    assert step(state, move) is None, f"fast step plays {text!r}"
                continue
            assert canonical in legal_texts, f"{text!r} applied but is not listed"
            assert step(state, move) in (None, (canonical, game.apply(state, move)))
        pool = (pool + texts[:: max(1, len(texts) // 12)])[-120:]
        # Pictures are slow to compare: every fifth position and the end.
        check_views(game, state, n, log.params, seed, picture=len(states) % 5 == 1)
        if len(states) % 3 == 1:
            check_reading(game, state, seat, game.view(state, seat), texts, pool, log.params, seed)
        game.standing(state)
        assert game.outcome(state) is None
        move = legal[rng.below(len(legal))]
        entries.append((log.players[seat], game.format_move(state, move), None))
        state = game.apply(state, move)
        states.append(state)
    check_views(game, state, n, log.params, seed)
    outcome = game.outcome(state)
    assert outcome is not None
    assert game.legal_moves(state) == ()
    assert sorted(s.player for s in outcome.standings) == sorted(log.players)
    assert set(outcome.winners) <= {s.player for s in outcome.standings if s.place == 1}

    done = msgspec.structs.replace(log, moves=match.sealed(log, entries), result=outcome)
    data = logmod.encode(done)
    assert logmod.decode(data) == done
    rep = match.validate(logmod.decode(data), keep=True)
    assert list(rep.states) == states, "replay must be deterministic"
    assert match.validate(logmod.decode(data)).state == state


def checked_game(game: GameSpec, state, pick, limit):
    """Self-play by the checked path: the move ``legal[pick(len(legal))]`` at
    each position, spelled by format_move and played by apply."""
    texts, seats = [], []
    while (seat := game.to_move(state)) is not None and (limit is None or len(texts) < limit):
        legal = game.legal_moves(state)
        move = legal[pick(len(legal))]
        texts.append(game.format_move(state, move))
        seats.append(seat)
        state = game.apply(state, move)
    return texts, seats, state


@pytest.mark.parametrize("game_id", list(games.GAMES))
def test_fast_game_is_the_checked_loop(game_id: str) -> None:
    """An accelerator's whole game of self-play (``fast_game``), where it has
    one, is the checked loop's game move for move: the texts, the seats and
    the state after, from the start and from the middle of a game, to the
    end or for a limited number of moves."""
    game = games.get(game_id)
    fast = game.fast
    assert fast is not None
    for n in game.players:
        for seed in SEEDS:
            log = match.new_log(game_id, NAMES[:n], f"whole-{seed}")
            start = match.start(log)[1]
            middle = checked_game(game, start, Chance(f"{seed}", "middle").below, 5)[2]
            for state, limit in ((start, None), (start, 7), (middle, None), (middle, 0)):
                got = fast.fast_game(state, Chance(f"{seed}/{limit}", "pick").below, limit)
                if got is not None:
                    assert got == checked_game(game, state, Chance(f"{seed}/{limit}", "pick").below,
                                               limit), (n, seed, limit)


@pytest.mark.parametrize("game_id", list(games.GAMES))
def test_simulate_is_deterministic(game_id: str) -> None:
    game = games.get(game_id)
    n = game.players[-1]
    a = match.simulate(game_id, NAMES[:n], "det")
    b = match.simulate(game_id, NAMES[:n], "det")
    c = match.simulate(game_id, NAMES[:n], "det", play_seed="other")
    assert logmod.encode(a) == logmod.encode(b)
    assert logmod.encode(a) != logmod.encode(c)


@pytest.mark.parametrize("game_id", list(games.GAMES))
def test_the_game_is_declared_once(game_id: str) -> None:
    game = games.get(game_id)
    assert isinstance(game, GameSpec)
    for name in ("id", "title", "players", "turn_clause", "end_clause", "notation_doc"):
        assert getattr(game, name), name
    assert isinstance(game.params, tuple), "params is a tuple, empty when the game has none"
    # The layers keep their Protocols (checked statically too: mypy reads the packages).
    for layer, protocol in ((game.rules, Rules), (game.notation, Notation), (game.fast, Accelerator)):
        for name in protocol.__dict__:
            if not name.startswith("_") and callable(protocol.__dict__[name]):
                assert callable(getattr(layer, name)), f"{layer.__name__} lacks {name}"
    assert game.view_type is game.rules.View
    assert callable(game.narration.narrate) and callable(game.text.render) and callable(game.picture.draw)
    assert isinstance(game.rules_version, int) and game.rules_version >= 1
    for p in game.params:
        # A parameter a later rules version brought in says what older logs played.
        assert p.since == 1 or (p.legacy is not None and p.since <= game.rules_version)
    assert game.id == game_id
    for p in game.params:
        assert p.coerce(p.default) == p.default
        for c in p.choices:
            assert p.coerce(str(c)) == c


@pytest.mark.parametrize("game_id", list(games.GAMES))
def test_fast_setup_is_the_rules_setup(game_id: str) -> None:
    """Each accelerator's fast_setup deals what the rules deal, or declines
    (None): every seat count and combination of parameters, many seeds; and
    the params it is given are left as they were."""
    game = games.get(game_id)
    for n in game.players:
        for combo in itertools.product(*[p.choices or (p.default,) for p in game.params]):
            params = {p.name: v for p, v in zip(game.params, combo)}
            for k in range(25):
                seed = f"fast-setup/{k}"
                given = dict(params)
                fast = game.fast.fast_setup(given, NAMES[:n], seed)
                assert given == params
                assert fast is None or fast == game.rules.setup(dict(params), NAMES[:n], seed), \
                    (game_id, n, params, seed)


def test_every_seat_count_and_param_combination_sets_up() -> None:
    for game in games.GAMES.values():
        for n in game.players:
            for combo in itertools.product(*[p.choices or (p.default,) for p in game.params]):
                params = {p.name: v for p, v in zip(game.params, combo)}
                log = match.new_log(game.id, NAMES[:n], "setup", params)
                assert match.start(log)[0] is game

