"""Golden files (pytest-regressions) for rendered boards, legal-move lists and
whole replays. After an intended change, regenerate with
``pytest tests/test_golden.py --force-regen`` and review the diff."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from adjudicator import games, log as logmod, match
from adjudicator.cli import app
from adjudicator.engine import Style

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*/*.json"))


def load(path: Path) -> match.Replay:
    return match.validate(logmod.decode(path.read_bytes(), str(path)), keep=True)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: f"{p.parent.name}-{p.stem}")
def test_rendered_positions(path: Path, file_regression) -> None:
    """The start, the middle and the end of every example, in both styles."""
    rep = load(path)
    game = rep.game
    parts = []
    for ply in sorted({0, len(rep.states) // 2, len(rep.states) - 1}):
        state = rep.states[ply]
        seat = game.to_move(state)
        v = game.view(state, seat)
        for style in (Style(unicode=True), Style(unicode=False)):
            parts.append(f"--- after {ply} moves, {'unicode' if style.unicode else 'ascii'} ---")
            parts.append(game.render(v, style))
    file_regression.check("\n".join(parts) + "\n", extension=".txt", encoding="utf-8")


# Each game's first example (by file name).
FIRSTS = sorted({p.parent.name: p for p in reversed(EXAMPLES)}.values())


@pytest.mark.parametrize("path", FIRSTS, ids=lambda p: f"{p.parent.name}-{p.stem}")
def test_legal_move_lists(path: Path, data_regression) -> None:
    rep = load(path)
    game = rep.game
    lists = {}
    for ply in (0, 1, len(rep.states) // 2):
        state = rep.states[ply]
        lists[f"after {ply}"] = [game.format_move(state, m) for m in game.legal_moves(state)]
    data_regression.check(lists)


def test_whole_replay_text(file_regression) -> None:
    path = ROOT / "examples" / "turn-of-time" / "4-players.json"
    result = CliRunner().invoke(app, ["replay", str(path), "--ascii"])
    assert result.exit_code == 0, result.output
    file_regression.check(result.stdout.replace(str(path), "LOG"), extension=".txt")


def test_whole_replay_json(file_regression) -> None:
    path = ROOT / "examples" / "turn-of-time" / "3-players.json"
    result = CliRunner().invoke(app, ["replay", str(path), "--json"])
    assert result.exit_code == 0, result.output
    file_regression.check(result.stdout, extension=".json")


def test_outcomes_of_examples(data_regression) -> None:
    data_regression.check({
        p.stem: logmod.msgspec.to_builtins(load(p).game.outcome(load(p).state))
        for p in EXAMPLES
    })


def test_registry_is_what_the_golden_files_cover() -> None:
    covered = {p.parent.name for p in EXAMPLES}
    assert covered == set(games.GAMES), "every game needs example logs"
