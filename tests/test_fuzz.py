"""Damaged logs and view files, by the thousand, for every game: what a mail
client, a careless player or a hostile one may send.

Through the library (``log.decode`` / ``log.decode_view``, then
``match.validate`` or ``match.check_public``, ``referee.check_view``, the
drawing of the view as ``show`` does it, ``referee.accept``) nothing may raise
but an :class:`adjudicator.errors.AdjudicatorError`. A sample goes through the
command line as well: exit status 1, exactly one ``Error:`` line on stderr (for
``validate``, one line naming the file), no traceback, no file changed.

Every case comes from a ``random.Random`` with a fixed seed, and every
refereed game from :func:`test_trust.fixed_secrets`, so a failure repeats.
"""

from __future__ import annotations

import random
import unicodedata
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec
import pytest

from adjudicator import games, log as logmod, match, present, referee, seal
from adjudicator.engine import Style
from adjudicator.errors import AdjudicatorError
from adjudicator.log import Log, Secret
from test_trust import SEED, check, invoke, open_game, private_key, refereed, shown

#: Damaged logs per game (the issue asks for at least 20,000), and view files.
LOGS = 20_000
VIEWS = 1_000
#: Views damaged and then signed again with the referee's key: what the
#: drawing of a view (not the proof) must survive.
SIGNED_VIEWS = 300
#: Cases per game that also go through the command line.
CLI_SAMPLE = 60

GAMES = [
    pytest.param("turn-of-time", ("ann", "bob", "cy"), id="turn-of-time"),
    pytest.param("q-turn", ("ann", "bob"), id="q-turn"),
    pytest.param("atlas", ("ann", "bob", "cy"), id="atlas"),
    pytest.param("time-palatrix", ("ann", "bob", "cy"), id="time-palatrix"),
    pytest.param("fifteen-days", ("ann", "bob"), id="fifteen-days"),
]
COMMENTS = {2: "café naïve ÿ", 5: "“quoted” — 5 € ☕", 9: "line\nbreak\x1b[2J\u202e"}


# --- the bases -------------------------------------------------------------------------------


@dataclass
class Bases:
    """The logs and the view file of one game that every damage starts from."""

    game_id: str
    logs: dict[str, bytes]  # name -> a valid log (open, signed, refereed secret, revealed)
    refereed: Log
    secret: Secret
    view: bytes  # the mover's view file of ``refereed``, a move chosen
    moves: list[str]  # move texts seen in the game, to write in where a move goes


def bases(game_id: str, players: tuple[str, ...]) -> Bases:
    keys = {p: private_key(f"fuzz/{p}") for p in players}
    plain = open_game(game_id, players, "fuzz", 20, comments=COMMENTS)
    # Every check of a signature costs ~0.1 ms: the signed log is short, and
    # in the refereed one only the referee signs.
    signed = open_game(game_id, players, "fuzz-signed", 6, keys=keys,
                       comments={2: COMMENTS[2], 5: COMMENTS[5]})
    log, secret = refereed(game_id, players, SEED, 12, tag="fuzz", comments=COMMENTS)
    rep = match.replay(match.unlock(log, secret))
    mover = rep.to_move()
    assert mover is not None
    vf = referee.issue_view(log, secret, mover)
    assert vf.legal
    vf = referee.choose(vf, vf.legal[-1], comment="mine ☕")
    referee.accept(log, secret, vf)  # the base view file is good
    moves = sorted({e.move for lg in (plain, signed, log) for e in lg.moves} | set(vf.legal or ()))
    return Bases(
        game_id=game_id,
        logs={"open": logmod.encode(plain), "signed": logmod.encode(signed),
              "refereed": logmod.encode(log), "revealed": logmod.encode(match.reveal(log, secret))},
        refereed=log, secret=secret, view=logmod.encode(vf), moves=moves,
    )


# --- damage ----------------------------------------------------------------------------------

SPECIAL = [b'"', b"\\", b"{", b"}", b"[", b"]", b",", b":", b"0", b"-", b"e", b".", b"\x00",
           b"\xff", b"\xc3", b"\n", b" ", b"\x1b", b"\t", b"/", b"u"]
