"""Refereed play under attack: what a hostile player, a careless player and a
mail client do to logs and view files (README "A refereed game"; notation/README.md
"Refereed games").

- Seed recovery: a player holding only their view file tries every seed a
  person would type and recovers nothing, because the deal comes from the
  seed *and* the referee's secret salt (``seal.deal_seed``).
- Forgery: view files made up, edited, stale, of another player or of another
  game are refused by ``referee.accept`` and by ``extend --from``, with one
  line that names nothing hidden from the sender, the log untouched.
- Signatures: every single-field edit of a signed log is refused without the
  secret, before and after the reveal; histories rewritten with a recomputed
  digest chain are refused where anyone signs.
- Terminal injection: text from files never reaches a terminal raw.
- Encodings: what mail clients do to a file.

Every refereed game here is made under :func:`fixed_secrets`, so its salt and
keys, and therefore every deal and signature, are the same on every run.
"""

from __future__ import annotations

import base64
import contextlib
import datetime
import functools
import hashlib
import itertools
import json
import os
import re
import shlex
import subprocess
import sys
import traceback
import unicodedata
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any
from unittest import mock

import msgspec
import pytest
import typer
from typer.testing import CliRunner

from adjudicator import games, log as logmod, match, referee, seal
from adjudicator.chance import Chance
from adjudicator.cli import app
from adjudicator.errors import AdjudicatorError
from adjudicator.log import Log, Secret, ViewFile

_command = functools.cache(typer.main.get_command)


