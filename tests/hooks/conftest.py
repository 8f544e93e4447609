"""Fixtures of the hooks tests: who runs the sandbox (`tests/sandbox/users.py`)."""

from tests.sandbox.users import outside, user

__all__ = ["outside", "user"]
