"""Which backend is configured, the domain filters, and the fields read from a backend."""

from __future__ import annotations

import pytest

from tether.errors import ToolError
from tether.tools.web import NoSearch, SearchChoice, SearchSettings, choose_backend
from tether.tools.web.backends.fields import checked_url, plain_text, published_date
from tether.tools.web.domains import domain_filters, passes

NOTHING = (
    "no search backend is configured: set BRAVE_API_KEY (Brave Search), EXA_API_KEY (Exa), "
    "TAVILY_API_KEY (Tavily) or SEARXNG_URL (a SearXNG instance), or webSearch.provider in "
    "the settings"
)


def chosen(env: dict[str, str], settings: SearchSettings | None = None) -> tuple[str, str, str]:
    setup = choose_backend(env, settings)
    assert isinstance(setup, SearchChoice), setup
    return setup.backend.provider, setup.backend.base_url, setup.because


def test_nothing_configured_says_what_to_set() -> None:
    assert choose_backend({}) == NoSearch(NOTHING)
    assert choose_backend({"BRAVE_API_KEY": "  "}) == NoSearch(NOTHING)


def test_the_first_key_found_wins_in_the_documented_order() -> None:
    every = {
        "SEARXNG_URL": "http://127.0.0.1:8888",
        "TAVILY_API_KEY": "t",
        "EXA_API_KEY": "e",
        "BRAVE_API_KEY": "b",
    }
    assert chosen(every) == ("brave", "https://api.search.brave.com", "BRAVE_API_KEY")
    del every["BRAVE_API_KEY"]
    assert chosen(every) == ("exa", "https://api.exa.ai", "EXA_API_KEY")
    del every["EXA_API_KEY"]
    assert chosen(every) == ("tavily", "https://api.tavily.com", "TAVILY_API_KEY")
    del every["TAVILY_API_KEY"]
    assert chosen(every) == ("searxng", "http://127.0.0.1:8888", "SEARXNG_URL")
    assert chosen({"EXA_API_KEY": "e", "EXA_BASE_URL": "http://proxy:9/exa"})[1] == (
        "http://proxy:9/exa"
    )


def test_the_settings_provider_wins_and_its_missing_key_is_said() -> None:
    env = {"BRAVE_API_KEY": "b", "TAVILY_API_KEY": "t"}
    settings = SearchSettings(provider="tavily", source="/home/me/.tether/settings.json")
    assert chosen(env, settings) == (
        "tavily",
        "https://api.tavily.com",
        "webSearch.provider in /home/me/.tether/settings.json",
    )
    assert choose_backend({"BRAVE_API_KEY": "b"}, settings) == NoSearch(
        "webSearch.provider is tavily (/home/me/.tether/settings.json), but TAVILY_API_KEY "
        "is not set",
        asked=True,
    )
    proxied = SearchSettings(provider="brave", base_url="https://proxy.example/brave")
    assert chosen(env, proxied)[:2] == ("brave", "https://proxy.example/brave")


def test_a_base_url_alone_is_a_searxng_instance() -> None:
    settings = SearchSettings(base_url="http://127.0.0.1:8080", source="s.json")
    env = {"BRAVE_API_KEY": "b"}
    assert chosen(env, settings) == (
        "searxng",
        "http://127.0.0.1:8080",
        "webSearch.baseUrl in s.json",
    )
    searxng = SearchSettings(provider="searxng", base_url="http://127.0.0.1:8080")
    assert chosen({}, searxng)[:2] == ("searxng", "http://127.0.0.1:8080")
    assert (
        chosen({"SEARXNG_URL": "http://a:1"}, SearchSettings(provider="searxng"))[1] == "http://a:1"
    )


@pytest.mark.parametrize(
    ("env", "reason"),
    [
        ({"SEARXNG_URL": "localhost:8080"}, "SEARXNG_URL is not an http(s) URL: 'localhost:8080'"),
        ({"SEARXNG_URL": "file:///etc"}, "SEARXNG_URL is not an http(s) URL: 'file:///etc'"),
        (
            {"SEARXNG_URL": "http://h/?q=x"},
            "SEARXNG_URL is an address with a query or fragment, which a search URL is built "
            "on: 'http://h/?q=x'",
        ),
        (
            {"BRAVE_API_KEY": "b", "BRAVE_BASE_URL": "ftp://x"},
            "BRAVE_BASE_URL is not an http(s) URL: 'ftp://x'",
        ),
    ],
)
def test_a_bad_address_is_said(env: dict[str, str], reason: str) -> None:
    assert choose_backend(env) == NoSearch(reason, asked=True)


def test_domain_filters_are_normalized_hosts() -> None:
    given = ["Docs.Python.org", "https://github.com/encode/httpx", "*.example.org.", "bücher.de"]
    assert domain_filters(given, "allowed_domains") == (
        "docs.python.org",
        "github.com",
        "example.org",
        "xn--bcher-kva.de",
    )
    assert domain_filters(None, "x") == ()
    assert domain_filters(["a.org", "A.org"], "x") == ("a.org",)
    for bad in ["", "a b.org", "-x.org", "a..org", "x" * 300, "ex ample"]:
        with pytest.raises(ToolError, match="is not a domain"):
            domain_filters([bad], "blocked_domains")
    with pytest.raises(ToolError, match="at most 20"):
        domain_filters([f"d{n}.org" for n in range(21)], "allowed_domains")


def test_a_result_passes_inside_allowed_and_outside_blocked_domains() -> None:
    assert passes("https://docs.python.org/3/", ("python.org",), ())
    assert passes("https://python.org/", ("python.org",), ())
    assert not passes("https://notpython.org/", ("python.org",), ())
    assert not passes("https://wiki.python.org/", ("python.org",), ("wiki.python.org",))
    assert passes("https://x.org/", (), ("y.org",))
    assert not passes("https://Y.org./a", (), ("y.org",))
    assert passes("https://bücher.de/", ("xn--bcher-kva.de",), ())
    assert not passes("not a url", (), ())


def test_fields_become_plain_safe_text() -> None:
    assert (
        plain_text("a <strong>b</strong> &amp; &lt;c&gt;\n\t d\x1b[31m", 100) == "a b & <c> d [31m"
    )
    assert plain_text("x" * 20, 10) == "xxxxxxxxx…"
    assert plain_text("  <b></b> ", 10) is None
    assert plain_text(3, 10) is None
    assert checked_url("https://example.org/a?b=1#c") == "https://example.org/a?b=1#c"
    for bad in ["javascript:alert(1)", "ftp://x", "https://a b", "https://", "https://x\x07y", 5]:
        assert checked_url(bad) is None
    assert checked_url("https://x.org/" + "a" * 3000) is None
    assert published_date("2026-10-05T08:00:00") == "2026-10-05"
    assert published_date("2026-10-05T23:30:00.000Z") == "2026-10-05"
    assert published_date("Mon, 05 Oct 2026 23:30:00 -0500") == "2026-10-06"
    assert published_date("2 days ago") == "2 days ago"
    assert published_date("2026-13-45") == "2026-13-45"
    assert published_date(None) is None
