"""Trusting the referee less (issue 25, attacks 1 to 4): a deal nobody
chooses, a referee you can recognise, histories that cannot fork unseen, and
view files held to the revealed deal. Each attack below passed every check
before; each test shows it no longer cheats (notation/README.md, "A deal
nobody chooses", "Known referees", "Kept copies and view files")."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import msgspec
import pytest
from typer.testing import CliRunner

from adjudicator import dealing, forks, games, log as logmod, match, pinning, referee, seal
from adjudicator.cli import app
from adjudicator.errors import AdjudicatorError, BadLogError
from adjudicator.games.atlas import rules as atlas
from test_trust import refereed, rewritten

runner = CliRunner()
PLAYERS = ("ann", "bob", "cy")
SEVENS = sum(1 << card for card in (6, 14, 22, 30))  # the four 7s, one bit each


def cli(*args: Any, status: int = 0):
    r = runner.invoke(app, [str(a) for a in args], prog_name="adjudicator")
    if r.exception is not None and not isinstance(r.exception, SystemExit):
        raise r.exception
    assert r.exit_code == status, (args, r.stdout, r.stderr)
    if status:
        assert len(r.stderr.splitlines()) >= 1 and "Traceback" not in r.output
    return r


def bob_has_four_sevens(seed: str) -> bool:
    return bin(atlas.setup({}, PLAYERS, seed).held[1] & SEVENS).count("1") == 4


# --- attack 1: the referee chooses the deal ------------------------------------------------------


def test_grinding_the_seed_no_longer_chooses_the_deal() -> None:
    """Attack 1 (Atlas: Game Set Up 5): the referee tries seeds until its
    friend bob is dealt the four 7s (fair odds 0.17%). Alone, it succeeds in
    a few thousand tries at most. With contributions, the deal also depends
    on ann's value, unknown when the referee committed: the seed it ground
    against a guess of ann's value gives bob the four 7s no more often than
    chance over the values ann may really pick."""
    salt = "00" * 16
    plain = next(i for i in range(5000) if bob_has_four_sevens(seal.deal_seed(str(i), salt)))
    assert plain < 5000  # the grinding loop, bounded: the referee chose the deal

    bob = "b" * 32  # the friend's value, known to the referee
    guess = "0" * 32  # the referee's best guess of ann's
    ground = next(i for i in range(5000) if bob_has_four_sevens(
        seal.joint_seed(seal.deal_seed(str(i), salt), [("ann", guess), ("bob", bob)])))
    committed = seal.deal_seed(str(ground), salt)
    assert bob_has_four_sevens(seal.joint_seed(committed, [("ann", guess), ("bob", bob)]))
    values = [hashlib.sha256(f"ann {k}".encode()).hexdigest()[:32] for k in range(400)]
    hits = sum(bob_has_four_sevens(seal.joint_seed(committed, [("ann", v), ("bob", bob)]))
               for v in values)
    assert hits <= 4  # fair odds: 0.7 in 400; the referee's grinding bought nothing


def test_grinding_who_starts_in_15_days_buys_nothing() -> None:
    """Attack 1 in 15 Days: who starts is drawn ('first-player' drawn). The
    referee finds a seed that lets its friend bob start under its guess of
    ann's value at once; over the values ann may really pick, bob starts a
    third of the time, as fairness says."""
    game = games.get("fifteen-days")
    params = match.resolve_params(game, {"first-player": "drawn"})

    def starts(seed: str) -> str:
        state = game.setup(params, PLAYERS, seed)
        return PLAYERS[state.first]

    salt, bob = "11" * 16, "b" * 32
    ground = next(i for i in range(100) if starts(
        seal.joint_seed(seal.deal_seed(str(i), salt), [("ann", "0" * 32), ("bob", bob)])) == "bob")
    committed = seal.deal_seed(str(ground), salt)
    values = [hashlib.sha256(f"ann {k}".encode()).hexdigest()[:32] for k in range(300)]
    bob_starts = sum(starts(seal.joint_seed(committed, [("ann", v), ("bob", bob)])) == "bob"
                     for v in values)
    assert 70 <= bob_starts <= 130  # 100 expected; the standard deviation is 8


def contributed(tmp_path: Path, words: bool = True) -> tuple[logmod.Log, logmod.Secret]:
    """A refereed Atlas game whose deal ann and bob contribute to with the
    tool and cy in words, through the library as the commands do it."""
    log, secret = match.new_refereed("atlas", PLAYERS, deal=["ann", "bob"],
                                     words=["cy"] if words else [])
    with pytest.raises(dealing.DealPendingError, match="waits for ann, bob"):
        referee.issue_view(log, secret, "ann")
    for player in ("ann", "bob"):
        log = dealing.record(log, secret, dealing.player_commit(log, player))
    if words:
        log = dealing.record(log, secret, "words cy  three  blue horses")
    for player in ("ann", "bob"):
        log = dealing.record(log, secret, dealing.player_reveal(log, player))
    return log, secret


def test_a_deal_in_three_steps_is_checked_by_audit(tmp_path: Path) -> None:
    """Commit, then reveal; words folded; the game starts only once every
    contribution is in; after the reveal audit checks each value against its
    commitment and the deal against all of them."""
    log, secret = contributed(tmp_path)
    assert log.deal["cy"].value == "three blue horses"
    match.check_public(log)
    unlocked = match.unlock(log, secret)
    without = msgspec.structs.replace(unlocked, deal={})
    assert match.start(unlocked)[1] != match.start(without)[1]  # the values change the deal
    log = referee.record(log, secret, [match.replay(unlocked).legal()[0]])
    revealed = match.reveal(log, secret)
    report = match.audit(revealed)
    assert report.passed, report
    deal = next(i for i in report.items if i.what == "deal")
    assert "ann, bob committed" in deal.text and "cy sent words" in deal.text
    # Another value for bob, even one he committed to elsewhere: refused.
    other = msgspec.structs.replace(revealed.deal["bob"], value="c" * 32)
    edited = msgspec.structs.replace(revealed, deal={**revealed.deal, "bob": other})
    assert match.audit(edited).status == "failed"


def test_nobody_commits_after_a_reveal_and_the_referee_cannot_swap_one(tmp_path: Path) -> None:
    """The friend cannot commit once he has seen a value; a reveal waits for
    every commitment; and a copy whose commitments changed after ann
    revealed is refused by ann's own tool."""
    log, secret = match.new_refereed("atlas", PLAYERS, deal=["ann", "bob"])
    log = dealing.record(log, secret, dealing.player_commit(log, "ann"))
    with pytest.raises(AdjudicatorError, match="bob must commit"):
        dealing.player_reveal(log, "ann")
    with pytest.raises(AdjudicatorError, match="bob must commit"):
        dealing.record(log, secret, f"reveal ann {dealing.kept(log, 'ann').value}")  # type: ignore[union-attr]
    # A commitment for ann that her tool did not make: refused by it.
    planted = msgspec.structs.replace(log, deal={**log.deal, "ann": logmod.Contribution(
        commitment="d" * 64)})
    with pytest.raises(BadLogError, match="not the one this tool made"):
        dealing.player_commit(match.sign(planted, secret), "ann")
    log = dealing.record(log, secret, dealing.player_commit(log, "bob"))
    log = dealing.record(log, secret, dealing.player_reveal(log, "ann"))
    with pytest.raises(AdjudicatorError, match="too late to commit|committed already"):
        dealing.record(log, secret, "commit bob " + "e" * 64)
    # The referee swaps bob's commitment for one to a value chosen now.
    value = "f" * 32
    swapped = msgspec.structs.replace(log, deal={**log.deal, "bob": logmod.Contribution(
        commitment=seal.contribution_commit("bob", value))})
    swapped = match.sign(swapped, secret)
    match.check_public(swapped)  # the referee's own signature: the log alone cannot tell
    with pytest.raises(BadLogError, match="revealed against"):
        forks.witness(swapped)
    with pytest.raises(BadLogError, match="revealed against"):
        dealing.player_reveal(swapped, "ann")


