"""A fetched response as the model and the card see it: text, status, type, size, the cut."""

from __future__ import annotations

from tether.errors import ToolError
from tether.tools.web.convert import convert
from tether.tools.web.decode import decode_body
from tether.tools.web.envelope import MAX_TEXT_CHARS, header_line, render_envelope
from tether.tools.web.fetch import Page, Redirect
from tether.tools.web.value import WebFetchValue

__all__ = ["ERROR_BODY_CHARS", "page_value", "redirect_value"]

ERROR_BODY_CHARS = 2_000
"""How much of an error page the model is shown."""


def page_value(page: Page, max_body: int) -> WebFetchValue:
    """The value of a final response; an error status or a type that is not text raises.

    The `ToolError` raised carries the card's meta, so a 404 still shows as a web card.
    """
    head = header_line(page.url, page.status, page.reason, page.content_type)
    size = len(page.body)
    if page.kind is None:
        shown = page.content_type or "no declared type, binary data"
        failed = WebFetchValue(head, page.url, page.status, page.content_type, False, size)
        raise ToolError(
            f"{head}\nCannot fetch {page.url}: the content type is {shown}; web_fetch reads "
            "HTML, markdown, text and JSON only",
            meta=failed.meta(),
        )
    text = decode_body(page.body, page.charset, html=page.kind == "html")
    page.body.clear()  # the bytes are not needed past here: free them before converting
    error = page.status >= 400
    wanted = ERROR_BODY_CHARS if error else MAX_TEXT_CHARS
    converted = convert(text, page.kind, url=page.url, wanted=wanted)
    del text
    body = converted.text
    reasons = []
    if error:
        status = f"{page.status} {page.reason}".strip()
        head += f"\nHTTP error {status}. The start of the response body:"
        if len(body) > ERROR_BODY_CHARS or page.cut:
            body = body[:ERROR_BODY_CHARS]
            reasons.append(f"only the first {ERROR_BODY_CHARS:,} characters of the error body")
    elif page.cut:
        reasons.append(f"only the first {_size(max_body)} of the body were read")
    elif converted.cut:
        reasons.append("only the start of a very large HTML page was converted")
    rendered, truncated = render_envelope(head, body, reasons)
    value = WebFetchValue(
        text=rendered,
        url=page.url,
        status=page.status,
        content_type=page.content_type,
        truncated=truncated,
        size=size,
        title=converted.title,
    )
    if error:
        raise ToolError(rendered, meta=value.meta())
    return value


def redirect_value(redirect: Redirect) -> WebFetchValue:
    """A redirect to another host, told to the model so it can decide to fetch it."""
    head = header_line(redirect.url, redirect.status, redirect.reason, redirect.content_type)
    text = (
        f"{head}\nRedirected to another host: {redirect.location}\n"
        "The redirect was not followed. To read that page, call web_fetch again with "
        f"url={redirect.location!r}."
    )
    return WebFetchValue(
        text=text,
        url=redirect.url,
        status=redirect.status,
        content_type=redirect.content_type,
        truncated=False,
        size=0,
        redirect=redirect.location,
    )


def _size(limit: int) -> str:
    mib = 1024 * 1024
    return f"{limit // mib} MB" if limit % mib == 0 else f"{limit:,} bytes"
