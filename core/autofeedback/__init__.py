"""AutoFeedback: static and dynamic feedback on every API request a model makes (issue #5).

After *AutoFeedback: An LLM-based Framework for Efficient and Accurate API Request Generation*
(the seed paper; sections cited in each module). Two components and two loops:

* the Static Scanning Component (``static``, ``retriever``, ``templates``) finds the first error of
  a request locally — E1 NO_API, E2 API_NAME_MISMATCH (E2.1/E2.2/E2.3), E3 PARAMETER_INVALID
  (E3.1/E3.2/E3.3), E4.1 type errors — returns what the paper's Table 2 returns, and words a
  five-part static feedback;
* the Dynamic Analysis Component (``docs``, ``dynamic``; the chunk index lives in
  ``indexes.autofeedback_docs``) explains a failed or unsatisfying response with the error's
  meaning retrieved from the API documentation, as the observation of a ReAct step;
* ``loop.FeedbackLoop`` runs both under limits (3 static, 2 dynamic: ``[autofeedback]`` settings)
  and logs every round (``indexes.autofeedback_log``); a loop that runs out is ``limit_hit`` and
  waits for a person in the API debugger tab (``human.send_by_hand``);
* ``request_parser`` reads ``<<API>>NAME(…)<</API>>`` requests and a program's calls;
  ``request_generator`` is the grammar-constrained model that writes them (the bench's).

Other APIs plug in with their own documentation: ``registry.TOOL_MODULES`` names the module that
holds an engine's tools (PaSa's two in ``core.pasa.tool_requests``), and AutoFeedback checks them
with ``AutoFeedback(..., **tool_apis("pasa").documentation)``; ``send_by_hand`` finds them by the
API a request calls, importing that module on first use.

The contract for callers (SoAy, PaSa, the CLI, the debugger), the engine shape of ``core.events``::

    from scholar_tui.core.autofeedback import AutoFeedback, open_autofeedback

    af = AutoFeedback.from_settings(where, settings, embedder)      # embedder: services.embedder()

    # single checks
    af.scan_request('<<API>>getCoauthors(name="Ada")<</API>>', instruction)  # -> StaticFinding | None
    af.scan_program(program_source, instruction, relevant=None)              # -> list[StaticFinding]
    af.analyse_response(api_call, instruction)                               # -> DynamicObservation
    af.analyse_program(sandbox_result, instruction)                          # -> DynamicObservation

    # the engine: this installation's limits and log (every round committed to SQLite as it ends);
    # a context manager that closes its log's connection
    loop = open_autofeedback(services, source="soay")      # services: core.services.Services
    result = yield from loop.events(
        instruction,
        generate=lambda history: ...,   # list[FeedbackRecord] -> str | Generation (request or program)
        execute=lambda text: ...,       # the request -> sandbox APICall; a program -> SandboxResult
        mode="request" | "program",
        relevant=None,                  # programs: the solution's APIs (else the retriever's top-1)
        accept=None,                    # (response, observation) -> bool; default: no error, not empty
        cancel=None,                    # a threading.Event: set, no more generations nor sends
    )                                   # streams core.events.FeedbackRound per round, then FeedbackFinished
    result = loop.run(...)              # the same loop, driven to its LoopResult (no events shown)
    result.status        # "solved" | "limit_hit" (then listed in the API debugger) | "cancelled"
    result.final_request, result.final_response (the APICall / SandboxResult), result.final_observation,
    result.rounds, result.loop_id

    # a person's requests, routed by one reading of the text (``human.route``: PaSa's tools, the
    # academic APIs or a program): the API debugger and ``feedback send`` / ``feedback check``
    loop.send(text, backend="local", loop_id=loop_id, cancel=None)        # yields one SentByHand
    loop.check(text, instruction, program=False, send=False, cancel=None) # yields one Checked

``history[-1].feedback`` is the text to put in the model's next prompt: the static feedback, or
after a failed run the ReAct trace (Thought / Action / Observation) and the ask to regenerate.
``FeedbackRecord.finding`` / ``.observation`` carry the structured values.

``StaticFinding``: ``sub_type`` ("E1", "E2.1" … "E2.other", "E3.1" … "E3.other", "E4.1"),
``error_type``, ``returns`` (Table 2), ``api``, ``parameter``, ``line`` (programs), ``detail``,
``feedback``. ``DynamicObservation``: ``ok``, ``satisfied``, ``reason``, ``error_code``,
``response``, ``meaning`` (the retrieved documentation chunk), ``observation``.
"""

from __future__ import annotations

from scholar_tui.core.autofeedback.dynamic import DynamicAnalyser, DynamicObservation, ReActStep, send_request
from scholar_tui.core.autofeedback.engine import AutoFeedback, AutoFeedbackEngine, Checked, open_autofeedback
from scholar_tui.core.autofeedback.loop import (
    FeedbackLimits,
    FeedbackLoop,
    FeedbackRecord,
    Generation,
    LoopResult,
    Round,
)
from scholar_tui.core.autofeedback.request_parser import (
    ParsedRequest,
    RequestSyntaxError,
    format_request,
    parse_request,
    program_calls,
)
from scholar_tui.core.autofeedback.retriever import APIRetriever
from scholar_tui.core.autofeedback.static import StaticFinding, StaticScanner
from scholar_tui.core.autofeedback.taxonomy import ERROR_TYPES, STATIC_SUB_TYPES, SUB_TYPES

__all__ = [
    "APIRetriever",
    "AutoFeedback",
    "AutoFeedbackEngine",
    "Checked",
    "DynamicAnalyser",
    "DynamicObservation",
    "ERROR_TYPES",
    "FeedbackLimits",
    "FeedbackLoop",
    "FeedbackRecord",
    "Generation",
    "LoopResult",
    "ParsedRequest",
    "ReActStep",
    "RequestSyntaxError",
    "Round",
    "STATIC_SUB_TYPES",
    "SUB_TYPES",
    "StaticFinding",
    "StaticScanner",
    "format_request",
    "open_autofeedback",
    "parse_request",
    "program_calls",
    "send_request",
]
