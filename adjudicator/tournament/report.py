"""The standings as data (``tournament standings DIR --json``, schema
``notation/schemas/standings.schema.json``) and as a terminal table.

Only msgspec here: the schema command reads these Structs without loading
the rest of the tournament package.
"""

from __future__ import annotations

import msgspec

STANDINGS_FORMAT = "adjudicator-standings"


class _Out(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    pass


class Played(_Out, kw_only=True):
    """One game of the event and what became of it."""

    name: str
    round: int
    table: int
    #: In seat order.
    players: tuple[str, ...]
    #: ``counted`` (over, and its log passes audit), ``disputed`` (its log
    #: fails audit: ``finding`` says the first check that failed), ``playing``
    #: (not over) or ``pending`` (over, its seed not yet revealed).
    status: str
    finding: str | None = None
    #: Each player's place (1 best) and points, when counted.
    places: dict[str, int] = {}
    points: dict[str, int] = {}
    scores: dict[str, int] = {}
    #: Resignations, forfeits on time and stand-ins, in words.
    notes: tuple[str, ...] = ()
    moves: int = 0


class Row(_Out, kw_only=True):
    """One player's line: place (shared by a tie no tie-break settles), points and tie-breaks."""

    place: int
    player: str
    points: int
    games: int
    wins: int
    byes: int
    #: The tie-breaks by name, in the file's order.
    tiebreaks: dict[str, int]
    resigned: int = 0
    forfeits: int = 0
    #: Moves a stand-in played for the player when their time ran out.
    stand_ins: int = 0
    rating: float | None = None


class Rated(_Out, kw_only=True):
    """A player's rating after one counted game (openskill, Plackett-Luce)."""

    game: str
    player: str
    mu: float
    sigma: float
    #: mu - 3 sigma: the rating shown (a cautious estimate).
    ordinal: float


class Standings(_Out, kw_only=True):
    """The standings of an event, from audited results only."""

    format: str = STANDINGS_FORMAT
    event: str
    id: str
    game: str
    rounds: int
    #: Rounds seated so far, and how many of them are over.
    seated: int
    finished: int
    rows: tuple[Row, ...]
    games: tuple[Played, ...]
    #: Round number -> players who sat it out.
    byes: dict[str, tuple[str, ...]] = {}
    tiebreaks: tuple[str, ...] = ()
    #: The rating history, in game order: rebuilt from the archive, identical.
    ratings: tuple[Rated, ...] = ()


def encode(value: Standings) -> bytes:
    """The standings as stable, indented JSON with a trailing newline."""
    return msgspec.json.format(msgspec.json.encode(value), indent=2) + b"\n"


def decode(data: bytes, source: str = "standings") -> Standings:
    from ..errors import BadLogError

    try:
        return msgspec.json.decode(data, type=Standings)
    except msgspec.DecodeError as e:
        raise BadLogError(f"{source}: {' '.join(str(e).split())}") from None


_SHORT = {"wins": "W", "opponents": "Opp", "score": "Sc", "first-seats": "1st"}


def table(s: Standings, *, ascii: bool = False, width: int = 72) -> str:
    """The standings as a terminal table: one line a player, then the games
    not counted and the notes, each line at most ``width`` columns."""
    from ..engine import Style
    from ..present import mail_safe, safe

    bar = "-" if ascii else "\u2500"
    breaks = [b for b in s.tiebreaks if b in _SHORT]
    head = f"{'#':>3} {'Player':<16} {'Pts':>4} {'G':>2} " + " ".join(
        f"{_SHORT[b]:>4}" for b in breaks) + "  Rating  Notes"
    lines = [f"{s.event}: {s.game}, round {s.seated} of {s.rounds}"
             f" ({s.finished} over)", head.rstrip(), bar * min(width, len(head))]
    for r in s.rows:
        notes = []
        if r.byes:
            notes.append(f"{r.byes} bye")
        if r.resigned:
            notes.append(f"{r.resigned} resigned")
        if r.forfeits:
            notes.append(f"{r.forfeits} forfeit")
        if r.stand_ins:
            notes.append(f"{r.stand_ins} stood in")
        rating = f"{r.rating:6.1f}" if r.rating is not None else "     -"
        line = (f"{r.place:>3} {r.player[:16]:<16} {r.points:>4} {r.games:>2} "
                + " ".join(f"{r.tiebreaks.get(b, 0):>4}" for b in breaks)
                + f"  {rating}  {', '.join(notes)}")
        lines.append(line.rstrip())
    other = [g for g in s.games if g.status != "counted"]
    if other:
        lines += ["", "Not counted:"]
        for g in other:
            why = g.finding if g.finding else g.status
            lines.append(f"  {g.name}: {g.status}" + (f": {why}" if g.finding else ""))
    noted = [(g.name, n) for g in s.games for n in g.notes]
    if noted:
        lines += ["", "Notes:"] + [f"  {name}: {n}" for name, n in noted]
    out = []
    for line in lines:
        text = safe(line, Style(unicode=not ascii)) if line else ""
        while len(text) > width:
            out.append(text[:width])
            text = "    " + text[width:]
        out.append(text)
    return mail_safe("\n".join(out)) + "\n"
