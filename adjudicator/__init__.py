"""adjudicator: a referee for tabletop games played by email.

The library is the product; the CLI (:mod:`adjudicator.cli`) is a thin layer
over :mod:`adjudicator.match`. Games live in :mod:`adjudicator.games`, each on
the contract of :class:`adjudicator.engine.Game`.
"""

__version__ = "0.1.0"
