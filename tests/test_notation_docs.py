"""Every example in notation/ is executable: moves parse, format back canonically
and apply; refused examples are refused; JSON logs in the docs validate.

A ```moves block starts with a header comment
``# game: ID; players: a,b; seed: S[; params: k=v,k=v]`` and then has one
move per line:

    typed -> canonical    play the move; it must be recorded as canonical
    canonical             the same, when typed canonically
    = typed -> canonical  check the reading only; do not play it
    x typed               the move must be refused (illegal or unreadable)
    ? typed               the move must be refused as ambiguous

Text after ``#`` is a comment.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from adjudicator import games, log as logmod, match
from adjudicator.errors import AmbiguousMoveError, MoveError

NOTATION = Path(__file__).resolve().parent.parent / "notation"
DOCS = sorted(NOTATION.glob("*.md"))
FENCE = re.compile(r"^```(\w+)\n(.*?)^```", re.S | re.M)


def blocks(kind: str) -> list[tuple[str, int, str]]:
    out = []
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        for m in FENCE.finditer(text):
            if m[1] == kind:
                line = text[: m.start()].count("\n") + 1
                out.append((doc.name, line, m[2]))
    return out


def test_every_game_has_a_notation_document() -> None:
    for game in games.GAMES.values():
        assert (NOTATION.parent / game.notation_doc).is_file(), game.notation_doc


def test_there_are_move_examples() -> None:
    documented = {
        re.search(r"game:\s*([\w-]+)", body)[1] for _, _, body in blocks("moves")  # type: ignore[index]
    }
    assert documented >= set(games.GAMES)


@pytest.mark.parametrize(("doc", "line", "body"), blocks("moves"), ids=lambda v: str(v)[:30])
def test_move_examples(doc: str, line: int, body: str) -> None:
    lines = body.splitlines()
    header = dict(
        (k.strip(), v.strip())
        for k, _, v in (part.partition(":") for part in lines[0].lstrip("# ").split(";"))
    )
    params = dict(kv.split("=", 1) for kv in header.get("params", "").split(",") if kv)
    log = match.new_log(header["game"], header["players"].split(","), header["seed"], params)
    game, state = match.start(log)
    for offset, raw in enumerate(lines[1:], start=line + 2):
        where = f"{doc}:{offset}: {raw.strip()}"
        text = raw.split("#", 1)[0].strip()
        if not text:
            continue
        mark = text[0] if text[0] in "x?=" and text[1:2] == " " else ""
        text = text[2:].strip() if mark else text
        if mark == "x":
            with pytest.raises(MoveError):
                game.apply(state, game.parse_move(state, text))
                pytest.fail(f"not refused: {where}")
            continue
        if mark == "?":
            with pytest.raises(AmbiguousMoveError):
                game.apply(state, game.parse_move(state, text))
                pytest.fail(f"not refused as ambiguous: {where}")
            continue
        typed, _, canonical = (s.strip() for s in text.partition("->"))
        canonical = canonical or typed
        move = game.parse_move(state, typed)
        assert game.format_move(state, move) == canonical, where
        again = game.parse_move(state, canonical)
        assert game.format_move(state, again) == canonical, where
        legal = {game.format_move(state, m) for m in game.legal_moves(state)}
        assert canonical in legal, where
        if mark != "=":
            state = game.apply(state, move)


@pytest.mark.parametrize(("doc", "line", "body"), blocks("json"), ids=lambda v: str(v)[:30])
def test_json_logs_in_docs_validate(doc: str, line: int, body: str) -> None:
    if '"format": "adjudicator-log"' not in body:
        pytest.skip("not a log")
    log = logmod.decode(body, f"{doc}:{line}")
    match.validate(log)
    assert logmod.encode(log).decode() == body, "documented logs use the stable encoding"
