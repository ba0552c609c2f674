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

from scholar_tui.core.autofeedback.dynamic import is_empty, send_request
from scholar_tui.core.autofeedback.registry import tool_apis_for
from scholar_tui.core.autofeedback.request_parser import RequestSyntaxError, parse_request
from scholar_tui.core.events import Event


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


def is_request(text: str) -> bool:
    """A single ``NAME(…)`` call, tagged or not; anything else is run as a program."""
    if "<<API>>" in text:
        return True
    try:
        parse_request(text, require_tags=False)
    except RequestSyntaxError:
        return False
    return True


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
) -> SentByHand:
    """Send ``text`` as a person wrote it; with ``log`` and ``loop_id`` it becomes the loop's human round.

    A request to a registered engine's tools (``registry``: PaSa's ``searchPapers``,
    ``expandSection``) runs against the library's search index, which needs the embedding model:
    ``embedder`` loads it, only for such a request. Anything else goes to the academic APIs.
    """
    started = time.perf_counter()
    tools = tool_apis_for(text)
    if tools is not None or is_request(text):
        if tools is not None:
            if embedder is None:
                raise ValueError(
                    f"a request to {tools.name}'s tools needs the embedder (the library search is semantic)"
                )
            call = tools.send(where, settings, text, embedder())
        else:
            from scholar_tui.core.library.apis import open_api

            call = send_request(open_api(where, settings, backend), text)
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
