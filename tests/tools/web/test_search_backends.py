"""Each search backend against a loopback server speaking its API: the request it sends
(path, headers, parameters or body, as the provider documents them), the results it reads,
and every way the API can fail."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.tools.web.search_api import (
    ERRORS,
    Hit,
    Reply,
    SearchApi,
    env_for,
    ok_reply,
    serve_api,
)
from tether.tools import ToolContext, ToolResult, Workspace, invoke
from tether.tools.card_context import CardContext
from tether.tools.web import WebSearchArgs, WebSearchTool, choose_backend
from tether.views import WebSearchHit, WebSearchResultView

PROVIDERS = ["brave", "exa", "tavily", "searxng"]
LABELS = {"brave": "Brave Search", "exa": "Exa", "tavily": "Tavily", "searxng": "SearXNG"}
HITS = [
    Hit(
        "HTTPX <strong>1.0</strong> release notes",
        "https://www.python-httpx.org/changelog/",
        "What changed in <strong>httpx</strong> 1.0 &amp; why",
        "2026-10-05",
    ),
    Hit("javascript result", "javascript:alert(1)", "never shown"),
    Hit("Migrating to 1.0", "https://github.com/encode/httpx/discussions/1", ""),
]


@pytest.fixture(scope="module")
def api() -> Iterator[SearchApi]:
    """One search API server for the module; each test queues its own replies."""
    with serve_api() as running:
        yield running


@pytest.fixture
def ctx(tmp_path: Path) -> ToolContext:
    return ToolContext(workspace=Workspace.at(tmp_path))


async def search(
    provider: str, api: SearchApi, ctx: ToolContext, **args: object
) -> tuple[ToolResult, WebSearchResultView | None]:
    tool = WebSearchTool(choose_backend(env_for(provider, api)))
    parsed = WebSearchArgs.model_validate({"query": "httpx 1.0 changes", **args})
    result = await invoke(tool, parsed, ctx)
    return result, tool.present_result(parsed, result, CardContext())


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_results_come_back_numbered_plain_and_checked(
    provider: str, api: SearchApi, ctx: ToolContext
) -> None:
    api.answer(ok_reply(provider, HITS, "httpx 1.0 changes"))
    result, card = await search(provider, api, ctx, max_results=5)
    assert not result.is_error, result.text()
    first = WebSearchHit(
        title="HTTPX 1.0 release notes",
        url="https://www.python-httpx.org/changelog/",
        snippet="What changed in httpx 1.0 & why",
        published="2026-10-05",
    )
    second = WebSearchHit(
        title="Migrating to 1.0", url="https://github.com/encode/httpx/discussions/1"
    )
    assert card == WebSearchResultView(
        query="httpx 1.0 changes", results=(first, second), truncated=False, provider=provider
    )
    text = result.text()
    assert text.startswith(f'Results of a web search for "httpx 1.0 changes" ({LABELS[provider]}):')
    assert (
        "<web_content>\n1. HTTPX 1.0 release notes\n   https://www.python-httpx.org/changelog/\n"
        in text
    )
    assert "   2026-10-05 · What changed in httpx 1.0 & why\n\n2. Migrating to 1.0" in text
    assert "javascript" not in text
    assert text.endswith(
        "</web_content>\nThese are snippets: to read a page, call web_fetch with its URL."
    )
    [seen] = api.seen
    match provider:
        case "brave":
            assert (seen.method, seen.path) == ("GET", "/res/v1/web/search")
            assert seen.headers["x-subscription-token"] == "brave-key"
            assert seen.headers["accept"] == "application/json"
            assert seen.query["q"] == ["httpx 1.0 changes"]
            assert seen.query["count"] == ["5"]
            assert seen.query["text_decorations"] == ["false"]
        case "exa":
            assert (seen.method, seen.path) == ("POST", "/search")
            assert seen.headers["x-api-key"] == "exa-key"
            assert seen.headers["content-type"] == "application/json"
            assert seen.body["query"] == "httpx 1.0 changes"
            assert seen.body["numResults"] == 5
            assert seen.body["contents"] == {"highlights": {"maxCharacters": 600}}
            assert "includeDomains" not in seen.body
        case "tavily":
            assert (seen.method, seen.path) == ("POST", "/search")
            assert seen.headers["authorization"] == "Bearer tvly-key"
            assert seen.body["query"] == "httpx 1.0 changes"
            assert seen.body["max_results"] == 5
            assert seen.body["search_depth"] == "basic"
            assert "api_key" not in seen.body  # the key goes in the header only
        case "searxng":
            assert (seen.method, seen.path) == ("GET", "/search")
            assert seen.query["q"] == ["httpx 1.0 changes"]
            assert seen.query["format"] == ["json"]
            assert "authorization" not in seen.headers
    assert seen.headers["user-agent"].startswith("tether/")


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_a_refused_key_says_which_one(
    provider: str, api: SearchApi, ctx: ToolContext
) -> None:
    body = ERRORS[provider][401]
    api.answer(
        Reply(
            401, body, content_type="text/html" if isinstance(body, bytes) else "application/json"
        )
    )
    result, card = await search(provider, api, ctx)
    assert result.is_error and card is None
    text = result.text()
    match provider:
        case "brave":
            assert text == (
                "Brave Search refused the key in BRAVE_API_KEY (HTTP 401: The provided "
                "subscription token is invalid.); check the key"
            )
        case "exa":
            assert (
                text
                == "Exa refused the key in EXA_API_KEY (HTTP 401: Invalid API key); check the key"
            )
        case "tavily":
            assert text == (
                "Tavily refused the key in TAVILY_API_KEY (HTTP 401: Unauthorized: missing or "
                "invalid API key.); check the key"
            )
        case "searxng":
            assert (
                text == f"SearXNG at {api.url} asks for authentication (HTTP 401: 401 Unauthorized)"
            )
    assert len(api.seen) == 1  # a refused key is not tried again


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_a_rate_limit_is_waited_out(provider: str, api: SearchApi, ctx: ToolContext) -> None:
    body = ERRORS[provider][429]
    api.answer(Reply(429, body, headers={"Retry-After": "0"}), ok_reply(provider, HITS[:1]))
    result, card = await search(provider, api, ctx)
    assert not result.is_error, result.text()
    assert card is not None and [h.url for h in card.results] == [HITS[0].url]
    assert len(api.seen) == 2
    assert api.seen[0] == api.seen[1]  # the same request again


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_a_server_that_keeps_failing_is_named(
    provider: str, api: SearchApi, ctx: ToolContext
) -> None:
    failing = Reply(500, {"error": "internal error"}, headers={"Retry-After": "0"})
    api.answer(failing, failing, failing, ok_reply(provider, HITS))
    result, _ = await search(provider, api, ctx)
    assert result.is_error
    assert result.text() == (
        f"{LABELS[provider]} failed (HTTP 500: internal error) after 3 attempts; "
        "search again later."
    )
    assert len(api.seen) == 3


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_malformed_json_is_an_error_naming_the_address(
    provider: str, api: SearchApi, ctx: ToolContext
) -> None:
    api.answer(Reply(200, b'{"results": [', content_type="application/json"))
    result, _ = await search(provider, api, ctx)
    assert result.is_error
    text = result.text()
    assert text.startswith(
        f"{LABELS[provider]} at {api.url} answered with something that is not JSON"
    )
    assert '{"results": [' in text


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_an_empty_result_is_said_not_failed(
    provider: str, api: SearchApi, ctx: ToolContext
) -> None:
    api.answer(ok_reply(provider, []))
    result, card = await search(provider, api, ctx)
    assert not result.is_error
    assert result.text() == (
        f'No results for "httpx 1.0 changes" ({LABELS[provider]}).\n'
        "Try other or fewer words, or looser domain filters."
    )
    assert card == WebSearchResultView(
        query="httpx 1.0 changes", results=(), truncated=False, provider=provider
    )


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_domain_filters_reach_the_api_and_are_applied_anyway(
    provider: str, api: SearchApi, ctx: ToolContext
) -> None:
    hits = [
        Hit("Docs", "https://docs.python.org/3/library/http.html", "stdlib"),
        Hit("Elsewhere", "https://example.org/httpx", "not allowed"),
        Hit("Wiki", "https://wiki.python.org/moin/Http", "blocked"),
        Hit("Top", "https://python.org/", "the domain itself"),
    ]
    api.answer(ok_reply(provider, hits))
    result, card = await search(
        provider,
        api,
        ctx,
        allowed_domains=["python.org"],
        blocked_domains=["https://wiki.python.org/"],
    )
    assert card is not None and [h.title for h in card.results] == ["Docs", "Top"]
    assert "(2 results outside the domain filters were left out.)" in result.text()
    [seen] = api.seen
    match provider:
        case "brave" | "searxng":
            assert seen.query["q"] == ["httpx 1.0 changes site:python.org -site:wiki.python.org"]
        case "exa":
            assert (seen.body["includeDomains"], seen.body["excludeDomains"]) == (
                ["python.org"],
                ["wiki.python.org"],
            )
        case "tavily":
            assert (seen.body["include_domains"], seen.body["exclude_domains"]) == (
                ["python.org"],
                ["wiki.python.org"],
            )


async def test_more_results_than_asked_are_cut_and_said(api: SearchApi, ctx: ToolContext) -> None:
    hits = [Hit(f"Result {n}", f"https://example.org/{n}", f"snippet {n}") for n in range(20)]
    api.answer(ok_reply("searxng", hits))  # SearXNG returns its whole page whatever is asked
    result, card = await search("searxng", api, ctx, max_results=3)
    assert card is not None and card.truncated and len(card.results) == 3
    assert (
        "(More results came back than the 3 shown: raise max_results (at most 20)" in result.text()
    )


async def test_a_long_retry_after_fails_at_once(api: SearchApi, ctx: ToolContext) -> None:
    api.answer(Reply(429, ERRORS["brave"][429], headers={"Retry-After": "3600"}))
    result, _ = await search("brave", api, ctx)
    assert result.is_error
    assert result.text() == (
        "Brave Search is limiting requests (HTTP 429: Request rate limit exceeded for plan.); "
        "wait a moment and search again, or check the plan's quota. It asks to wait 3600 s "
        "before trying again."
    )
    assert len(api.seen) == 1


async def test_a_server_error_without_retry_after_backs_off(
    api: SearchApi, ctx: ToolContext
) -> None:
    api.answer(Reply(503, b"busy", content_type="text/plain"), ok_reply("exa", HITS[:1]))
    result, _ = await search("exa", api, ctx)
    assert not result.is_error and len(api.seen) == 2


async def test_backend_specific_errors_say_what_to_fix(api: SearchApi, ctx: ToolContext) -> None:
    api.answer(Reply(403, b"<h1>Forbidden</h1>", content_type="text/html"))
    result, _ = await search("searxng", api, ctx)
    assert result.text() == (
        f"The SearXNG instance at {api.url} refused the JSON format (HTTP 403: Forbidden); "
        "add `json` to `search.formats` in its settings.yml"
    )
    api.answer(
        Reply(432, {"detail": {"error": "This request exceeds your plan's set usage limit."}})
    )
    result, _ = await search("tavily", api, ctx)
    assert result.text() == (
        "Tavily says the key in TAVILY_API_KEY reached its usage limit (HTTP 432: This request "
        "exceeds your plan's set usage limit.)"
    )
    api.answer(Reply(302, b"", headers={"Location": "https://search.example.org/search"}))
    result, _ = await search("searxng", api, ctx)
    assert result.text() == (
        f"SearXNG at {api.url} redirected the search to https://search.example.org/search "
        "(HTTP 302); set SEARXNG_URL to the address of its API"
    )
    api.answer(Reply(200, {"unexpected": True}))
    result, _ = await search("exa", api, ctx)
    assert result.text() == "Exa answered without a list of results (`results`)"


async def test_searxng_says_which_engines_did_not_answer(api: SearchApi, ctx: ToolContext) -> None:
    reply = ok_reply("searxng", [])
    reply.body["unresponsive_engines"] = [["google", "timeout"], ["bing", "access denied"]]
    api.answer(reply)
    result, _ = await search("searxng", api, ctx)
    assert "(Engines that did not answer: google (timeout), bing (access denied).)" in result.text()


async def test_nothing_reaches_the_network_before_the_arguments_are_checked(
    api: SearchApi, ctx: ToolContext
) -> None:
    api.answer()
    result, _ = await search("brave", api, ctx, allowed_domains=["not a domain"])
    assert result.text() == (
        "allowed_domains: 'not a domain' is not a domain; give host names such as docs.python.org"
    )
    result, _ = await search("brave", api, ctx, query="   ")
    assert result.text() == "The query is empty: say what to search for"
    result, _ = await search(
        "brave", api, ctx, allowed_domains=["a.org"], blocked_domains=["A.org"]
    )
    assert result.text() == "a.org is both allowed and blocked: choose one"
    assert api.seen == []


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_urls_are_written_plainly_and_titles_lose_invisible_characters(
    provider: str, api: SearchApi, ctx: ToolContext
) -> None:
    hits = [
        # Reads as docs.python.org; goes to evil.test, with a name that reads backwards.
        Hit(
            "Docs\u202e\u200b fdp.exe\u2066 \ufeffhere",
            "https://docs.python.org:pw@evil.test/\u202eexe.fdp?q=\u200b#top",
            "a\u200bsnippet \u202ereversed",
        ),
        Hit("International", "https://Bücher.example/Köln", ""),
    ]
    api.answer(ok_reply(provider, hits, "httpx 1.0 changes"))
    result, card = await search(provider, api, ctx)
    assert card is not None, result.text()
    first, second = card.results
    assert first.title == "Docs fdp.exe here"
    assert first.url == "https://evil.test/%E2%80%AEexe.fdp?q=%E2%80%8B#top"
    assert first.snippet in (None, "asnippet reversed")
    assert second.url == "https://xn--bcher-kva.example/K%C3%B6ln"
    text = result.text()
    for invisible in ("\u202e", "\u200b", "\u2066", "\ufeff", "docs.python.org:pw@"):
        assert invisible not in text
