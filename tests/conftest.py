"""Fixtures shared by all tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from support.scripted_server import ScriptedServer


@pytest.fixture
def scripted_server() -> Iterator[ScriptedServer]:
    """A started scripted OpenAI-compatible server on 127.0.0.1 (see tests/support/scripted_server.py)."""
    with ScriptedServer() as server:
        yield server
