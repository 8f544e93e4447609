"""The support modules' asserts are rewritten as the test modules' are.

pytest rewrites the asserts of the modules it collects, of conftests and of plugins: a failed
`assert x == y` says what `x` and `y` were. A support module (`tests/cli/support.py`,
`tests/acp/wire.py`, ...) is none of those, and its asserts raise a bare `AssertionError`
unless it is registered before anything imports it. This plugin, loaded by the top conftest
before any folder's conftest, registers each that has an `assert`
(`tests.sources.support_with_asserts`).
"""

from __future__ import annotations

import pytest

from tests.sources import support_with_asserts

pytest.register_assert_rewrite(*support_with_asserts())
