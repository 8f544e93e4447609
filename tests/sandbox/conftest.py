"""Fixtures of the sandbox tests: who runs the sandbox (`users.py`)."""

from tests.sandbox.users import outside, user

__all__ = ["outside", "user"]
