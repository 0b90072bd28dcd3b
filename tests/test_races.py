"""Two writers of one log (README: "Rewriting a log is safe against a second
writer"): every move reported recorded is in the log, in order, and no move
reported refused is; ``--expect N`` refuses a move that answers an old
position."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
from filelock import FileLock

from adjudicator import files, log as logmod, match, recording
from test_trust import invoke, open_game, refused, shown

ROOT = Path(__file__).resolve().parent.parent

#: Each of the two processes tries this many moves.
ATTEMPTS = 60

# A writer: reads the log, picks a legal move for whoever is to move, and runs
# 'adjudicator extend' on it in-process (a fresh interpreter per move would cost
# 0.3 s); every other move with --expect. Each move carries a comment naming
# the attempt, so the log itself says which attempts it holds.
WRITER = r"""
import json, sys, time
from pathlib import Path
from unittest import mock

import typer
from typer.testing import CliRunner

from adjudicator import log as logmod, match
from adjudicator.chance import Chance
from adjudicator.cli import app

path, name, attempts, go = sys.argv[1], sys.argv[2], int(sys.argv[3]), Path(sys.argv[4])
command = typer.main.get_command(app)
runner = CliRunner()
rng = Chance("race/" + name, "moves")
Path(str(go) + "." + name).touch()
while not go.exists():
    time.sleep(0.001)
results = []
for i in range(attempts):
    log = logmod.decode(Path(path).read_bytes())
    rep = match.replay(log)
    if rep.to_move() is None:
        break
    legal = rep.game.legal_moves(rep.state)
    text = rep.game.format_move(rep.state, legal[rng.below(len(legal))])
    tag = name + "-" + str(i)
    args = ["extend", path, text, "--comment", tag]
    if i % 2:
        args += ["--expect", str(len(log.moves))]
    with mock.patch("typer.testing._get_command", lambda app: command):
        r = runner.invoke(app, args)
    exc = r.exception
    results.append({"tag": tag, "move": text, "code": r.exit_code, "stderr": r.stderr,
                    "exception": None if exc is None or isinstance(exc, SystemExit) else repr(exc)})
