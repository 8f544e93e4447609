"""Claude Code's `*` in bash rules: the matcher against a plain regular expression, and the
words it cannot know judged safely (deny may match them, allow must cover them whole)."""

from __future__ import annotations

import itertools
import re

from hypothesis import given
from hypothesis import strategies as st

from tether.settings.wildcard import wildcard_matches

patterns = st.text(alphabet="ab *", max_size=7).map(
    lambda text: tuple(None if c == "*" else c for c in text)
)
words = st.lists(st.text(alphabet="ab", max_size=3), max_size=4)
unknown_words = st.lists(st.one_of(st.none(), st.text(alphabet="ab", max_size=2)), max_size=3)
STANDINS = ("", "a", "b", "ab", "a b", "b a b")
"""What an unknown word might turn out to be (spaces too: `$FLAGS` may be several words)."""


def regex(pattern: tuple[str | None, ...]) -> re.Pattern[str]:
    return re.compile("".join(".*" if c is None else re.escape(c) for c in pattern), re.DOTALL)


@given(patterns, words)
def test_known_words_match_as_the_regular_expression_does(
    pattern: tuple[str | None, ...], known: list[str]
) -> None:
    expected = regex(pattern).fullmatch(" ".join(known)) is not None
    assert wildcard_matches(pattern, known, possibly=True) is expected
    assert wildcard_matches(pattern, known, possibly=False) is expected


@given(patterns, unknown_words)
def test_unknown_words_never_let_a_deny_miss_or_an_allow_overreach(
    pattern: tuple[str | None, ...], some: list[str | None]
) -> None:
    holes = [i for i, word in enumerate(some) if word is None]
    outcomes = []
    for filling in itertools.product(STANDINS, repeat=len(holes)):
        filled = list(some)
        for index, text in zip(holes, filling, strict=True):
            filled[index] = text
        outcomes.append(regex(pattern).fullmatch(" ".join(w or "" for w in filled)) is not None)
    if any(outcomes):  # some value would match: a deny rule must count it
        assert wildcard_matches(pattern, some, possibly=True)
    if wildcard_matches(pattern, some, possibly=False):  # an allow must hold for every value
        assert all(outcomes)


def test_claude_codes_examples() -> None:
    def rule(text: str) -> tuple[str | None, ...]:
        return tuple(None if c == "*" else c for c in text)

    assert wildcard_matches(rule("git * main"), ["git", "push", "origin", "main"], possibly=False)
    assert not wildcard_matches(rule("git * main"), ["git", "main"], possibly=False)
    assert wildcard_matches(rule("* --version"), ["node", "--version"], possibly=False)
    assert wildcard_matches(rule("npm run test*"), ["npm", "run", "test:unit"], possibly=False)
    assert not wildcard_matches(rule("git * main"), ["git", "push", None], possibly=False)
    assert wildcard_matches(rule("git * main"), ["git", "push", None], possibly=True)
    assert wildcard_matches(rule("git *"), ["git", None], possibly=False)
