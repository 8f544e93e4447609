"""The ACP tests' fixtures."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.acp.memory import InMemoryAgents


@pytest.fixture
async def agents() -> AsyncIterator[InMemoryAgents]:
    """Starts agents in the test's process; whatever the test left open is closed after it."""
    starter = InMemoryAgents()
    try:
        yield starter
    finally:
        await starter.close_all()