def test_the_deal_through_the_command_line(tmp_path: Path) -> None:
    game, secret = tmp_path / "g.json", tmp_path / "g.secret.json"
    r = cli("new", "atlas", "--players", "ann,bob,cy", "--referee", "--deal", "all", "-o", game)
    assert "the deal waits for ann, bob, cy" in r.stdout
    cli("view", game, "--secret", secret, "--as", "ann", status=1)
    lines = [cli("deal", "commit", game, "--as", p).stdout.strip() for p in PLAYERS]
    assert all(line.startswith("commit ") for line in lines)
    cli("deal", "reveal", game, "--as", "ann", status=1)  # bob and cy have not committed
    assert "to reveal" in cli("deal", "record", game, "--secret", secret, *lines).stdout
    # The log as pasted into a mail (the text form) serves as well, and stays text.
    text = tmp_path / "g.txt"
    cli("convert", game, "--to", "text", "-o", text)
    reveals = [cli("deal", "reveal", text, "--as", p).stdout.strip() for p in PLAYERS]
    assert "complete" in cli("deal", "record", text, "--secret", secret, *reveals).stdout
    assert text.read_text().startswith("-----BEGIN ADJUDICATOR LOG-----")
    cli("convert", text, "--to", "json", "-o", game, "--force")
    cli("view", game, "--secret", secret, "--as", "ann", "-o", tmp_path / "ann.json")
    cli("reveal", game, "--secret", secret)
    assert "ok   deal:" in cli("audit", game).stdout


