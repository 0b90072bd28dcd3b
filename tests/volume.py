"""How much random play the tests do: a few minutes for the README's command,
the long volume where ``ADJUDICATOR_VOLUME=long`` (what ``.ci/run`` sets)."""

from __future__ import annotations

import os

LONG = os.environ.get("ADJUDICATOR_VOLUME") == "long"


def seeds(short: int, long: int) -> list[str]:
    """The seeds "0", "1", ... of a random test: ``short`` of them by default,
    ``long`` in the long volume."""
    return [str(i) for i in range(long if LONG else short)]