WEIRD: list[Any] = [None, True, False, 0, -1, 1, 7, 1.5, -0.0, 1e308, 2**31, 2**63 - 1, 2**63,
                    -(2**63) - 1, 2**64, "", " ", "x", "0", "-1", "\x00", "\u202e", "😀",
                    "\ud7ff",
                    "ann", "nobody", "atlas", [], {}, [None], [[]], {"": None}, {"x": 1},
                    ["ann", "ann"], "a" * 300]
REENCODINGS = ["latin-1", "cp1252", "utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le",
               "utf-8-sig", "utf-7", "cp437", "mac-roman"]
EVENTS = ["@resign", "@takeback 2", "@takeback", "@accept", "@reject", "@abandon", "@", "@@",
          "@resign x", "@takeback -1", "@takeback 999999999999999999999"]
SENTINEL = "\ue000raw\ue000"
OTHER_KEY = seal.public_key(private_key("fuzz/other"))


def nodes(tree: Any, path: tuple = ()) -> list[tuple]:
    """The path of every value in a JSON tree, the root's included."""
    out = [path]
    if isinstance(tree, dict):
        for k, v in tree.items():
            out += nodes(v, (*path, k))
    elif isinstance(tree, list):
        for i, v in enumerate(tree):
            out += nodes(v, (*path, i))
    return out


def _at(tree: Any, path: tuple) -> Any:
    for key in path:
        tree = tree[key]
    return tree


def _set(tree: Any, path: tuple, value: Any) -> Any:
    if not path:
        return value
    _at(tree, path[:-1])[path[-1]] = value
    return tree


def _dump(tree: Any, raw: str | None = None) -> bytes:
    """The tree as JSON; a SENTINEL string in it replaced by the text ``raw``."""
    data = msgspec.json.encode(tree)
    if raw is not None:
        data = data.replace(msgspec.json.encode(SENTINEL), raw.encode("utf-8"), 1)
    return data


_PATHS: dict[bytes, list[tuple]] = {}


def _tree(data: bytes) -> tuple[Any, list[tuple]]:
    """A fresh copy of the JSON of ``data`` and the paths of its values."""
    tree = msgspec.json.decode(data)
    if data not in _PATHS:
        _PATHS[data] = nodes(tree)
    return tree, _PATHS[data]