# --- attack 4: anyone forges a whole game ------------------------------------------------------


def test_a_long_term_referee_key_pins_the_referee(tmp_path: Path) -> None:
    """A club's key, made once; its fingerprint read aloud. A fake game under
    a new key, a forged referee mail (view file), a revealed log rewritten as
    an open log with its tags, a version 1 log with the forger's own
    commitment, and an open game of the event with its player keys stripped
    are all refused once the player expects the club's referee."""
    club = tmp_path / "club.key"
    r = cli("key", "new-referee", "-o", club)
    fingerprint = r.stdout.split("Fingerprint: ")[1].split()[0]
    public = logmod.decode_key(club.read_bytes()).public
    assert fingerprint == seal.fingerprint(public) and pinning.FINGERPRINT.fullmatch(fingerprint)
    real, real_secret = tmp_path / "cup-1.json", tmp_path / "cup-1.secret.json"
    cli("new", "atlas", "--players", "ann,bob", "--referee", "--referee-key", club,
        "--tag", "event=Club cup", "--tag", "round=1", "-o", real)
    assert logmod.decode(real.read_bytes()).referee == public
    # First use: the name is trusted, and remembered.
    r = cli("validate", real, "--referee-key", "Club cup")
    assert pinning.known() == {"Club cup": public}
    for given in (fingerprint, public, str(club), "Club cup"):
        cli("validate", real, "--referee-key", given)
        cli("audit", real, "--referee-key", given)

    fake = tmp_path / "fake.json"
    cli("new", "atlas", "--players", "ann,bob", "--referee", "--tag", "event=Club cup",
        "-o", fake)
    for args in (["validate", fake], ["validate", fake, "--referee-key", fingerprint],
                 ["audit", fake], ["show", fake]):
        r = cli(*args, status=1)
        assert "KEY DIFFERS" in r.output, args
    forged_view = tmp_path / "fake-ann.json"
    cli("view", fake, "--secret", tmp_path / "fake.secret.json", "--as", "ann", "-o", forged_view)
    assert "KEY DIFFERS" in cli("show", forged_view, status=1).stderr

    # The real game, played and revealed, rewritten as an open log with its tags.
    log, secret = logmod.decode(real.read_bytes()), logmod.decode_secret(real_secret.read_bytes())
    log = referee.record(log, secret, [match.replay(match.unlock(log, secret)).legal()[0]])
    revealed = match.reveal(log, secret)
    opened = msgspec.structs.replace(revealed, seed=match.chance_seed(revealed), salt=None,
                                     commitment=None, referee=None, signature=None, moves=())
    opened = msgspec.structs.replace(opened, moves=match.sealed(
        opened, [(e.by, e.move, e.comment) for e in revealed.moves]))
    match.validate(opened)  # a valid open game with the same moves...
    path = tmp_path / "opened.json"
    path.write_bytes(logmod.encode(opened))
    assert "tournament tags" in cli("validate", path, status=1).stderr  # ...refused
    cli("validate", path, "--allow-unsigned-event")  # unless the user says it may be

    # The same game as a version 1 refereed log with the forger's own commitment (no
    # tags in version 1, so only the key the player names catches it).
    salt = "ab" * 16
    v1 = msgspec.structs.replace(opened, version=1, rules=None, tags={}, salt=salt,
                                 commitment=seal.commit(opened.seed, salt), moves=())
    v1 = msgspec.structs.replace(v1, moves=match.sealed(
        v1, [(e.by, e.move, e.comment) for e in revealed.moves]))
    assert "matches the commitment" in next(i.text for i in match.audit(v1).items
                                             if i.what == "seed")
    path = tmp_path / "v1.json"
    path.write_bytes(logmod.encode(v1))
    cli("validate", path)  # it passed every check...
    assert "signed by no referee" in cli("validate", path, "--referee-key", "Club cup",
                                         status=1).stderr

    # An open game of the event whose players sign: keys stripped, chain recomputed.
    keys = {p: seal.new_signing_key() for p in ("ann", "bob")}
    signed = match.new_log("q-turn", ("ann", "bob"), "s", keys={p: seal.public_key(k)
                           for p, k in keys.items()}, tags={"event": "Club cup"})
    stripped = msgspec.structs.replace(signed, keys={})
    path = tmp_path / "stripped.json"
    path.write_bytes(logmod.encode(stripped))
    assert "tournament tags" in cli("validate", path, status=1).stderr


