"""adjudicator: a referee for tabletop games played by email.

The library is the product: :mod:`adjudicator.match` (logs: start, replay,
validate, extend, audit, diff, self-play) and :mod:`adjudicator.games` (each
game declared once, an :class:`adjudicator.engine.GameSpec`). The command
line (:mod:`adjudicator.cli`) and the referee by mail
(:mod:`adjudicator.postal`) are thin front ends over it.
"""

__version__ = "0.1.0"
