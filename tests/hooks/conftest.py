"""Fixtures of the hooks tests: who runs the sandbox (`tests/tools/bash/users.py`)."""

from tests.tools.bash.users import outside, user

__all__ = ["outside", "user"]
