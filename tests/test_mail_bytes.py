"""A refereed game by mail with the default settings sends each player at
most half the bytes the settings of before did (issue #26: "a refereed game
played by mail sends each player at most half today's bytes"): a PNG picture
and every player mailed after every move, which a ``referee.toml`` still
asks for (``picture = "png"``, ``mail = "all"``). The same game, seed and
moves are played under both settings, through a real SMTP server, and the
bytes it received for each player are counted. (benchmarks/referee.py
--bytes measures whole games; this holds the claim on a few moves.)"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from adjudicator import log as logmod, match, postal

from mailref import Player, SMTPServer, deliver, referee_dir
from test_referee_scale import NOW, views_in

#: referee.toml's mail settings before issue #26 made the default smaller.
BEFORE = 'picture = "png"\nmail = "all"\n'


def mailed(root: Path, smtp: SMTPServer, game_id: str, players: tuple[str, ...],
           made: dict[str, bytes], settings: str) -> tuple[dict[str, int], list[str]]:
    """The bytes mailed to each player over the first moves of a refereed
    game, with ``settings`` in referee.toml (the defaults when empty); and
    the moves played (the same for the same seed, whatever the settings)."""
    smtp.sink.received.clear()
    roster = referee_dir(root, smtp.port, {"g": (game_id, players, f"bytes-{game_id}")})
    # The very same game under both settings: its log and secret (salt and deal).
    for name, data in made.items():
        (root / "games" / name).write_bytes(data)
    (root / "games" / "g.secret.json").chmod(0o600)
    toml = root / "referee.toml"
    toml.write_text(settings + toml.read_text().replace('picture = "svg"\n', ""))
    people = {p: Player(p, a, random.Random(p)) for p, a in roster["g"].items()}
    answered: set[str] = set()
    played: list[str] = []

    def referee() -> None:
        postal.MailReferee(root, now=lambda: NOW).run_once()
        for p in people.values():
            p.collect(smtp.sink)

    referee()
    while len(played) < len(players):  # every player moves once
        for p in people.values():
            asking = [m for m in p.inbox if "Your move" in str(m["Subject"])]
            if not asking or str(asking[-1]["Message-ID"]) in answered:
                continue
            vf = views_in(asking[-1])[-1]
            if vf.legal:
                answered.add(str(asking[-1]["Message-ID"]))
                move = vf.legal[len(played) % len(vf.legal)]
                deliver(root, p.reply(asking[-1], f"move {move}"))
                played.append(f"{p.name} {move}")
                break
        else:
            raise AssertionError(f"nobody was asked for a move after {played}")
        referee()
    with smtp.sink.lock:
        received = list(smtp.sink.received)
    sent = {p: sum(len(data) for rcpt, data in received if a in rcpt)
            for p, a in roster["g"].items()}
    return sent, played


@pytest.mark.parametrize(("game_id", "players"), [("fifteen-days", ("ann", "bob", "cy")),
                                                  ("q-turn", ("ann", "bob"))])
def test_the_default_settings_mail_each_player_at_most_half_the_bytes_of_before(
        tmp_path: Path, smtp: SMTPServer, game_id: str, players: tuple[str, ...]) -> None:
    pytest.importorskip("resvg_py", reason="resvg-py (the 'pictures' extra) draws the PNG of before")
    log, secret = match.new_refereed(game_id, list(players), seed=f"bytes-{game_id}")
    made = {"g.json": logmod.encode(log), "g.secret.json": logmod.encode(secret)}
    before, moves = mailed(tmp_path / "before", smtp, game_id, players, made, BEFORE)
    after, again = mailed(tmp_path / "after", smtp, game_id, players, made, "")
    assert again == moves, "the same game, move for move"
    for p in players:
        assert before[p] > 0 and after[p] > 0
        assert after[p] * 2 <= before[p], (p, after[p], before[p])
