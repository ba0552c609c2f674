"""``AutoFeedback``: the two components over one documentation, ready for a loop or a single check."""

from __future__ import annotations

import threading
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from scholar_tui.core.autofeedback.dynamic import DynamicAnalyser, DynamicObservation
from scholar_tui.core.autofeedback.human import SentByHand, route, run_program, send_by_hand, send_routed
from scholar_tui.core.autofeedback.loop import FeedbackLimits, FeedbackLoop
from scholar_tui.core.autofeedback.retriever import APIRetriever
from scholar_tui.core.autofeedback.static import StaticFinding, StaticScanner
from scholar_tui.core.events import Event, cancelled
from scholar_tui.core.library.apis import ERROR_CODES, SPECS, APISpec
from scholar_tui.core.sandbox import APICall, SandboxResult

if TYPE_CHECKING:
    from scholar_tui.core.services import Services


class AutoFeedback:
    """SSC and DAC sharing one embedder (the API retriever and the document index).

    Nothing loads until it is needed: E1, E2.2, E3.1, E3.2 and E4.1 are found without the
    embedder; the relevant set, E2.3/E3.3 and document retrieval load it on first use.
    """

    def __init__(
        self,
        where,
        embedder,
        *,
        threshold: float = 0.5,
        specs: Mapping[str, APISpec] = SPECS,
        error_codes: Mapping[str, str] = ERROR_CODES,
        doc_table: str | None = None,
    ) -> None:
        self.where = where
        self.embedder = embedder
        self.retriever = APIRetriever(embedder, specs)
        self.scanner = StaticScanner(self.retriever, specs, threshold=threshold)
        self.analyser = DynamicAnalyser(where, embedder, specs, error_codes, doc_table=doc_table)

    @classmethod
    def from_settings(cls, where, settings, embedder, **documentation) -> "AutoFeedback":
        """``documentation``: ``specs``, ``error_codes`` and ``doc_table`` of APIs other than the academic ones."""
        return cls(where, embedder, threshold=settings.autofeedback.similarity_threshold, **documentation)

    def scan_request(self, text: str, instruction: str, relevant: Sequence[str] | None = None) -> StaticFinding | None:
        return self.scanner.scan_request(text, instruction, relevant)

    def scan_program(self, source: str, instruction: str, relevant: Sequence[str] | None = None) -> list[StaticFinding]:
        return self.scanner.scan_program(source, instruction, relevant)

    def analyse_response(self, call: APICall, instruction: str = "") -> DynamicObservation:
        return self.analyser.analyse_response(call, instruction)

    def analyse_program(self, result: SandboxResult, instruction: str = "") -> DynamicObservation:
        return self.analyser.analyse_program(result, instruction)


@dataclass
class Checked(Event):
    """``feedback check``: the static findings on a text and, when it was sent, DAC's observation."""

    findings: list[StaticFinding]
    observation: DynamicObservation | None = None
    kind: str = "checked"

    def summary(self) -> str:
        found = ", ".join(finding.sub_type for finding in self.findings) or "no static error"
        if self.observation is None:
            return found
        state = "satisfied" if self.observation.satisfied else f"not satisfied: {self.observation.reason}"
        return f"{found}; sent: {state}"

    def to_json(self) -> dict:
        return {
            "findings": [finding.as_dict() for finding in self.findings],
            "observation": self.observation.as_dict() if self.observation else None,
        }


class AutoFeedbackEngine(FeedbackLoop):
    """The loop (``events``/``run``, what SoAy and PaSa drive) and the requests a person makes:
    ``send`` (``feedback send``, the API debugger) and ``check`` (``feedback check``), both routed
    by one reading of the text (``human.route``). It closes its log's connection.

    ``feedback`` (the ``AutoFeedback``) is built on first use with the services' embedder: a request
    sent by hand to the academic APIs needs no embedding model, so none is loaded for it.
    """

    def __init__(self, services: Services, limits: FeedbackLimits, *, source: str, documentation: dict) -> None:
        from scholar_tui.indexes.autofeedback_log import FeedbackLog

        self.services = services
        self._documentation = documentation
        self._feedback: AutoFeedback | None = None
        log = FeedbackLog(services.where)
        super().__init__(None, limits, log, source=source)
        self.owns(log.close)

    @property
    def feedback(self) -> AutoFeedback:
        if self._feedback is None:
            services = self.services
            self._feedback = AutoFeedback.from_settings(
                services.where, services.settings, services.embedder(), **self._documentation
            )
        feedback = self._feedback
        assert feedback is not None  # just made above
        return feedback

    @feedback.setter
    def feedback(self, value: AutoFeedback | None) -> None:
        self._feedback = value

    def send(
        self,
        text: str,
        *,
        backend: str = "local",
        loop_id: int | None = None,
        cancel: threading.Event | None = None,
    ) -> Iterator[SentByHand]:
        """Send ``text`` by hand (a request or a program); with ``loop_id`` it is that loop's human round."""
        if cancelled(cancel):
            return
        services = self.services
        yield send_by_hand(
            services.where,
            services.settings,
            text,
            backend=backend,
            log=self.log,
            loop_id=loop_id,
            embedder=services.embedder,
            routed=route(text),
        )

    def check(
        self,
        text: str,
        instruction: str,
        *,
        program: bool = False,
        send: bool = False,
        backend: str = "local",
        cancel: threading.Event | None = None,
    ) -> Iterator[Checked]:
        """Scan ``text`` statically; with ``send``, send it where ``send`` would and analyse the response."""
        feedback = self.feedback
        findings = feedback.scan_program(text, instruction) if program else []
        if not program:
            finding = feedback.scan_request(text, instruction)
            findings = [finding] if finding else []
        observation = None
        if send and not cancelled(cancel):
            services = self.services
            if program:
                observation = feedback.analyse_program(run_program(services.where, text, backend), instruction)
            else:
                routed = route(text)
                call = send_routed(services.where, services.settings, routed, backend, services.embedder)
                observation = feedback.analyse_response(call, instruction)
        yield Checked(findings, observation)


def open_autofeedback(services: Services, *, source: str = "api", **documentation) -> AutoFeedbackEngine:
    """AutoFeedback with this installation's limits and log and the embedder of ``services``;
    ``documentation`` as for ``AutoFeedback.from_settings`` (another engine's tools:
    ``registry.tool_apis(name).documentation``). Loops are logged under ``source``."""
    limits = FeedbackLimits.from_settings(services.settings)
    return AutoFeedbackEngine(services, limits, source=source, documentation=documentation)
