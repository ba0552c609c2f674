"""SoAy's stream: the typed events of one question (``core.events``' shape) and the answer they end with.

``SoAyEngine.run`` yields them in order (entities, the plan, the program, its run, AutoFeedback's rounds,
the answer or the sentence saying what the library lacks) and always ends with ``Finished``, which holds
the whole ``SoAyAnswer``; the CLI, the Scholar Q&A tab, the history and the benchmarks read them.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from typing import Any

from scholar_tui.core.events import Event, FeedbackFinished, FeedbackRound, counted
from scholar_tui.core.sandbox import SandboxResult
from scholar_tui.core.soay.entities import Mention


@dataclass
class EntityLinked(Event):
    mention: Mention
    kind: str = "entity_linked"

    def summary(self) -> str:
        return f"entity: {self.mention.text} ({self.mention.kind} “{self.mention.matched}”)"


@dataclass
class SolutionChosen(Event):
    intent: str
    solution: list[str]
    hops: int
    mode: str
    candidates: list[tuple[str, float]]
    probabilities: dict[str, float] = field(default_factory=dict)
    asked: str = "text"
    description: str = ""
    kind: str = "solution_chosen"

    def summary(self) -> str:
        return (
            f"solution: {' → '.join(self.solution)} ({counted(self.hops, 'hop')}, asks for a {self.asked}, "
            f"chosen by {self.mode}) · {self.description}"
        )


@dataclass
class ProgramWritten(Event):
    source: str
    mode: str
    kind: str = "program_written"

    def summary(self) -> str:
        lines = len(self.source.splitlines())
        return f"program ({self.mode}, {counted(lines, 'line')})"


@dataclass
class ProgramRan(Event):
    result: SandboxResult
    kind: str = "program_ran"

    def summary(self) -> str:
        calls = ", ".join(call.name for call in self.result.calls) or "none"
        if self.result.ok:
            value = json.dumps(self.result.value, ensure_ascii=False, default=str)
            return f"result: {value if len(value) <= 200 else value[:199] + '…'} · API calls: {calls}"
        return f"the program failed ({self.result.error_kind}): {self.result.error} · API calls: {calls}"


@dataclass
class AnswerPhrased(Event):
    """The program's value, phrased (``value`` as the program returned it), with the calls it came from."""

    text: str
    value: Any
    sources: list[str] = field(default_factory=list)
    kind: str = "answer_phrased"

    def summary(self) -> str:
        cited = f" (from {'; '.join(self.sources)})" if self.sources else ""
        return f"answer: {self.text}{cited}"


@dataclass
class Abstained(Event):
    """The library holds no value of the kind asked: said in one sentence, never a value of another kind."""

    text: str
    reason: str  # "missing" (null or empty) or "wrong kind" (a value that does not answer the question)
    sources: list[str] = field(default_factory=list)
    kind: str = "abstained"

    def summary(self) -> str:
        return f"answer: {self.text}"


@dataclass
class Failed(Event):
    stage: str
    message: str
    kind: str = "failed"

    def summary(self) -> str:
        return f"{self.stage}: {self.message}"


@dataclass
class Finished(Event):
    """The last event of every run: the whole answer (``--json`` prints it)."""

    answer: "SoAyAnswer"
    kind: str = "finished"

    def summary(self) -> str:
        total = self.answer.timings_ms.get("total", 0)
        said = "said what the library lacks" if self.answer.abstained else "answered"
        return f"{said if self.answer.ok else 'no answer'} in {total:.0f} ms"

    def to_json(self) -> dict:
        return {"kind": self.kind, **self.answer.as_dict()}


SoAyEvent = (
    EntityLinked
    | SolutionChosen
    | ProgramWritten
    | ProgramRan
    | FeedbackRound
    | FeedbackFinished
    | AnswerPhrased
    | Abstained
    | Failed
    | Finished
)


@dataclass
class SoAyAnswer:
    question: str
    ok: bool = False
    entity: str | None = None
    entity_kind: str | None = None
    intent: str | None = None
    solution: list[str] = field(default_factory=list)
    choice_mode: str | None = None
    program: str | None = None
    code_mode: str | None = None
    result: dict[str, Any] | None = None
    value: Any = None
    answer: str | None = None
    abstained: bool = False
    """The answer is the plain sentence saying what the library lacks (``answer``); ``value`` is then None."""
    asked: str | None = None
    """The kind of answer the question asks for (``core.answer_kind.Kind``)."""
    sources: list[str] = field(default_factory=list)
    """The API calls the answer came from (``getPublication(pub_id='paper:3')``)."""
    subject: str | None = None
    """What the value is about, in words ("the papers of A of 2022"): what a later "they" refers to."""
    papers: str | None = None
    """The person's papers the answer walked ("the latest paper of A"): what a later "it" refers to."""
    error: str | None = None
    error_stage: str | None = None
    feedback: dict[str, Any] | None = None
    """The AutoFeedback loop the program went through (``FeedbackFinished.to_json()``; None when off)."""
    timings_ms: dict[str, float] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def final_answer(events: Iterable[SoAyEvent]) -> SoAyAnswer:
    """The ``Finished`` answer of a run, for callers that want only the outcome (benchmarks, tests)."""
    for event in events:
        if isinstance(event, Finished):
            return event.answer
    raise RuntimeError("a SoAy run ended without its Finished event")
