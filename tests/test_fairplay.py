"""Fair play by email: refereed games, view files, reveal, audit, the digest
chain and diff (notation/README.md, "Digest chain" and "Refereed games")."""

from __future__ import annotations

import json
import stat
from pathlib import Path
from typing import Any

import msgspec
import pytest
from typer.testing import CliRunner

from adjudicator import games, log as logmod, match, seal
from adjudicator.cli import app
from adjudicator.errors import AdjudicatorError
from adjudicator.games.atlas import GAME as atlas, cards as atlas_cards, rules as atlas_rules
from test_trust import changed, leaves  # one way to edit every field of a log

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()
PLAYERS = ["ann", "bob", "cy"]


def run(*args: Any, ok: bool | None = True):
    result = runner.invoke(app, [str(a) for a in args], prog_name="adjudicator")
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    if ok is True:
        assert result.exit_code == 0, (args, result.stdout, result.stderr)
    elif ok is False:
        assert result.exit_code == 1, (args, result.stdout, result.stderr)
        assert len(result.stderr.splitlines()) == 1, result.stderr
    return result


def hidden_cards(state: atlas_rules.State, seat: int) -> set[str]:
    """The cards ``seat`` may not see: other hands, the draw pile, the removed cards."""
    cards = [c for p, hand in enumerate(state.hands) if p != seat for c in hand]
    cards += list(state.deck) + list(state.removed)
    return {atlas_cards.CARD_TEXT[c] for c in cards}


def play_refereed_atlas(tmp_path: Path) -> tuple[Path, Path, list[bytes]]:
    """A complete refereed 3-player Atlas game, through the CLI and view files
    only; every view file is checked for leaks as it is made."""
    game, secret = tmp_path / "game.json", tmp_path / "game.secret.json"
    run("new", "atlas", "--players", ",".join(PLAYERS), "--referee", "-o", game)
    key = logmod.decode_secret(secret.read_bytes())
    view_files: list[bytes] = []
    while True:
        legal = json.loads(run("legal", game, "--secret", secret, "--json").stdout)
        if legal["player"] is None:
            break
        player = legal["player"]
        state = match.replay(match.unlock(logmod.decode(game.read_bytes()), key)).state
        for seat, name in enumerate(PLAYERS):
            path = tmp_path / f"{name}.json"
            run("view", game, "--secret", secret, "--as", name, "-o", path)
            data = path.read_bytes()
            view_files.append(data)
            for card in hidden_cards(state, seat):
                assert f'"{card}"'.encode() not in data, f"{name}'s view file shows {card}"
            assert key.seed.encode() not in data and key.salt.encode() not in data
        mine = tmp_path / f"{player}.json"
        listed = json.loads(run("legal", mine, "--json").stdout)
        assert listed == legal, "the view file lists exactly the player's legal moves"
        choice = listed["moves"][len(view_files) % len(listed["moves"])]
        run("extend", mine, choice.lower())  # case forgiven, recorded as listed
        assert logmod.decode_view(mine.read_bytes()).move.move == choice
        run("extend", game, "--secret", secret, "--from", mine)
    return game, secret, view_files


def test_refereed_atlas_game_through_view_files_ends_in_a_passed_audit(tmp_path: Path) -> None:
    game, secret, view_files = play_refereed_atlas(tmp_path)
    assert stat.S_IMODE(secret.stat().st_mode) == 0o600, "the secret file is the referee's alone"
    public = logmod.decode(game.read_bytes())
    assert public.seed is None and public.salt is None and public.commitment
    assert public.result is not None and len(public.moves) == 27
    assert len(view_files) == 27 * 3
    # Without the secret: the chain and the referee's signature are checked,
    # the legality of the moves cannot be, and it says so.
    r = run("validate", game)
    assert r.stdout.startswith("ok ") and "signed by its referee" in r.stdout
    assert "checked once the seed is revealed" in r.stdout
    # audit says so too: what it could check holds, the rest waits (exit 0).
    r = run("audit", game)
    assert "wait seed: secret" in r.stdout and "FAIL" not in r.stdout
    assert r.stdout.rstrip().endswith("Audit passed so far: the deal and the moves' legality "
                                      "wait for the reveal.")
    assert "Audit passed." in run("audit", game, "--secret", secret).stdout
    assert run("validate", game, "--secret", secret).stdout.startswith("ok ")
    assert "Game over" in run("show", game, "--secret", secret).stdout
    run("reveal", game, "--secret", secret)
    revealed = logmod.decode(game.read_bytes())
    assert revealed.seed == logmod.decode_secret(secret.read_bytes()).seed
    r = run("audit", game)
    assert "Audit passed." in r.stdout and "matches the commitment" in r.stdout
    assert run("validate", game).stdout.startswith("ok ")


