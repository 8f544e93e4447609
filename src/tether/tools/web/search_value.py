"""What a web search produced: the text the model reads, and the card's stored projection.

The model reads:

    Results of a web search for "httpx 1.0 changes" (Brave Search):
    <web_content>
    1. Title of the page
       https://example.org/page
       2026-10-05 · The backend's snippet, as plain text.

    2. ...
    </web_content>
    (2 results outside the domain filters were left out.)
    These are snippets: to read a page, call web_fetch with its URL.

Titles and snippets come from the web, so they sit inside the same `<web_content>` tags as
a fetched page (which they cannot close), and the system prompt tells the model never to
follow instructions found there.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pydantic import JsonValue

from tether.tools.web.envelope import CLOSE_TAG, OPEN_TAG, escape_content
from tether.views import SearchProvider, WebSearchHit

__all__ = ["FETCH_NOTE", "WebSearchValue", "hit_meta", "numbered_results"]

FETCH_NOTE = "These are snippets: to read a page, call web_fetch with its URL."


@dataclass(frozen=True)
class WebSearchValue:
    """A search's outcome: the results listed, and what the model is told about the rest."""

    query: str
    provider: SearchProvider
    label: str
    """The backend's name for people (`Brave Search`)."""
    hits: tuple[WebSearchHit, ...]
    truncated: bool
    """More results (within the filters) came back than `hits` lists."""
    max_results: int
    left_out: int = 0
    """Results the domain filters removed."""
    note: str | None = None
    """What the backend said besides its results (engines that did not answer)."""

    def text(self) -> str:
        """The model-facing text (see the module's docstring)."""
        quoted = escape_content(self.query)
        notes = []
        if self.left_out:
            plural = "result" if self.left_out == 1 else "results"
            verb = "was" if self.left_out == 1 else "were"
            notes.append(f"({self.left_out} {plural} outside the domain filters {verb} left out.)")
        if self.note:
            notes.append(f"({escape_content(self.note)})")
        if not self.hits:
            lines = [f'No results for "{quoted}" ({self.label}).', *notes]
            lines.append("Try other or fewer words, or looser domain filters.")
            return "\n".join(lines)
        if self.truncated:
            notes.append(
                f"(More results came back than the {len(self.hits)} shown: raise max_results "
                "(at most 20) or narrow the query.)"
            )
        entries = numbered_results(self.hits)
        return "\n".join(
            [
                f'Results of a web search for "{quoted}" ({self.label}):',
                OPEN_TAG,
                escape_content(entries),
                CLOSE_TAG,
                *notes,
                FETCH_NOTE,
            ]
        )

    def meta(self) -> JsonValue:
        """`{query, provider, results: [{title, url, snippet?, published?}], truncated}`."""
        results: list[JsonValue] = [hit_meta(hit) for hit in self.hits]
        return {
            "query": self.query,
            "provider": self.provider,
            "results": results,
            "truncated": self.truncated,
        }


def hit_meta(hit: WebSearchHit) -> JsonValue:
    """One result as stored: `{title, url, snippet?, published?}`."""
    out: dict[str, JsonValue] = {"title": hit.title, "url": hit.url}
    if hit.snippet is not None:
        out["snippet"] = hit.snippet
    if hit.published is not None:
        out["published"] = hit.published
    return out


def numbered_results(hits: Sequence[WebSearchHit]) -> str:
    """`1. title`, the URL under it, then `date · snippet`; a blank line between results."""
    entries = []
    for number, hit in enumerate(hits, 1):
        lines = [f"{number}. {hit.title}", f"   {hit.url}"]
        detail = " · ".join(part for part in (hit.published, hit.snippet) if part)
        if detail:
            lines.append(f"   {detail}")
        entries.append("\n".join(lines))
    return "\n\n".join(entries)
