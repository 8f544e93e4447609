"""Tools: the contract, the registry and the shared pieces every tool uses."""

from tether.tools.access import (
    Access,
    AllowAll,
    CommandAccess,
    FetchAccess,
    FileAccess,
    Gate,
    McpAccess,
    SearchAccess,
    UnsandboxedAccess,
)
from tether.tools.base import Tool
from tether.tools.card_context import CardContext
from tether.tools.context import DEFAULT_READ_BYTE_CAP, ToolContext
from tether.tools.errors import PermissionDenied, ToolError
from tether.tools.invoke import check_plain_json, invoke, parse_arguments
from tether.tools.observations import FileObservations, FileVersion, file_version
from tether.tools.present import call_view, result_view
from tether.tools.registry import ToolRegistry
from tether.tools.result import ToolResult
from tether.tools.workspace import Workspace

__all__ = [
    "DEFAULT_READ_BYTE_CAP",
    "Access",
    "AllowAll",
    "CardContext",
    "CommandAccess",
    "FetchAccess",
    "FileAccess",
    "FileObservations",
    "FileVersion",
    "Gate",
    "McpAccess",
    "PermissionDenied",
    "SearchAccess",
    "Tool",
    "ToolContext",
    "ToolError",
    "ToolRegistry",
    "ToolResult",
    "UnsandboxedAccess",
    "Workspace",
    "call_view",
    "check_plain_json",
    "file_version",
    "invoke",
    "parse_arguments",
    "result_view",
]