print(json.dumps(results))
"""


def test_two_processes_extending_one_log(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_bytes(logmod.encode(match.new_log("fifteen-days", ("ann", "bob"), "race")))
    go = tmp_path / "go"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    writers = [subprocess.Popen([sys.executable, "-c", WRITER, str(path), name, str(ATTEMPTS),
                                 str(go)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                env=env, cwd=tmp_path)
               for name in ("w1", "w2")]
    deadline = time.monotonic() + 120
    while not all(Path(f"{go}.{name}").exists() for name in ("w1", "w2")):
        assert time.monotonic() < deadline and all(w.poll() is None for w in writers), \
            [w.communicate() for w in writers]
        time.sleep(0.01)
    go.touch()  # both start at once
    results = []
    for w in writers:
        out, err = w.communicate(timeout=300)
        assert w.returncode == 0, err.decode()
        results.append(json.loads(out))

    attempts = [r for rs in results for r in rs]
    assert len(attempts) == 2 * ATTEMPTS
    assert not [r for r in attempts if r["exception"]], "a traceback"
    reasons: Counter[str] = Counter()
    for r in attempts:
        assert r["code"] in (0, 1), r
        if r["code"] == 1:
            lines = r["stderr"].split("\n")
            assert len(lines) == 2 and lines[0].startswith("Error: "), r
            reasons[next((k for k in ("--expect", "changed while", "lock") if k in lines[0]),
                         "no longer legal")] += 1
    recorded = {r["tag"]: r["move"] for r in attempts if r["code"] == 0}
    refused_tags = {r["tag"] for r in attempts if r["code"] == 1}

    final = logmod.decode(path.read_bytes())
    match.validate(final)
    assert invoke("validate", path).exit_code == 0
    in_log = [(e.comment, e.move) for e in final.moves]
    assert {tag for tag, _ in in_log} == set(recorded), "a move reported recorded is missing"
    assert not refused_tags & {tag for tag, _ in in_log}, "a move reported refused is in the log"
    assert all(recorded[tag] == move for tag, move in in_log)
    for name in ("w1", "w2"):
        mine = [int(tag.split("-")[1]) for tag, _ in in_log if tag.startswith(name + "-")]
        assert mine == sorted(mine), f"{name}'s moves are out of order"
    # Both wrote, and the two collided: a position answered by the other first.
    assert {tag.split("-")[0] for tag in recorded} == {"w1", "w2"}, reasons
    assert refused_tags, f"no collision in {len(attempts)} attempts: {reasons}"
    assert len(recorded) + len(refused_tags) == len(attempts)
    print(f"race: {len(recorded)} recorded, refused: {dict(reasons)}")
    assert not [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_expect_refuses_an_old_position(tmp_path: Path) -> None:
    log = open_game("atlas", ("ann", "bob"), "expect", 3)
    path = tmp_path / "g.json"
    path.write_bytes(logmod.encode(log))
    rep = match.replay(log)
    move = rep.game.format_move(rep.state, rep.game.legal_moves(rep.state)[0])
    before = path.read_bytes()
    for stale in (0, 2, 4):
        line = refused(invoke("extend", path, move, "--expect", stale))
        assert f"holds 3 moves, not {stale}" in line
        assert path.read_bytes() == before
    r = invoke("extend", path, move, "--expect", 3)
    assert r.exit_code == 0, shown(r)
    # The same answer again, to the position it answered: gone.
    after = path.read_bytes()
    line = refused(invoke("extend", path, move, "--expect", 3))
    assert "holds 4 moves, not 3" in line and path.read_bytes() == after


def test_expect_on_a_view_file(tmp_path: Path) -> None:
    from test_trust import SEED, refereed
    from adjudicator import referee

    log, secret = refereed("atlas", ("ann", "bob"), SEED, 2, tag="expect")
    mover = match.replay(match.unlock(log, secret)).to_move()
    assert mover is not None
    vf = referee.issue_view(log, secret, mover)
    path = tmp_path / "mine.json"
    path.write_bytes(logmod.encode(vf))
    line = refused(invoke("extend", path, vf.legal[0], "--expect", 1))  # type: ignore[index]
    assert "made after move 2, not 1" in line and path.read_bytes() == logmod.encode(vf)
    assert invoke("extend", path, vf.legal[0], "--expect", 2).exit_code == 0  # type: ignore[index]


def test_a_write_between_reading_and_replacing_is_not_lost(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """The race made certain: another writer records a move while extend is
    computing its own; extend then refuses, and the other move stays."""
    log = open_game("atlas", ("ann", "bob"), "interleave", 4)
    path = tmp_path / "g.json"
    path.write_bytes(logmod.encode(log))
    rep = match.replay(log)
    theirs, mine = [rep.game.format_move(rep.state, m) for m in rep.game.legal_moves(rep.state)[:2]]
    other = logmod.encode(match.extend(log, [theirs], comment="the other writer"))
    real_extend = recording.extend

    def extend_while_another_writes(*args, **kwargs):  # type: ignore[no-untyped-def]
        path.write_bytes(other)
        return real_extend(*args, **kwargs)

    monkeypatch.setattr(recording, "extend", extend_while_another_writes)
    line = refused(invoke("extend", path, mine))
    assert "changed while extending it; nothing recorded" in line
    assert path.read_bytes() == other


def test_a_held_lock_refuses_after_its_timeout(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    path.write_bytes(b"before")
    with (FileLock(files.lock_path(str(path))),
          pytest.raises(files.ConcurrentChangeError, match="holds the log's lock")):
        files.update(str(path), b"before", b"after", timeout=0.2)
    assert path.read_bytes() == b"before"
    files.update(str(path), b"before", b"after", timeout=0.2)
    assert path.read_bytes() == b"after"
    with pytest.raises(files.ConcurrentChangeError, match="changed while"):
        files.update(str(path), b"before", b"again")
    assert path.read_bytes() == b"after"