def weird_move(rng: random.Random, moves: list[str]) -> str:
    base = rng.choice(moves) if moves else "x"
    how = rng.randrange(14)
    if how == 0:
        return base.lower()
    if how == 1:
        return base.upper()
    if how == 2:
        return f" {base} "
    if how == 3:
        return base[: rng.randrange(max(1, len(base)))]
    if how == 4:
        return base + rng.choice(["+", "-", "0", "9", "x", "+1T", "/", ":", "\x00", "\n"])
    if how == 5:
        return rng.choice(EVENTS)
    if how == 6:
        return "9" * rng.choice([20, 400, 5000])
    if how == 7:
        return "".join(rng.choice("0123456789abcdefghijklmnopqrstuvwxyz+-:/ ABCDNOPQSTW")
                       for _ in range(rng.randrange(1, 12)))
    if how == 8:
        return base.translate(str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩"))
    if how == 9:
        return base.translate({c: c + 0xFEE0 for c in range(0x21, 0x7F)})  # full width
    if how == 10:
        return "x" * rng.choice([1000, 100_000])
    if how == 11:
        return ""
    if how == 12:
        return base + "\u202e" + base
    return rng.choice(moves) if moves else base


def rechained(tree: dict, keep_signatures: bool = True) -> bytes | None:
    """``tree`` with its digest chain recomputed (as anyone can), so that what
    was written in reaches the rules; None if it no longer reads as a log."""
    try:
        log = logmod.decode(_dump(tree))
    except AdjudicatorError:
        return None
    try:
        entries = match.sealed(msgspec.structs.replace(log, moves=()),
                               [(e.by, e.move, e.comment) for e in log.moves])
    except AdjudicatorError:
        return None
    if keep_signatures:
        entries = tuple(msgspec.structs.replace(new, signature=old.signature)
                        for new, old in zip(entries, log.moves))
    return logmod.encode(msgspec.structs.replace(log, moves=entries))


def damage(rng: random.Random, data: bytes, b: Bases, log_like: bool) -> tuple[str, bytes]:
    """One damaged copy of ``data``: (what was done, the bytes)."""
    r = rng.random()
    if r < 0.10:
        out = bytearray(data)
        for _ in range(rng.randint(1, 4)):
            out[rng.randrange(len(out))] ^= rng.randrange(1, 256)
        return "byte flip", bytes(out)
    if r < 0.16:
        out = bytearray(data)
        i = rng.randrange(len(out))
        out[i:i + 1] = rng.choice(SPECIAL)
        return "special byte", bytes(out)
    if r < 0.21:
        return "truncated", data[: rng.randrange(len(data))]
    if r < 0.24:
        i, j = sorted(rng.randrange(len(data)) for _ in range(2))
        k = rng.randrange(len(data))
        return "bytes repeated", data[:k] + data[i:j] + data[k:]
    if r < 0.32:
        codec = rng.choice(REENCODINGS)
        out = data.decode("utf-8").encode(codec, errors=rng.choice(["replace", "ignore",
                                                                  "xmlcharrefreplace"]))
        if rng.random() < 0.3:
            out = bytearray(out)
            out[rng.randrange(len(out))] ^= rng.randrange(1, 256)
            out = bytes(out)
        return f"re-encoded {codec}", out
    tree, paths = _tree(data)
    path = rng.choice(paths)
    if r < 0.40:
        path = rng.choice([p for p in paths if p and isinstance(_at(tree, p[:-1]), dict)])
        del _at(tree, path[:-1])[path[-1]]
        return "field deleted", _dump(tree)
    if r < 0.52:
        return "wrong type", _dump(_set(tree, path, rng.choice(WEIRD)))
    if r < 0.555:
        depth = rng.choice([10, 100, 1000, 10_000, 100_000])
        opener, closer = rng.choice([("[", "]"), ('{"a":', "}")])
        raw = opener * depth + "0" + closer * depth
        return f"nested {depth}", _dump(_set(tree, path, SENTINEL), raw)
    if r < 0.58:
        digits = rng.choice([19, 20, 40, 400, 4300, 5000, 100_000])
        sign = rng.choice(["", "-"])
        exp = rng.choice(["", "", "e999", ".5", "e-999"])
        return f"huge number {digits}", _dump(_set(tree, path, SENTINEL), sign + "9" * digits + exp)
    if r < 0.60:
        size = rng.choice([10_000, 200_000])
        return f"huge string {size}", _dump(_set(tree, path, rng.choice("x☕\x00") * size))
    if r < 0.64:
        strings = [p for p in paths if isinstance(_at(tree, p), str)]
        p = rng.choice(strings)
        value = _at(tree, p)
        i = rng.randrange(len(value) + 1)
        if rng.random() < 0.5:
            return "NUL escaped", _dump(_set(tree, p, value[:i] + "\x00" + value[i:]))
        raw = msgspec.json.encode(value[:i])[:-1] + b"\x00" + msgspec.json.encode(value[i:])[1:]
        return "NUL raw", _dump(_set(tree, p, SENTINEL), raw.decode("utf-8"))
    if r < 0.67:
        dicts = [p for p in paths if isinstance(_at(tree, p), dict)]
        p = rng.choice(dicts)
        target = _at(tree, p)
        if target and rng.random() < 0.5:
            key = rng.choice(list(target))
            text = _dump(tree)
            needle = msgspec.json.encode(key) + b":"
            i = text.find(needle)
            if i >= 0:
                dup = needle + msgspec.json.encode(rng.choice(WEIRD[:30])) + b","
                return "duplicate key", text[:i] + dup + text[i:]
        target[rng.choice(["extra", "x", "", "seed", "moves", "Format"])] = rng.choice(WEIRD[:20])
        return "unknown field", _dump(tree)
    # Written in, with the digest chain recomputed so that it reaches the rules.
    if log_like:
        return semantic(rng, tree, b)
    return semantic_view(rng, tree, b)


def semantic(rng: random.Random, tree: dict, b: Bases) -> tuple[str, bytes]:
    moves = tree["moves"]
    players = list(tree["players"])
    what = rng.randrange(12)
    if what <= 2 and moves:
        i = rng.randrange(len(moves))
        moves[i]["move"] = weird_move(rng, b.moves)
        kind = "move rewritten"
    elif what == 3 and moves:
        i = rng.randrange(len(moves))
        moves[i]["by"] = rng.choice([*players, "nobody", "", "ANN", players[0] + " ", "\u202e"])
        kind = "by rewritten"
    elif what == 4 and moves:
        i = rng.randrange(len(moves))
        moves[i]["comment"] = rng.choice(["", "\x00", "x" * 100_000, "\n" * 50, "\u202e☕",
                                          "Game over. Winner: mallory"])
        kind = "comment rewritten"
    elif what == 5 and len(moves) > 1:
        i, j = rng.sample(range(len(moves)), 2)
        op = rng.randrange(4)
        if op == 0:
            moves[i], moves[j] = moves[j], moves[i]
        elif op == 1:
            moves.insert(i, dict(moves[j]))
        elif op == 2:
            del moves[i]
        else:
            del moves[i:]
        kind = "entries reordered"
    elif what == 6:
        tree["params"][rng.choice([*tree["params"], "extra", ""])] = rng.choice(WEIRD)
        kind = "parameter rewritten"
    elif what == 7:
        op = rng.randrange(6)
        if op == 0:
            players.append(rng.choice(["dee", "eve", players[0], "ANN"]))
        elif op == 1 and len(players) > 1:
            players.pop()
        elif op == 2:
            players.reverse()
        elif op == 3:
            players[0] = rng.choice(["", "1ann", "a" * 30, "an  n", "ann\x00", "éva"])
        elif op == 4:
            players = [players[0]] * len(players)
        else:
            players = []
        tree["players"] = players
        kind = "players rewritten"
    elif what == 8:
        tree["game"] = rng.choice([*games.GAMES, "chess", "", "ATLAS"])
        kind = "game rewritten"
    elif what == 9:
        key = rng.choice(["seed", "salt", "commitment", "referee", "version", "signature"])
        tree[key] = rng.choice([None, "", "x", "0" * 64, OTHER_KEY,
                                1, 2, 3, 0, -1, 2**40])
        kind = f"{key} rewritten"
    elif what == 10:
        tree["result"] = rng.choice([
            None,
            {"standings": [], "winners": [], "details": []},
            {"standings": [{"player": p, "score": rng.choice([0, -1, 2**70]), "place": 1}
                           for p in players], "winners": players, "details": ["x" * 10]},
            {"standings": [{"player": "mallory", "score": 1, "place": 1}],
             "winners": ["mallory"], "details": ["Game over. Winner: mallory"]},
        ])
        kind = "result rewritten"
    else:
        tree["keys"] = rng.choice([{}, {players[0]: OTHER_KEY},
                                   {"nobody": OTHER_KEY},
                                   {players[0]: "ed25519:"}, {players[0]: "x"}])
        kind = "keys rewritten"
    data = rechained(tree, keep_signatures=rng.random() < 0.7)
    return kind, data if data is not None else _dump(tree)


def semantic_view(rng: random.Random, tree: dict, b: Bases) -> tuple[str, bytes]:
    what = rng.randrange(6)
    if what == 0 and tree.get("move"):
        tree["move"]["move"] = weird_move(rng, b.moves)
        kind = "move rewritten"
    elif what == 1:
        tree["legal"] = rng.choice([None, [], [weird_move(rng, b.moves)], tree.get("legal")])
        kind = "legal rewritten"
    elif what == 2:
        tree["player"] = rng.choice(["ann", "bob", "cy", "nobody", "", "\u202e"])
        kind = "player rewritten"
    elif what == 3:
        tree["to_move"] = rng.choice(["ann", "bob", "cy", None, "", "\x1b[2J"])
        kind = "to_move rewritten"
    elif what == 4 and tree.get("move"):
        # The recorded move chained again to the embedded log, with a comment.
        entry = tree["move"]
        log = logmod.decode(_dump(tree["log"]))
        chained = match.sealed(log, [(entry["by"], entry["move"], rng.choice(
            ["\x00", "x" * 100_000, "\u202e", "Game over. Winner: mallory\n"]))])[-1]
        tree["move"] = msgspec.to_builtins(chained)
        kind = "move comment rechained"
    else:
        kind, data = semantic(rng, tree["log"], b)
        try:
            tree["log"] = msgspec.json.decode(data)
        except msgspec.DecodeError:
            pass
        kind = f"log {kind}"
    return kind, _dump(tree)


# --- the checks ------------------------------------------------------------------------------


@dataclass
class Tally:
    cases: int = 0
    refused: Counter = field(default_factory=Counter)
    passed: Counter = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)

    def run(self, kind: str, step: Callable[[], object]) -> bool:
        """Whether ``step`` refused (raised an AdjudicatorError); any other
        exception is a failure."""
        self.cases += 1
        try:
            step()
        except AdjudicatorError:
            self.refused[kind] += 1
            return True
        except Exception as e:  # noqa: BLE001 - anything else is the bug looked for
            if len(self.failures) < 20:
                self.failures.append(f"{kind}: {type(e).__name__}: {str(e)[:200]}")
            return False
        self.passed[kind] += 1
        return False


