"""The log format: strict decoding with paths, stable encoding, the schema in notation/."""

from pathlib import Path

import pytest

from adjudicator import accelerated, log as logmod, match
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


def test_text_of_reads_a_plain_log_as_it_reads_any_other(finished: logmod.Log) -> None:
    """A file starting with "{" takes a short way (UTF-8 at once); the text
    is the same as by the full sniffing, whatever the encoding."""
    text = logmod.encode(finished).decode().replace('"ann"', '"Zo\u00eb"')
    for codec in ("utf-8", "cp1252", "latin-1", "utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be"):
        assert logmod.text_of(text.encode(codec)) == text, codec
    assert logmod.text_of(b"{\x80}") == "{\u20ac}"  # not UTF-8: read as Windows-1252
    assert logmod.text_of(b"{") == "{"


def test_header_digest_kept_parts_give_the_documented_digest() -> None:
    """header_digest keeps the fields of headers it has met; headers that
    differ in anything, the type of a parameter included (True == 1), give
    the digest of their own fields."""
    import hashlib

    from adjudicator import seal

    def plain(version, params, players, seed, commitment, referee=None, keys=None, **v2) -> bytes:
        items = [seal.CHAIN_DOMAIN, "adjudicator-log", str(version), "g", str(len(params))]
        for name in sorted(params):
            items += [name, seal.param_text(params[name])]
        items += [str(len(players)), *players]
        items += ["commitment", commitment] if commitment is not None else ["seed", seed or ""]
        if version >= 2:
            keys = keys or {}
            items += ["referee", referee or "", str(len(keys))]
            for name in sorted(keys):
                items += [name, keys[name]]
            tags = v2.get("tags") or {}
            items += ["rules", str(v2.get("rules") or 1), "tags", str(len(tags))]
            for name in sorted(tags):
                items += [name, tags[name]]
            deadline = v2.get("deadline")
            items += ["clock", "true" if v2.get("clock") else "false", "deadline",
                      "" if deadline is None else str(deadline), "started", v2.get("started") or ""]
        return hashlib.sha256(seal.fields(items)).digest()

    cases = [
        (1, {}, ["a"], "s", None), (1, {"x": 1}, ["a", "b"], "s", None),
        (1, {"x": True}, ["a", "b"], "s", None), (1, {"x": "1"}, ["a", "b"], "t", None),
        (2, {"y": 2, "x": 1}, ["a", "b"], "s", None), (2, {"x": 1, "y": 2}, ["b", "a"], None, "c"),
        (2, {}, ["a"], "s", None, "ed25519:r", {"a": "k"}),
    ]
    v2s = [{}, {"rules": 2, "tags": {"b": "1", "a": "2"}}, {"clock": True, "started": "t", "deadline": 5}]
    for _ in range(2):  # met once, then kept
        for case in cases:
            for v2 in v2s:
                got = seal.header_digest("adjudicator-log", case[0], "g", *case[1:], **v2)
                assert got == plain(*case, **v2), (case, v2)


@pytest.mark.parametrize("data", [
    b"{", b"{}", b"{ }\n", b'{"format": 1}', b"{\x00\x00\x00", b"{\x00a\x00", b"{ \x00 }",
    b'{"format": "adjudicator-log", "version": 3}', b'{"a": "\x7f"}', b"{\n}", b"{  ",
    b'{"format": "adjudicator-log"}\n\n', b'{"format": "adjudicator-log", "version": "2"}',
])
def test_ascii_bytes_are_read_as_their_text(data: bytes) -> None:
    """A log of ASCII bytes starting with '{' is handed to msgspec as bytes
    (log._checked): it reads exactly as its text would, errors included."""
    def outcome(value):
        try:
            return logmod.decode(value)
        except BadLogError as e:
            return str(e)

    assert outcome(data) == outcome(logmod.text_of(data))


