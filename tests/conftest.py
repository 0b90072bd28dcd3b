"""Fixtures shared by the test files."""

from __future__ import annotations

import pytest

from mailref import SMTPServer


@pytest.fixture
def smtp():
    """A real SMTP server on localhost for one test (tests/mailref.py)."""
    server = SMTPServer()
    server.start()
    try:
        yield server
    finally:
        server.stop()