def test_a_changed_key_in_the_known_referees_is_loud(tmp_path: Path) -> None:
    first, _ = match.new_refereed("atlas", ("ann", "bob"))
    second, _ = match.new_refereed("atlas", ("ann", "bob"))
    assert pinning.check(first, pinning.trust("club")) is not None  # first use
    with pytest.raises(BadLogError, match="KEY DIFFERS"):
        pinning.check(second, pinning.trust("club"))
    assert pinning.check(first, pinning.trust("club")) is None


# --- attacks 2 and 3: two histories, a lying view file ------------------------------------------


def forked(log: logmod.Log, secret: logmod.Secret, keep: int) -> logmod.Log:
    """The referee's other history of ``log`` after ``keep`` moves, signed by it."""
    other = rewritten(match.unlock(log, secret), keep, "fork")
    return match.sign(match.publish(msgspec.structs.replace(other, result=None), log), secret)


def test_two_histories_are_caught_by_the_copy_a_player_saw(tmp_path: Path) -> None:
    """Attack 2: the referee shows ann one history and, later, another (or
    rewrites a past move after the game): each copy passes validate alone,
    but ann's tool remembers the head it saw and refuses the copy that does
    not extend it; audit fails it too."""
    log, secret = refereed("atlas", PLAYERS, "fork", 6, tag="fork")
    seen = tmp_path / "seen.json"
    seen.write_bytes(logmod.encode(log))
    cli("show", seen)  # ann's tool remembers move 6
    other = forked(log, secret, 3)
    match.check_public(other)  # valid alone: the referee's own signature
    path = tmp_path / "other.json"
    path.write_bytes(logmod.encode(other))
    assert "DOES NOT EXTEND" in cli("show", path, status=1).stderr
    assert "DOES NOT EXTEND" in cli("audit", path, status=1).stdout
    # An older copy is only an older copy; a longer one extends and is remembered.
    older = msgspec.structs.replace(log, moves=log.moves[:4], signature=None)
    older = match.sign(older, secret)
    assert forks.witness(older) is not None
    longer = referee.record(log, secret, [match.replay(match.unlock(log, secret)).legal()[0]])
    assert forks.witness(longer) is None
    with pytest.raises(forks.ForkError):
        forks.witness(forked(longer, secret, 6))


def test_a_result_rewritten_after_the_game_is_caught() -> None:
    """Attack 2, the result: the same moves signed with another result
    (standings swapped) is refused by the tool that saw the first."""
    log, secret = refereed("atlas", ("ann", "bob"), "result", None, tag="result")
    assert log.result is not None
    forks.witness(log)
    swapped = msgspec.structs.replace(log.result, standings=log.result.standings[::-1],
                                      winners=(log.result.standings[-1].player,))
    rewritten_result = match.sign(msgspec.structs.replace(log, result=swapped), secret)
    match.check_public(rewritten_result)  # the referee's own signature
    with pytest.raises(forks.ForkError, match="another result"):
        forks.witness(rewritten_result)


