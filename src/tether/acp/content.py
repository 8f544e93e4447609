"""Cards as ACP's standard tool-call content: what any ACP client shows without knowing cards.

This is the one place a card becomes standard content, so every client that ignores
`_meta.tether.view` still sees the same thing live and on `session/load`:

| card                  | ACP content                                              |
|-----------------------|----------------------------------------------------------|
| read (result)         | one text block with the window's text (`content`)        |
| diff (call or result) | one `diff` item per `FileDiff` (absolute path)           |
| terminal (result)     | one text block: ```` ```console\\n$ CMD\\nOUTPUT\\n``` ```` |
|                       | and, when it failed, how: `Exited with code N` / `Killed by SIG` |
| terminal (call)       | nothing yet: the command is the title                    |
| generic               | its `content` as one text block, when it has any, then   |
|                       | each attachment: an image block (the result's n-th       |
|                       | image), a `resource_link`, an embedded text `resource`   |
|                       | (binary ones, not kept, as a `resource_link` with size)  |
| search (result)       | one text block: what the model read, else `path:N: line` |
| web (result)          | one text block: the page's markdown (or the redirect)   |
| web search (result)   | one text block: what the model read (else the results), |
|                       | then each result as a `resource_link` to its URL        |
| task (result)         | one text block: the child's report (and why it failed);  |
|                       | while it runs, its current step and its calls so far     |
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import assert_never

from acp import (
    embedded_text_resource,
    image_block,
    resource_block,
    resource_link_block,
    text_block,
    tool_content,
    tool_diff_content,
)
from acp.schema import ContentToolCallContent, FileEditToolCallContent

from tether.acp.paths import absolute
from tether.content import ImageContent
from tether.tools.web.search_value import numbered_results
from tether.views import (
    Attachment,
    DiffCallView,
    DiffResultView,
    FileDiff,
    GenericCallView,
    GenericResultView,
    ImageAttachment,
    LinkAttachment,
    ReadResultView,
    ResourceAttachment,
    SearchMatchesResultView,
    SearchPathsResultView,
    TaskResultView,
    TerminalCallView,
    TerminalResultView,
    ToolCallView,
    ToolResultView,
    WebFetchResultView,
    WebSearchHit,
    WebSearchResultView,
)

__all__ = [
    "ToolContent",
    "absolute",
    "card_content",
    "console_text",
    "ending",
    "search_text",
    "task_text",
    "web_text",
]

ToolContent = ContentToolCallContent | FileEditToolCallContent
"""The standard ACP tool-call content items tether sends."""

_BACKTICKS = re.compile(r"`{3,}")


def card_content(
    view: ToolCallView | ToolResultView,
    cwd: Path,
    model_text: str | None = None,
    images: Sequence[ImageContent] = (),
) -> list[ToolContent]:
    """The standard ACP content of a card; relative paths are made absolute against `cwd`.

    `model_text` is the finished result's text, which a search card's content repeats (as
    other agents send their search output); without it the card's own lines stand in.
    `images` are the result's images, whose data a generic card's image attachments stand for
    (and which follow a notebook's text).
    """
    match view:
        case ReadResultView():
            text = view.content
            if text is None:
                text = "\n".join(view.lines.texts)
            # A notebook's output images follow its text, as the model saw them.
            shown = images if view.notebook is not None else ()
            return [_text(text), *(tool_content(image_block(i.data, i.mime_type)) for i in shown)]
        case DiffCallView() | DiffResultView():
            return [_diff(diff, cwd) for diff in view.diffs]
        case TerminalResultView():
            text = console_text(view.title, view.output or "")
            said = [how] if (how := ending(view)) else []
            return [_text("\n".join([text, *said, *(view.notes or ())]))]
        case TerminalCallView():
            # How the command runs, for clients that show only ACP's own content.
            return [_text(view.sandbox)] if view.sandbox else []
        case WebFetchResultView():
            return [_text(web_text(view))]
        case WebSearchResultView():
            text = model_text if model_text is not None else search_text(view)
            return [_text(text), *(_result_link(hit) for hit in view.results)]
        case GenericCallView():
            return [_text(view.content)] if view.content else []
        case GenericResultView():
            blocks: list[ToolContent] = [_text(view.content)] if view.content else []
            found = iter(images)
            return blocks + [_attachment(a, found) for a in view.attachments or ()]
        case SearchMatchesResultView() | SearchPathsResultView():
            return [_text(model_text if model_text is not None else _search_text(view))]
        case TaskResultView():
            return [_text(task_text(view))]
        case _:
            assert_never(view)


def console_text(command: str | None, output: str) -> str:
    """A fenced `console` block: the command after `$ `, then its output.

    The fence is longer than any run of backticks in the text, so output that prints a fence
    of its own cannot end the block early.
    """
    body = output if not output or output.endswith("\n") else output + "\n"
    if command is not None:
        body = f"$ {command}\n{body}"
    longest = max((len(run) for run in _BACKTICKS.findall(body)), default=2)
    fence = "`" * max(3, longest + 1)
    return f"{fence}console\n{body}{fence}"


def ending(view: TerminalResultView) -> str | None:
    """How a command failed, for clients that show only standard content; `None` on success."""
    if view.signal is not None:
        return f"Killed by {view.signal}"
    if view.exit_code:
        return f"Exited with code {view.exit_code}"
    return None


def _search_text(view: SearchMatchesResultView | SearchPathsResultView) -> str:
    # ripgrep's marks: `path:N: line` for a match, `path-N- line` for context, `path:N` a count.
    if isinstance(view, SearchPathsResultView):
        return "\n".join(view.paths)
    lines = []
    for f in view.files:
        if f.count is not None:
            lines.append(f"{f.path}:{f.count}")
        for m in f.matches:
            mark = "-" if m.context else ":"
            lines.append(f"{f.path}{mark}{m.line_number}{mark} {m.line}")
    return "\n".join(lines)


def task_text(view: TaskResultView) -> str:
    """A task as plain text: its current step while it runs, then the child's report."""
    if view.stop_reason == "running":
        calls = f"{view.tool_calls} call{'' if view.tool_calls == 1 else 's'} so far"
        line = f"{view.activity or 'starting'} · {calls}"
        return f"{line}\n{view.thought}" if view.thought else line
    failed = f"{view.agent} failed: {view.error}" if view.error else None
    if view.stop_reason == "cancelled":
        failed = f"{view.agent} was cancelled"
    report = view.summary or (None if failed else f"({view.agent} gave no final message)")
    return "\n\n".join(part for part in (report, failed) if part)


def web_text(view: WebFetchResultView) -> str:
    """A fetched page as plain text: its markdown, or where it redirects to."""
    if view.content:
        return view.content
    if view.redirect is not None:
        return f"{view.url} redirects to {view.redirect} (another host; not followed)"
    return f"{view.url}: {view.status_code}"


def search_text(view: WebSearchResultView) -> str:
    """A web search as plain text: `N. title`, the URL and the snippet of each result."""
    if not view.results:
        return f'No results for "{view.query}"'
    return numbered_results(view.results)


def _result_link(hit: WebSearchHit) -> ContentToolCallContent:
    return tool_content(
        resource_link_block(hit.title, hit.url, title=hit.title, description=hit.snippet)
    )


def _attachment(attachment: Attachment, images: Iterator[ImageContent]) -> ContentToolCallContent:
    match attachment:
        case ImageAttachment(mime_type=mime_type):
            image = next(images, None)
            if image is None:  # a card drawn without its result's content
                return _text(f"[image {mime_type}]")
            return tool_content(image_block(image.data, image.mime_type))
        case LinkAttachment():
            return tool_content(
                resource_link_block(
                    attachment.name,
                    attachment.uri,
                    mime_type=attachment.mime_type,
                    size=attachment.size,
                    description=attachment.description,
                    title=attachment.title,
                )
            )
        case ResourceAttachment(uri=uri, mime_type=mime_type, text=str() as text):
            resource = embedded_text_resource(uri, text, mime_type=mime_type)
            return tool_content(resource_block(resource))
        case ResourceAttachment(uri=uri, mime_type=mime_type, bytes=size):
            # Binary content is not kept: the client learns what it was and where it lives.
            name = uri.rstrip("/").rsplit("/", 1)[-1] or uri
            return tool_content(resource_link_block(name, uri, mime_type=mime_type, size=size))
        case _:
            assert_never(attachment)


def _text(text: str) -> ContentToolCallContent:
    return tool_content(text_block(text))


def _diff(diff: FileDiff, cwd: Path) -> FileEditToolCallContent:
    return tool_diff_content(absolute(diff.path, cwd), diff.new_text, diff.old_text)
