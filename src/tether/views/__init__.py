"""Cards: the closed vocabulary every client renders tool calls with."""

from typing import TYPE_CHECKING

from tether.lazy import lazy_names

if TYPE_CHECKING:
    from tether.views.attachments import (
        ATTACHMENTS,
        Attachment,
        ImageAttachment,
        LinkAttachment,
        ResourceAttachment,
    )
    from tether.views.call import (
        TOOL_CALL_VIEW,
        DiffCallView,
        GenericCallView,
        TerminalCallView,
        ToolCallView,
        ToolKind,
    )
    from tether.views.codec import (
        TOOL_VIEW,
        ToolView,
        dump_view,
        load_call_view,
        load_result_view,
    )
    from tether.views.notebook import NotebookCell, NotebookOutput, NotebookView
    from tether.views.parts import FileDiff, Location, ReadFileLine
    from tether.views.read_lines import ReadLines
    from tether.views.result import (
        TOOL_RESULT_VIEW,
        DiffResultView,
        GenericResultView,
        ReadResultView,
        TerminalResultView,
        ToolResultView,
    )
    from tether.views.search import (
        SearchFile,
        SearchMatch,
        SearchMatchesResultView,
        SearchPathsResultView,
    )
    from tether.views.task import TaskResultView, TaskStopReason
    from tether.views.web import (
        SearchProvider,
        WebFetchResultView,
        WebResultView,
        WebSearchHit,
        WebSearchResultView,
    )

__all__ = [
    "ATTACHMENTS",
    "TOOL_CALL_VIEW",
    "TOOL_RESULT_VIEW",
    "TOOL_VIEW",
    "Attachment",
    "DiffCallView",
    "DiffResultView",
    "FileDiff",
    "GenericCallView",
    "GenericResultView",
    "ImageAttachment",
    "LinkAttachment",
    "Location",
    "NotebookCell",
    "NotebookOutput",
    "NotebookView",
    "ReadFileLine",
    "ReadLines",
    "ReadResultView",
    "ResourceAttachment",
    "SearchFile",
    "SearchMatch",
    "SearchMatchesResultView",
    "SearchPathsResultView",
    "SearchProvider",
    "TaskResultView",
    "TaskStopReason",
    "TerminalCallView",
    "TerminalResultView",
    "ToolCallView",
    "ToolKind",
    "ToolResultView",
    "ToolView",
    "WebFetchResultView",
    "WebResultView",
    "WebSearchHit",
    "WebSearchResultView",
    "dump_view",
    "load_call_view",
    "load_result_view",
]

__getattr__ = lazy_names(
    __name__,
    {
        "ATTACHMENTS": "tether.views.attachments",
        "Attachment": "tether.views.attachments",
        "ImageAttachment": "tether.views.attachments",
        "LinkAttachment": "tether.views.attachments",
        "ResourceAttachment": "tether.views.attachments",
        "TOOL_CALL_VIEW": "tether.views.call",
        "DiffCallView": "tether.views.call",
        "GenericCallView": "tether.views.call",
        "TerminalCallView": "tether.views.call",
        "ToolCallView": "tether.views.call",
        "ToolKind": "tether.views.call",
        "TOOL_VIEW": "tether.views.codec",
        "ToolView": "tether.views.codec",
        "dump_view": "tether.views.codec",
        "load_call_view": "tether.views.codec",
        "load_result_view": "tether.views.codec",
        "NotebookCell": "tether.views.notebook",
        "NotebookOutput": "tether.views.notebook",
        "NotebookView": "tether.views.notebook",
        "FileDiff": "tether.views.parts",
        "Location": "tether.views.parts",
        "ReadFileLine": "tether.views.parts",
        "ReadLines": "tether.views.read_lines",
        "TOOL_RESULT_VIEW": "tether.views.result",
        "DiffResultView": "tether.views.result",
        "GenericResultView": "tether.views.result",
        "ReadResultView": "tether.views.result",
        "TerminalResultView": "tether.views.result",
        "ToolResultView": "tether.views.result",
        "SearchFile": "tether.views.search",
        "SearchMatch": "tether.views.search",
        "SearchMatchesResultView": "tether.views.search",
        "SearchPathsResultView": "tether.views.search",
        "TaskResultView": "tether.views.task",
        "TaskStopReason": "tether.views.task",
        "SearchProvider": "tether.views.web",
        "WebFetchResultView": "tether.views.web",
        "WebResultView": "tether.views.web",
        "WebSearchHit": "tether.views.web",
        "WebSearchResultView": "tether.views.web",
    },
)
