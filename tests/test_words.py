"""Moves people can read (issue #26): every legal move in words, from one
per-game function (``describe``, declared by the game's Narration layer)
that ``legal --explain``, ``show``, ``hint``, the referee's view files and
the HTML replay share; and Turn of Time's flips said as such.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from adjudicator import games, html, log as logmod, match, narrating
from adjudicator.cli import app

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()


def run(*args: object, code: int = 0) -> str:
    r = runner.invoke(app, [str(a) for a in args])
    assert r.exit_code == code, (args, r.stdout, r.stderr)
    return r.stdout


def positions(game_id: str, plies: int = 40, seed: str = "7"):
    """States of a random game of ``game_id``, each with its player to move."""
    game = games.get(game_id)
    n = 3 if 3 in game.players else game.players[-1]
    state = game.setup({p.name: p.default for p in game.params}, tuple("abcd"[:n]), seed)
    rnd = random.Random(seed)
    for _ in range(plies):
        seat = game.to_move(state)
        if seat is None:
            return
        yield state, seat
        state = game.apply(state, rnd.choice(game.legal_moves(state)))


@pytest.mark.parametrize("game_id", sorted(games.GAMES))
def test_every_legal_move_has_words_from_the_movers_view_alone(game_id: str) -> None:
    game = games.get(game_id)
    for state, seat in positions(game_id):
        moves = [game.format_move(state, m) for m in game.legal_moves(state)]
        view = game.view(state, seat)
        told = narrating.explained(game, view, moves)
        assert [m for m, _ in told] == moves
        for move, words in told:
            assert words and words.isascii() and words.isprintable(), (move, words)
            assert not words.endswith(".")
        # Only the view speaks: whatever the mover cannot see, the words stay.
        other = game.redeal(state, seat, "another deal")
        assert narrating.explained(game, game.view(other, seat), moves) == told


def test_the_words_say_what_the_rule_text_says() -> None:
    atlas, palatrix = games.get("atlas"), games.get("time-palatrix")
    assert atlas.describe(None, "3D+2T") == "play the 3 of Day, predicting Time with 2 chips"
    assert palatrix.describe(None, "2") == "bid 2: exactly 2 tricks"
    fifteen = games.get("fifteen-days")
    state, seat = next(positions("fifteen-days"))
    assert fifteen.describe(fifteen.view(state, seat), "FD1").startswith(
        "spend a feather on the Squirrel, then draw a")
    q = games.get("q-turn")
    state, seat = next(positions("q-turn"))
    assert q.describe(q.view(state, seat), "a1") == (
        "enter the board on a1, your starting corner, and reveal its disk")


def test_legal_explain_lists_each_move_with_its_words(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    run("new", "fifteen-days", "--players", "ann,Zoë", "--seed", "3", "-o", path)
    plain = run("legal", path).split()
    text = run("legal", path, "--explain", "--ascii")
    lines = text.splitlines()
    assert all(len(line) <= 72 and line.isascii() and not line.startswith(">") for line in lines)
    heads = [line.split()[0] for line in lines if line[2] != " "]
    assert heads == plain
    assert "  Ta      take the " in text
    import json

    data = json.loads(run("legal", path, "--explain", "--json"))
    assert data["moves"] == plain and len(data["words"]) == len(plain)
    assert "words" not in json.loads(run("legal", path, "--json"))


def test_show_and_the_view_file_list_the_moves_in_words(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    run("new", "q-turn", "--players", "ann,bob", "--seed", "5", "-o", path)
    shown = run("show", path, "--ascii")
    assert "  a1  enter the board on a1, your starting corner, and reveal its disk" in shown
    # A referee's view file, as mailed: the same words.
    run("new", "q-turn", "--players", "ann,bob", "--seed", "5", "-o", tmp_path / "r.json",
        "--referee")
    run("view", tmp_path / "r.json", "--secret", tmp_path / "r.secret.json", "--as", "ann",
        "-o", tmp_path / "ann.json")
    mailed = run("show", tmp_path / "ann.json", "--ascii")
    assert "  d4  enter the board on d4, your starting corner, and reveal its disk" in mailed


def test_extend_says_the_card_placed_flipped(tmp_path: Path) -> None:
    # The README's first example: Spring up beside the Summer of d4, which
    # flips it to Fall at once; the log records FaSp-d5.
    path = tmp_path / "game.json"
    run("new", "turn-of-time", "--players", "ann,bob,cy", "--seed", "2026-11-22", "-o", path)
    out = run("extend", path, "spring/fall d5", "--as", "ann")
    first, words = out.splitlines()[:2]
    assert first == f"Recorded 1 move in {path}: FaSp-d5"
    assert words.startswith("  FaSp-d5: Spring with a Fall back on d5: the Summer on d4 "
                            "flips it to")
    # The last move above the board says what the board shows.
    shown = run("show", path, "--ascii")
    assert "Last move: ann FaSp-d5: Fall with a Spring back on d5" in shown


def test_the_html_replay_describes_every_move() -> None:
    for game_id in sorted(games.GAMES):
        path = sorted((ROOT / "examples" / game_id).glob("*.json"))[0]
        rep = match.validate(logmod.decode(path.read_bytes()), keep=True)
        frames = html.frames(rep, None)
        assert frames[0].words is None
        assert all(f.words for f in frames[1:]), game_id
