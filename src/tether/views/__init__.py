"""Cards: the closed vocabulary every client renders tool calls with."""

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
from tether.views.parts import FileDiff, Location, ReadFileLine
from tether.views.result import (
    TOOL_RESULT_VIEW,
    DiffResultView,
    GenericResultView,
    ReadResultView,
    TerminalResultView,
    ToolResultView,
    WebFetchResultView,
)
from tether.views.search import (
    SearchFile,
    SearchMatch,
    SearchMatchesResultView,
    SearchPathsResultView,
)
from tether.views.task import TaskResultView, TaskStopReason

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
    "ReadFileLine",
    "ReadResultView",
    "ResourceAttachment",
    "SearchFile",
    "SearchMatch",
    "SearchMatchesResultView",
    "SearchPathsResultView",
    "TaskResultView",
    "TaskStopReason",
    "TerminalCallView",
    "TerminalResultView",
    "ToolCallView",
    "ToolKind",
    "ToolResultView",
    "ToolView",
    "WebFetchResultView",
    "dump_view",
    "load_call_view",
    "load_result_view",
]