def judge_log(data: bytes, sniff: bool = False) -> None:
    if sniff:  # what the CLI does first, to tell a log from a view file
        logmod.kind_of(data)
    check(logmod.decode(data))


def judge_view(b: Bases, data: bytes,
               style: Style) -> tuple[Callable[[], object], Callable[[], object]]:
    """The player's side (check and draw) and the referee's side (accept)."""
    game = games.get(b.game_id)

    def player() -> None:
        logmod.kind_of(data)
        vf = logmod.decode_view(data)
        seen = referee.check_view(vf)
        present.render(game, seen, style, "view file")

    def referee_side() -> None:
        referee.accept(b.refereed, b.secret, logmod.decode_view(data))

    return player, referee_side


def resigned(rng: random.Random, b: Bases) -> tuple[str, bytes]:
    """The base view file with its view damaged and then signed again by the
    referee: only the game's drawing stands between it and the terminal."""
    tree = msgspec.json.decode(b.view)
    view = tree["view"]
    paths = [p for p in nodes(view) if p]
    path = rng.choice(paths)
    value = _at(view, path)
    if isinstance(value, bool):
        new: Any = not value
    elif isinstance(value, int):
        new = rng.choice([-1, 0, value + 1, 99, 10**6, 2**31, 2**63 - 1])
    elif isinstance(value, str):
        new = rng.choice(["", "x", "nobody", value * 2, value[::-1], "ZZ9", "\u202e" + value,
                          "x" * 10_000] + b.moves[:5])
    elif isinstance(value, list):
        new = rng.choice([[], value * 2, value[:1], value[::-1], [None]])
    elif isinstance(value, dict):
        new = rng.choice([{}, {"x": 1}])
    else:
        new = rng.choice([0, "", [], "x"])
    _set(view, path, new)
    vf = logmod.decode_view(msgspec.json.encode(tree))
    vf = msgspec.structs.replace(vf, proof=seal.sign(b.secret.signing_key,  # type: ignore[arg-type]
                                                     referee.view_items(vf)))
    return f"signed view {'.'.join(map(str, path))}", logmod.encode(vf)


