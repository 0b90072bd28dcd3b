"""Tests of the command line (adjudicator/cli/).

Most tests run the Typer app in-process with ``typer.testing.CliRunner``, whose
``result.stdout`` and ``result.stderr`` are kept apart. CliRunner catches any
exception a command raises, which would hide a traceback, so :func:`run` fails
the test on any exception but ``SystemExit``. A few tests start the real
``python -m adjudicator`` and the ``adjudicator`` console script.

Known CLI bugs are written as the tests they should pass and marked
``xfail(strict=True, reason="CLI BUG: ...")`` until fixed; tests marked
"Regression" below caught bugs of commit 523b3ea that are fixed since.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import pytest
import typer
from typer.testing import CliRunner

from adjudicator import games
from adjudicator import log as logmod
from adjudicator import match
from adjudicator.cli import app

ROOT = Path(__file__).resolve().parents[1]
GAME = "turn-of-time"
PLAYERS = ["ann", "bob", "cy"]
SEED = "7"
ANSI = "\x1b["

runner = CliRunner()


# --- helpers ----------------------------------------------------------------------------------


def run(*args: Any, input: bytes | str | None = None, env: dict | None = None,
        color: bool = False):
    """Invoke the CLI in-process; fail on any exception a user would see as a traceback."""
    argv = [str(a) for a in args]
    result = runner.invoke(app, argv, input=input, env=env, color=color,
                           prog_name="adjudicator")
    exc = result.exception
    if exc is not None and not isinstance(exc, SystemExit):
        tb = "".join(traceback.format_exception(*result.exc_info))
        pytest.fail(f"adjudicator {shlex.join(argv)} raised an exception (a user would see "
                    f"a traceback):\n{tb}")
    assert "Traceback" not in result.output, show(result)
    return result


def assert_usage(result, *fragments: str) -> str:
    """A usage error: exit 2, one ``Error: ...`` line (README, "Exit status")."""
    return assert_error(result, *fragments, status=2)


def show(result) -> str:
    """A result, for assertion messages."""
    return (f"exit {result.exit_code}\n--- stdout ---\n{result.stdout}"
            f"\n--- stderr ---\n{result.stderr}")


def assert_error(result, *fragments: str, status: int = 1) -> str:
    """Exit 1 (2 for a usage error), exactly one ``Error: ...`` line on stderr,
    nothing on stdout."""
    assert result.exit_code == status, show(result)
    lines = result.stderr.splitlines()
    assert len(lines) == 1, "expected exactly one line on stderr\n" + show(result)
    assert lines[0].startswith("Error: "), show(result)
    assert result.stdout == "", "nothing may go to stdout on an error\n" + show(result)
    for fragment in fragments:
        assert fragment in lines[0], f"{fragment!r} not in the error\n" + show(result)
    return lines[0]


def assert_ok(result) -> None:
    assert result.exit_code == 0, show(result)
    assert "Traceback" not in result.output


def assert_usage_error(result) -> None:
    """Typer's own usage errors: exit status 2, no traceback."""
    assert result.exit_code == 2, show(result)
    assert "Traceback" not in result.output
    assert "Error" in result.stderr, show(result)
    assert result.stdout == "", show(result)


def edited(data: bytes, edit: Callable[[dict], Any], reseal: bool = True) -> bytes:
    """``data`` with ``edit`` applied. With ``reseal`` the digest chain is
    recomputed, as a forger would, so that the checks behind the chain are
    reached; without it the edit breaks the chain."""
    d = json.loads(data)
    edit(d)
    if reseal:
        _reseal(d)
    return json.dumps(d, indent=2).encode()


def _reseal(d: dict) -> None:
    try:
        log = logmod.decode(json.dumps(d))
    except Exception:  # the edit broke the structure: nothing to chain
        return
    entries = [(e.by, e.move, e.comment) for e in log.moves]
    bare = msgspec.structs.replace(log, moves=())
    for entry, sealed in zip(d["moves"], match.sealed(bare, entries)):
        entry["digest"] = sealed.digest


def write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def legal_json(path: Path | str) -> dict:
    r = run("legal", path, "--json")
    assert_ok(r)
    return json.loads(r.stdout)


def mangle(move: str) -> str:
    """A move as a careless player types it: lower case, a space for the dash."""
    return move.lower().replace("-", " ")


# --- fixtures ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def full_bytes() -> bytes:
    """A complete 3-player game (15 moves and a result)."""
    return logmod.encode(match.simulate(GAME, PLAYERS, SEED))


@pytest.fixture(scope="module")
def full(full_bytes) -> dict:
    d = json.loads(full_bytes)
    assert len(d["moves"]) == 15 and d["result"] is not None  # the edits below rely on it
    assert [m["by"] for m in d["moves"][:3]] == PLAYERS
    return d


@pytest.fixture(scope="module")
def new_bytes() -> bytes:
    """A 3-player game not yet begun (ann to move)."""
    return logmod.encode(match.new_log(GAME, PLAYERS, SEED))


@pytest.fixture
def fresh(tmp_path, new_bytes) -> Path:
    return write(tmp_path / "game.json", new_bytes)


@pytest.fixture
def done(tmp_path, full_bytes) -> Path:
    return write(tmp_path / "done.json", full_bytes)


# --- 1. bad input -----------------------------------------------------------------------------


def _partial(n: int, keep_result: bool) -> Callable[[dict], None]:
    def edit(d: dict) -> None:
        d["moves"] = d["moves"][:n]
        if not keep_result:
            d["result"] = None
    return edit


def _set(path: tuple, value: Any) -> Callable[[dict], None]:
    def edit(d: dict) -> None:
        target = d
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    return edit


def _delete(key: str) -> Callable[[dict], None]:
    return lambda d: d.pop(key)


def _lower_move(i: int) -> Callable[[dict], None]:
    def edit(d: dict) -> None:
        d["moves"][i]["move"] = d["moves"][i]["move"].lower()
    return edit


def _bump_score(d: dict) -> None:
    d["result"]["standings"][0]["score"] += 5


