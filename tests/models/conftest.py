"""Fixtures shared by the provider tests."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.models.sse_server import SSEServer


@pytest.fixture
async def server() -> AsyncIterator[SSEServer]:
    """A fresh loopback server per test."""
    async with SSEServer() as running:
        yield running
