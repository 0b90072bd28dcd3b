"""Tournaments: seating, rounds, standings, ratings and an auditable archive (#27).

One job per module:

* :mod:`.event` reads, checks and writes the tournament file (TOML);
* :mod:`.seating` seats a round (round robin where it fits, else Swiss by score);
* :mod:`.rounds` starts a round's refereed games in the mail referee's directory
  and finds the event's games again;
* :mod:`.standings` ranks the players from audited results only;
* :mod:`.ratings` rates the players of each game with openskill;
* :mod:`.report` is the standings as data (the JSON output) and as a terminal table;
* :mod:`.page` is the standings as one HTML page, every game's replay linked;
* :mod:`.archive` packs every final log, the file and the standings in one zip.

Everything is derived from the logs: the seating of a round from the rounds
before it, the standings and the ratings from the games' results. So anyone
holding the archive can check every game and rebuild the standings.
"""
