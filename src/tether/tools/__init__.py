"""Tools: the contract, the registry and the shared pieces every tool uses."""

from typing import TYPE_CHECKING

from tether.lazy import lazy_names

if TYPE_CHECKING:
    from tether.tools.access import (
        Access,
        AllowAll,
        CommandAccess,
        FetchAccess,
        FileAccess,
        Gate,
        McpAccess,
        NamedAccess,
        SearchAccess,
        UnsandboxedAccess,
    )
    from tether.tools.base import Tool
    from tether.tools.card_context import CardContext
    from tether.tools.context import DEFAULT_READ_BYTE_CAP, ToolContext
    from tether.tools.invocation import check_plain_json, invoke, parse_arguments
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
    "NamedAccess",
    "SearchAccess",
    "Tool",
    "ToolContext",
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

__getattr__ = lazy_names(
    __name__,
    {
        "Access": "tether.tools.access",
        "AllowAll": "tether.tools.access",
        "CommandAccess": "tether.tools.access",
        "FetchAccess": "tether.tools.access",
        "FileAccess": "tether.tools.access",
        "Gate": "tether.tools.access",
        "McpAccess": "tether.tools.access",
        "NamedAccess": "tether.tools.access",
        "SearchAccess": "tether.tools.access",
        "UnsandboxedAccess": "tether.tools.access",
        "Tool": "tether.tools.base",
        "CardContext": "tether.tools.card_context",
        "DEFAULT_READ_BYTE_CAP": "tether.tools.context",
        "ToolContext": "tether.tools.context",
        "FileObservations": "tether.tools.observations",
        "FileVersion": "tether.tools.observations",
        "file_version": "tether.tools.observations",
        "call_view": "tether.tools.present",
        "result_view": "tether.tools.present",
        "ToolRegistry": "tether.tools.registry",
        "ToolResult": "tether.tools.result",
        "Workspace": "tether.tools.workspace",
        "check_plain_json": "tether.tools.invocation",
        "invoke": "tether.tools.invocation",
        "parse_arguments": "tether.tools.invocation",
    },
)
