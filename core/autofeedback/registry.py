"""APIs beyond the seven academic ones that AutoFeedback checks, and a person sends by hand.

An engine whose model calls its own tools names the module that defines them in ``TOOL_MODULES``
(PaSa's ``searchPapers`` and ``expandSection``: ``core.pasa.tool_requests``); that module holds
them as ``TOOL_APIS``. AutoFeedback finds them by name (``feedback check --apis pasa``) or by the
API a request calls (``send_by_hand``), importing the module when it is first asked for: no caller
has to import an engine beforehand for its requests to reach its tools instead of the academic APIs.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from scholar_tui.core.autofeedback.request_parser import RequestSyntaxError, parse_request
from scholar_tui.core.library.apis import APISpec
from scholar_tui.core.sandbox import APICall


@dataclass(frozen=True)
class ToolAPIs:
    """One engine's tools: their documentation and how one request is sent outside a run."""

    name: str
    specs: Mapping[str, APISpec]
    error_codes: Mapping[str, str]
    doc_table: str
    """The LanceDB table of their documentation chunks (the academic APIs' is the default one)."""
    send: Callable[[Any, Any, str, Any], APICall]
    """``send(where, settings, text, embedder)``: one request against this installation's library."""

    @property
    def documentation(self) -> dict[str, Any]:
        """The keyword arguments that make ``AutoFeedback`` check these tools instead of the academic APIs."""
        return {"specs": self.specs, "error_codes": self.error_codes, "doc_table": self.doc_table}


# Each engine's tools by name: the module whose ``TOOL_APIS`` they are, imported on first use.
TOOL_MODULES: dict[str, str] = {"pasa": "scholar_tui.core.pasa.tool_requests"}


def tool_apis(name: str) -> ToolAPIs:
    if name not in TOOL_MODULES:
        raise ValueError(
            f"no tools named {name!r} are known to AutoFeedback (known: {', '.join(sorted(TOOL_MODULES)) or 'none'})"
        )
    tools = importlib.import_module(TOOL_MODULES[name]).TOOL_APIS
    if not isinstance(tools, ToolAPIs) or tools.name != name:
        raise TypeError(f"{TOOL_MODULES[name]}.TOOL_APIS must be the ToolAPIs named {name!r}")
    return tools


def tool_apis_for(text: str) -> ToolAPIs | None:
    """The tools whose API the request (tagged or bare) calls; None for any other text."""
    try:
        api = parse_request(text, require_tags=False).api
    except RequestSyntaxError:
        return None
    return tool_apis_for_api(api)


def tool_apis_for_api(api: str) -> ToolAPIs | None:
    """The tools (of ``TOOL_MODULES``) that define ``api``; None for the academic APIs or an unknown name."""
    return next((tools for tools in map(tool_apis, TOOL_MODULES) if api in tools.specs), None)
