"""The referee by mail: moves arrive as mail, views go out as mail.

``adjudicator referee DIR`` is a thin loop over :class:`MailReferee`, which
works on a directory::

    DIR/referee.toml          the referee's address, how it sends (SMTP) and
                              optionally fetches (IMAP) mail
    DIR/roster.toml           each game's players and their mail addresses
                              (a player's first, then any others they write from)
    DIR/games/NAME.json       the public log of game NAME (adjudicator new
    DIR/games/NAME.secret.json  GAME --referee -o DIR/games/NAME.json) and its secret
    DIR/Maildir/              incoming mail (new/, cur/, tmp/), filled by any
                              mail delivery agent or by the IMAP fetch
    DIR/spool/                outgoing mail not sent yet, one .eml file each
    DIR/state/                what the referee remembers across restarts (the
                              journal; referee.sqlite: messages handled, logs
                              announced, players' mail preferences)
    DIR/referee.log           one line per message taken, refused or ignored
    DIR/signed/GAME/          the raw mails of moves their provider signed (DKIM)

The parts, one job each: :mod:`.config` reads the two settings files,
:mod:`.transport` moves mail (the Maildir, IMAP, SMTP and the spool),
:mod:`.incoming` reads a message once, :mod:`.store` remembers (SQLite),
:mod:`.commands` holds the mail
commands (one class each, with its own help), :mod:`.decision` decides in
memory what a message leads to, :mod:`.compose` writes the mails,
:mod:`.answers` says how often an answer may go to one address and what
the organiser is told was ignored, and :mod:`.service` carries each
decision out exactly once; :mod:`.authenticity` checks a mail's DKIM
signature and keeps the signed message.

Everything game-related is done by the library: :mod:`adjudicator.referee`
checks the player's view file (the proof a reply carries) and takes their
moves, :mod:`adjudicator.textform` writes the files into the mails,
:mod:`adjudicator.mailparse` finds them in replies, :mod:`adjudicator.present`
writes the board. No game is special here.

Specified for players in the README ("A referee by mail").
"""

from __future__ import annotations

from .commands import COMMANDS, Command, MailCommand, Refused, find_command
from .config import Config, ConfigError, Server, load_config, load_roster
from .incoming import MAX_MESSAGE, is_automatic
from .service import MailReferee

__all__ = ["COMMANDS", "MAX_MESSAGE", "Command", "Config", "ConfigError", "MailCommand",
           "MailReferee", "Referee", "Refused", "Server", "find_command", "is_automatic",
           "load_config", "load_roster"]

#: The name the command line and programs have used: :class:`MailReferee`.
Referee = MailReferee