def test_the_seed_is_the_secret_files_alone(tmp_path: Path) -> None:
    game = tmp_path / "g.json"
    run("new", "atlas", "--players", "ann,bob", "--seed", "known", "--referee", "-o", game)
    assert b"known" not in game.read_bytes()
    # Anyone sees the public view (no board: it needs the seed); a player's own
    # view is refused, pointing at the view file and the referee's --secret.
    assert "Not shown until the seed is revealed" in run("show", game).stdout
    r = run("show", game, "--as", "ann", ok=False)
    assert "seed is secret" in r.stderr and "--secret" in r.stderr


def test_audit_fails_on_a_wrong_seed(tmp_path: Path) -> None:
    log, key = match.new_refereed("atlas", PLAYERS)
    unlocked = match.unlock(log, key)
    state = match.replay(unlocked).state
    played = match.extend(unlocked, [atlas.format_move(state, atlas.legal_moves(state)[0])])
    assert played.seed == key.seed  # as after a reveal
    wrong = msgspec.structs.replace(played, seed=key.seed + "0")
    path = tmp_path / "wrong.json"
    path.write_bytes(logmod.encode(wrong))
    r = run("audit", path, ok=False)
    assert "FAIL seed: revealed, but it does not match the commitment" in r.stdout
    # A secret file with another seed is refused too.
    other = msgspec.structs.replace(key, seed=key.seed + "0")
    with pytest.raises(AdjudicatorError, match="do not give its commitment"):
        match.unlock(log, other)


def test_a_view_file_accepts_only_a_listed_move(tmp_path: Path) -> None:
    game, secret = tmp_path / "g.json", tmp_path / "g.secret.json"
    run("new", "atlas", "--players", "ann,bob", "--referee", "-o", game)
    run("view", game, "--secret", secret, "--as", "ann", "-o", tmp_path / "ann.json")
    run("view", game, "--secret", secret, "--as", "bob", "-o", tmp_path / "bob.json")
    listed = json.loads(run("legal", tmp_path / "ann.json", "--json").stdout)["moves"]
    cards = {m.split("+")[0] for m in listed}
    outside = next(t for t in atlas_cards.CARD_TEXT if t not in cards)
    before = (tmp_path / "ann.json").read_bytes()
    r = run("extend", tmp_path / "ann.json", outside, ok=False)
    # The words of every game's reader (adjudicator/reading.py): the move, then the rules' reason.
    assert f"move 1 (ann) '{outside}': {outside} is not one of your legal moves: " in r.stderr
    assert (tmp_path / "ann.json").read_bytes() == before
    r = run("extend", tmp_path / "bob.json", listed[0], ok=False)
    assert "it is ann's turn" in r.stderr
    run("extend", tmp_path / "ann.json", listed[0])
    r = run("extend", tmp_path / "ann.json", listed[1], ok=False)
    assert "already holds ann's move" in r.stderr
    # The referee refuses a stale view file: the game has moved on since.
    run("extend", game, "--secret", secret, "--from", tmp_path / "ann.json")
    r = run("extend", game, "--secret", secret, "--from", tmp_path / "ann.json", ok=False)
    assert "made after move 0, but the game is at move 1" in r.stderr


# --- tamper evidence -------------------------------------------------------------------


def tamper_cases() -> list[tuple[str, bytes]]:
    """A finished open game, a finished refereed game after its reveal, and an
    unfinished game."""
    refereed, key = refereed_game("atlas", "tamper")
    unfinished = match.simulate("time-palatrix", PLAYERS, "tamper", max_moves=40)
    return [
        ("turn-of-time", (ROOT / "examples" / "turn-of-time" / "3-players.json").read_bytes()),
        ("atlas-refereed-secret", logmod.encode(refereed)),
        ("atlas-refereed-revealed", logmod.encode(match.reveal(refereed, key))),
        ("time-palatrix-unfinished", logmod.encode(unfinished)),
    ]


def refereed_game(game_id: str, seed: str, moves: int | None = None,
                  players: tuple[str, ...] = PLAYERS) -> tuple[logmod.Log, logmod.Secret]:
    """A refereed game played by its referee with random legal moves (signed at
    every write), and the referee's secret."""
    from adjudicator import referee
    from adjudicator.chance import Chance

    log, key = match.new_refereed(game_id, players, seed=seed)
    rng = Chance(seed, "refereed")
    while moves is None or len(log.moves) < moves:
        rep = match.replay(match.unlock(log, key))
        if rep.to_move() is None:
            break
        legal = rep.game.legal_moves(rep.state)
        text = rep.game.format_move(rep.state, legal[rng.below(len(legal))])
        log = referee.record(log, key, [text])
    return log, key


def check(log: logmod.Log) -> None:
    """What 'adjudicator validate' checks of a log without the referee's secret."""
    if log.seed is None:
        match.check_public(log)
    else:
        match.validate(log)


@pytest.mark.parametrize(("name", "data"), tamper_cases(), ids=lambda v: v if isinstance(v, str) else "")
def test_every_single_field_edit_is_detected(name: str, data: bytes) -> None:
    original = logmod.decode(data)
    check(original)  # the untouched log is valid
    tree = json.loads(data)
    edits = leaves(tree)
    assert len(edits) > 50
    for path in edits:
        d = json.loads(data)
        target = d
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = changed(target[path[-1]])
        try:
            check(logmod.decode(json.dumps(d)))
        except AdjudicatorError:
            continue
        pytest.fail(f"{name}: changing {'.'.join(map(str, path))} went unnoticed")


