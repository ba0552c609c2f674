"""APIs beyond the seven academic ones that AutoFeedback checks, and a person sends by hand.

An engine whose model calls its own tools registers them here once, where the tools are defined
(PaSa's ``searchPapers`` and ``expandSection``: ``core.pasa.tool_requests``). AutoFeedback finds
them by name (``feedback check --apis pasa``) or by the API a request calls (``send_by_hand``)
without importing the engine; whoever sends by hand imports the engine first so it has registered.
"""

from __future__ import annotations

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


_REGISTERED: dict[str, ToolAPIs] = {}


def register_tool_apis(tools: ToolAPIs) -> None:
    _REGISTERED[tools.name] = tools


def tool_apis(name: str) -> ToolAPIs:
    if name not in _REGISTERED:
        raise ValueError(
            f"no tools named {name!r} are registered with AutoFeedback "
            f"(registered: {', '.join(sorted(_REGISTERED)) or 'none'})"
        )
    return _REGISTERED[name]


def tool_apis_for(text: str) -> ToolAPIs | None:
    """The registered tools whose API the request (tagged or bare) calls; None for any other text."""
    try:
        api = parse_request(text, require_tags=False).api
    except RequestSyntaxError:
        return None
    return tool_apis_for_api(api)


def tool_apis_for_api(api: str) -> ToolAPIs | None:
    """The registered tools that define ``api``; None for the academic APIs or an unknown name."""
    return next((tools for tools in _REGISTERED.values() if api in tools.specs), None)