class Runner(CliRunner):
    """typer's CliRunner with the Click command built once, not on every invoke
    (building it evaluates every annotation of every command: ~0.1 s a call)."""

    def invoke(self, app: Any, *args: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        with mock.patch("typer.testing._get_command", _command):
            return super().invoke(app, *args, **kwargs)


runner = Runner()


# --- helpers (test_fuzz.py and test_races.py use them too) -----------------------------------


@contextlib.contextmanager
def fixed_secrets(tag: str) -> Iterator[None]:
    """seal's random salts, seeds and signing keys drawn from ``tag`` instead,
    so that a refereed game (its deal and its Ed25519 signatures, which are
    deterministic) is the same on every run."""
    counter = itertools.count()

    def draw() -> bytes:
        return hashlib.sha256(f"test_trust/{tag}/{next(counter)}".encode()).digest()

    with mock.patch.object(seal, "new_salt", lambda: draw()[:16].hex()), \
            mock.patch.object(seal, "new_secret_seed", lambda: draw()[:16].hex()), \
            mock.patch.object(seal, "new_signing_key", lambda: base64.b64encode(draw()).decode()):
        yield


def private_key(tag: str) -> str:
    """A player's fixed private signing key."""
    return base64.b64encode(hashlib.sha256(f"test_trust/key/{tag}".encode()).digest()).decode()


def pick(rep: match.Replay, rng: Chance) -> str:
    legal = rep.game.legal_moves(rep.state)
    return rep.game.format_move(rep.state, legal[rng.below(len(legal))])


def refereed(game_id: str, players: tuple[str, ...], seed: str, moves: int | None,
             tag: str = "", keys: dict[str, str] | None = None,
             comments: dict[int, str] | None = None) -> tuple[Log, Secret]:
    """A refereed game of random legal moves recorded by its referee (signed at
    every write), stopped after ``moves`` moves or at the end; players in
    ``keys`` (name to private key) sign theirs. ``comments`` maps a move
    number (1-based) to its comment."""
    with fixed_secrets(f"{game_id}/{seed}/{tag}"):
        public = {p: seal.public_key(k) for p, k in (keys or {}).items()}
        log, secret = match.new_refereed(game_id, players, seed=seed, keys=public)
    rng = Chance(f"{seed}/{tag}", "test_trust")
    while moves is None or len(log.moves) < moves:
        rep = match.replay(match.unlock(log, secret))
        mover = rep.to_move()
        if mover is None:
            break
        comment = (comments or {}).get(len(log.moves) + 1)
        log = referee.record(log, secret, [pick(rep, rng)], comment=comment,
                             player_key=(keys or {}).get(mover))
    return log, secret


def open_game(game_id: str, players: tuple[str, ...], seed: str, moves: int | None,
              keys: dict[str, str] | None = None,
              comments: dict[int, str] | None = None) -> Log:
    """An open game of random legal moves; players in ``keys`` sign theirs."""
    public = {p: seal.public_key(k) for p, k in (keys or {}).items()}
    log = match.new_log(game_id, players, seed, keys=public)
    rng = Chance(seed, "test_trust")
    while moves is None or len(log.moves) < moves:
        rep = match.replay(log)
        mover = rep.to_move()
        if mover is None:
            break
        log = match.extend(log, [pick(rep, rng)],
                           comment=(comments or {}).get(len(log.moves) + 1),
                           player_key=(keys or {}).get(mover))
    return log


def check(log: Log) -> None:
    """What 'adjudicator validate' checks of a log without the referee's secret."""
    if log.seed is None:
        match.check_public(log)
    else:
        match.validate(log)


def invoke(*args: Any, input: bytes | str | None = None):
    """The CLI in-process; an exception a user would see as a traceback fails the test."""
    argv = [str(a) for a in args]
    result = runner.invoke(app, argv, input=input, prog_name="adjudicator")
    exc = result.exception
    if exc is not None and not isinstance(exc, SystemExit):
        tb = "".join(traceback.format_exception(*result.exc_info))
        pytest.fail(f"adjudicator {shlex.join(argv)} raised (a user would see a traceback):\n{tb}")
    assert "Traceback" not in result.output
    return result


def shown(result: Any) -> str:
    return (f"exit {result.exit_code}\n--- stdout ---\n{result.stdout}"
            f"\n--- stderr ---\n{result.stderr}")


def refused(result: Any) -> str:
    """Exit 1 and exactly one ``Error:`` line on stderr; that line."""
    assert result.exit_code == 1, shown(result)
    lines = result.stderr.split("\n")
    assert lines[-1] == "" and len(lines) == 2, "one line on stderr\n" + shown(result)
    assert lines[0].startswith("Error: "), shown(result)
    return lines[0]


def strings(node: Any) -> set[str]:
    """Every string and number in a JSON value, as text."""
    if isinstance(node, dict):
        return set().union(*(strings(v) | {str(k)} for k, v in node.items())) if node else set()
    if isinstance(node, list):
        return set().union(*(strings(v) for v in node)) if node else set()
    return set() if node is None or isinstance(node, bool) else {str(node)}


def as_json(value: Any) -> Any:
    return json.loads(msgspec.json.encode(value))


def mentions(text: str, token: str) -> bool:
    """Whether ``token`` stands in ``text`` as a word of its own (a card '3D' is
    not mentioned by 'a2D3Dx')."""
    return re.search(rf"(?<![A-Za-z0-9]){re.escape(token)}(?![A-Za-z0-9])", text) is not None


def hidden_from(log: Log, secret: Secret, player: str | None) -> set[str]:
    """Values ``player`` (``None``: a spectator) may not see: every text of the
    other players' views that is neither in their own view, nor in the
    public view, nor in the public log; and the secret itself."""
    unlocked = match.unlock(log, secret)
    rep = match.replay(unlocked)
    game = rep.game
    seat = None if player is None else rep.players.index(player)
    visible = strings(as_json(game.view(rep.state, seat)))
    visible |= strings(as_json(game.view(rep.state, None)))
    visible |= strings(json.loads(logmod.encode(log)))
    others: set[str] = set()
    for s in range(len(rep.players)):
        others |= strings(as_json(game.view(rep.state, s)))
    # Short numbers ('3' chips) are everywhere in prose; the cards, hands and
    # disks hidden are what matters.
    hidden = {t for t in others - visible if len(t) >= 2 and not t.isdigit()}
    return hidden | {secret.seed, secret.salt, seal.deal_seed(secret.seed, secret.salt)} | (
        {secret.signing_key} if secret.signing_key else set())


def hidden_state(state: Any) -> dict[str, Any]:
    """The whole state but the seed it keeps for later deals: equal for two
    candidates exactly when they agree on everything hidden too."""
    out = msgspec.structs.asdict(state)
    out.pop("seed", None)
    return out


# --- seed recovery ---------------------------------------------------------------------------

WORDS = [
    "seed", "secret", "password", "passwort", "test", "game", "tournament", "referee", "rita",
    "ann", "bob", "cy", "dee", "atlas", "palatrix", "time", "turn", "fifteen", "days", "q-turn",
    "qturn", "season", "winter", "summer", "autumn", "spring", "hello", "welcome", "letmein",
    "qwerty", "abc123", "admin", "dragon", "monkey", "master", "sunshine", "shadow", "football",
    "baseball", "love", "chess", "poker", "cards", "dice", "random", "lucky", "seven", "luck",
    "abcdef", "aaaa", "xyz", "foo", "bar", "baz", "january", "february", "march", "april", "may",
    "june", "july", "august", "september", "october", "november", "december", "monday", "tuesday",
    "wednesday", "thursday", "friday", "saturday", "sunday", "round", "final", "semifinal",
    "league", "club", "cup", "open", "2026", "2025", "2027", "one", "two", "three", "four", "five",
    "six", "eight", "nine", "ten", "42", "1234", "12345", "123456", "1234567", "12345678",
    "123456789", "0000", "1111", "007", "666", "777", "888", "999", "pi", "3.14", "314159", "zzz",
]


def human_seeds(numbers: int) -> Iterator[str]:
    """The seeds a person would type: the numbers below ``numbers``, the dates of
    2024-2028 in five spellings, and common words in three cases."""
    yield from map(str, range(numbers))
    day = datetime.date(2024, 1, 1)
    while day.year < 2029:
        yield from (day.isoformat(), day.strftime("%d.%m.%Y"), day.strftime("%d/%m/%Y"),
                    day.strftime("%m/%d/%Y"), day.strftime("%Y%m%d"))
        day += datetime.timedelta(days=1)
    for word in WORDS:
        yield from {word, word.capitalize(), word.upper()}


def attack(view_file: bytes, candidates: Iterable[str]) -> list[tuple[str, Any]]:
    """The attacker's method, from the view file alone: set the game up from each
    candidate seed, play the public moves, and keep the candidates whose view
    for this player is exactly the one in the file (with the state each gives)."""
    vf = logmod.decode_view(view_file)
    game = games.get(vf.log.game)
    target = msgspec.json.decode(vf.view, type=game.view_type)
    params, players = dict(vf.log.params), vf.log.players
    seat = players.index(vf.player)
    texts = [e.move for e in vf.log.moves]
    setup, view, parse, apply = game.setup, game.view, game.parse_move, game.apply
    found = []
    for candidate in candidates:
        state = setup(params, players, candidate)
        try:
            for text in texts:
                state = apply(state, parse(state, text))
        except AdjudicatorError:
            continue  # the public moves cannot be played on this deal
        if view(state, seat) == target:
            found.append((candidate, state))
    return found


# (game, players, public moves before the attacker's view file, numbers tried).
# A candidate costs one setup, the public moves and one view: 25-45 us for the
# first four here (measured on an idle CI core), 130 us for 15 Days, whose
# setup deals two piles of 90 cards. The four try every number 0-99,999; 15
# Days the numbers below 10,000, to keep it near its share of CI time. Every
# one also tries the dates and the words (9,400 candidates). With the salt no
# range would find anything; the first check below shows that the method
# finds the deal when it is given the deal's seed.
RECOVERY = [
    # Solo Turn of Time: the shuffled deck is hidden from its own player.
    pytest.param("turn-of-time", ("ann",), 0, 100_000, id="turn-of-time-solo"),
    # Q-Turn: the face-down disks are hidden from everyone; after 10 moves a
    # few are face up, which is what the attacker matches.
    pytest.param("q-turn", ("ann", "bob"), 10, 100_000, id="q-turn"),
    pytest.param("atlas", ("ann", "bob", "cy"), 0, 100_000, id="atlas"),
    pytest.param("time-palatrix", ("ann", "bob", "cy"), 0, 100_000, id="time-palatrix"),
    pytest.param("fifteen-days", ("ann", "bob"), 0, 10_000, id="fifteen-days"),
]
#: Games whose views show so little (one drawn card, a few revealed disks) that
#: some candidates fit them by chance; the attack then succeeds only if a
#: candidate also gives the hidden part. Q-Turn's layout has only 1,681,680
#: arrangements (20.7 bits), so ~110,000 candidates reproduce it by chance with
#: probability ~6.5% whatever the salt; the fixed salt makes this run one that
#: does not (re-pick the tag if a change to setup makes it collide).
THIN_VIEWS = {"turn-of-time", "q-turn"}


def test_the_recovery_cases_cover_every_game_that_hides_something() -> None:
    """A game hides something from a seat when re-dealing what the seat cannot
    see changes the state (``redeal``, the conformance tests' tool)."""
    hiding: set[tuple[str, int]] = set()
    for game_id, game in games.GAMES.items():
        for n in game.players:
            players = ("ann", "bob", "cy", "dee")[:n]
            log = open_game(game_id, players, "hiding", 12)
            for state in match.replay(log, keep=True).states:
                for seat in range(n):
                    if hidden_state(game.redeal(state, seat, "other")) != \
                            hidden_state(state):
                        hiding.add((game_id, n))
    covered = {(p.values[0], len(p.values[1])) for p in RECOVERY}
    assert {g for g, _ in hiding} == {g for g, _ in covered}, hiding
    assert covered <= hiding


@pytest.mark.parametrize(("game_id", "players", "moves", "numbers"), RECOVERY)
def test_a_typed_seed_gives_nobody_the_deal(game_id: str, players: tuple[str, ...], moves: int,
                                            numbers: int) -> None:
    log, secret = refereed(game_id, players, "2026", moves, tag="recovery")
    assert len(log.moves) == moves
    real = hidden_state(match.replay(match.unlock(log, secret)).state)
    attacker = players[-1]
    view_file = logmod.encode(referee.issue_view(log, secret, attacker))
    assert b"2026" not in view_file and secret.salt.encode() not in view_file

    def recovered(found: list[tuple[str, Any]]) -> list[str]:
        return [c for c, state in found if hidden_state(state) == real]

    # The method works: given the deal seed, it finds the deal, hidden part and all.
    deal = seal.deal_seed(secret.seed, secret.salt)
    assert recovered(attack(view_file, [deal])) == [deal]
    # The seed the referee typed is no use without the salt.
    typed = attack(view_file, ["2026"])
    assert recovered(typed) == []
    candidates = list(human_seeds(numbers))
    assert "2026" in candidates and "2026-11-23" in candidates and "23.11.2026" in candidates
    found = attack(view_file, candidates)
    assert recovered(found) == [], f"{game_id}: seeds that give the deal: {recovered(found)}"
    if game_id not in THIN_VIEWS:
        # A hand (or a market and a hand) rules every candidate out.
        assert typed == [] and found == [], [c for c, _ in found][:10]


# --- forgery ---------------------------------------------------------------------------------

SEED = "Xylophone"  # the referee's typed seed: no file name or message here contains it


def leaves(node: Any, path: tuple = ()) -> list[tuple]:
    """The paths of every leaf of a JSON value."""
    if isinstance(node, dict) and node:
        return [leaf for k, v in node.items() for leaf in leaves(v, (*path, k))]
    if isinstance(node, list) and node:
        return [leaf for i, v in enumerate(node) for leaf in leaves(v, (*path, i))]
    return [path]


def changed(value: Any) -> Any:
    """A value of the same type, one step away."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, str):
        return value[:-1] + ("0" if value[-1:] != "0" else "1") if value else "x"
    if value == {}:
        return {"x": 1}
    if value == []:
        return ["x"]
    return "x"  # null


def edit(tree: Any, path: tuple, value: Any) -> Any:
    """``tree`` (a fresh copy) with the leaf at ``path`` replaced."""
    tree = json.loads(json.dumps(tree))
    target = tree
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return tree


class Table:
    """A refereed game in progress, as its referee has it: the log, the secret,
    everyone's view files, the mover's file with a move chosen, the log one
    move earlier and another refereed game with the same players."""

    def __init__(self, game_id: str, players: tuple[str, ...], moves: int) -> None:
        self.game_id, self.players = game_id, players
        self.log, self.secret = refereed(game_id, players, SEED, moves, tag="forgery")
        self.before, _ = refereed(game_id, players, SEED, moves - 1, tag="forgery")
        self.other_log, self.other_secret = refereed(game_id, players, SEED, moves, tag="other")
        rep = match.replay(match.unlock(self.log, self.secret))
        self.game, self.state = rep.game, rep.state
        self.mover = rep.to_move()
        assert self.mover is not None
        self.bystanders = [p for p in players if p != self.mover]
        self.files = {p: referee.issue_view(self.log, self.secret, p) for p in players}
        mine = self.files[self.mover]
        assert mine.legal
        self.good = referee.choose(mine, mine.legal[0])
        earlier = match.replay(match.unlock(self.before, self.secret)).to_move()
        assert earlier is not None
        self.earlier_mover = earlier
        stale = referee.issue_view(self.before, self.secret, earlier)
        assert stale.legal
        self.stale = referee.choose(stale, stale.legal[-1])
        other = match.replay(match.unlock(self.other_log, self.other_secret)).to_move()
        assert other is not None
        theirs = referee.issue_view(self.other_log, self.other_secret, other)
        assert theirs.legal
        self.other_player = other
        self.other_game = referee.choose(theirs, theirs.legal[0])


def view_file(player: str, to_move: str | None, log: Log, view: bytes,
              legal: tuple[str, ...] | None, move: tuple[str, str] | None,
              proof: str | None) -> ViewFile:
    """A view file built by hand; ``move`` (by, text) is chained to ``log``."""
    entry = None if move is None else match.sealed(log, [(move[0], move[1], None)])[-1]
    return ViewFile(format=logmod.VIEW_FORMAT, version=logmod.VERSION, player=player,
                    to_move=to_move, log=log, view=msgspec.Raw(view), legal=legal, move=entry,
                    proof=proof)


def forgeries(t: Table) -> list[tuple[str, str, bytes]]:
    """(what, who sends it, the file's bytes): every view file the referee must refuse."""
    out: list[tuple[str, str, bytes]] = []
    mover, other = t.mover, t.bystanders[0]
    good = t.good
    assert good.move is not None and good.legal is not None
    move, legal = good.move.move, good.legal
    public_view = msgspec.json.encode(t.game.view(t.state, None))
    fake_proof = base64.b64encode(hashlib.sha256(b"not a signature").digest() * 2).decode()

    def add(what: str, sender: str, vf: ViewFile | bytes | dict) -> None:
        if isinstance(vf, dict):
            data = json.dumps(vf, indent=2).encode()
        elif isinstance(vf, ViewFile):
            data = logmod.encode(vf)
        else:
            data = vf
        out.append((what, sender, data))

    # Made up from the public log by a player who is not to move, with a move
    # that is in fact legal: the right format, the player to move, a listed move.
    add("made up: empty view, no proof", other,
        view_file(mover, mover, t.log, b"{}", (move,), (mover, move), None))
    add("made up: the public view and a proof-shaped string", other,
        view_file(mover, mover, t.log, public_view, legal, (mover, move), fake_proof))
    add("made up: the sender's own view and proof copied", other,
        view_file(mover, mover, t.log, bytes(t.files[other].view), legal, (mover, move),
                  t.files[other].proof))
    add("made up: the mover's view copied with the bystander's proof", other,
        view_file(mover, mover, t.log, bytes(good.view), legal, (mover, move),
                  t.files[other].proof))
    add("made up: the stale file's proof on the current position", other,
        view_file(mover, mover, t.log, bytes(good.view), legal, (mover, move), t.stale.proof))
    add("made up: no view, no legal list", other,
        view_file(mover, mover, t.log, b"null", None, (mover, move), None))
    add("made up: not JSON of a view file", other, b'{"format": "adjudicator-view"}')

    # Edited by the player to move.
    tree = json.loads(logmod.encode(good))
    view_leaves = leaves(tree["view"])
    for path in (view_leaves[0], view_leaves[len(view_leaves) // 2], view_leaves[-1]):
        where = ".".join(map(str, path))
        old = tree["view"]
        for key in path:
            old = old[key]
        add(f"edited: view.{where}", mover, edit(tree, ("view", *path), changed(old)))
    add("edited: view emptied", mover, edit(tree, ("view",), {}))
    add("edited: view of another player pasted", mover,
        edit(tree, ("view",), json.loads(bytes(t.files[other].view))))
    not_listed = next(m for m in t.other_game.legal or () if m not in legal) \
        if set(t.other_game.legal or ()) - set(legal) else legal[0] + "x"
    added = msgspec.structs.replace(good, legal=(*legal, not_listed))
    add("edited: a move added to the legal list and chosen", mover,
        msgspec.structs.replace(added, move=match.sealed(t.log, [(mover, not_listed, None)])[-1]))
    add("edited: a line of 'since your last move' changed", mover,
        edit(tree, ("since",), [*tree.get("since", []), "9. bob resigned"]))
    add("edited: a referee's note added", mover,
        edit(tree, ("notes",), ["applied: everything"]))
    add("edited: the legal list cut to the move chosen", mover,
        msgspec.structs.replace(good, legal=(move,)))
    add("edited: the legal list reversed", mover,
        msgspec.structs.replace(good, legal=tuple(reversed(legal))))
    add("edited: a move not on the list, chained", mover,
        msgspec.structs.replace(good, move=match.sealed(t.log, [(mover, not_listed, None)])[-1]))
    add("edited: player relabelled", mover, edit(tree, ("player",), other))
    add("edited: player and move.by relabelled, chained", mover,
        msgspec.structs.replace(good, player=other,
                                move=match.sealed(t.log, [(other, move, None)])[-1]))
    add("edited: to_move", mover, edit(tree, ("to_move",), other))
    add("edited: to_move null", mover, edit(tree, ("to_move",), None))
    add("edited: move.by", mover, edit(tree, ("move", "by"), other))
    add("edited: move.by, chained", mover,
        msgspec.structs.replace(good, move=match.sealed(t.log, [(other, move, None)])[-1]))
    add("edited: move.digest", mover,
        edit(tree, ("move", "digest"), changed(tree["move"]["digest"])))
    add("edited: proof, one character", mover, edit(tree, ("proof",), changed(tree["proof"])))
    add("edited: proof removed", mover, {k: v for k, v in tree.items() if k != "proof"})
    add("edited: embedded log, last move dropped", mover,
        edit(tree, ("log", "moves"), tree["log"]["moves"][:-1]))
    add("edited: embedded log, a comment added and the chain recomputed", mover,
        edit(tree, ("log", "moves"), json.loads(msgspec.json.encode(match.sealed(
            msgspec.structs.replace(t.log, moves=()),
            [(e.by, e.move, "i agree" if i == 0 else e.comment)
             for i, e in enumerate(t.log.moves)])))))
    add("edited: embedded log, its referee signature", mover,
        edit(tree, ("log", "signature"), changed(tree["log"]["signature"])))
    add("edited: embedded log, a result added", mover,
        edit(tree, ("log", "result"),
             json.loads(msgspec.json.encode(t.game.standing(t.state)))))
    add("edited: embedded log, the commitment", mover,
        edit(tree, ("log", "commitment"), changed(tree["log"]["commitment"])))
    add("edited: embedded log, the players' order", mover,
        edit(tree, ("log", "players"), list(reversed(tree["log"]["players"]))))
    # A whole game re-signed with a key of the sender's own: every check a
    # player can make passes, but it is not this referee's game.
    own = private_key("forger")
    forged_log = msgspec.structs.replace(t.log, referee=seal.public_key(own), signature=None)
    forged_log = msgspec.structs.replace(forged_log, moves=match.sealed(
        msgspec.structs.replace(forged_log, moves=()), [(e.by, e.move, e.comment)
                                                        for e in t.log.moves]))
    forged_log = msgspec.structs.replace(forged_log, signature=seal.sign(
        own, match.signed_items(forged_log)))
    forged = view_file(mover, mover, forged_log, bytes(good.view), legal, (mover, move), None)
    forged = msgspec.structs.replace(forged, proof=seal.sign(own, referee.view_items(forged)))
    referee.check_view(forged)  # a player cannot tell...
    add("made up: the whole game re-signed with the sender's own key", mover, forged)

    # Stale: the file the previous mover answered, one move ago.
    add("stale: an earlier position", t.earlier_mover, t.stale)
    add("stale: an earlier position, relabelled to the current move number", t.earlier_mover,
        edit(json.loads(logmod.encode(t.stale)), ("log",), tree["log"]))

    # Another player's file.
    theirs = t.files[other]
    add("other player: a bystander's file with a move written in", other,
        msgspec.structs.replace(theirs, move=match.sealed(t.log, [(other, move, None)])[-1]))
    add("other player: a bystander's file with the mover's list pasted", other,
        msgspec.structs.replace(theirs, legal=legal,
                                move=match.sealed(t.log, [(other, move, None)])[-1]))
    add("other player: a bystander's file relabelled to the mover", other,
        msgspec.structs.replace(theirs, player=mover, legal=legal,
                                move=match.sealed(t.log, [(mover, move, None)])[-1]))

    # Another refereed game with the same players.
    add("other game: its mover's file", t.other_player, t.other_game)
    assert t.other_game.move is not None
    add("other game: its file with this game's log pasted", t.other_player,
        msgspec.structs.replace(t.other_game, log=t.log, move=match.sealed(
            t.log, [(t.other_player, t.other_game.move.move, None)])[-1]))
    add("other game: this game's file with the other game's log pasted", mover,
        msgspec.structs.replace(good, log=t.other_log))
    return out


FORGERY_GAMES = [
    pytest.param("atlas", ("ann", "bob", "cy"), 5, id="atlas"),
    pytest.param("time-palatrix", ("ann", "bob", "cy"), 5, id="time-palatrix"),
    pytest.param("fifteen-days", ("ann", "bob", "cy"), 5, id="fifteen-days"),
]


@pytest.mark.parametrize(("game_id", "players", "moves"), FORGERY_GAMES)
def test_forged_view_files_are_refused(tmp_path: Path, game_id: str, players: tuple[str, ...],
                                       moves: int) -> None:
    t = Table(game_id, players, moves)
    game, secret = tmp_path / "g.json", tmp_path / "g.secret.json"
    game.write_bytes(logmod.encode(t.log))
    secret.write_bytes(logmod.encode(t.secret))
    before = game.read_bytes()
    cases = forgeries(t)
    assert len(cases) >= 35
    hidden_now = {p: hidden_from(t.log, t.secret, p) for p in players}
    for number, (what, sender, data) in enumerate(cases):
        # Hidden from the sender, unless they wrote it in the file themselves.
        sent = data.decode("utf-8")
        hidden = {h for h in hidden_now[sender] if not mentions(sent, h)}
        with pytest.raises(AdjudicatorError) as caught:
            referee.accept(t.log, t.secret, logmod.decode_view(data))
        text = str(caught.value)
        leaked = sorted(h for h in hidden if mentions(text, h))
        assert not leaked, f"{what}: the error shows {leaked} to {sender}: {text}"
        path = tmp_path / f"file{number}.json"
        path.write_bytes(data)
        line = refused(invoke("extend", game, "--secret", secret, "--from", path))
        assert game.read_bytes() == before, f"{what}: the log changed"
        leaked = sorted(h for h in hidden if mentions(line, h))
        assert not leaked, f"{what}: the error shows {leaked} to {sender}: {line}"
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) in (
        [], [".g.json.lock"]), "no temporary file is left"

    # The genuine file, even re-indented by a mail client, is taken; the
    # referee's terminal then shows what everyone may see, never a hand.
    good = tmp_path / "good.json"
    good.write_bytes(json.dumps(json.loads(logmod.encode(t.good))).encode())
    r = invoke("extend", game, "--secret", secret, "--from", good)
    assert r.exit_code == 0, shown(r)
    after = logmod.decode(game.read_bytes())
    assert len(after.moves) == len(t.log.moves) + 1 and after.moves[-1].by == t.mover
    hidden = hidden_from(after, t.secret, None)
    leaked = sorted(h for h in hidden if mentions(r.output, h))
    assert not leaked, f"the referee's terminal shows {leaked}:\n{r.output}"
    assert "public view" in r.output
    # Sent again, the same file answers a position that is gone.
    now = game.read_bytes()
    line = refused(invoke("extend", game, "--secret", secret, "--from", good))
    assert "old position" in line and game.read_bytes() == now


# --- signatures ------------------------------------------------------------------------------


def every_edit(data: bytes) -> list[tuple[str, bytes]]:
    """Every single-field edit of a log: each leaf changed by one step."""
    tree = json.loads(data)
    out = []
    for path in leaves(tree):
        old: Any = tree
        for key in path:
            old = old[key]
        out.append((".".join(map(str, path)), json.dumps(edit(tree, path, changed(old)),
                                                         indent=2).encode()))
    return out


def refused_everywhere(tmp_path: Path, name: str, edits: list[tuple[str, bytes]]) -> None:
    """Each edited log fails the library's check and 'adjudicator validate' (one
    call over all of them: exit 1, one line per log, naming it)."""
    paths = []
    for number, (what, data) in enumerate(edits):
        try:
            check(logmod.decode(data))
        except AdjudicatorError:
            pass
        else:
            pytest.fail(f"{name}: changing {what} went unnoticed")
        path = tmp_path / f"{name}-{number}.json"
        path.write_bytes(data)
        paths.append(path)
    r = invoke("validate", *paths)
    assert r.exit_code == 1 and r.stdout == "", shown(r)
    lines = r.stderr.split("\n")
    assert lines.pop() == "" and len(lines) == len(paths), shown(r)
    for line, path, (what, _) in zip(lines, paths, edits):
        assert line.startswith(f"{path}: "), (what, line)


SIGNED_GAMES = [
    # (game, players, moves: None plays to the end)
    pytest.param("turn-of-time", ("ann",), None, id="turn-of-time-solo"),
    pytest.param("q-turn", ("ann", "bob"), 12, id="q-turn"),
    pytest.param("atlas", ("ann", "bob"), None, id="atlas"),
    pytest.param("time-palatrix", ("ann", "bob", "cy"), 12, id="time-palatrix"),
    pytest.param("fifteen-days", ("ann", "bob"), 12, id="fifteen-days"),
]


@pytest.mark.parametrize(("game_id", "players", "moves"), SIGNED_GAMES)
def test_every_single_field_edit_of_a_refereed_log_is_refused(
        tmp_path: Path, game_id: str, players: tuple[str, ...], moves: int | None) -> None:
    """Moves, by, comments, digests, the result, the header, the referee's key,
    a player's key and every signature: before the reveal (the referee's
    signature) and after it (the seed against the commitment, every move)."""
    log, secret = refereed(game_id, players, SEED, moves, tag="edits",
                           keys={"ann": private_key("ann")}, comments={2: "a comment"})
    assert log.keys and any(e.signature for e in log.moves) and log.signature
    assert (log.result is not None) == (moves is None)
    revealed = match.reveal(log, secret)
    for stage, data in (("secret", logmod.encode(log)), ("revealed", logmod.encode(revealed))):
        check(logmod.decode(data))
        r = invoke("validate", _write(tmp_path / f"{stage}.json", data))
        assert r.exit_code == 0, shown(r)
        edits = every_edit(data)
        assert len(edits) > 40
        refused_everywhere(tmp_path, stage, edits)


def _write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def rewritten(log: Log, keep: int, seed: str, keys: dict[str, str] | None = None,
              signatures: str = "drop") -> Log:
    """``log``'s first ``keep`` moves, then other legal moves to the same length,
    the digest chain recomputed from the header (as anyone can) and the result
    set. ``signatures``: "drop" them, "keep" the old ones in place, or "own":
    sign the moves of the players in ``keys`` (name to private key) anew."""
    unlocked = log
    rng = Chance(seed, "rewrite")
    entries = [(e.by, e.move, e.comment) for e in log.moves[:keep]]
    rep = match.replay(unlocked, upto=keep)
    state, game = rep.state, rep.game
    while len(entries) < len(log.moves) and game.to_move(state) is not None:
        legal = game.legal_moves(state)
        move = legal[rng.below(len(legal))]
        entries.append((log.players[game.to_move(state)], game.format_move(state, move), None))
        state = game.apply(state, move)
    assert [e[1] for e in entries] != [e.move for e in log.moves], "a different history"
    sealed = list(match.sealed(msgspec.structs.replace(log, moves=()), entries))
    for i, entry in enumerate(sealed):
        if signatures == "keep" and i < len(log.moves):
            sealed[i] = msgspec.structs.replace(entry, signature=log.moves[i].signature)
        elif signatures == "own" and entry.by in (keys or {}):
            sealed[i] = match.sign_move(entry, (keys or {})[entry.by])
    return msgspec.structs.replace(log, moves=tuple(sealed), result=game.outcome(state))


def test_players_who_sign_catch_a_rewritten_history(tmp_path: Path) -> None:
    """An open game whose players sign (key new, new --key, extend --key): every
    single-field edit is refused, and so is a history rewritten with a
    recomputed digest chain, whoever signs it anew; an unsigned open log, so
    rewritten, still validates: nothing but a signature can tell."""
    os.chdir(tmp_path)
    for name in ("ann", "bob"):
        r = invoke("key", "new", "-o", f"{name}.key")
        assert r.exit_code == 0 and "Public key: ed25519:" in r.stdout, shown(r)
    r = invoke("new", "q-turn", "--players", "ann,bob", "--seed", "signed", "--key",
               "ann=ann.key", "--key", "bob=bob.key", "-o", "signed.json")
    assert r.exit_code == 0, shown(r)
    rng = Chance("signed", "cli")
    for _ in range(14):
        rep = match.replay(logmod.decode(Path("signed.json").read_bytes()))
        r = invoke("extend", "signed.json", pick(rep, rng), "--key", f"{rep.to_move()}.key")
        assert r.exit_code == 0, shown(r)
    # Unsigned, or signed with the other player's key: refused, nothing written.
    before = Path("signed.json").read_bytes()
    rep = match.replay(logmod.decode(before))
    mover = rep.to_move()
    other = "bob" if mover == "ann" else "ann"
    r = invoke("extend", "signed.json", pick(rep, rng))
    assert r.exit_code in (1, 2) and r.stderr.count("\n") == 1 and "--key" in r.stderr, shown(r)
    line = refused(invoke("extend", "signed.json", pick(rep, rng), "--key", f"{other}.key"))
    assert "not " + mover in line
    assert Path("signed.json").read_bytes() == before
    assert invoke("validate", "signed.json").exit_code == 0
    signed = logmod.decode(before)
    assert all(e.signature for e in signed.moves) and set(signed.keys) == {"ann", "bob"}
    refused_everywhere(tmp_path, "signed", every_edit(before))

    ann_key = logmod.decode_key(Path("ann.key").read_bytes()).private
    for how, forged in {
        "signatures dropped": rewritten(signed, 4, "x"),
        "old signatures kept in place": rewritten(signed, 4, "x", signatures="keep"),
        "ann re-signs her moves": rewritten(signed, 4, "x", {"ann": ann_key}, "own"),
        "ann re-signs, from the first move": rewritten(signed, 0, "y", {"ann": ann_key}, "own"),
    }.items():
        match.check_chain(forged)  # the chain itself is sound...
        with pytest.raises(AdjudicatorError, match="sign"):
            match.validate(forged)  # ...but bob never signed these moves
        path = _write(tmp_path / "forged.json", logmod.encode(forged))
        r = invoke("validate", path)
        assert r.exit_code == 1 and "sign" in r.stderr, (how, shown(r))

    # The same rewrite of an unsigned log cannot be told from the real one.
    plain = open_game("q-turn", ("ann", "bob"), "signed", 14)
    match.validate(rewritten(plain, 4, "x"))
    path = _write(tmp_path / "plain.json", logmod.encode(rewritten(plain, 4, "x")))
    assert invoke("validate", path).exit_code == 0


@pytest.mark.parametrize("game_id", ["atlas", "fifteen-days"])
def test_a_different_history_under_the_same_commitment_is_refused(tmp_path: Path,
                                                                  game_id: str) -> None:
    """Once the seed is out, anyone can play another legal game on the same
    deal and recompute the chain: without the referee's key it fails
    validation and the audit, whatever signature it carries."""
    log, secret = refereed(game_id, ("ann", "bob", "cy"), SEED, 10, tag="history")
    revealed = match.reveal(log, secret)
    match.validate(revealed)
    other = rewritten(revealed, 0, "other")
    attempts = {
        "the referee's old signature": other,  # rewritten() keeps it
        "no signature": msgspec.structs.replace(other, signature=None),
        "the last moves replaced": rewritten(revealed, 7, "other"),
        "signed by a key of the forger's": msgspec.structs.replace(
            other, signature=seal.sign(private_key("forger"), match.signed_items(other))),
    }
    assert other.signature == revealed.signature
    for how, forged in attempts.items():
        match.replay(forged)  # every move legal, the chain sound
        with pytest.raises(AdjudicatorError, match="signature"):
            match.validate(forged)
        path = _write(tmp_path / "forged.json", logmod.encode(forged))
        r = invoke("validate", path)
        assert r.exit_code == 1 and "signature" in r.stderr, (how, shown(r))
        r = invoke("audit", path)
        assert r.exit_code == 1 and "FAIL signatures" in r.stdout, (how, shown(r))
        # Before the reveal it is refused just the same.
        secret_again = msgspec.structs.replace(forged, seed=None, salt=None)
        with pytest.raises(AdjudicatorError, match="signature"):
            match.check_public(secret_again)


def test_diff_tells_copies_signed_by_different_referees_apart() -> None:
    """A copy whose whole game was re-signed under another referee key passes
    every check a player can make without the announced key; diff against a
    genuine copy must say so, not call them the same game."""
    log, _ = refereed("atlas", ("ann", "bob"), SEED, 0, tag="diff")
    own = private_key("forger")
    forged = msgspec.structs.replace(log, referee=seal.public_key(own))
    forged = msgspec.structs.replace(forged, signature=seal.sign(own, match.signed_items(forged)))
    match.check_public(forged)
    same, lines = match.diff(log, forged)
    assert not same, lines
    assert "referee" in lines[0], lines


# --- terminal injection ----------------------------------------------------------------------

FAKE = "Game over. Winner: mallory"
EVIL = ("\x1b[2J\x1b]0;pwned\x07\r\n" + FAKE + "\n\u202eevil\u2066\u2028\u2029\x85\x9b31m"
        "\x7f\t\ufeff\x00end")


def assert_inert(text: str, ascii_only: bool = False) -> None:
    """No control or format character but the line breaks, and no line that
    starts with the fake announcement."""
    for line in text.split("\n"):
        assert not line.lstrip().startswith(FAKE), f"a forged line:\n{text}"
    raw = sorted({repr(ch) for ch in text if ch != "\n"
                  and unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn")})
    assert not raw, f"raw control characters {raw} in:\n{text}"
    if ascii_only:
        odd = sorted({repr(ch) for ch in text if not (" " <= ch <= "~" or ch == "\n")})
        assert not odd, f"--ascii printed {odd}:\n{text}"


def test_text_from_a_log_reaches_the_terminal_escaped(tmp_path: Path) -> None:
    """Comments (the one free text in a valid log) and moves of a bad copy,
    through show, replay, validate, audit and diff."""
    players = ("ann", "bob", "cy")
    good = open_game("turn-of-time", players, "7", 5, comments={3: EVIL, 5: EVIL})
    assert good.moves[2].comment == EVIL
    path = _write(tmp_path / "good.json", logmod.encode(good))
    for args, ascii_only in [(("show", path), False), (("show", path, "--ascii"), True),
                             (("show", path, "--as", "bob", "--at", "3"), False),
                             (("replay", path), False), (("replay", path, "--ascii"), True),
                             (("validate", path), False), (("audit", path), False)]:
        r = invoke(*args)
        assert r.exit_code == 0, shown(r)
        assert_inert(r.output, ascii_only)
        if args[0] in ("show", "replay"):
            assert "Last move" in r.output and "pwned" in r.output
    # A copy whose fourth move was rewritten (its chain recomputed).
    entries = [(e.by, e.move, e.comment) for e in good.moves]
    entries[3] = (entries[3][0], "SuSu-d5" + EVIL, EVIL)
    bad = msgspec.structs.replace(good, moves=match.sealed(
        msgspec.structs.replace(good, moves=()), entries))
    bad_path = _write(tmp_path / "bad.json", logmod.encode(bad))
    for args in [("show", bad_path), ("show", bad_path, "--ascii"), ("legal", bad_path),
                 ("validate", bad_path), ("replay", bad_path, "--ascii"), ("audit", bad_path),
                 ("diff", path, bad_path), ("extend", bad_path, "SuSu-d5", "--comment", EVIL)]:
        r = invoke(*args)
        assert r.exit_code == 1, shown(r)
        assert_inert(r.output)
        assert "move 4" in r.output or "part at move 4" in r.output, shown(r)


def test_a_comment_cannot_start_a_line_by_padding_to_the_fold(tmp_path: Path) -> None:
    log = open_game("turn-of-time", ("ann", "bob"), "7", 3)
    last = log.moves[-1]
    prefix = f"Last move: {last.by} {last.move}  # "
    for comment in (
        "x" * (70 - len(prefix)) + " " + FAKE,  # a break at the space before it
        "x" * (72 - len(prefix)) + FAKE,  # a long word broken at column 72
    ):
        padded = open_game("turn-of-time", ("ann", "bob"), "7", 3, comments={3: comment})
        r = invoke("show", _write(tmp_path / "padded.json", logmod.encode(padded)))
        assert r.exit_code == 0, shown(r)
        assert_inert(r.output)


def test_text_in_view_files_reaches_the_terminal_escaped(tmp_path: Path) -> None:
    """A refereed game's comments and a player's recorded move, shown on view
    files by the player and by the referee; and an open game's view file
    with its view and list edited, which nobody signs."""
    players = ("ann", "bob", "cy")
    log, secret = refereed("atlas", players, SEED, 4, tag="inject", comments={4: EVIL})
    game = _write(tmp_path / "g.json", logmod.encode(log))
    key = _write(tmp_path / "g.secret.json", logmod.encode(secret))
    mover = match.replay(match.unlock(log, secret)).to_move()
    mine = tmp_path / "mine.json"
    assert invoke("view", game, "--secret", key, "--as", mover, "-o", mine).exit_code == 0
    for args, ascii_only in [(("show", mine), False), (("show", mine, "--ascii"), True),
                             (("legal", mine), False)]:
        r = invoke(*args)
        assert r.exit_code == 0, shown(r)
        assert_inert(r.output, ascii_only)
    first = logmod.decode_view(mine.read_bytes()).legal[0]  # type: ignore[index]
    r = invoke("extend", mine, first, "--comment", EVIL)
    assert r.exit_code == 0, shown(r)
    assert_inert(r.output)
    for args in [("show", mine), ("show", mine, "--ascii"),
                 ("extend", game, "--secret", key, "--from", mine, "--ascii")]:
        r = invoke(*args)
        assert r.exit_code == 0, shown(r)
        assert_inert(r.output, "--ascii" in args)

    # An open game's view file, which no referee signs, edited to carry the text.
    plain = _write(tmp_path / "open.json", logmod.encode(open_game("atlas", players, "7", 4)))
    theirs = tmp_path / "theirs.json"
    mover = match.replay(logmod.decode(plain.read_bytes())).to_move()
    assert invoke("view", plain, "--as", mover, "-o", theirs).exit_code == 0
    tree = json.loads(theirs.read_bytes())
    edits = {
        "the players' names": edit(tree, ("view", "players", 0), EVIL),
        "a card of the hand": edit(tree, ("view", "hand", 0), EVIL),
        "the legal list": edit(tree, ("legal", 0), EVIL),
        "whose turn": edit(tree, ("to_move",), EVIL),
    }
    for what, edited in edits.items():
        _write(theirs, json.dumps(edited).encode())
        for args in [("show", theirs), ("show", theirs, "--ascii"), ("legal", theirs)]:
            r = invoke(*args)
            assert r.exit_code in (0, 1), shown(r)
            assert_inert(r.output, "--ascii" in args and r.exit_code == 0)
            assert r.exit_code == 1, f"{what}: an edited view file was shown\n{shown(r)}"


def test_a_version_1_view_file_with_control_characters_is_refused() -> None:
    """A refereed game of version 1 has no referee key, so its view files carry
    no proof and nothing in them can be checked against the secret deal:
    their text must at least be plain."""
    log, secret = refereed("atlas", ("ann", "bob"), SEED, 0, tag="v1")
    v1_fields = ("format", "game", "params", "players", "seed", "salt", "commitment", "moves",
                 "result")
    old = logmod.decode(json.dumps({"version": 1, **{k: v for k, v in json.loads(
        logmod.encode(log)).items() if k in v1_fields}}))
    old_secret = msgspec.structs.replace(secret, version=1, signing_key=None)
    vf = referee.issue_view(old, old_secret, "ann")
    assert vf.proof is None
    referee.check_view(vf)
    tree = json.loads(logmod.encode(vf))
    for path in [("view", "hand", 0), ("view", "players", 1), ("legal", 0), ("to_move",)]:
        edited = logmod.decode_view(json.dumps(edit(tree, path, EVIL)))
        with pytest.raises(AdjudicatorError, match="control characters"):
            referee.check_view(edited)


# --- encodings -------------------------------------------------------------------------------


def test_what_mail_clients_do_to_the_bytes(tmp_path: Path) -> None:
    """Re-encoded to Latin-1 or Windows-1252, with a byte order mark, in
    UTF-16 or UTF-32: the text is recovered and the chain checks. A lossy
    re-encoding breaks the chain at the move it damaged; an empty file is
    called empty."""
    latin = "café naïve, größer: ½ ÿ"
    windows = "“café” – 5 € … œuvre"
    log = open_game("turn-of-time", ("ann", "bob"), "7", 6,
                    comments={2: latin, 4: windows, 6: latin})
    text = logmod.encode(log).decode("utf-8")
    # Latin-1 has no curly quotes, dashes or euro sign: that copy has fewer comments.
    latin_only = logmod.encode(open_game("turn-of-time", ("ann", "bob"), "7", 6,
                                         comments={2: latin, 6: latin}))
    forms = {
        "latin-1": latin_only.decode("utf-8").encode("latin-1"),
        "cp1252": text.encode("cp1252"),
        "utf-8 with BOM": text.encode("utf-8-sig"),
        "utf-16 with BOM": text.encode("utf-16"),
        "utf-16-be with BOM": b"\xfe\xff" + text.encode("utf-16-be"),
        "utf-32 with BOM": text.encode("utf-32"),
        "utf-16-le without BOM": text.encode("utf-16-le"),
        "utf-16-be without BOM": text.encode("utf-16-be"),
        "utf-32-le without BOM": text.encode("utf-32-le"),
        "crlf line ends": text.replace("\n", "\r\n").encode("utf-8"),
    }
    for how, data in forms.items():
        assert data != text.encode("utf-8")
        decoded = logmod.decode(data)
        match.validate(decoded)
        assert latin in {e.comment for e in decoded.moves}, how
        path = _write(tmp_path / "mailed.json", data)
        r = invoke("validate", path)
        assert r.exit_code == 0, (how, shown(r))
        r = invoke("show", path, "--at", "2")
        assert r.exit_code == 0 and latin in r.stdout, (how, shown(r))
    # What a mail client cannot represent it replaces: the chain breaks there.
    lossy = text.replace(latin, latin + " ☕").encode("latin-1", errors="replace")
    line = refused(invoke("show", _write(tmp_path / "lossy.json", lossy)))
    assert "move 2" in line and "digest chain" in line, line
    for data in (b"", b"  \n", "\ufeff".encode("utf-8"), "\ufeff".encode("utf-16")):
        for command in ("show", "legal", "validate"):
            r = invoke(command, _write(tmp_path / "empty.json", data))
            assert r.exit_code == 1 and "empty" in r.stderr, shown(r)
            assert len(r.stderr.split("\n")) == 2, shown(r)
    for data in (text.encode("utf-16-le")[:-1], b"{\x00\x00\x00" + b"\xff" * 9,
                 b"\x00\x00\xff\xfe"):
        line = refused(invoke("show", _write(tmp_path / "binary.json", data)))
        assert "binary data" in line or "JSON" in line, line


@pytest.mark.parametrize("env", [
    {"PYTHONIOENCODING": "cp1252"},
    {"PYTHONIOENCODING": "ascii"},
    {"LANG": "C", "LC_ALL": "C", "PYTHONIOENCODING": "ascii:strict"},
], ids=["cp1252", "ascii", "LANG=C"])
def test_a_terminal_that_cannot_take_unicode(tmp_path: Path, env: dict[str, str]) -> None:
    """The real program, its output through a pipe in a narrow encoding: the
    board falls back to ASCII, text it cannot print is escaped, never a
    traceback."""
    log = open_game("atlas", ("ann", "bob"), "7", 4, comments={4: "café ☕ “ok” " + EVIL})
    path = _write(tmp_path / "g.json", logmod.encode(log))
    full = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "PYTHONUTF8"))}
    full.update(env, PYTHONUTF8="0", NO_COLOR="1")
    runs = [(("show", path), 0)]
    if env["PYTHONIOENCODING"] == "ascii":
        runs.append((("show", _write(tmp_path / "bad.json", b"\xff\xfe{\x00")), 1))
    for args, code in runs:
        p = subprocess.run([sys.executable, "-m", "adjudicator", *map(str, args)],
                           capture_output=True, env=full, timeout=60)
        out, err = p.stdout.decode("latin-1"), p.stderr.decode("latin-1")
        assert p.returncode == code, (args, out, err)
        assert "Traceback" not in err and "Traceback" not in out, err
        if code == 0 and args[0] != "validate":
            assert "Last move" in out and "caf" in out
            assert_inert(out, ascii_only=env["PYTHONIOENCODING"].startswith("ascii"))
        if code == 1:
            assert err.startswith("Error: ") and err.count("\n") == 1, err
