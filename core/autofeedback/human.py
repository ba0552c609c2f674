"""Human collaboration (AutoFeedback §5, threat 2): a person edits a request and sends it by hand.

When a loop runs out of rounds it waits for a person. The person reads the logged rounds, writes
a request (``<<API>>NAME(…)<</API>>`` or a bare ``NAME(…)``) or a whole program, and sends it
against the API backend in use. The hand-made request is logged as a ``human`` round of the loop;
when its response is good (no error, not empty) the loop is marked ``fixed_by_hand``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from scholar_tui.core.autofeedback.dynamic import is_empty, send_parsed, send_request
from scholar_tui.core.autofeedback.registry import ToolAPIs, tool_apis_for_api
from scholar_tui.core.autofeedback.request_parser import ParsedRequest, RequestSyntaxError, parse_request
from scholar_tui.core.events import Event
from scholar_tui.core.sandbox import APICall


@dataclass
class SentByHand(Event):
    """What a person sent (a request or a program) and what came back; with a loop, the round it became."""

    sent: str
    """"request" or "program"."""
    ok: bool
    response: Any
    error: str | None
    duration_s: float
    loop_id: int | None = None
    round: int | None = None
    loop_status: str | None = None
    kind: str = "sent_by_hand"

    def summary(self) -> str:
        if self.ok:
            verdict = "ok"
        elif self.error:
            verdict = f"not ok ({self.error})"
        else:  # an answer, but not one that fixes a loop: AutoFeedback counts an empty result as unsolved
            verdict = "answered with an empty result (not a fix)"
        text = f"{self.sent} {verdict}, {self.duration_s:.2f} s"
        if self.round is not None:
            text += f"; logged as round {self.round} of loop {self.loop_id} ({self.loop_status})"
        return text


@dataclass(frozen=True)
class Route:
    """Where a hand-written text goes, found by parsing it once: a registered engine's tools
    (``tools``), the academic APIs (``request``, None when a tagged request does not parse: it is
    still sent, and its syntax error is the answer) or, for anything else, the sandbox as a program."""

    text: str
    request: ParsedRequest | None
    tools: ToolAPIs | None

    @property
    def kind(self) -> str:
        if self.tools is not None:
            return "tools"
        return "request" if self.request is not None or "<<API>>" in self.text else "program"


def route(text: str) -> Route:
    """The one reading of a text a person sends (``feedback send``, ``feedback check --send``, F4)."""
    try:
        request: ParsedRequest | None = parse_request(text, require_tags=False)
    except RequestSyntaxError:
        request = None
    return Route(text, request, tool_apis_for_api(request.api) if request is not None else None)


def is_request(text: str) -> bool:
    """A single ``NAME(…)`` call, tagged or not; anything else is run as a program."""
    return route(text).kind != "program"


def send_routed(where, settings, routed: Route, backend: str, embedder: Callable[[], Any] | None) -> APICall:
    """A request sent where its route says (not a program: ``run_program``)."""
    if routed.tools is not None:
        if embedder is None:
            raise ValueError(
                f"a request to {routed.tools.name}'s tools needs the embedder (the library search is semantic)"
            )
        return routed.tools.send(where, settings, routed.text, embedder())
    from scholar_tui.core.library.apis import open_api

    if routed.request is None:  # a tagged request that does not parse: its syntax error is the answer
        return send_request(None, routed.text)
    return send_parsed(open_api(where, settings, backend), routed.request)


def run_program(where, source: str, backend: str = "local"):
    """Run a program against the academic APIs in the sandbox (a fresh worker, closed after)."""
    from scholar_tui.core.library.apis import SPECS
    from scholar_tui.core.library.sandbox_apis import FACTORY, sandbox_kwargs
    from scholar_tui.core.sandbox import Sandbox

    with Sandbox(FACTORY, sandbox_kwargs(where, backend), api_names=set(SPECS)) as box:
        return box.run(source)


def send_by_hand(
    where,
    settings,
    text: str,
    *,
    backend: str = "local",
    log=None,
    loop_id: int | None = None,
    embedder: Callable[[], Any] | None = None,
    routed: Route | None = None,
) -> SentByHand:
    """Send ``text`` as a person wrote it; with ``log`` and ``loop_id`` it becomes the loop's human round.

    A request to a registered engine's tools (``registry``: PaSa's ``searchPapers``,
    ``expandSection``) runs against the library's search index, which needs the embedding model:
    ``embedder`` loads it, only for such a request. Anything else goes to the academic APIs.
    ``routed``: the text's ``route``, when the caller has it already.
    """
    started = time.perf_counter()
    routed = routed or route(text)
    if routed.kind != "program":
        call = send_routed(where, settings, routed, backend, embedder)
        response = call.result if call.ok else {"error": call.error, "code": call.error_code}
        result = SentByHand(
            "request", call.ok and not is_empty(call.result), response, call.error, time.perf_counter() - started
        )
    else:
        run = run_program(where, text, backend)
        failed = next((call for call in run.calls if not call.ok), None)
        response = run.value if run.ok else {"error": run.error, "kind": run.error_kind}
        result = SentByHand(
            "program",
            run.ok and not is_empty(run.value),
            response,
            run.error or (failed.error if failed else None),
            time.perf_counter() - started,
        )
    if log is not None and loop_id is not None:
        result.loop_id = loop_id
        result.round = log.add_round(
            loop_id,
            "human",
            request=text,
            response=result.response,
            ok=result.ok,
            observation=result.error,
            duration_s=result.duration_s,
        )
        if result.ok:
            log.finish_loop(loop_id, "fixed_by_hand", final_request=text, final_response=result.response)
        result.loop_status = log.loop(loop_id)["status"]
    return result


NOTHING_FOR_A_PERSON = frozenset({"E_NOTHING_NEW"})
"""Error codes no person can fix: a PaSa search whose every hit was already queued found nothing new,
and rewording it by hand would not help the crawl either."""


def needs_person(rounds: list[dict]) -> bool:
    """Whether a loop that hit its limit waits for a person: not when every failed round only found
    nothing new (``E_NOTHING_NEW``); a loop with any other failure, or none recorded, does."""
    failed = [row for row in rounds if not row.get("ok")]
    codes = {row["response"].get("code") if isinstance(row.get("response"), dict) else None for row in failed}
    return not failed or not codes <= NOTHING_FOR_A_PERSON