def test_validate_names_the_first_entry_whose_chain_breaks(tmp_path: Path) -> None:
    data = json.loads((ROOT / "examples" / "turn-of-time" / "4-players.json").read_bytes())
    data["moves"][6]["comment"] = "added later"
    data["moves"][9]["move"] = "WiSp-c3"
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(data))
    r = run("validate", path, ok=False)
    assert "move 7 (cy) 'SuFa-d6': the digest chain breaks here" in r.stderr


def test_header_digest_matches_the_documented_vector() -> None:
    h = seal.header_digest("adjudicator-log", 1, "turn-of-time",
                           {"absent-doubles": "own-season", "goal": "dominance"}, ["ann"], "7", None)
    assert h.hex() == "06ce2902c51532ea655bcad1d115b6b962082d281c7060c6a82e5589a0f1e311"
    assert seal.commit("s3cret", "00ff") == (
        "6d5aa91884dd29e596871801146da91919efe24ea665d11f5e5c6af20969aa31")


def test_version_2_vectors_match_notation_readme() -> None:
    """The deal seed, the key, the header digest and the signature of
    notation/README.md ("Refereed games"), so another program can check them."""
    text = (ROOT / "notation" / "README.md").read_text()
    private = "AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHyA="
    deal = seal.deal_seed("s3cret", "00ff")
    public = seal.public_key(private)
    head = seal.header_digest("adjudicator-log", 2, "atlas", {}, ["ann", "bob"], None,
                              seal.commit("s3cret", "00ff"), public, {}, rules=1)
    signature = seal.sign(private, [seal.LOG_SIGN_DOMAIN, head.hex(), ""])
    for value in (deal, public, head.hex(), signature):
        assert value in text
    assert seal.verify(public, signature, [seal.LOG_SIGN_DOMAIN, head.hex(), ""])
    assert not seal.verify(public, signature, [seal.LOG_SIGN_DOMAIN, head.hex(), "x"])


# --- disputed games --------------------------------------------------------------------


def test_diff(tmp_path: Path) -> None:
    base = match.new_log("turn-of-time", PLAYERS, "diff")
    moves = [m.move for m in match.simulate("turn-of-time", PLAYERS, "diff").moves]
    a = match.extend(base, moves[:4])
    legal = match.replay(a)
    options = [legal.game.format_move(legal.state, m) for m in legal.game.legal_moves(legal.state)]
    b = match.extend(a, [options[0]])
    c = match.extend(a, [options[1]])
    other = match.new_log("turn-of-time", PLAYERS, "another")
    paths = {}
    for name, log in {"a": a, "a2": a, "b": b, "c": c, "other": other}.items():
        paths[name] = tmp_path / f"{name}.json"
        paths[name].write_bytes(logmod.encode(log))
    assert "the same game: 4 identical moves" in run("diff", paths["a"], paths["a2"]).stdout
    r = run("diff", paths["b"], paths["c"], ok=None)
    assert r.exit_code == 1
    assert "the copies part at move 5, after 4 identical moves" in r.stdout
    mover = legal.to_move()
    assert f"{mover} {options[0]!r}" in r.stdout and f"{mover} {options[1]!r}" in r.stdout
    r = run("diff", paths["a"], paths["b"], ok=None)
    assert r.exit_code == 1 and "stops after move 4" in r.stdout
    r = run("diff", paths["a"], paths["other"], ok=None)
    assert r.exit_code == 1 and r.stdout.startswith("different games: the seed differs")


@pytest.mark.parametrize("game_id", list(games.GAMES))
def test_view_files_of_every_game_render_without_the_seed(tmp_path: Path, game_id: str) -> None:
    """Every game's views survive the trip through a view file (VIEW reads them
    back exactly), and a player can show and extend a view file for each."""
    game = games.get(game_id)
    n = game.players[-1]
    names = ["ann", "bob", "cy", "dee"][:n] if n > 1 else ["ann"]
    path, secret = tmp_path / "g.json", tmp_path / "g.secret.json"
    run("new", game_id, "--players", ",".join(names), "--seed", "views", "--referee", "-o", path)
    key = logmod.decode_secret(secret.read_bytes())
    for _ in range(6):
        rep = match.replay(match.unlock(logmod.decode(path.read_bytes()), key))
        player = rep.to_move()
        if player is None:
            break
        mine = tmp_path / f"{player}.json"
        run("view", path, "--secret", secret, "--as", player, "-o", mine)
        vf = logmod.decode_view(mine.read_bytes())
        seat = names.index(player)
        assert msgspec.json.decode(vf.view, type=game.view_type) == game.view(rep.state, seat)
        assert "Your move" in run("show", mine).stdout
        run("extend", mine, vf.legal[-1])
        run("extend", path, "--secret", secret, "--from", mine)
    assert "Audit passed." in run("audit", path, "--secret", secret).stdout
