"""``AutoFeedback``: the two components over one documentation, ready for a loop or a single check."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from scholar_tui.core.autofeedback.dynamic import DynamicAnalyser, DynamicObservation
from scholar_tui.core.autofeedback.retriever import APIRetriever
from scholar_tui.core.autofeedback.static import StaticFinding, StaticScanner
from scholar_tui.core.library.apis import ERROR_CODES, SPECS, APISpec
from scholar_tui.core.sandbox import APICall, SandboxResult


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


def open_autofeedback(where, settings, embedder, *, source: str, **documentation):
    """A loop with this installation's limits and log; ``documentation`` as for ``from_settings``."""
    from scholar_tui.core.autofeedback.loop import FeedbackLimits, FeedbackLoop
    from scholar_tui.indexes.autofeedback_log import FeedbackLog

    return FeedbackLoop(
        AutoFeedback.from_settings(where, settings, embedder, **documentation),
        FeedbackLimits.from_settings(settings),
        log=FeedbackLog(where),
        source=source,
    )