def test_ascii_bytes_of_a_whole_log_read_as_its_text(finished: logmod.Log) -> None:
    data = logmod.encode(finished)
    assert data.isascii()
    assert logmod.decode(data) == logmod.decode(data.decode()) == finished
    for cut in (1, 50, len(data) // 2, len(data) - 3):
        with pytest.raises(BadLogError) as a:
            logmod.decode(data[:cut])
        with pytest.raises(BadLogError) as b:
            logmod.decode(data[:cut].decode())
        assert str(a.value) == str(b.value)


def test_start_keeps_only_headers_it_accepted(finished: logmod.Log) -> None:
    """start() keeps the checks of a header it accepted; a header that differs
    in any field they read (a parameter's type too: True == 1) is checked
    afresh, and a refused one is refused again, with the same words."""
    import msgspec

    game, state = match.start(finished)
    assert match.start(finished) == (game, state)
    for _ in range(2):
        for changes in ({"params": {**finished.params, "goal": True}},
                        {"params": {**finished.params, "goal": 1}},
                        {"players": ("ann", "ann", "cy")},
                        {"players": ("ann", "bob", "c  y")},  # a name not cleaned
                        {"rules": 99},
                        {"version": 1},
                        {"game": "nope"}):
            bad = msgspec.structs.replace(finished, **changes)
            with pytest.raises(BadLogError) as e:
                match.start(bad)
            assert str(e.value).startswith(("header: ", "unknown game")), str(e.value)
    assert match.start(finished) == (game, state)


def test_new_logs_keep_only_players_and_parameters_they_accepted() -> None:
    """new_log keeps the checks of the players and parameters it accepted: a
    second log of the same header is the same; names or parameters that
    differ in anything (a parameter's type too: True == 1; the spelling of a
    name before NFC) are checked afresh, refused ones are refused again with
    the same words, and a log's parameters are its own to change."""
    from adjudicator.errors import ParameterError

    players = ["ann", "bob", "cy"]
    first = match.new_log("turn-of-time", players, "keep")
    again = match.new_log("turn-of-time", players, "keep")
    assert again == first and again.params is not first.params
    again.params["goal"] = "changed"
    assert match.new_log("turn-of-time", players, "keep") == first
    # A name in another normal form is the same player once normalised (NFC).
    assert match.new_log("turn-of-time", ["Zoe\u0301", "bob", "cy"], "nfc").players[0] == "Zo\u00e9"
    for _ in range(2):
        for names, params in ((["ann", "ann", "cy"], None), (["ann", "bob", "c}y"], None),
                              (["ann", "bob", "referee"], None), (["ann", "bob"] * 3, None),
                              (players, {"goal": True}), (players, {"goal": 1}),
                              (players, {"nope": 1}), (players, {"goal": ["a list"]})):
            with pytest.raises(ParameterError) as e:
                match.new_log("turn-of-time", names, "bad", params)
            assert "\n" not in str(e.value), str(e.value)
    assert match.new_log("turn-of-time", players, "keep") == first


def test_the_plain_path_binds_the_chain_to_every_field_of_the_header(finished: logmod.Log) -> None:
    """Validation's shortcut keeps the fields of plain headers it has met: a
    log whose header differs from one met in any field the chain binds (the
    seed, a parameter or its type, a player, the rules or format version,
    a tag) but whose moves were chained to the one met is refused, with the
    full path's words, before and after the original validates again."""
    import msgspec

    from adjudicator.errors import AdjudicatorError

    for _ in range(2):
        match.validate(finished)
        for changes in ({"seed": finished.seed + "x"},
                        {"params": {**finished.params, "absent-doubles": "example"}},
                        {"players": finished.players[::-1]},
                        {"rules": 1},
                        {"version": 1, "rules": None},
                        {"tags": {"event": "forged"}}):
            forged = msgspec.structs.replace(finished, **changes)
            assert accelerated.validated(forged) is None, changes
            with pytest.raises(AdjudicatorError) as e:
                match.validate(forged)
            assert "\n" not in str(e.value)
