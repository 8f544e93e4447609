"""Fixtures of the bash tests: who runs the sandbox (`users.py`)."""

from tests.tools.bash.users import outside, user

__all__ = ["outside", "user"]