def single_line_error(result: Any, path: Path | None = None) -> None:
    """Exit 1, one line on stderr (``Error: ...``, or for validate the file's
    name), nothing raw, no traceback."""
    assert result.exit_code == 1, shown(result)
    lines = result.stderr.split("\n")
    assert len(lines) == 2 and lines[1] == "", "one line on stderr\n" + shown(result)
    start = f"{path}: " if path is not None else "Error: "
    assert lines[0].startswith(start), shown(result)
    assert not [ch for ch in lines[0] if unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp")], \
        shown(result)
    assert "Traceback" not in result.output


# --- the tests -------------------------------------------------------------------------------


@pytest.mark.parametrize(("game_id", "players"), GAMES)
def test_damaged_logs_and_view_files(tmp_path: Path, game_id: str,
                                     players: tuple[str, ...]) -> None:
    b = bases(game_id, players)
    seed = int.from_bytes(game_id.encode(), "big") % 2**32
    rng = random.Random(seed)
    tally = Tally()
    for data in b.logs.values():
        check(logmod.decode(data))  # the bases are valid
    # The damaged cases the command line gets too: (command kind, file bytes).
    refused_logs: list[tuple[str, str, bytes]] = []
    refused_views: list[tuple[str, str, bytes, bool, bool]] = []
    share = {"open": 0.4, "signed": 0.15, "refereed": 0.225, "revealed": 0.225}
    for name, data in b.logs.items():
        for _ in range(int(LOGS * share[name])):
            kind, damaged = damage(rng, data, b, log_like=True)
            sniff = tally.cases % 5 == 0
            if tally.run(f"{name} {kind}", lambda damaged=damaged, sniff=sniff: judge_log(damaged, sniff)) and \
                    rng.random() < 0.02:
                refused_logs.append((name, kind, damaged))
    for _ in range(VIEWS):
        kind, damaged = damage(rng, b.view, b, log_like=False)
        player, referee_side = judge_view(b, damaged, Style(unicode=rng.random() < 0.5))
        p = tally.run(f"view {kind}", player)
        r = tally.run(f"view (referee) {kind}", referee_side)
        if (p or r) and rng.random() < 0.1:
            refused_views.append(("view", kind, damaged, p, r))
    for _ in range(SIGNED_VIEWS):
        kind, damaged = resigned(rng, b)
        player, _ = judge_view(b, damaged, Style(unicode=rng.random() < 0.5))
        tally.run(kind, player)
    assert not tally.failures, f"{game_id}: {len(tally.failures)}+ exceptions:\n" + \
        "\n".join(tally.failures)
    assert tally.cases >= LOGS + 2 * VIEWS + SIGNED_VIEWS - 4
    # The damage is real: nearly every damaged log is refused.
    assert sum(tally.refused.values()) > 0.8 * tally.cases, tally.passed.most_common(10)

    # A sample through the command line.
    log_path, secret_path = tmp_path / "g.json", tmp_path / "g.secret.json"
    log_path.write_bytes(b.logs["refereed"])
    secret_path.write_bytes(logmod.encode(b.secret))
    commands = ["show", "validate", "legal", "extend"]
    sample: list[tuple] = [*refused_logs[: CLI_SAMPLE // 2], *refused_views[: CLI_SAMPLE // 2]]
    assert len(sample) == CLI_SAMPLE, (len(refused_logs), len(refused_views))
    for number, case in enumerate(sample):
        path = tmp_path / f"case{number}.json"
        path.write_bytes(case[2])
        if case[0] != "view":
            command = commands[number % 4]
            args: list[Any] = [command, path] + ([b.moves[0]] if command == "extend" else [])
            r = invoke(*args)
            single_line_error(r, path if command == "validate" else None)
        else:
            _, kind, data, by_player, by_referee = case
            if by_player:
                command = ["show", "legal", "extend"][number % 3]
                args = [command, path] + ([b.moves[0]] if command == "extend" else [])
                single_line_error(invoke(*args))
            if by_referee:
                single_line_error(invoke("extend", log_path, "--secret", secret_path,
                                         "--from", path))
        assert path.read_bytes() == case[2], f"case {number} ({case[1]}) was changed"
    assert log_path.read_bytes() == b.logs["refereed"]
    leftovers = [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    assert not leftovers
