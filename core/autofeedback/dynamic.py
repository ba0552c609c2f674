"""The Dynamic Analysis Component (AutoFeedback §3.3): the response, explained from the docs.

Many APIs answer a bad request with little more than a code. After a request runs, DAC assesses
the response; when it failed (an error) or is unsatisfying (an empty result: nothing the user
asked for), it retrieves the error's meaning from the documentation — the chunks of that API in
LanceDB, nearest to a query made of the error code and message — and joins it with the response:
that is the observation of a ReAct step, whose action is the request (§3.3.2, Algorithm 1).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from scholar_tui.core.autofeedback.docs import ANY_API, api_documentation, fingerprint, semantic_chunks
from scholar_tui.core.autofeedback.request_parser import (
    ParsedRequest,
    RequestSyntaxError,
    call_arguments,
    format_request,
    parse_request,
)
from scholar_tui.core.library.apis import ERROR_CODES, SPECS, APIError, APISpec

if TYPE_CHECKING:  # the documentation index (LanceDB) is opened when first needed
    from scholar_tui.indexes.autofeedback_docs import DocIndex
from scholar_tui.core.sandbox import APICall, SandboxResult

RESPONSE_CHARS = 300


@dataclass
class ReActStep:
    """One record of the dynamic loop: the thought that led to the action, the action, what came back."""

    action: str
    observation: str
    thought: str | None = None


@dataclass
class DynamicObservation:
    request: str
    """The action: the request (or the program's failing call) as sent."""
    api: str | None
    ok: bool
    """The call ran without an error."""
    satisfied: bool
    """Ok and not empty: nothing left for dynamic feedback to say."""
    reason: str = ""
    error_code: str | None = None
    error: str | None = None
    response: Any = None
    meaning: str | None = None
    """The error's meaning retrieved from the API documentation."""
    meaning_section: str | None = None
    meaning_score: float | None = None
    observation: str = ""
    retrieval_s: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def is_empty(value: Any) -> bool:
    return value is None or (isinstance(value, (list, dict, str, tuple)) and len(value) == 0)


def summarise(value: Any, limit: int = RESPONSE_CHARS) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def send_request(api, text: str) -> APICall:
    """Run one ``<<API>>NAME(…)<</API>>`` request (or a bare ``NAME(…)``) on an AcademicAPI.

    Never raises for a bad request: the APICall says what went wrong, as the sandbox records it.
    """
    try:
        request = parse_request(text, require_tags=False)
    except RequestSyntaxError as error:
        return APICall(name="", arguments={}, ok=False, error=str(error), error_code=None)
    return send_parsed(api, request)


def send_parsed(api, request: ParsedRequest) -> APICall:
    """``send_request`` for a request parsed already (``human.route``: a text is parsed once)."""
    started = time.perf_counter()
    spec = SPECS.get(request.api)
    names = [p.name for p in spec.parameters] if spec else None
    unreadable = [a.source for a in request.arguments if not a.literal]
    arguments = request.literal_kwargs(names)
    if unreadable:
        return APICall(
            name=request.api,
            arguments=arguments,
            ok=False,
            error_code="E_BAD_ARGUMENT",
            error=f"E_BAD_ARGUMENT: {', '.join(unreadable)} is not a literal value",
        )
    positional = [a.value for a in request.positional]
    keywords = {name: a.value for name, a in request.keywords.items()}
    try:
        result = api.call(request.api, *positional, **keywords)
    except APIError as error:
        return APICall(
            name=request.api,
            arguments=arguments,
            ok=False,
            error=str(error),
            error_code=error.code,
            duration_s=time.perf_counter() - started,
        )
    except Exception as error:
        return APICall(
            name=request.api,
            arguments=arguments,
            ok=False,
            error=f"{type(error).__name__}: {error}",
            duration_s=time.perf_counter() - started,
        )
    return APICall(
        name=request.api, arguments=arguments, ok=True, result=result, duration_s=time.perf_counter() - started
    )


class DynamicAnalyser:
    """DAC over one documentation, with the chunk index in this installation's LanceDB."""

    def __init__(
        self,
        where,
        embedder,
        specs: Mapping[str, APISpec] = SPECS,
        error_codes: Mapping[str, str] = ERROR_CODES,
        *,
        doc_table: str | None = None,
    ) -> None:
        self.where = where
        self.doc_table = doc_table  # None: the academic APIs' table
        self.embedder = embedder
        self.specs = dict(specs)
        self.error_codes = dict(error_codes)
        self._index: DocIndex | None = None
        self._lock = threading.Lock()

    # -- the index -----------------------------------------------------------------------------
    def index(self):
        """The documentation's chunk index, built (or rebuilt, when the docs changed) on first use."""
        from scholar_tui.indexes.autofeedback_docs import TABLE, DocIndex

        with self._lock:
            if self._index is None:
                index = DocIndex(self.where, self.doc_table or TABLE)
                paragraphs = api_documentation(self.specs, self.error_codes)
                wanted = fingerprint(paragraphs, getattr(self.embedder, "name", type(self.embedder).__name__))
                if index.fingerprint() != wanted:
                    chunks = semantic_chunks(paragraphs, self.embedder)
                    index.write(chunks, self.embedder.embed([chunk.text for chunk in chunks]), wanted)
                self._index = index
            return self._index

    def retrieve(self, api: str | None, query: str, k: int = 1):
        """The chunks of ``api``'s documentation (and the shared ones) nearest to ``query``."""
        apis = [api, ANY_API] if api in self.specs else [ANY_API]
        return self.index().search(apis, self.embedder.embed([query])[0], k=k)

    # -- assessment ----------------------------------------------------------------------------
    def analyse_response(self, call: APICall, instruction: str = "") -> DynamicObservation:
        """Assess one executed call; for a failed or empty one, retrieve what the docs say about it."""
        spec = self.specs.get(call.name)
        names = [p.name for p in spec.parameters] if spec else None
        request = format_request(call.name, call_arguments(call.arguments, names), tags=False) if call.name else ""
        if call.ok and not is_empty(call.result):
            return DynamicObservation(
                request, call.name, True, True, response=call.result, observation=f"Response: {summarise(call.result)}"
            )
        if call.ok:
            reason = (
                f"{call.name} returned an empty result ({summarise(call.result)}): nothing matches the values given"
            )
            query = f"{call.name} returns an empty list: nothing matches the values given"
            response: Any = call.result
        else:
            reason = f"{call.name or 'the request'} failed: {call.error}"
            query = f"{call.error_code or ''} {call.error or ''}".strip()
            response = {"error": call.error, "code": call.error_code}
        started = time.perf_counter()
        hits = self.retrieve(call.name, query, k=5) if call.name or call.error_code else []
        if call.error_code:  # a known code: the chunk that explains that very code comes first
            hits.sort(key=lambda hit: call.error_code not in hit.text)
        elapsed = time.perf_counter() - started
        hit = hits[0] if hits else None
        observation = f"Response: {summarise(response)}."
        if hit is not None:
            observation += f" Documentation: {hit.text}"
        return DynamicObservation(
            request,
            call.name or None,
            call.ok,
            False,
            reason=reason,
            error_code=call.error_code,
            error=call.error,
            response=response,
            meaning=hit.text if hit else None,
            meaning_section=hit.section if hit else None,
            meaning_score=hit.score if hit else None,
            observation=observation,
            retrieval_s=elapsed,
        )

    def analyse_program(self, result: SandboxResult, instruction: str = "") -> DynamicObservation:
        """Assess a program's run: its first failed API call, else its last empty one, else its answer."""
        failed = next((call for call in result.calls if not call.ok), None)
        if failed is not None:
            return self.analyse_response(failed, instruction)
        if not result.ok:
            last = result.calls[-1] if result.calls else None
            empty = next((call for call in reversed(result.calls) if is_empty(call.result)), None)
            if empty is not None:  # an empty result is the usual reason for an IndexError that follows
                observation = self.analyse_response(empty, instruction)
                observation.reason = f"the program failed ({result.error}) after {observation.reason}"
                observation.observation = f"Program error: {result.error}. " + observation.observation
                return observation
            hits = self.retrieve(last.name if last else None, result.error or "") if last else []
            hit = hits[0] if hits else None
            text = f"Program error: {result.error}."
            if hit is not None:
                text += f" Documentation: {hit.text}"
            return DynamicObservation(
                "",
                last.name if last else None,
                False,
                False,
                reason=f"the program failed: {result.error}",
                error=result.error,
                response={"error": result.error, "kind": result.error_kind},
                meaning=hit.text if hit else None,
                meaning_section=hit.section if hit else None,
                meaning_score=hit.score if hit else None,
                observation=text,
            )
        if is_empty(result.value):
            last = result.calls[-1] if result.calls else None
            if last is not None and is_empty(last.result):
                return self.analyse_response(last, instruction)
            return DynamicObservation(
                "",
                last.name if last else None,
                True,
                False,
                reason="the program's answer is empty",
                response=result.value,
                observation=f"Program answer: {summarise(result.value)} (empty).",
            )
        return DynamicObservation(
            "",
            result.calls[-1].name if result.calls else None,
            True,
            True,
            response=result.value,
            observation=f"Program answer: {summarise(result.value)}",
        )
