"""A notebook as Jupyter writes it, with an image among its outputs: for the read and edit
tools' tests and the web client's notebook card."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

__all__ = ["PNG", "notebook"]

PNG = (
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5E"
    "rkJggg=="
)
"""A one-pixel PNG, base64 as a notebook keeps it."""


def notebook(path: Path) -> dict[str, Any]:
    """Write a two-cell notebook to `path` as Jupyter does (Markdown, then code whose outputs
    are a stream and a PNG); the data written."""
    data: dict[str, Any] = {
        "cells": [
            {"cell_type": "markdown", "id": "intro", "metadata": {}, "source": ["# Sales\n"]},
            {
                "cell_type": "code",
                "execution_count": 1,
                "id": "load",
                "metadata": {},
                "outputs": [
                    {"name": "stdout", "output_type": "stream", "text": ["rows: 3\n"]},
                    {
                        "data": {"image/png": PNG, "text/plain": ["<Figure>"]},
                        "metadata": {},
                        "output_type": "display_data",
                    },
                ],
                "source": ["print('rows:', 3)\n", "plot()"],
            },
        ],
        "metadata": {"language_info": {"name": "python"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    path.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    return data