def test_audit_views_catches_two_histories_and_a_lying_view(tmp_path: Path) -> None:
    """Attacks 2 and 3, after the reveal: view files players kept are checked
    against the final log and the revealed deal. A view from another history
    and a view showing bob a false hand fail; true views pass."""
    log, secret = refereed("atlas", PLAYERS, "views", 4, tag="views")
    true_ann = referee.issue_view(log, secret, "ann")
    lie = referee.issue_view(log, secret, "bob")
    shown = msgspec.json.decode(lie.view)
    hidden = [c for c in ("1W", "2W", "3W", "4W", "5W", "6W", "7W", "1D", "2D", "3D")
              if c not in shown["hand"] and c not in shown["face_up"]]
    shown["hand"] = [hidden[0], *shown["hand"][1:]]
    lie = msgspec.structs.replace(lie, view=msgspec.Raw(msgspec.json.encode(shown)))
    lie = msgspec.structs.replace(lie, proof=seal.sign(secret.signing_key, referee.view_items(lie)))
    referee.check_view(lie)  # show accepts it: the referee's own proof
    other = forked(log, secret, 2)
    from_other = referee.issue_view(other, secret, "cy")
    final = match.reveal(referee.record(log, secret, [
        match.replay(match.unlock(log, secret)).legal()[0]]), secret)
    paths = {}
    for name, vf in {"ann": true_ann, "lie": lie, "other": from_other}.items():
        paths[name] = tmp_path / f"{name}.json"
        paths[name].write_bytes(logmod.encode(vf))
    game = tmp_path / "final.json"
    game.write_bytes(logmod.encode(final))
    def line(stdout: str, name: str) -> str:
        return next(x for x in stdout.splitlines() if f"{name}.json:" in x)

    r = cli("audit", game, "--views", paths["ann"])
    assert line(r.stdout, "ann").startswith("  ok   view ")
    r = cli("audit", game, "--views", paths["ann"], "--views", paths["lie"], "--views",
            paths["other"], status=1)
    assert line(r.stdout, "ann").startswith("  ok   view ")
    assert line(r.stdout, "lie").startswith("  FAIL view ") and "lied" in line(r.stdout, "lie")
    assert "two histories" in line(r.stdout, "other")
    # Before the reveal a kept view can be placed in the history, not yet checked.
    items = forks.check_views(match.publish(final, log), [("ann", true_ann)])
    assert items[0][0] == "unchecked"


def test_vectors_match_notation_readme() -> None:
    """The contribution's commitment, the joint seed, the header digest with
    contributions and the fingerprint of notation/README.md, so another
    program can check them."""
    text = (Path(__file__).resolve().parent.parent / "notation" / "README.md").read_text()
    value = "00112233445566778899aabbccddeeff"
    commitment = seal.contribution_commit("ann", value)
    joint = seal.joint_seed(seal.deal_seed("s3cret", "00ff"), [("ann", value), ("bob", "words here")])
    public = seal.public_key("AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHyA=")
    head = seal.header_digest("adjudicator-log", 2, "atlas", {}, ["ann", "bob"], None,
                              seal.commit("s3cret", "00ff"), public, {}, rules=1,
                              deal=(("ann", commitment, value), ("bob", "words", "words here")))
    for expected in (commitment, joint, head.hex(), seal.fingerprint(public)):
        assert expected in text
    # Without contributions the header hashes as it always did.
    assert seal.header_digest("adjudicator-log", 2, "atlas", {}, ["ann", "bob"], None,
                              seal.commit("s3cret", "00ff"), public, {}, rules=1).hex() in text


def test_validate_holds_one_log_to_the_copy_seen_and_bulk_runs_say_first_use(
        tmp_path: Path) -> None:
    """Attack 2 against validate: a copy of another history passes validate
    alone, but validate of one log, as show and audit, holds it to the copy
    seen here last (one line, exit 1). Validating or auditing many logs says
    the first use of a referee's name once, on stderr."""
    log, secret = refereed("atlas", PLAYERS, "fork", 6, tag="fork")
    seen = tmp_path / "seen.json"
    seen.write_bytes(logmod.encode(log))
    cli("validate", seen)  # remembered: move 6
    other = tmp_path / "other.json"
    other.write_bytes(logmod.encode(forked(log, secret, 3)))
    r = cli("validate", other, status=1)
    assert "DOES NOT EXTEND" in r.stderr and len(r.stderr.splitlines()) == 1
    older = match.sign(msgspec.structs.replace(log, moves=log.moves[:4], signature=None), secret)
    path = tmp_path / "older.json"
    path.write_bytes(logmod.encode(older))
    assert "Note: an older copy" in cli("validate", path).stderr

    games_dir = tmp_path / "cup"
    games_dir.mkdir()
    club = tmp_path / "club.key"
    cli("key", "new-referee", "-o", club)
    for i in (1, 2):
        cli("new", "atlas", "--players", "ann,bob", "--referee", "--referee-key", club,
            "--tag", "event=Cup", "-o", games_dir / f"r{i}.json")
    r = cli("validate", games_dir, "--referee-key", "Cup")
    assert r.stderr.count("Note: first use: 'Cup' is now known as referee") == 1, r.stderr
    assert pinning.known()["Cup"] == logmod.decode_key(club.read_bytes()).public
    r = cli("audit", games_dir, "--referee-key", "Cup 2")
    assert r.stderr.count("Note: first use: 'Cup 2'") == 1, r.stderr