# (id, bytes builder from the complete log, fragments the one error line must carry,
#  whether the message names the file)
BAD_LOGS: list[tuple[str, Callable[[bytes], bytes], tuple[str, ...], bool]] = [
    ("malformed-json", lambda b: b'{"format": "adjudicator-log", "version": 1,, }',
     ("malformed",), True),
    ("truncated-json", lambda b: b[: len(b) // 2], ("truncated",), True),
    ("empty-file", lambda b: b"", (), True),
    ("not-an-object", lambda b: b"[]\n", ("Expected `object`",), True),
    ("unknown-field", lambda b: edited(b, _set(("moves", 3, "extra"), 1)),
     ("unknown field `extra`", "$.moves[3]"), True),
    ("unknown-top-field", lambda b: edited(b, _set(("winner",), "cy")),
     ("unknown field `winner`",), True),
    ("wrong-type", lambda b: edited(b, _set(("moves", 0, "by"), 3)),
     ("Expected `str`, got `int`", "$.moves[0].by"), True),
    ("missing-field", lambda b: edited(b, _delete("seed")),
     ("missing required field `seed`",), True),
    ("unsupported-version", lambda b: edited(b, _set(("version",), 3)),
     ("version 3", "$.version"), True),
    ("unknown-game", lambda b: edited(b, _set(("game",), "chess")),
     ("unknown game 'chess'",), False),
    ("bad-param-value", lambda b: edited(b, _set(("params", "goal"), "sideways")),
     ("'goal'", "'sideways'"), False),
    ("unknown-param", lambda b: edited(b, _set(("params", "colour"), "red")),
     ("no parameter 'colour'",), False),
    ("missing-param", lambda b: edited(b, lambda d: d["params"].pop("goal")),
     ("'goal' is missing",), False),
    ("too-many-players-in-header",
     lambda b: edited(b, _set(("players",), ["ann", "bob", "cy", "dee", "eve"])),
     ("header", "not 5"), False),
    ("duplicate-player-in-header", lambda b: edited(b, _set(("players",), ["ann", "bob", "Ann"])),
     ("header", "used twice"), False),
    ("empty-seed", lambda b: edited(b, _set(("seed",), "")), ("seed",), False),
    ("out-of-turn", lambda b: edited(b, _set(("moves", 2, "by"), "ann")),
     ("move 3 (ann)", "it is cy's turn"), False),
    ("not-a-player", lambda b: edited(b, _set(("moves", 0, "by"), "zed")),
     ("move 1 (zed)", "'zed' is not a player"), False),
    ("illegal-move", lambda b: edited(b, _set(("moves", 6, "move"), "SuSu-a1")),
     ("move 7 (ann) 'SuSu-a1'", "Turn of Time"), False),
    ("mistyped-move", lambda b: edited(b, _set(("moves", 4, "move"), "hello")),
     ("move 5 (bob) 'hello'", "cannot read this as a move"), False),
    ("bad-square", lambda b: edited(b, _set(("moves", 4, "move"), "SuSp-z9")),
     ("move 5 (bob)", "no square z9"), False),
    ("non-canonical-move", lambda b: edited(b, _lower_move(4)),
     ("move 5 (bob)", "canonical"), False),
    ("wrong-result", lambda b: edited(b, _bump_score), ("result", "the log says"), False),
    ("chain-broken-by-edited-move", lambda b: edited(b, _set(("moves", 4, "comment"), "x"), False),
     ("move 5 (bob)", "digest chain breaks"), False),
    ("chain-broken-by-edited-header", lambda b: edited(b, _set(("seed",), "8"), False),
     ("move 1 (ann)", "digest chain breaks"), False),
    ("result-on-unfinished-game", lambda b: edited(b, _partial(5, keep_result=True)),
     ("result", "not over"), False),
    ("no-result-on-finished-game", lambda b: edited(b, _set(("result",), None)),
     ("result", "no result"), False),
]

READERS = [
    ("show",),
    ("show", "--json"),
    ("show", "--public"),
    ("legal",),
    ("legal", "--json"),
    ("replay",),
    ("replay", "--json"),
]


@pytest.mark.parametrize("case", BAD_LOGS, ids=[c[0] for c in BAD_LOGS])
@pytest.mark.parametrize("command", READERS, ids=[" ".join(c) for c in READERS])
def test_bad_log_is_one_error_line(tmp_path, full_bytes, case, command):
    name, build, fragments, names_file = case
    path = write(tmp_path / f"{name}.json", build(full_bytes))
    before = path.read_bytes()
    r = run(command[0], path, *command[1:])
    line = assert_error(r, *fragments)
    if names_file:
        assert str(path) in line
    assert path.read_bytes() == before


@pytest.mark.parametrize("case", BAD_LOGS, ids=[c[0] for c in BAD_LOGS])
@pytest.mark.parametrize("as_", [None, "ann"], ids=["plain", "as-ann"])
def test_extend_bad_log_leaves_file_unchanged(tmp_path, full_bytes, case, as_):
    name, build, fragments, names_file = case
    path = write(tmp_path / f"{name}.json", build(full_bytes))
    before = path.read_bytes()
    stat = path.stat()
    extra = ["--as", as_] if as_ else []
    r = run("extend", path, "SuSu-d5", *extra, "--comment", "should not be written")
    line = assert_error(r, *fragments)
    if names_file:
        assert str(path) in line
    assert path.read_bytes() == before
    assert path.stat().st_mtime_ns == stat.st_mtime_ns
    assert sorted(p.name for p in tmp_path.iterdir()) == [path.name], "a temporary file was left"


@pytest.mark.parametrize("case", BAD_LOGS, ids=[c[0] for c in BAD_LOGS])
def test_bad_log_on_stdin(full_bytes, case):
    name, build, fragments, names_file = case
    for command in (["show", "-"], ["legal", "-", "--json"], ["extend", "-", "SuSu-d5"]):
        r = run(*command, input=build(full_bytes))
        line = assert_error(r, *fragments)
        if names_file:
            assert "stdin" in line


@pytest.mark.parametrize("case", BAD_LOGS, ids=[c[0] for c in BAD_LOGS])
def test_validate_bad_log_one_line(tmp_path, full_bytes, case):
    name, build, fragments, _ = case
    path = write(tmp_path / f"{name}.json", build(full_bytes))
    before = path.read_bytes()
    r = run("validate", path)
    assert r.exit_code == 1, show(r)
    lines = r.stderr.splitlines()
    assert len(lines) == 1, show(r)
    assert lines[0].startswith(f"{path}: "), show(r)
    for fragment in fragments:
        assert fragment in lines[0], show(r)
    assert r.stdout == ""
    assert path.read_bytes() == before


@pytest.mark.parametrize("command", [("show",), ("legal",), ("replay",), ("validate",),
                                     ("extend", "SuSu-d5")], ids=lambda c: c[0])
def test_missing_file(tmp_path, command):
    path = tmp_path / "nope.json"
    r = run(command[0], path, *command[1:])
    if command[0] == "validate":
        assert r.exit_code == 1, show(r)
        assert r.stderr.splitlines() == [f"{path}: no such file"]
    else:
        assert_error(r, str(path), "no such file")
    assert not path.exists()
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("command", [("show",), ("extend", "SuSu-d5")], ids=lambda c: c[0])
def test_directory_as_log(tmp_path, command):
    r = run(command[0], tmp_path, *command[1:])
    assert_error(r, str(tmp_path), "cannot read")


def test_extend_out_of_turn_by_name(fresh):
    before = fresh.read_bytes()
    move = legal_json(fresh)["moves"][0]  # ann's move, claimed by bob
    r = run("extend", fresh, move, "--as", "bob")
    assert_error(r, "move 1 (bob)", "it is ann's turn, not bob's")
    assert fresh.read_bytes() == before


def test_extend_as_unknown_player(fresh):
    before = fresh.read_bytes()
    move = legal_json(fresh)["moves"][0]
    r = run("extend", fresh, move, "--as", "zed")
    assert_usage(r, "--as 'zed'", "no such player")
    assert fresh.read_bytes() == before


@pytest.mark.parametrize("move, fragments", [
    ("SuSu-a1", ("move 1 (ann) 'SuSu-a1'", "not adjacent")),  # well formed, illegal square
    ("WiWi-d5", ("move 1 (ann) 'WiWi-d5'", "holds no WiWi card")),  # cy's card
    ("SuSu-d4", ("move 1 (ann) 'SuSu-d4'", "already holds a card")),
    ("xyz", ("move 1 (ann) 'xyz'", "cannot read this as a move")),
    ("FaSp-c3-d4", ("move 1 (ann)", "cannot read")),
    ("SuSu-q9", ("no square q9",)),
    ("SuSu-d5:x", ("order of meetings",)),
    ("", ("move 1 (ann) ''",)),
], ids=["not-adjacent", "not-held", "occupied", "garbage", "two-squares", "bad-square",
        "bad-order", "empty"])
def test_extend_illegal_or_mistyped_move(fresh, move, fragments):
    before = fresh.read_bytes()
    r = run("extend", fresh, move, "--as", "ann")
    assert_error(r, *fragments)
    assert fresh.read_bytes() == before


def test_extend_is_all_or_nothing(fresh):
    """Two good moves then a bad one: nothing is written, the error names move 3."""
    before = fresh.read_bytes()
    m1 = legal_json(fresh)["moves"][0]
    after1 = logmod.encode(match.extend(logmod.decode(before), [m1]))
    m2 = legal_json(write(fresh.parent / "probe.json", after1))["moves"][0]
    (fresh.parent / "probe.json").unlink()
    r = run("extend", fresh, m1, m2, "SuSu-a1")
    assert_error(r, "move 3 (cy) 'SuSu-a1'")
    assert fresh.read_bytes() == before
    # No temporary file is left; the lock file stays (removing it would race).
    assert sorted(p.name for p in fresh.parent.iterdir()) == [fresh.name]


def test_extend_ambiguous_move_needs_order(tmp_path, full_bytes):
    """A move whose order of meetings matters must say it; the file stays as it was."""
    path = write(tmp_path / "g.json", edited(full_bytes, _partial(2, keep_result=False)))
    before = path.read_bytes()
    moves = legal_json(path)["moves"]
    ordered = [m for m in moves if ":" in m]
    assert ordered, "the fixture should reach a position where order matters"
    bare = ordered[0].split(":")[0]
    r = run("extend", path, bare)
    assert_error(r, f"'{bare}'", "order of meetings", "5.2")
    assert path.read_bytes() == before


@pytest.mark.parametrize("as_", [None, "ann", "cy"])
def test_extend_after_game_over(done, as_):
    before = done.read_bytes()
    extra = ["--as", as_] if as_ else []
    r = run("extend", done, "SuSu-d5", *extra)
    assert_error(r, "move 16", "already over")
    assert done.read_bytes() == before


def test_extend_non_canonical_log_refused(tmp_path, full_bytes):
    """A move written into the log by hand in lower case (e.g. 'fasp-d5') is refused."""
    def edit(d):
        d["moves"] = d["moves"][:1]
        d["moves"][0]["move"] = d["moves"][0]["move"].lower()
        d["result"] = None
    path = write(tmp_path / "g.json", edited(full_bytes, edit))
    before = path.read_bytes()
    for args in (["show"], ["legal"], ["replay"]):
        assert_error(run(args[0], path), "move 1 (ann)", "canonical")
    r = run("extend", path, "SpSp-e4")
    assert_error(r, "cannot extend an invalid log", "canonical")
    assert path.read_bytes() == before


NEW_ERRORS = [
    ("unknown-game", ["nogame", "--players", "ann,bob"], ("unknown game 'nogame'",)),
    ("bad-param-value", [GAME, "--players", "ann,bob", "--param", "goal=sideways"],
     ("'goal'", "'sideways'", "dominance, balance")),
    ("unknown-param", [GAME, "--players", "ann,bob", "--param", "colour=red"],
     ("no parameter 'colour'",)),
    ("param-without-value", [GAME, "--players", "ann,bob", "--param", "goal"],
     ("KEY=VALUE",)),
    ("too-many-players", [GAME, "--players", "a,b,c,d,e"], ("not 5",)),
    ("too-few-players", [GAME, "--players", ","], ("not 0",)),
    ("duplicate-player", [GAME, "--players", "ann,bob,ann"], ("'ann' is used twice",)),
    ("duplicate-player-case", [GAME, "--players", "ann,Ann"], ("'Ann' is used twice",)),
    ("bad-player-name", [GAME, "--players", "ann,1bob"], ("'1bob'",)),
    ("empty-seed", [GAME, "--players", "ann,bob", "--seed", ""], ("seed",)),
]


@pytest.mark.parametrize("case", NEW_ERRORS, ids=[c[0] for c in NEW_ERRORS])
@pytest.mark.parametrize("to_file", [False, True], ids=["stdout", "file"])
def test_new_bad_input(tmp_path, case, to_file):
    _, args, fragments = case
    out = tmp_path / "out.json"
    extra = ["-o", out] if to_file else []
    if "--seed" not in args:
        extra += ["--seed", SEED]
    r = run("new", *args, *extra)
    # A game id that names no game is a usage error (issue #26), like a bare --param.
    assert_error(r, *fragments, status=2 if case[0] in ("param-without-value", "unknown-game")
                 else 1)
    assert list(tmp_path.iterdir()) == [], "nothing may be written on an error"


@pytest.mark.parametrize("case", NEW_ERRORS[:6], ids=[c[0] for c in NEW_ERRORS[:6]])
def test_simulate_bad_input(tmp_path, case):
    _, args, fragments = case
    r = run("simulate", *args, "--seed", SEED, "-o", tmp_path / "sim.json")
    assert_error(r, *fragments, status=2 if case[0] in ("param-without-value", "unknown-game")
                 else 1)
    assert list(tmp_path.iterdir()) == []


def test_new_refuses_to_overwrite(fresh, new_bytes):
    before = fresh.read_bytes()
    fresh.write_bytes(b"precious")
    r = run("new", GAME, "--players", "ann,bob", "--seed", "1", "-o", fresh)
    assert_error(r, str(fresh), "already exists", "--force")
    assert fresh.read_bytes() == b"precious"
    r = run("new", GAME, "--players", "ann,bob", "--seed", "1", "-o", fresh, "--force")
    assert_ok(r)
    assert fresh.read_bytes() == logmod.encode(match.new_log(GAME, ["ann", "bob"], "1"))
    assert fresh.read_bytes() != before


def test_new_into_missing_directory(tmp_path):
    target = tmp_path / "no" / "such" / "dir" / "g.json"
    r = run("new", GAME, "--players", "ann,bob", "--seed", SEED, "-o", target)
    assert_error(r, str(target), "cannot write")


@pytest.mark.parametrize("at", [-1, 16, 1000])
def test_show_at_out_of_range(done, at):
    assert_usage(run("show", done, "--at", at), f"--at {at}", "0 to 15")


def test_show_at_out_of_range_on_new_log(fresh):
    assert_usage(run("show", fresh, "--at", 1), "--at 1", "0 to 0")


@pytest.mark.parametrize("command", ["show", "replay"])
def test_as_unknown_player(done, command):
    assert_usage(run(command, done, "--as", "zed"), "--as 'zed'", "no such player",
                 "ann, bob, cy")


def test_as_is_case_sensitive(fresh):
    assert_usage(run("show", fresh, "--as", "ANN"), "--as 'ANN'")


@pytest.mark.parametrize("args", [
    ["show"],
    ["extend", "{log}"],  # no move
    ["show", "{log}", "--at", "five"],
    ["show", "{log}", "--no-such-option"],
    ["frobnicate"],
    ["new", GAME],  # --players is required
    ["validate"],
], ids=["show-no-log", "extend-no-move", "at-not-int", "unknown-option", "unknown-command",
        "new-no-players", "validate-no-log"])
def test_usage_errors_exit_2(fresh, args):
    before = fresh.read_bytes()
    r = run(*[a.format(log=fresh) for a in args])
    assert_usage_error(r)
    assert fresh.read_bytes() == before


# Bugs: an error message must be one line whatever the log holds. Logs travel by
# email; a name with a line break in it must not split the error in two.


FORGERIES = ["zed\nError: forged", "zed\rError: forged", "zed\x1b[2K\x1b[31mforged",
             "zed\u2028forged"]


def _assert_one_clean_line(r) -> None:
    assert r.exit_code == 1, show(r)
    assert len(r.stderr.splitlines()) == 1, show(r)
    assert "\r" not in r.stderr and "\x1b" not in r.stderr, repr(r.stderr)


# Regression (found at HEAD 523b3ea): a move's 'by' holding a line break was printed raw
# by MoveError.__str__, splitting the error in two.
@pytest.mark.parametrize("forged", FORGERIES, ids=["LF", "CR", "ANSI", "U+2028"])
@pytest.mark.parametrize("command", ["show", "extend", "validate"])
def test_line_break_in_by_still_one_error_line(tmp_path, full_bytes, command, forged):
    path = write(tmp_path / "g.json", edited(full_bytes, _set(("moves", 0, "by"), forged)))
    before = path.read_bytes()
    args = ["SuSu-d5"] if command == "extend" else []
    r = run(command, path, *args, color=True)  # color: CliRunner must not strip escapes
    _assert_one_clean_line(r)
    if command != "validate":
        assert r.stderr.startswith("Error: ")
    assert path.read_bytes() == before


# Regression (HEAD 523b3ea): a stored result naming a player with a line break was
# printed raw by match.describe in the 'result:' error.
@pytest.mark.parametrize("forged", FORGERIES, ids=["LF", "CR", "ANSI", "U+2028"])
@pytest.mark.parametrize("command", ["show", "validate"])
def test_line_break_in_result_still_one_error_line(tmp_path, full_bytes, command, forged):
    path = write(tmp_path / "g.json", edited(
        full_bytes, _set(("result", "standings", 0, "player"), forged)))
    _assert_one_clean_line(run(command, path, color=True))


# Regression (HEAD 523b3ea): file names were printed raw in errors (reading a log).
def test_line_break_in_file_name_still_one_error_line(tmp_path):
    r = run("show", tmp_path / "no\nsuch.json")
    assert_error(r, "no such file")


# Regression (HEAD 523b3ea): 'show --at N' replayed only the first N moves and never checked
# the rest of the log or its stored result, so an invalid log was shown with exit 0.
@pytest.mark.parametrize("at", [0, 3, 15])
def test_show_at_rejects_invalid_log(tmp_path, full_bytes, at):
    path = write(tmp_path / "g.json", edited(full_bytes, _bump_score))
    assert_error(run("show", path), "the log says")  # as without --at
    assert_error(run("show", path, "--at", at), "the log says")


def test_show_at_ignore_rest(tmp_path, full_bytes, full):
    """--ignore-rest (with --at) shows an early position of a log that is bad later on."""
    path = write(tmp_path / "g.json", edited(full_bytes, _bump_score))
    r = run("show", path, "--at", 3, "--ignore-rest", "--json")
    assert_ok(r)
    assert json.loads(r.stdout)["move"] == full["moves"][2]
    bad_move = write(tmp_path / "m.json", edited(full_bytes, _set(("moves", 2, "by"), "ann")))
    assert_error(run("show", bad_move, "--at", 3, "--ignore-rest"), "move 3 (ann)")
    assert_ok(run("show", bad_move, "--at", 2, "--ignore-rest"))
    assert_usage(run("show", path, "--ignore-rest"), "--ignore-rest")


# Regression (HEAD 523b3ea): 'simulate --seed ""' replaced the empty seed with a random one
# and exited 0, while 'new --seed ""' rejects it.
def test_simulate_empty_seed_rejected(tmp_path):
    r = run("simulate", GAME, "--players", "ann,bob", "--seed", "")
    assert_error(r, "seed")


# --- 2. validate with several logs --------------------------------------------------------------


@pytest.fixture
def mixed_logs(tmp_path, full_bytes, new_bytes):
    """(path, first bad move number or None for a good log) in command-line order."""
    return [
        (write(tmp_path / "good-done.json", full_bytes), None),
        (write(tmp_path / "bad-turn.json",
               edited(full_bytes, _set(("moves", 2, "by"), "ann"))), 3),
        (write(tmp_path / "good-new.json", new_bytes), None),
        (write(tmp_path / "bad-illegal.json",
               edited(full_bytes, _set(("moves", 6, "move"), "SuSu-a1"))), 7),
        (write(tmp_path / "bad-case.json", edited(full_bytes, _lower_move(10))), 11),
        (write(tmp_path / "bad-json.json", b"{"), None),
    ]


def test_validate_several_logs(mixed_logs):
    paths = [p for p, _ in mixed_logs]
    befores = [p.read_bytes() for p in paths]
    r = run("validate", *paths)
    assert r.exit_code == 1, show(r)
    err = r.stderr.splitlines()
    bad = [(p, n) for p, n in mixed_logs if p.name.startswith("bad")]
    assert len(err) == len(bad), show(r)
    for line, (path, number) in zip(err, bad):
        assert line.startswith(f"{path}: "), show(r)
        if number is not None:
            assert f"move {number} " in line, show(r)
    out = r.stdout.splitlines()
    good = [p for p, _ in mixed_logs if p.name.startswith("good")]
    assert len(out) == len(good), show(r)
    for line, path in zip(out, good):
        assert line.startswith(f"ok {path}: "), show(r)
    assert "over" in out[0] and "ann to move" in out[1]
    assert [p.read_bytes() for p in paths] == befores


def test_validate_several_logs_json(mixed_logs):
    paths = [p for p, _ in mixed_logs]
    r = run("validate", *paths, "--json")
    assert r.exit_code == 1, show(r)
    report = json.loads(r.stdout)
    assert isinstance(report, list) and len(report) == len(paths)
    for entry, (path, number) in zip(report, mixed_logs):
        assert entry["file"] == str(path)
        assert "valid" in entry and "error" in entry
        if path.name.startswith("good"):
            assert entry["valid"] is True and entry["error"] is None, entry
        else:
            assert entry["valid"] is False, entry
            error = entry["error"]  # an object: code, move, player, message
            assert isinstance(error["message"], str) and error["message"], entry
            assert "\n" not in error["message"]
            if number is not None:
                assert f"move {number} " in error["message"], entry
                assert error["move"] == number, entry


def test_validate_all_good_exits_0(tmp_path, full_bytes, new_bytes):
    a = write(tmp_path / "a.json", full_bytes)
    b = write(tmp_path / "b.json", new_bytes)
    r = run("validate", a, b)
    assert_ok(r)
    assert r.stderr == ""
    assert len(r.stdout.splitlines()) == 2
    r = run("validate", a, b, "--json")
    assert_ok(r)
    assert [e["valid"] for e in json.loads(r.stdout)] == [True, True]


def test_validate_stdin(full_bytes):
    r = run("validate", "-", input=full_bytes)
    assert_ok(r)
    r = run("validate", "-", input=edited(full_bytes, _bump_score))
    assert r.exit_code == 1 and len(r.stderr.splitlines()) == 1, show(r)


# --- 3. happy paths -----------------------------------------------------------------------------


def test_new_to_stdout_is_exactly_a_log():
    r = run("new", GAME, "--players", ",".join(PLAYERS), "--seed", SEED)
    assert_ok(r)
    assert r.stderr == ""
    log = logmod.decode(r.stdout_bytes)  # nothing but the log: it decodes
    assert r.stdout_bytes == logmod.encode(log)  # and in canonical form, one trailing newline
    assert log.game == GAME and list(log.players) == PLAYERS and log.seed == SEED
    assert log.moves == () and log.result is None
    assert r.stdout_bytes == logmod.encode(match.new_log(GAME, PLAYERS, SEED))


def test_new_with_params_and_random_seed():
    r = run("new", GAME, "-p", "ann", "-P", "goal=balance")
    assert_ok(r)
    log = logmod.decode(r.stdout_bytes)
    assert log.params["goal"] == "balance" and log.seed
    r2 = run("new", GAME, "-p", "ann", "-P", "goal=balance")
    assert logmod.decode(r2.stdout_bytes).seed != log.seed


def test_new_to_file(tmp_path):
    out = tmp_path / "g.json"
    r = run("new", GAME, "--players", "ann,bob,cy", "--seed", SEED, "-o", out)
    assert_ok(r)
    assert r.stderr == ""
    assert out.read_bytes() == logmod.encode(match.new_log(GAME, PLAYERS, SEED))
    assert r.stdout.startswith(f"Wrote {out}") and "ann to move" in r.stdout
    assert "{" not in r.stdout  # the log went to the file, not to stdout


def test_show_text(fresh):
    r = run("show", fresh)
    assert_ok(r)
    assert r.stderr == ""
    assert "Turn of Time" in r.stdout
    assert "as seen by ann" in r.stdout
    assert "To move: ann" in r.stdout
    moves = legal_json(fresh)["moves"]
    assert f"Legal moves ({len(moves)}):" in r.stdout
    assert all(m in r.stdout for m in moves)


def test_show_json(fresh):
    r = run("show", fresh, "--json")
    assert_ok(r)
    pos = json.loads(r.stdout)
    for key in ("legal", "view", "to_move"):
        assert key in pos
    assert pos["to_move"] == "ann" and pos["viewer"] == "ann" and pos["ply"] == 0
    assert pos["legal"] == legal_json(fresh)["moves"]
    assert pos["view"]["board"] == {"d4": "FaFa"}
    assert pos["result"] is None


def test_show_json_finished(done, full):
    pos = json.loads(run("show", done, "--json").stdout)
    assert pos["to_move"] is None and pos["legal"] is None
    assert pos["result"] == full["result"]
    assert pos["ply"] == 15 and pos["move"] == full["moves"][-1]
    text = run("show", done).stdout
    assert "Game over" in text and "Legal moves" not in text


def test_show_at(done, full):
    r = run("show", done, "--at", 0)
    assert_ok(r)
    assert "start" in r.stdout and "Last move" not in r.stdout
    pos = json.loads(run("show", done, "--at", 0, "--json").stdout)
    assert pos["ply"] == 0 and pos["move"] is None and pos["to_move"] == "ann"
    assert pos["view"]["board"] == {"d4": "FaFa"}
    pos = json.loads(run("show", done, "--at", 3, "--json").stdout)
    assert pos["ply"] == 3 and pos["move"] == full["moves"][2] and pos["to_move"] == "ann"
    assert len(pos["view"]["board"]) == 4
    r = run("show", done, "--at", 3)
    assert f"Last move: cy {full['moves'][2]['move']}" in r.stdout
    assert "after move 3 of 15" in r.stdout


def test_show_public_and_as(fresh):
    r = run("show", fresh, "--public")
    assert_ok(r)
    assert "public view" in r.stdout and "Legal moves" not in r.stdout
    pos = json.loads(run("show", fresh, "--public", "--json").stdout)
    assert pos["viewer"] is None and pos["legal"] is None and pos["to_move"] == "ann"
    pos = json.loads(run("show", fresh, "--as", "bob", "--json").stdout)
    assert pos["viewer"] == "bob" and pos["legal"] is None  # not bob's turn
    pos = json.loads(run("show", fresh, "--as", "ann", "--json").stdout)
    assert pos["viewer"] == "ann" and pos["legal"]


def test_show_stdin(new_bytes):
    r = run("show", "-", "--json", input=new_bytes)
    assert_ok(r)
    assert json.loads(r.stdout)["to_move"] == "ann"


def test_legal(fresh):
    data = legal_json(fresh)
    assert set(data) == {"player", "moves"}
    assert data["player"] == "ann"
    moves = data["moves"]
    assert moves and all(isinstance(m, str) for m in moves)
    assert len(set(moves)) == len(moves)
    rep = match.replay(logmod.decode(fresh.read_bytes()))
    assert moves == [rep.game.format_move(rep.state, m) for m in rep.game.legal_moves(rep.state)]
    assert all(re.fullmatch(r"(Sp|Su|Fa|Wi){2}-[a-g][1-7](:[nesw]+)?", m) for m in moves)
    r = run("legal", fresh)
    assert_ok(r)
    assert r.stdout.splitlines() == moves


def test_legal_when_over(done):
    assert legal_json(done) == {"player": None, "moves": []}
    r = run("legal", done)
    assert_ok(r)
    assert r.stdout == ""


def test_extend_writes_canonical_notation(fresh):
    moves = legal_json(fresh)["moves"]
    canonical = next(m for m in moves if ":" not in m)
    typed = mangle(canonical)
    assert typed != canonical
    r = run("extend", fresh, typed)
    assert_ok(r)
    assert r.stderr == ""
    assert r.stdout.startswith(f"Recorded 1 move in {fresh}: {canonical}")
    log = logmod.decode(fresh.read_bytes())
    assert [(e.by, e.move) for e in log.moves] == [("ann", canonical)]
    assert fresh.read_bytes() == logmod.encode(log)
    assert_ok(run("validate", fresh))
    assert legal_json(fresh)["player"] == "bob"


def test_extend_canonicalises_order_of_meetings(tmp_path, full_bytes):
    path = write(tmp_path / "g.json", edited(full_bytes, _partial(2, keep_result=False)))
    ordered = next(m for m in legal_json(path)["moves"] if ":" in m)
    base, order = ordered.split(":")
    typed = f"{base.lower().replace('-', '@')} / {order.upper()}"
    r = run("extend", path, typed, "--as", "cy")
    assert_ok(r)
    assert logmod.decode(path.read_bytes()).moves[-1].move == ordered


def test_extend_several_moves_with_comment(fresh):
    rep = match.replay(logmod.decode(fresh.read_bytes()), keep=True)
    game, state = rep.game, rep.state
    expected = []
    for _ in range(3):
        move = game.legal_moves(state)[0]
        expected.append(game.format_move(state, move))
        state = game.apply(state, move)
    r = run("extend", fresh, *[mangle(m) for m in expected], "--comment", "three at once")
    assert_ok(r)
    assert r.stdout.startswith(f"Recorded 3 moves in {fresh}: {' '.join(expected)}")
    log = logmod.decode(fresh.read_bytes())
    assert [(e.by, e.move) for e in log.moves] == list(zip(PLAYERS, expected))
    assert [e.comment for e in log.moves] == [None, None, "three at once"]
    assert legal_json(fresh)["player"] == "ann"


def test_extend_comment_shown(fresh):
    move = legal_json(fresh)["moves"][0]
    r = run("extend", fresh, move, "-m", "your move, bob", "--as", "ann")
    assert_ok(r)
    assert "# your move, bob" in r.stdout
    raw = json.loads(fresh.read_bytes())
    assert [{k: v for k, v in m.items() if k != "digest"} for m in raw["moves"]] == [
        {"by": "ann", "move": move, "comment": "your move, bob"}]


def test_extend_keeps_file_mode(fresh):
    fresh.chmod(0o640)
    assert_ok(run("extend", fresh, legal_json(fresh)["moves"][0]))
    assert fresh.stat().st_mode & 0o777 == 0o640
    # No temporary file is left; the lock file stays (removing it would race).
    assert sorted(p.name for p in fresh.parent.iterdir()) == [f".{fresh.name}.lock", fresh.name]


def test_extend_stdin_to_stdout(new_bytes):
    log = logmod.decode(new_bytes)
    rep = match.replay(log)
    move = rep.game.format_move(rep.state, rep.game.legal_moves(rep.state)[0])
    r = run("extend", "-", mangle(move), "--as", "ann", input=new_bytes)
    assert_ok(r)
    assert r.stderr == ""
    out = logmod.decode(r.stdout_bytes)  # stdout is exactly the new log
    assert r.stdout_bytes == logmod.encode(out)
    assert [(e.by, e.move) for e in out.moves] == [("ann", move)]
    assert out.players == log.players and out.seed == log.seed


def test_extend_finishing_move_writes_result(tmp_path, full_bytes, full):
    path = write(tmp_path / "g.json", edited(full_bytes, _partial(14, keep_result=False)))
    last = full["moves"][14]
    r = run("extend", path, last["move"], "--as", last["by"])
    assert_ok(r)
    assert "Game over" in r.stdout
    assert path.read_bytes() == full_bytes


def test_replay(done, full):
    r = run("replay", done)
    assert_ok(r)
    assert r.stderr == ""
    assert r.stdout.count("Turn of Time · ") == 16
    assert "start" in r.stdout and "after move 15 of 15" in r.stdout
    assert "Game over. Winner: " + ", ".join(full["result"]["winners"]) in r.stdout
    r = run("replay", done, "--as", "bob")
    assert_ok(r)
    assert r.stdout.count("as seen by bob") == 16


def test_replay_json(done, full):
    r = run("replay", done, "--json")
    assert_ok(r)
    data = json.loads(r.stdout)
    assert data["game"] == GAME and data["players"] == PLAYERS
    assert data["result"] == full["result"]
    positions = data["positions"]
    assert len(positions) == 16
    assert [p["ply"] for p in positions] == list(range(16))
    assert positions[0]["move"] is None
    assert [p["move"] for p in positions[1:]] == full["moves"]
    assert [p["to_move"] for p in positions] == [PLAYERS[i % 3] for i in range(15)] + [None]
    assert positions[-1]["result"] == full["result"]


def test_schema_output():
    r = run("schema")
    assert_ok(r)
    schema = json.loads(r.stdout)
    assert r.stdout.endswith("}\n")
    assert "$schema" in schema
    assert set(logmod.Log.__struct_fields__) <= set(json.dumps(schema).split('"'))


def test_schema_matches_notation_file():
    path = ROOT / "notation" / "log.schema.json"
    assert run("schema").stdout == path.read_text(encoding="utf-8")


def test_games():
    r = run("games")
    assert_ok(r)
    assert r.stdout.startswith(f"{GAME}  Turn of Time")
    assert "--param absent-doubles=own-season" in r.stdout
    assert "--param goal=dominance" in r.stdout
    data = json.loads(run("games", "--json").stdout)
    assert [g["id"] for g in data] == list(games.GAMES)
    g = data[0]
    assert g["players"] == [1, 2, 3, 4]
    assert {p["name"]: p["default"] for p in g["params"]} == {
        "absent-doubles": "own-season", "goal": "dominance", "tie_order": "players"}
    assert g["rules"] == 2  # tie_order came with rules version 2
    assert all({"accepts", "applies", "help"} <= set(p) for p in g["params"])


def test_simulate(tmp_path):
    r = run("simulate", GAME, "--players", "ann,bob,cy", "--seed", SEED)
    assert_ok(r)
    assert r.stdout_bytes == logmod.encode(match.simulate(GAME, PLAYERS, SEED))
    out = tmp_path / "sim.json"
    r = run("simulate", GAME, "--players", "ann,bob", "--seed", "3", "-o", out, "--moves", 4)
    assert_ok(r)
    assert len(logmod.decode(out.read_bytes()).moves) == 4
    assert_ok(run("validate", out))


# --- 4. a whole game through the CLI ------------------------------------------------------------


def test_whole_three_player_game(tmp_path):
    path = tmp_path / "game.json"
    assert_ok(run("new", GAME, "--players", ",".join(PLAYERS), "--seed", "42", "-o", path))
    history = []
    for _ in range(100):
        data = legal_json(path)
        if not data["moves"]:
            assert data["player"] is None
            break
        player, move = data["player"], data["moves"][0]
        assert player == PLAYERS[len(history) % 3]
        r = run("extend", path, move, "--as", player)
        assert_ok(r)
        history.append((player, move))
    else:
        pytest.fail("the game did not end within 100 moves")
    assert len(history) == 15  # 16 cards, the first one set out by the rules
    assert_ok(run("validate", path))
    raw = json.loads(path.read_bytes())
    assert raw["result"] is not None and raw["result"]["winners"]
    assert [(m["by"], m["move"]) for m in raw["moves"]] == history
    r = run("extend", path, history[0][1])
    assert_error(r, "already over")


# --- 5. help texts and --ascii ------------------------------------------------------------------


def _commands() -> dict:
    return typer.main.get_command(app).commands


def test_every_command_is_checked():
    assert set(_commands()) >= {"games", "new", "show", "legal", "extend", "replay", "validate",
                                "schema", "simulate"}


EXAMPLE = re.compile(r"Example:\s*\n?\s*(adjudicator [^\n]*)")


@pytest.mark.parametrize("name", [None, *sorted(_commands())], ids=lambda n: n or "(app)")
def test_help_has_example(name):
    args = ["--help"] if name is None else [name, "--help"]
    if name is not None:
        assert (_commands()[name].help or "").strip(), f"{name} has no help text"
    r = run(*args)
    assert_ok(r)
    m = EXAMPLE.search(r.stdout)
    assert m, f"no 'Example: adjudicator ...' in the help of {name}\n{r.stdout}"
    words = m.group(1).split()
    if name is not None:
        assert words[1] == name, f"the example of {name} runs {words[1]}"
    else:
        assert words[1] in _commands()


def _example_args(text: str) -> list[str]:
    words = shlex.split(text)[1:]
    for i, w in enumerate(words):
        if w.startswith(">") or w == "|":
            return words[:i]
    return words


@pytest.mark.parametrize("name", [None, *sorted(_commands())], ids=lambda n: n or "(app)")
def test_help_example_line_is_a_whole_command(name):
    """The example line, as printed at 80 columns, must parse as a whole command.

    A wrapped example ('... -o' then 'game.json' on the next line) cannot be
    copied; a ``\\b`` line before it keeps click from rewrapping it.
    """
    r = run(*(["--help"] if name is None else [name, "--help"]))
    line = EXAMPLE.search(r.stdout).group(1)
    args = _example_args(line)
    group = typer.main.get_command(app)
    cmd_name, rest = args[0], args[1:]
    cmd = group.commands[cmd_name]
    try:
        cmd.make_context(cmd_name, list(rest))
    except Exception as e:  # click's UsageError
        pytest.fail(f"example {line!r} does not parse: {e}")


# Regression (HEAD 523b3ea): with --ascii the heading still used U+00B7 ('Turn of Time · start').
@pytest.mark.parametrize("command", ["show", "replay", "extend"])
def test_ascii_output_is_ascii(tmp_path, full_bytes, command):
    path = write(tmp_path / "g.json", edited(full_bytes, _partial(14, keep_result=False)))
    if command == "extend":
        args = [json.loads(full_bytes)["moves"][14]["move"]]
    else:
        args = []
    r = run(command, path, *args, "--ascii")
    assert_ok(r)
    bad = sorted({ch for ch in r.stdout if ord(ch) > 127})
    assert not bad, f"non-ASCII characters in {command} --ascii: {bad}"


def test_ascii_board_has_no_box_drawing(fresh):
    """The part of --ascii that does work: the board and the turn arrow."""
    r = run("show", fresh, "--ascii")
    assert_ok(r)
    assert not re.search(r"[\u2500-\u257f\u2190-\u21ff]", r.stdout), r.stdout
    assert "+------+" in r.stdout and "* ann" in r.stdout
    plain = run("show", fresh).stdout
    assert "┌" in plain and "→ ann" in plain  # without --ascii: box drawing


# --- 6. no colour unless on a terminal ---------------------------------------------------------


COLOUR_COMMANDS = [
    ["show", "{log}"], ["show", "{log}", "--ascii"], ["replay", "{log}"],
    ["extend", "{log}", "{move}"], ["games"], ["--help"], ["show", "--help"],
    ["show", "{log}", "--as", "zed"],
]


@pytest.mark.parametrize("args", COLOUR_COMMANDS, ids=lambda a: " ".join(a))
@pytest.mark.parametrize("env", [{"NO_COLOR": "1"}, {"NO_COLOR": None, "TERM": "xterm-256color",
                                                     "FORCE_COLOR": None}],
                         ids=["NO_COLOR", "colour-term"])
def test_no_ansi_when_not_a_tty(fresh, args, env):
    # color=True stops CliRunner from stripping escapes itself: any escape seen
    # here was chosen by the app although stdout is not a terminal.
    move = legal_json(fresh)["moves"][0]
    r = run(*[a.format(log=fresh, move=move) for a in args], env=env, color=True)
    assert ANSI not in r.output, repr(r.output[:300])


def _run_on_pty(argv: list[str], env: dict, cwd: Path) -> tuple[int, bytes]:
    pty = pytest.importorskip("pty")
    master, slave = pty.openpty()
    try:
        proc = subprocess.run(argv, stdout=slave, stderr=subprocess.PIPE, env=env, cwd=cwd,
                              timeout=60)
    finally:
        os.close(slave)
    out = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
    os.close(master)
    assert b"Traceback" not in proc.stderr
    return proc.returncode, out


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_no_colour_on_a_terminal_with_no_color(fresh):
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    env["TERM"] = "xterm-256color"
    rc, out = _run_on_pty([sys.executable, "-m", "adjudicator", "show", str(fresh)], env,
                          fresh.parent)
    assert rc == 0
    assert ANSI.encode() in out  # the control: a terminal does get colour
    env["NO_COLOR"] = "1"
    rc, out = _run_on_pty([sys.executable, "-m", "adjudicator", "show", str(fresh)], env,
                          fresh.parent)
    assert rc == 0
    assert b"Turn of Time" in out
    assert ANSI.encode() not in out


# --- real processes --------------------------------------------------------------------------


def _console_script() -> str:
    found = shutil.which("adjudicator", path=str(Path(sys.executable).parent))
    if found is None:
        pytest.skip("the adjudicator console script is not installed next to this Python")
    return found


LAUNCHERS = {
    "python-m": lambda: [sys.executable, "-m", "adjudicator"],
    "console-script": lambda: [_console_script()],
}


@pytest.fixture(params=sorted(LAUNCHERS))
def launcher(request) -> list[str]:
    return LAUNCHERS[request.param]()


def sh(launcher: list[str], *args: Any, cwd: Path, input: bytes | None = None):
    env = {k: v for k, v in os.environ.items() if k != "FORCE_COLOR"}
    proc = subprocess.run([*launcher, *map(str, args)], input=input, capture_output=True,
                          cwd=cwd, env=env, timeout=120)
    assert b"Traceback" not in proc.stderr, proc.stderr.decode()
    assert b"Traceback" not in proc.stdout
    return proc


def test_process_happy_path(launcher, tmp_path):
    p = sh(launcher, "new", GAME, "--players", "ann,bob,cy", "--seed", SEED, cwd=tmp_path)
    assert p.returncode == 0 and p.stderr == b""
    assert p.stdout == logmod.encode(match.new_log(GAME, PLAYERS, SEED))
    path = write(tmp_path / "g.json", p.stdout)
    p = sh(launcher, "legal", "g.json", "--json", cwd=tmp_path)
    assert p.returncode == 0
    move = json.loads(p.stdout)["moves"][0]
    p = sh(launcher, "extend", "g.json", mangle(move), "--as", "ann", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert logmod.decode(path.read_bytes()).moves[0].move == move
    p = sh(launcher, "validate", "g.json", cwd=tmp_path)
    assert p.returncode == 0 and p.stdout.startswith(b"ok g.json")
    p = sh(launcher, "extend", "-", "SpSp-e4", cwd=tmp_path, input=path.read_bytes())
    assert p.returncode in (0, 1)  # whichever: a clean exit
    p = sh(launcher, "--help", cwd=tmp_path)
    assert p.returncode == 0 and p.stdout.startswith(b"Usage: adjudicator ")


def test_process_errors(launcher, tmp_path, full_bytes):
    bad = write(tmp_path / "bad.json", full_bytes[: len(full_bytes) // 2])
    before = bad.read_bytes()
    for args, code in [
        (("show", "bad.json"), 1),
        (("extend", "bad.json", "SuSu-d5"), 1),
        (("validate", "bad.json"), 1),
        (("show", "missing.json"), 1),
        (("new", "nogame", "--players", "ann"), 2),
        (("show",), 2),
        (("extend", "bad.json"), 2),
        (("frobnicate",), 2),
    ]:
        p = sh(launcher, *args, cwd=tmp_path)
        assert p.returncode == code, (args, p.stderr)
        if code == 1:
            lines = p.stderr.decode().splitlines()
            assert len(lines) == 1, (args, lines)
            if args[0] != "validate":
                assert lines[0].startswith("Error: "), (args, lines)
            assert p.stdout == b""
    assert bad.read_bytes() == before
    p = sh(launcher, "extend", "-", "SuSu-d5", cwd=tmp_path, input=b"{")
    assert p.returncode == 1 and p.stdout == b""
    assert p.stderr.decode().splitlines()[0].startswith("Error: stdin:")


@pytest.mark.parametrize("game_id", list(games.GAMES))
def test_ascii_output_fits_72_columns_with_long_names_in_any_script(game_id, tmp_path):
    """Escaped names are six times longer than the letters they stand for;
    what does not fit is folded, so --ascii output stays mail-safe."""
    n = games.get(game_id).players[-1]
    names = ["Ελένηαβγδεζηθ", "Ἀλέξανδρος", "Владимирович", "Zoë"][:n]
    path = tmp_path / "g.json"
    path.write_bytes(logmod.encode(match.simulate(game_id, names, "wide", max_moves=7)))
    for args in (["show", str(path), "--ascii", "--details"],
                 ["show", str(path), "--ascii", "--as", names[-1]],
                 ["replay", str(path), "--ascii"]):
        r = CliRunner().invoke(app, args)
        assert r.exit_code == 0, r.output
        wide = [line for line in r.stdout.splitlines() if len(line) > 72 or not line.isascii()]
        assert not wide, (args, wide[:3])


def test_the_command_table_says_what_each_command_says() -> None:
    """``adjudicator --help`` lists the commands from adjudicator.cli.COMMANDS
    without loading them: each short help there is the command's own."""
    import typer.main
    from typer.core import TyperCommand

    from adjudicator import cli

    group = typer.main.get_command(app)
    assert list(group.commands) == list(cli.COMMANDS)  # type: ignore[attr-defined]
    for name, (_, summary) in cli.COMMANDS.items():
        command = group.commands[name]  # type: ignore[attr-defined]
        for limit in (45, 10_000):
            assert (TyperCommand(name, help=summary).get_short_help_str(limit)
                    == command.get_short_help_str(limit)), name
