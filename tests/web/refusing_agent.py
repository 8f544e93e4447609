"""An ACP agent that answers every prompt with an error carrying data (as an agent that needs
a sign-in does): run as a script by the web tests."""

from __future__ import annotations

import json
import sys
from pathlib import Path

REFUSING_AGENT = Path(__file__)
"""This script, to run as the agent."""

ERROR = {
    "code": -32000,
    "message": "Authentication required",
    "data": {"authMethods": ["api-key"], "hint": "set GEMINI_API_KEY"},
}
ANSWERS = {
    "initialize": {"protocolVersion": 1, "agentCapabilities": {}},
    "session/new": {"sessionId": "s1"},
}


def main() -> None:
    """Answer requests line by line until stdin closes."""
    for line in sys.stdin:
        request = json.loads(line)
        if "id" not in request:
            continue
        reply: dict[str, object] = {"jsonrpc": "2.0", "id": request["id"]}
        if request["method"] == "session/prompt":
            reply["error"] = ERROR
        else:
            reply["result"] = ANSWERS.get(request["method"], {})
        print(json.dumps(reply), flush=True)


if __name__ == "__main__":
    main()
