"""The log format: strict decoding with paths, stable encoding, the schema in notation/."""

from pathlib import Path

import pytest

from adjudicator import log as logmod, match
from adjudicator.errors import BadLogError

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture()
def finished() -> logmod.Log:
    return match.simulate("turn-of-time", ["ann", "bob", "cy"], "log-test")


def test_schema_in_notation_is_current() -> None:
    stored = (ROOT / "notation" / "log.schema.json").read_text(encoding="utf-8")
    assert stored == logmod.schema_text(), "run: adjudicator schema > notation/log.schema.json"


def test_encode_decode_round_trip(finished: logmod.Log) -> None:
    data = logmod.encode(finished)
    assert logmod.decode(data) == finished
    assert logmod.encode(logmod.decode(data)) == data


def test_encoding_is_stable(finished: logmod.Log) -> None:
    text = logmod.encode(finished).decode()
    assert text.endswith("}\n") and not text.endswith("\n\n")
    assert '\n  "format": "adjudicator-log",\n  "version": 2,\n  "game": "turn-of-time",\n  "rules": 2,' in text
    # parameters sorted by name, 2-space indent
    assert ('"params": {\n    "absent-doubles": "own-season",\n    "goal": "dominance",\n'
            '    "tie_order": "players"\n  }') in text
    keys = [line.split('"')[1] for line in text.splitlines() if line.startswith('  "')]
    assert keys == [
        "format", "version", "game", "rules", "params", "players", "seed", "salt",
        "commitment", "moves", "result",
    ]


def test_comment_is_omitted_when_absent(finished: logmod.Log) -> None:
    assert '"comment"' not in logmod.encode(finished).decode()


def test_params_are_written_sorted_whatever_the_input_order(finished: logmod.Log) -> None:
    text = logmod.encode(finished).decode().replace(
        '"absent-doubles": "own-season",\n    "goal": "dominance"',
        '"goal": "dominance",\n    "absent-doubles": "own-season"',
    )
    assert logmod.encode(logmod.decode(text)) == logmod.encode(finished)


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda t: t.replace('"by": "bob"', '"by": 3', 1), "Expected `str`, got `int` - at `$.moves[1].by`"),
        (lambda t: t.replace('"by": "ann",', '"by": "ann", "colour": "red",', 1), "unknown field `colour` - at `$.moves[0]`"),
        (lambda t: t.replace('"seed": "log-test",', ""), "missing required field `seed`"),
        (lambda t: t.replace('"version": 2', '"version": 3'), "version 3 is not supported"),
        (lambda t: t.replace('"adjudicator-log"', '"pgn"'), "at `$.format`"),
        (lambda t: t[: len(t) // 2], "truncated"),
        (lambda t: "", "the file is empty"),
        (lambda t: t.replace(":", "=", 1), "malformed"),
    ],
)
def test_decode_errors_carry_the_path(finished: logmod.Log, edit, message: str) -> None:
    text = edit(logmod.encode(finished).decode())
    with pytest.raises(BadLogError) as e:
        logmod.decode(text, "game.json")
    assert message in str(e.value)
    assert str(e.value).startswith("game.json: ")
    assert "\n" not in str(e.value)


def test_header_checks(finished: logmod.Log) -> None:
    import msgspec

    cases = [
        (msgspec.structs.replace(finished, game="chess"), "unknown game 'chess'"),
        (msgspec.structs.replace(finished, players=("ann",) * 3), "used twice"),
        (msgspec.structs.replace(finished, players=tuple("abcde")), "not 5"),
        (msgspec.structs.replace(finished, params={"goal": "dominance"}), "'absent-doubles' is missing"),
        (msgspec.structs.replace(finished, params={**finished.params, "x": 1}), "no parameter 'x'"),
        (msgspec.structs.replace(finished, params={**finished.params, "goal": "fun"}), "'fun' is not one of"),
        (msgspec.structs.replace(finished, seed=""), "seed must not be empty"),
    ]
    for bad, message in cases:
        with pytest.raises(BadLogError, match=message):
            match.validate(bad)
