"""The text form of a log (notation/text-form.md): lossless, ASCII, lines of
at most 72 columns, read back after whatever a mail client does to it, and
refused, naming the line, when it was damaged on the way."""

from __future__ import annotations

import base64
import doctest
import hashlib
import random
import re
import textwrap
from collections.abc import Callable
from functools import cache
from pathlib import Path

import msgspec
import pytest

from adjudicator import games, log, match, referee, seal, textform
from adjudicator.errors import BadLogError, ChainError
from adjudicator.log import Log, ViewFile

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*/*.json"))
DOC = ROOT / "notation" / "text-form.md"

COMMENTS = (
    'Zo\u00eb says "hi"\n> quoted {braces} \\ back\ttab  two  spaces ',
    "\U0001f600 \x07 \x00 \x7f \u2028 \u00a0 controls",
    "",
    " lead and trail ",
    "a - b -- c/ d e-/f well-known and/or",
    "x" * 150,
    " ".join(["word"] * 60),
    "-----END ADJUDICATOR LOG-----",
    "[Head 00] {not a tag} 12. ann 5W",
    '{"format": "adjudicator-log"}',
)


def assert_lines(text: str) -> None:
    for number, line in enumerate(text.splitlines(), 1):
        assert line.isascii() and line.isprintable(), (number, line)
        assert len(line) <= textform.WIDTH, (number, len(line), line)
        assert line == line.rstrip(), (number, line)


def round_trip(value: Log | ViewFile, *, chained: bool = True) -> str:
    """Write, check the lines, read back: the same bytes, and the same text again."""
    text = textform.dumps(value)
    assert_lines(text)
    back = textform.loads(text, "test")
    assert log.encode(back) == log.encode(value)
    assert textform.dumps(back) == text
    if chained:  # entry digests follow from the chain: none is written out
        assert "digest=" not in text
    return text


# --- Games to write -----------------------------------------------------------------------


def _fixed_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    """Refereed games with fixed salts and keys, so that every run is the same."""
    counter = iter(range(10**6))

    def key() -> str:
        return base64.b64encode(hashlib.sha256(b"key %d" % next(counter)).digest()).decode()

    monkeypatch.setattr(seal, "new_salt", lambda: hashlib.sha256(b"salt %d" % next(counter)).hexdigest()[:32])
    monkeypatch.setattr(seal, "new_signing_key", key)


def random_moves(lg: Log, seed: str, limit: int | None = None) -> list[str]:
    """Random legal moves of an unlocked log to the end (or ``limit`` moves)."""
    rep = match.validate(lg)
    game, state = rep.game, rep.state
    rng = random.Random(seed)
    moves: list[str] = []
    while game.to_move(state) is not None and (limit is None or len(moves) < limit):
        move = rng.choice(game.legal_moves(state))
        moves.append(game.format_move(state, move))
        state = game.apply(state, move)
    return moves


@cache
def refereed(game_id: str, players: int) -> tuple[tuple[Log, ...], log.Secret, str]:
    """A complete refereed game: its log after each of the first moves (recorded
    one at a time, with comments) and at the end; the secret; a player's key."""
    with pytest.MonkeyPatch.context() as mp:
        _fixed_keys(mp)
        ann_key = seal.new_signing_key()
        names = ["ann", "bob", "cy", "dee"][:players]
        lg, secret = match.new_refereed(game_id, names, seed=f"{game_id}-{players}",
                                        keys={"ann": seal.public_key(ann_key)})
        moves = random_moves(match.unlock(lg, secret), f"play {game_id}")
        logs = [lg]
        for i, move in enumerate(moves[:4]):
            lg = referee.record(lg, secret, [move], comment=COMMENTS[i], player_key=ann_key)
            logs.append(lg)
        lg = referee.record(lg, secret, moves[4:], comment=COMMENTS[4], player_key=ann_key)
        logs.append(lg)
    return tuple(logs), secret, ann_key


@cache
def views() -> tuple[ViewFile, ...]:
    """View files of a refereed Atlas game: for the player to move and for
    another, with a move recorded (commented and signed), and after the end."""
    logs, secret, ann_key = refereed("atlas", 3)
    out = []
    for lg in (logs[0], logs[2], logs[-1]):
        for player in lg.players[:2]:
            vf = referee.issue_view(lg, secret, player)
            out.append(vf)
            if vf.legal:
                out.append(referee.choose(vf, vf.legal[-1], COMMENTS[0],
                                          ann_key if player == "ann" else None))
    return tuple(out)


GAMES = [(gid, n) for gid, game in sorted(games.GAMES.items()) for n in game.players]


# --- Round trips ----------------------------------------------------------------------------


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_example_logs_round_trip(path: Path) -> None:
    round_trip(log.decode(path.read_bytes(), path.name))


@pytest.mark.parametrize(("game_id", "players"), GAMES, ids=lambda v: str(v))
def test_random_open_games_round_trip(game_id: str, players: int) -> None:
    names = ["ann", "bob", "cy", "dee"][:players]
    lg = match.simulate(game_id, names, f"text-{game_id}-{players}")
    assert lg.result is not None
    round_trip(lg)


@pytest.mark.parametrize("game_id", sorted(games.GAMES))
def test_random_refereed_games_round_trip(game_id: str) -> None:
    players = max(games.GAMES[game_id].players)
    logs, secret, _ = refereed(game_id, players)
    assert logs[-1].result is not None and logs[-1].signature is not None
    for lg in logs:
        round_trip(lg)
    revealed = match.reveal(logs[-1], secret)
    text = round_trip(revealed)
    assert match.audit(textform.loads(text)).passed


def test_signed_open_game_round_trips() -> None:
    key = base64.b64encode(bytes(range(32))).decode()
    lg = match.new_log("q-turn", ["ann", "bob"], "signed", keys={"ann": seal.public_key(key)})
    lg = match.extend(lg, random_moves(lg, "s", 9), comment=COMMENTS[1], player_key=key)
    assert any(e.signature for e in lg.moves)
    text = round_trip(lg)
    match.validate(textform.loads(text))


def test_view_files_round_trip() -> None:
    vfs = views()
    assert {vf.move is not None for vf in vfs} == {True, False}
    assert any(vf.legal is None and vf.to_move is None for vf in vfs)  # after the end
    for vf in vfs:
        text = round_trip(vf)
        referee.check_view(textform.loads(text))  # the proof still holds


def test_a_recorded_move_goes_to_the_referee_from_the_text_form() -> None:
    logs, secret, ann_key = refereed("atlas", 3)
    lg = logs[3]
    player = match.validate(match.unlock(lg, secret)).to_move()
    vf = referee.issue_view(lg, secret, player)
    vf = referee.choose(vf, vf.legal[0], "mailed as text", ann_key if player == "ann" else None)
    back = textform.loads(textform.dumps(vf))
    assert isinstance(back, ViewFile)
    assert referee.accept(lg, secret, back).moves[-1].comment == "mailed as text"


def _resealed(lg: Log, entries: list[tuple[str, str, str | None]]) -> Log:
    bare = msgspec.structs.replace(lg, moves=())
    return msgspec.structs.replace(lg, moves=match.sealed(bare, entries))


def test_odd_values_round_trip() -> None:
    """Names, moves, keys and values that cannot be bare words, or hold
    everything a string can: all are quoted and escaped, and read back."""
    base = match.simulate("turn-of-time", ["ann", "bob"], "odd", max_moves=3)
    odd = msgspec.structs.replace(
        base,
        params={"n": -3, "yes": True, "no": False, "text": "two words", "empty": "", "x y": "\u00eb"},
        seed="a seed  with spaces, \u00e9 and \"quotes\" - or/and ",
        tags={"event": "Zo\u00eb's cup \u2014 round 2", "": "empty key", "x y": " ", "-": "-"},
    )
    names = ["a b", "", "-x", "x-", '"q"', "\u00e9", "null", "12.", "[b]", "a>b", "e8=Q", "y" * 60]
    moves = ["@takeback 2", "", "-x", "x-", '"q"', "\u00e9", "null", "12.", "[b]", "a>b", "e8=Q", "z" * 80]
    entries = [(b, m, COMMENTS[i % len(COMMENTS)] if i % 3 else None)
               for i, (b, m) in enumerate(zip(names, moves))]
    odd = _resealed(odd, entries)
    odd = msgspec.structs.replace(odd, result=match.simulate("atlas", ["ann", "bob"], "r").result)
    round_trip(odd)


def test_version_2_fields_round_trip() -> None:
    """Header fields and entry fields with defaults (tags, a clock, a
    deadline, time stamps) are written only when set, and read back."""
    lg = match.simulate("atlas", ["ann", "bob", "cy"], "v2", max_moves=5)
    stamped = tuple(
        msgspec.structs.replace(e, at=f"2026-11-{23 + i:02d}T09:15:00Z") for i, e in enumerate(lg.moves)
    )
    plain = textform.dumps(lg)
    assert "[Tag" not in plain and "[Clock" not in plain and "at=" not in plain
    fields = {f.name for f in msgspec.structs.fields(Log)}
    extra = {"tags": {"event": "Club cup", "round": "3"}, "clock": True, "deadline": 48,
             "started": "2026-11-22T18:00:00Z"}
    lg = msgspec.structs.replace(lg, moves=stamped, **{k: v for k, v in extra.items() if k in fields})
    text = round_trip(lg, chained=False)
    assert '[Tag event "Club cup"]' in text and 'at="2026-11-23T09:15:00Z"' in text


def test_a_broken_chain_is_written_as_it_is() -> None:
    """A log whose digests do not follow (edited by hand) is not the text
    form's to mend: its digests are written out, and it reads back the same."""
    lg = match.simulate("q-turn", ["ann", "bob"], "broken", max_moves=6)
    moves = list(lg.moves)
    moves[2] = msgspec.structs.replace(moves[2], digest="0" * 64)
    moves[4] = msgspec.structs.replace(moves[4], digest="not a digest")
    broken = msgspec.structs.replace(lg, moves=tuple(moves))
    text = round_trip(broken, chained=False)
    assert text.count("digest=") == 3  # the two edited, and the one after the zeros
    with pytest.raises(ChainError):
        match.check_chain(textform.loads(text))


def test_a_view_whose_json_is_unusual_is_kept_as_its_text() -> None:
    vf = views()[0]
    odd = msgspec.structs.replace(vf, view=msgspec.Raw(b'{"a": "\\u00eb", "b": 1.50, "a": 2}'))
    text = round_trip(odd)
    assert "[View json" in text


def test_dumps_takes_logs_and_view_files_only() -> None:
    with pytest.raises(TypeError):
        textform.dumps(log.Secret(format="adjudicator-secret", version=2, game="atlas",
                                  players=("a", "b"), commitment="c", seed="s", salt="t"))


# --- What a mail client does ----------------------------------------------------------------


def quote(text: str, prefix: str = "> ") -> str:
    return "\n".join(prefix + line for line in text.splitlines())


def rewrap(text: str, width: int, *, hyphens: bool = False, prefix_again: bool = True) -> str:
    """Lines longer than ``width`` broken at spaces, as a mail client does; the
    quoting is repeated on the continuation lines, or not."""
    out = []
    for line in text.splitlines():
        m = re.match(r"(?:> ?)*", line)
        prefix = m[0] if m else ""
        rest = line[len(prefix):]
        room = width - len(prefix)
        parts = textwrap.wrap(rest, room, break_long_words=False, break_on_hyphens=hyphens) or [""]
        out.append(prefix + parts[0])
        out += [(prefix if prefix_again else "") + p for p in parts[1:]]
    return "\n".join(out)


def join_lines(text: str, every: int) -> str:
    lines = text.splitlines()
    return "\n".join(" ".join(lines[i:i + every]) for i in range(0, len(lines), every))


def typographic(text: str) -> str:
    """Quotes, dashes and spaces as a word processor would put them."""
    rng = random.Random(7)
    out, opened = [], False
    for c in text:
        if c == '"':
            out.append("\u201d" if opened else "\u201c")
            opened = not opened
        elif c == "'":
            out.append("\u2019")
        elif c == "-":
            out.append(rng.choice("\u2013\u2014\u2212\u2010-"))
        elif c == " ":
            out.append(rng.choice(" \u00a0\u202f"))
        else:
            out.append(c)
    return "".join(out)


MANGLERS: dict[str, Callable[[str], str]] = {
    "quoted >": lambda t: quote(t, ">"),
    "quoted > ": quote,
    "quoted >> ": lambda t: quote(t, ">> "),
    "quoted > > ": lambda t: quote(t, "> > "),
    "quoted 3 levels": lambda t: quote(quote(quote(t))),
    "re-wrapped at 60": lambda t: rewrap(t, 60),
    "re-wrapped at 72": lambda t: rewrap(quote(t), 72),
    "re-wrapped at 76": lambda t: rewrap(quote(quote(t)), 76),
    "quoted 3 levels, re-wrapped at 60": lambda t: rewrap(quote(t, "> > > "), 60),
    "re-wrapped, continuation unquoted": lambda t: rewrap(quote(t), 60, prefix_again=False),
    "re-wrapped after hyphens": lambda t: rewrap(quote(t, ">> "), 60, hyphens=True),
    "joined in pairs": lambda t: join_lines(t, 2),
    "joined in threes": lambda t: join_lines(t, 3),
    "all on one line": lambda t: join_lines(t, 10**6),
    "format=flowed soft breaks": lambda t: rewrap(t, 40).replace("\n", " \n"),
    "CRLF": lambda t: t.replace("\n", "\r\n"),
    "CR": lambda t: t.replace("\n", "\r"),
    "trailing spaces and tabs": lambda t: "\n".join(line + " \t " for line in t.splitlines()),
    "tabs for indentation": lambda t: t.replace("  ", "\t"),
    "typographic quotes, dashes, spaces": typographic,
    "a byte order mark and zero-width spaces": lambda t: "\ufeff" + t.replace("[", "\u200b["),
    "Latin-1 round trip": lambda t: log.text_of(("Gr\u00fc\u00dfe,\n" + t).encode("latin-1")),
    "text around": lambda t: (
        "Hi Bob,\n\nmy move -- see below.\n\n" + t + "\n-- \nAnn\n\nOn Monday, Bob wrote:\n> ok\n"
    ),
    "everything at once": lambda t: rewrap(
        quote(typographic(join_lines(t, 2))), 60).replace("\n", "\r\n") + "\r\n-- \r\nAnn",
}


@cache
def mail_subjects() -> tuple[Log | ViewFile, ...]:
    logs, _, _ = refereed("atlas", 3)
    example = log.decode((ROOT / "examples/q-turn/3-players.json").read_bytes())
    return (logs[-1], views()[1], example)


@pytest.mark.parametrize("mangle", MANGLERS, ids=str)
@pytest.mark.parametrize("which", range(3), ids=("refereed log", "view with move", "example"))
def test_read_back_after_a_mail_client(mangle: str, which: int) -> None:
    value = mail_subjects()[which]
    mangled = MANGLERS[mangle](textform.dumps(value))
    assert log.encode(textform.loads(mangled, "mail")) == log.encode(value)


def test_the_quoting_depth_is_reported() -> None:
    value = mail_subjects()[2]
    text = "hi\n" + quote(quote(textform.dumps(value)))
    [found] = textform.scan(text)
    assert (found.line, found.depth, found.form) == (2, 2, "text")


# --- Damage ---------------------------------------------------------------------------------


def refused(text: str) -> str:
    with pytest.raises(BadLogError) as info:
        textform.loads(text, "paste")
    message = str(info.value)
    assert "\n" not in message and message.startswith("paste: ")
    return message


def test_a_changed_move_is_refused_at_the_head() -> None:
    lg = log.decode((ROOT / "examples/atlas/2-players.json").read_bytes())
    text = textform.dumps(lg)
    lines = text.splitlines()
    head = next(i for i, line in enumerate(lines, 1) if line.startswith("[Head"))
    changed = text.replace(" 5. ann 1S+5T", " 5. ann 1S+4T")
    assert changed != text
    assert refused(changed) == (
        f"paste: line {head}: the chain head does not follow from the header and the 26 moves "
        "above: the text was changed or damaged on the way (ask for it again)"
    )


def test_moves_added_by_hand_are_named() -> None:
    lg = match.simulate("atlas", ["ann", "bob"], "added", max_moves=4)
    more = match.extend(lg, random_moves(lg, "x", 1))
    text = textform.dumps(more).replace(more.moves[-1].digest, lg.moves[-1].digest)
    lines = text.splitlines()
    fifth = next(i for i, line in enumerate(lines, 1) if line.startswith("5. "))
    head = next(i for i, line in enumerate(lines, 1) if line.startswith("[Head"))
    assert refused(text) == (
        f"paste: line {head}: the chain head is that of move 4, but the log holds 5 moves: "
        f"the moves from line {fifth} on were added or changed by hand"
    )


@pytest.mark.parametrize("which", range(2), ids=("refereed log", "view with move"))
def test_every_lost_line_is_refused(which: int) -> None:
    lines = textform.dumps(mail_subjects()[which]).splitlines()
    for i in range(len(lines)):
        message = refused("\n".join(lines[:i] + lines[i + 1:]))
        assert re.match(r"paste: line \d+: ", message), message


def test_a_lost_move_line_is_named() -> None:
    lines = textform.dumps(log.decode((ROOT / "examples/atlas/2-players.json").read_bytes())).splitlines()
    i = next(i for i, line in enumerate(lines) if line.startswith(" 6."))
    assert refused("\n".join(lines[:i] + lines[i + 1:])) == (
        f"paste: line {i + 1}: move 7 where move 6 should be: a move is missing (a line was lost?)"
    )


def test_a_truncated_block_is_refused() -> None:
    text = textform.dumps(mail_subjects()[0])
    for cut in range(0, text.index("-----END"), 97):
        refused("Hi,\n" + text[:cut])
    assert refused("Hi,\n" + text[:text.index("-----END")]) == (
        "paste: line 2: the LOG block that begins here has no END line: it was cut short"
    )
    lines = text.splitlines()
    assert refused("\n".join(lines[20:])) == (
        f"paste: line {len(lines) - 20}: an END ADJUDICATOR LOG line without its BEGIN line "
        "(was the start of the block lost?)"
    )


@pytest.mark.parametrize(
    ("edit", "expected"),
    [
        (lambda t: "", "paste: the text is empty"),
        (lambda t: "hello", "paste: no '-----BEGIN ADJUDICATOR LOG-----' line: not the text form of a log"),
        (lambda t: t.replace("LOG-----", "SECRET-----", 1), "line 1: a BEGIN ADJUDICATOR SECRET line"),
        (lambda t: t.replace("[Rules 1]", "[Rulez 1]"), "line 4: unknown tag [Rulez]"),
        (lambda t: t.replace("[Rules 1]", "[Game \"x\"]"), "line 4: [Game] is given twice"),
        (lambda t: t.replace("[Version 2]", '[Version "2"]'), "line 2: [Version]: Expected `int`, got `str`"),
        (lambda t: t.replace("[Seed", "[Seed 7 8]\n[X"), "line 6: [Seed] takes one value, not 2"),
        (lambda t: t.replace('"atlas"', '"at\\qlas"'), "line 3: unknown escape '\\q'"),
        (lambda t: t.replace('"atlas"', '"atl\u00e4s"'), "line 3: character U+00E4"),
        (lambda t: t.replace('[Game "atlas"]', '[Game "atlas]'), "never closed"),
        (lambda t: t.replace("[Version 2]", "[Version 3]"), "line 1: version 3 is not supported"),
        (lambda t: t.replace("[Check ", "[Check 0"), "the check sum does not match"),
        (lambda t: re.sub(r"^1\. ann \S+", "1. ann 1W", t, flags=re.M), "chain head does not follow"),
    ],
    ids=lambda v: v if isinstance(v, str) else "",
)
def test_errors_are_one_line_naming_the_line(edit: Callable[[str], str], expected: str) -> None:
    lg = match.simulate("atlas", ["ann", "bob"], "errors", max_moves=2)
    assert expected in refused(edit(textform.dumps(lg)))


def test_anything_else_is_one_error_line() -> None:
    """Whatever the damage, loads raises BadLogError and nothing else, and never
    returns anything but the original."""
    rng = random.Random(2026)
    subjects = [textform.dumps(v) for v in mail_subjects()[:2]]
    noise = list('[]{}"\\ \n>-.,:=0123456789abnull') + ["\u00e9", "\x00", "\u201c", "\\u00", "\\U0011"]
    for _ in range(250):
        which = rng.randrange(2)
        chars = list(subjects[which])
        for _ in range(rng.randint(1, 3)):
            i = rng.randrange(len(chars))
            op = rng.random()
            if op < 0.4:
                del chars[i:i + rng.randint(1, 20)]
            elif op < 0.9:
                chars.insert(i, rng.choice(noise))
            else:
                chars = chars[:i]
        try:
            back = textform.loads("".join(chars), "fuzz")
        except BadLogError as e:
            assert "\n" not in str(e) and "unreadable" not in str(e), str(e)
        else:
            # The same, or (when a view's BEGIN and END lines were both lost)
            # the intact log that the view held.
            original = mail_subjects()[which]
            assert log.encode(back) in (log.encode(original), log.encode(getattr(original, "log", original)))


# --- Tolerant reading of a text typed by hand -----------------------------------------------


def test_tags_are_read_forgivingly() -> None:
    lg = match.simulate("q-turn", ["ann", "bob"], "hand", max_moves=2)
    text = textform.dumps(lg)
    typed = (text.replace('[Game "q-turn"]', "[game q-turn]")
             .replace("[Param ", "[PARAMS ").replace("[Version 2]", "[version\n2 ]"))
    assert log.encode(textform.loads(typed)) == log.encode(lg)


# --- Finding and choosing -------------------------------------------------------------------


def test_find_all_finds_text_forms_and_json_in_order() -> None:
    a = match.simulate("atlas", ["ann", "bob"], "one", max_moves=3)
    b = match.simulate("q-turn", ["ann", "bob"], "two", max_moves=3)
    body = ("first:\n" + textform.dumps(a) + "\nand as JSON:\n" + log.encode(b).decode()
            + "\nquoted:\n" + quote(textform.dumps(b)))
    found = textform.scan(body)
    assert [(f.form, f.depth) for f in found] == [("text", 0), ("json", 0), ("text", 1)]
    assert [log.encode(v) for v in textform.find_all(body)] == [log.encode(a), log.encode(b), log.encode(b)]
    assert textform.find_all("nothing here") == []


def test_a_comment_that_looks_like_a_block_is_only_a_comment() -> None:
    lg = _resealed(match.simulate("atlas", ["ann", "bob"], "c", max_moves=0),
                   [("ann", "5W", textform.dumps(match.simulate("atlas", ["ann", "bob"], "d",
                                                                max_moves=1)))])
    [found] = textform.scan("see\n" + textform.dumps(lg))
    assert log.encode(found.value) == log.encode(lg)


def _found(value: Log | ViewFile, depth: int = 0, line: int = 1) -> textform.Found:
    return textform.Found(value, line, depth, "text", f"line {line}")


def test_pick_prefers_the_newest_copy_of_one_game() -> None:
    lg = log.decode((ROOT / "examples/atlas/2-players.json").read_bytes())
    old = msgspec.structs.replace(lg, moves=lg.moves[:10], result=None)
    assert textform.pick([_found(old), _found(lg), _found(old)], "m") is not old
    assert textform.pick([_found(old), _found(lg)], "m") == lg
    # Own copies before quoted ones, even when the quoted one is newer.
    assert textform.pick([_found(old), _found(lg, depth=1)], "m") == old
    assert textform.pick([_found(lg, depth=2), _found(old, depth=1)], "m") == old


def test_pick_refuses_forks_and_different_games() -> None:
    lg = log.decode((ROOT / "examples/atlas/2-players.json").read_bytes())
    old = msgspec.structs.replace(lg, moves=lg.moves[:10], result=None)
    rep = match.validate(old)
    legal = [rep.game.format_move(rep.state, m) for m in rep.game.legal_moves(rep.state)]
    fork = match.extend(old, [next(m for m in legal if m != lg.moves[10].move)])
    with pytest.raises(BadLogError, match=r"^m: holds two copies of one game that part at move 11 "):
        textform.pick([_found(lg, line=1), _found(fork, line=60)], "m")
    other = match.simulate("q-turn", ["ann", "bob"], "q", max_moves=1)
    with pytest.raises(BadLogError, match=r"^m: holds 2 different games \(line 1: atlas \(ann, bob\) "
                                          r"after move 26; line 9: q-turn \(ann, bob\) after move 1\)"):
        textform.pick([_found(lg), _found(other, line=9)], "m")
    with pytest.raises(BadLogError, match="holds no adjudicator log or view file"):
        textform.pick([], "m")


def test_pick_takes_a_view_file_over_its_log() -> None:
    vf = views()[0]
    assert textform.pick([_found(vf.log), _found(vf)], "m") == vf
    other = next(v for v in views() if v.player != vf.player)
    with pytest.raises(BadLogError, match="view files of 2 players"):
        textform.pick([_found(vf), _found(other)], "m")


# --- The specification ----------------------------------------------------------------------

FENCE = re.compile(r"^```([\w-]+)\n(.*?)^```", re.S | re.M)


def doc_blocks(kind: str) -> list[str]:
    return [m[2] for m in FENCE.finditer(DOC.read_text(encoding="utf-8")) if m[1] == kind]


def test_the_documented_examples_are_what_dumps_writes() -> None:
    blocks = doc_blocks("textform")
    assert len(blocks) == 2
    for block in blocks:
        value = textform.loads(block, "notation/text-form.md")
        assert textform.dumps(value) == block
        assert_lines(block)
    lg, vf = (textform.loads(b) for b in blocks)
    assert isinstance(lg, Log) and isinstance(vf, ViewFile)
    match.check_public(lg)  # the referee's signature holds
    referee.check_view(vf)
    assert vf.log == lg and vf.move is not None


def test_the_documented_mail_reads_as_the_example() -> None:
    [mail] = doc_blocks("textform-mail")
    [example, _] = doc_blocks("textform")
    assert log.encode(textform.loads(mail)) == log.encode(textform.loads(example))


def test_the_module_doctest() -> None:
    result = doctest.testmod(textform, verbose=False)
    assert result.attempted and not result.failed


def test_a_clipped_quote_below_an_intact_copy_is_passed_over() -> None:
    """Mail clients clip long quoted mails: a reply may hold its own intact
    copy and, quoted below, the previous copy cut short."""
    lg = log.decode((ROOT / "examples/atlas/2-players.json").read_bytes())
    old = msgspec.structs.replace(lg, moves=lg.moves[:10], result=None)
    clipped = "\n".join(textform.dumps(old).splitlines()[:12]) + "\n[Message clipped]"
    reply = textform.dumps(lg) + "\nOn Monday, Bob wrote:\n" + quote(clipped)
    assert textform.loads(reply) == lg
    # Not when the damaged copy is as much the sender's own as the intact one,
    # nor when the intact copy is the quoted one.
    n = len(textform.dumps(lg).splitlines())
    with pytest.raises(BadLogError, match=rf"^text: line {n + 14}: unknown tag \[Message\]"):
        textform.loads(textform.dumps(lg) + "\n" + clipped)
    with pytest.raises(BadLogError, match=r"^text: line 13: unknown tag \[Message\]"):
        textform.loads(clipped + "\n" + quote(textform.dumps(lg)))
