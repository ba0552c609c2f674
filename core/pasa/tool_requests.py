"""The Crawler's tool calls as API requests, so that AutoFeedback can check and retry them (issue #5).

Each [Search] and [Expand] action becomes a request, ``searchPapers(query=…)`` or
``expandSection(paper_id="paper:12", section="2 Related Work")``, described by ``TOOL_SPECS``
as the academic APIs are by ``library.apis.SPECS``: the static scan checks the request against
these specs, and the Dynamic Analysis Component retrieves an error's meaning from the
documentation below (embedded in its own LanceDB table, ``DOC_TABLE``).

A call that runs but adds nothing to the crawl is an error a Crawler can act on: a search whose
every hit is already queued (``E_NOTHING_NEW``) should be reworded, a section that cites nothing
the library knows (``E_NO_CITATIONS``) should give way to another. ``ToolExecutor`` runs the
requests for one crawl and reports each as an ``APICall``, as the sandbox reports a program's
calls; ``send_tool_request`` runs one for a person in the API debugger.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from scholar_tui.core.autofeedback.registry import ToolAPIs
from scholar_tui.core.autofeedback.request_parser import RequestSyntaxError, format_request, parse_request
from scholar_tui.core.library.apis import APISpec, Parameter, ReturnField
from scholar_tui.core.pasa.tools import LibraryTools, ToolResult
from scholar_tui.core.sandbox import APICall

SEARCH_API = "searchPapers"
EXPAND_API = "expandSection"
DOC_TABLE = "autofeedback_docs_pasa"

# One sentence each: the documentation is chunked by sentence, and the advice must stay with its code.
TOOL_ERROR_CODES: dict[str, str] = {
    "E_BAD_ARGUMENT": (
        "A parameter is missing, unknown or empty, or paper_id does not look like paper:12, so fix the request "
        "instead of sending it again as is."
    ),
    "E_NOT_FOUND": (
        "paper_id names no paper in the library, so take the id of a paper that a search or an expansion queued."
    ),
    "E_NO_SUCH_SECTION": (
        "The paper has no section of this name, so copy a name from the sections the message lists, number "
        "included ('2 Related Work')."
    ),
    "E_NO_CITATIONS": (
        "The section cites no paper that the library can resolve, so expand another section of the paper, "
        "usually the related work or the introduction."
    ),
    "E_NOTHING_NEW": (
        "Every paper the call found is already in the paper queue, so search with a different wording (other key "
        "phrases of the query, a broader or a narrower term) or expand another section."
    ),
}

FOUND = ReturnField(
    "papers",
    "list[object]",
    "The papers the call added to the queue, in the order the tool found them.",
    False,
    ("paper_id", "title", "date"),
)

TOOL_SPECS: dict[str, APISpec] = {
    spec.name: spec
    for spec in (
        APISpec(
            SEARCH_API,
            "Search the paper library (and arXiv/OpenAlex when online) for papers published before the query date; "
            "the papers it finds go into the paper queue. Use it to find papers on the user's topic.",
            (
                Parameter(
                    "query",
                    "string",
                    True,
                    "A short search query made of the topic's key phrases.",
                    "graph neural networks",
                ),
            ),
            "list[object]",
            (FOUND,),
            ("E_BAD_ARGUMENT", "E_NOTHING_NEW"),
            example=f'{SEARCH_API}(query="graph neural networks")',
        ),
        APISpec(
            EXPAND_API,
            "Queue the papers cited in one section of a paper already in the queue. Use it to follow a paper's "
            "related work to the papers it cites.",
            (
                Parameter(
                    "paper_id", "string", True, "The queued paper whose section is expanded ('paper:12').", "paper:12"
                ),
                Parameter(
                    "section", "string", True, "The section's name exactly as in the paper's outline.", "2 Related Work"
                ),
            ),
            "list[object]",
            (FOUND,),
            ("E_BAD_ARGUMENT", "E_NOT_FOUND", "E_NO_SUCH_SECTION", "E_NO_CITATIONS", "E_NOTHING_NEW"),
            example=f'{EXPAND_API}(paper_id="paper:12", section="2 Related Work")',
        ),
    )
}


# What AutoFeedback needs to check these tools instead of the academic APIs (``AutoFeedback(**…)``).
DOCUMENTATION = {"specs": TOOL_SPECS, "error_codes": TOOL_ERROR_CODES, "doc_table": DOC_TABLE}


def search_request(query: str) -> str:
    return format_request(SEARCH_API, {"query": query})


def expand_request(paper_id: int, section: str) -> str:
    return format_request(EXPAND_API, {"paper_id": f"paper:{paper_id}", "section": section})


class ToolRequestError(Exception):
    def __init__(self, code: str, message: str) -> None:
        assert code in TOOL_ERROR_CODES, code
        super().__init__(f"{code}: {message}")
        self.code = code


@dataclass
class ToolAttempt:
    """One request sent: the call as AutoFeedback sees it, and what the tool returned (for the queue)."""

    request: str
    call: APICall
    action: str  # "Search" | "Expand"
    argument: str  # the query or the section name
    result: ToolResult | None = None


def _paper_id(value: Any) -> int:
    text = str(value or "").strip()
    number = text.removeprefix("paper:")
    if not number.isdigit():
        raise ToolRequestError("E_BAD_ARGUMENT", f"paper_id must look like paper:12, not {text!r}")
    return int(number)


@dataclass
class ToolExecutor:
    """Sends the Crawler's requests for one crawl; ``known`` holds the ids already queued."""

    tools: LibraryTools
    date: str | None = None
    known: set[int] = field(default_factory=set)
    attempts: list[ToolAttempt] = field(default_factory=list)

    def send(self, text: str) -> ToolAttempt:
        started = time.perf_counter()
        action, argument, arguments, result = "", "", {}, None
        try:
            request = parse_request(text, require_tags=False)
            arguments = {name: a.value for name, a in request.keywords.items()}
            # named before it runs: a retry that fails still shows what it tried
            action = {SEARCH_API: "Search", EXPAND_API: "Expand"}.get(request.api, "")
            argument = " ".join(str(arguments.get("query" if action == "Search" else "section") or "").split())
            result = self._run(request.api, request.positional, arguments)
            fresh = [paper_id for paper_id in result.paper_ids if paper_id not in self.known]
            self.known.update(fresh)  # a retry must find what this attempt did not
            rows = self.tools.library.papers(fresh)
            papers = [
                {"paper_id": f"paper:{paper_id}", "title": rows[paper_id]["title"], "date": rows[paper_id]["date"]}
                for paper_id in fresh
                if paper_id in rows
            ]
            if result.paper_ids and not papers:
                found = len(result.paper_ids)
                raise ToolRequestError(
                    "E_NOTHING_NEW",
                    "the one paper it found is already queued"
                    if found == 1
                    else f"all {found} papers it found are already queued",
                )
            call = APICall(
                name=request.api, arguments=arguments, ok=True, result=papers, duration_s=time.perf_counter() - started
            )
        except RequestSyntaxError as error:
            call = APICall(name="", arguments={}, ok=False, error=str(error), error_code=None)
        except ToolRequestError as error:
            call = APICall(
                name=request.api,
                arguments=arguments,
                ok=False,
                error=str(error),
                error_code=error.code,
                duration_s=time.perf_counter() - started,
            )
        attempt = ToolAttempt(text, call, action, argument, result)  # an E_NOTHING_NEW keeps its duplicates
        self.attempts.append(attempt)
        return attempt

    def _run(self, api: str, positional, arguments: dict[str, Any]) -> ToolResult:
        spec = TOOL_SPECS.get(api)
        if spec is None:
            raise ToolRequestError("E_BAD_ARGUMENT", f"no tool named {api!r}; the tools are {', '.join(TOOL_SPECS)}")
        if positional:
            raise ToolRequestError("E_BAD_ARGUMENT", "pass the arguments by name")
        names = {parameter.name for parameter in spec.parameters}
        unknown = sorted(set(arguments) - names)
        if unknown:
            raise ToolRequestError("E_BAD_ARGUMENT", f"{api} has no parameter {unknown[0]!r}")
        for parameter in spec.parameters:
            value = arguments.get(parameter.name)
            if not isinstance(value, str) or not value.strip():
                raise ToolRequestError("E_BAD_ARGUMENT", f"{parameter.name} must be a non-empty string")
        if api == SEARCH_API:
            return self.tools.search(" ".join(arguments["query"].split()), self.date)
        paper_id, section = _paper_id(arguments["paper_id"]), arguments["section"].strip()
        try:
            outline = self.tools.outline(paper_id)
        except KeyError:
            raise ToolRequestError("E_NOT_FOUND", f"no paper:{paper_id} in the library") from None
        if section not in outline.section_ids:
            listed = "; ".join(outline.expandable[:12]) or "none"
            raise ToolRequestError(
                "E_NO_SUCH_SECTION",
                f"paper:{paper_id} has no section {section!r}; sections that cite something: {listed}",
            )
        result = self.tools.expand(paper_id, outline, section)
        if not result.paper_ids:
            raise ToolRequestError(
                "E_NO_CITATIONS", f"{section!r} of paper:{paper_id} cites no paper the library resolves"
            )
        return result


def send_tool_request(where, settings, text: str, embedder) -> APICall:
    """One request sent by a person, against the library alone (nothing is queued: no crawl runs)."""
    from scholar_tui.indexes.library import Library

    library = Library.open(where)
    try:
        executor = ToolExecutor(LibraryTools(where, library, embedder))
        return executor.send(text).call
    finally:
        library.close()


# What ``registry.tool_apis("pasa")`` returns: the registry names this module and reads this.
TOOL_APIS = ToolAPIs("pasa", TOOL_SPECS, TOOL_ERROR_CODES, DOC_TABLE, send_tool_request)
