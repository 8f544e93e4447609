"""Web cards reach the page with their markdown rendered safely as `html`."""

from __future__ import annotations

from tether.web.enrich import enrich_update


def test_a_web_card_gains_safe_html_and_a_bad_one_is_dropped() -> None:
    view = {
        "card": "web",
        "kind": "fetch",
        "url": "https://e.com/",
        "statusCode": 200,
        "truncated": False,
        "content": "# Hi\n\n<script>x()</script> [bad](javascript:x)",
    }
    update = {"sessionUpdate": "tool_call_update", "_meta": {"tether": {"view": view}}}
    enriched = enrich_update(update)["_meta"]["tether"]["view"]
    assert enriched["html"].startswith("<h1>Hi</h1>")
    assert "<script>" not in enriched["html"] and "&lt;script&gt;" in enriched["html"]
    assert "javascript:" not in enriched["html"].split("[bad]")[0]
    redirect = {**view, "content": None, "redirect": "https://other.org/"}
    assert (
        "html"
        not in enrich_update({**update, "_meta": {"tether": {"view": redirect}}})["_meta"][
            "tether"
        ]["view"]
    )
    wrong = {**view, "statusCode": "200"}
    dropped = enrich_update({**update, "_meta": {"tether": {"view": wrong}}})
    assert "view" not in dropped["_meta"]["tether"]
