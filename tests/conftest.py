"""Fixtures shared by the test files."""

from __future__ import annotations

import pytest

from mailref import SMTPServer


@pytest.fixture(autouse=True)
def _player_data(tmp_path_factory, monkeypatch):
    """Each test its own player's data directory (known referees, chain
    heads, contributions: adjudicator.userdata), never the user's."""
    monkeypatch.setenv("ADJUDICATOR_DATA_DIR", str(tmp_path_factory.mktemp("data")))


@pytest.fixture
def smtp():
    """A real SMTP server on localhost for one test (tests/mailref.py)."""
    server = SMTPServer()
    server.start()
    try:
        yield server
    finally:
        server.stop()
