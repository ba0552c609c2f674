"""SoAy inference: question → entity → solution → program → sandbox → answer, as typed events.

Which parts a model decides, and how (reported in every answer):
- the solution: retrieval over the intents' seen phrasings; the LLM picks among the top three,
  constrained to their letters, when retrieval is unsure (``choice_mode``);
- the program: ``template`` runs the program written for the chosen intent (the honest mode for a
  135M model, which cannot write programs); ``model`` lets the LLM write it from the solution and
  the programs of that solution as examples — for a bigger model. Either runs in the sandbox.
The entity is a span of the question found by the fuzzy-search APIs, never generated.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from scholar_tui.core.events import Event, FeedbackFinished, FeedbackRound, counted
from scholar_tui.core.library.sandbox_apis import FACTORY
from scholar_tui.core.readiness import api_missing
from scholar_tui.core.sandbox import Limits, Sandbox, SandboxResult
from scholar_tui.core.soay.entities import Mention, find_entity
from scholar_tui.core.soay.intents import INTENTS, Intent
from scholar_tui.core.soay.retrieval import ChoiceMode, IntentIndex, choose_intent

if TYPE_CHECKING:  # AutoFeedback is imported only when it is switched on (open_soay)
    from scholar_tui.core.autofeedback import FeedbackLoop, FeedbackRecord

CodeMode = Literal["template", "model"]


# -- events ------------------------------------------------------------------------------------
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
    kind: str = "solution_chosen"

    def summary(self) -> str:
        return f"solution: {' → '.join(self.solution)} ({counted(self.hops, 'hop')}, intent {self.intent}, chosen by {self.mode})"


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
    """The program's value, phrased as the intent answers (``value`` as the program returned it)."""

    text: str
    value: Any
    kind: str = "answer_phrased"

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
        return f"{'answered' if self.answer.ok else 'no answer'} in {total:.0f} ms"

    def to_json(self) -> dict:
        return {"kind": self.kind, **self.answer.as_dict()}


SoAyEvent = (EntityLinked | SolutionChosen | ProgramWritten | ProgramRan | FeedbackRound | FeedbackFinished
             | AnswerPhrased | Failed | Finished)


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
    error: str | None = None
    error_stage: str | None = None
    feedback: dict[str, Any] | None = None
    """The AutoFeedback loop the program went through (``FeedbackFinished.to_json()``; None when off)."""
    timings_ms: dict[str, float] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def render_value(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(render_value(item) for item in value) if value else "(none)"
    if value is None:
        return "(unknown)"
    return str(value)


def phrase_answer(intent: Intent, entity: str, value: Any) -> str:
    return intent.answer_phrase.format(name=entity, title=entity, result=render_value(value))


MODEL_CODE_PREFIX = (
    "Write a short Python program that answers the question by calling these APIs. "
    "Assign the answer to `result`. No imports.\n"
)


def model_code_prompt(question: str, intent: Intent, api_signatures: str, entity: str,
                      previous: "FeedbackRecord | None" = None) -> str:
    examples = [other for other in INTENTS if other.solution == intent.solution][:2]
    shots = "\n\n".join(
        f"Question: {other.seen_phrasings[0].format(name='Ada Lovelace', title='On Computable Numbers')}\n"
        f"Solution: {' -> '.join(other.solution)}\n```python\n"
        f"{other.program_for('Ada Lovelace' if other.entity == 'person' else 'On Computable Numbers')}\n```"
        for other in examples
    )
    retry = ""
    if previous is not None:  # AutoFeedback: the failed program and what was wrong with it
        retry = f"This program failed:\n```python\n{previous.request}\n```\nFeedback: {previous.feedback}\nCorrected program:\n"
    return (
        f"{MODEL_CODE_PREFIX}{api_signatures}\n\n{shots}\n\n"
        f"Question: {question}\nSolution: {' -> '.join(intent.solution)}\n"
        f"# the entity to search for is {entity!r}\n{retry}```python\n"
    )


class SoAyEngine:
    """One engine per app: it holds the intent index, the sandbox worker and an API connection.

    ``api`` answers entity look-ups in this process; programs call the APIs in the sandbox.
    """

    def __init__(
        self,
        api: Any,
        embedder: Any,
        *,
        llm_provider: Callable[[], Any] | None = None,
        sandbox: Sandbox | None = None,
        backend: str = "local",
        choice_mode: ChoiceMode = "auto",
        code_mode: CodeMode = "template",
        feedback: "FeedbackLoop | None" = None,
        cache_dir: Path | None = None,
    ) -> None:
        self.api = api
        self.index = IntentIndex(embedder, cache_dir=cache_dir)
        self.llm_provider = llm_provider
        self.sandbox = sandbox or Sandbox(FACTORY, {"backend": backend}, limits=Limits(time_s=10.0))
        self.choice_mode = choice_mode
        self.code_mode = code_mode
        self.feedback = feedback  # AutoFeedback on every program (issue #5); None runs programs as they are

    def close(self) -> None:
        self.sandbox.close()

    def _llm(self):
        return self.llm_provider() if self.llm_provider is not None else None

    def run(self, question: str) -> Iterator[SoAyEvent]:
        """The question through every stage, one event each; the last is always ``Finished``."""
        answer = SoAyAnswer(question=question)
        started = clock = time.perf_counter()

        def lap(name: str) -> None:
            nonlocal clock
            now = time.perf_counter()
            answer.timings_ms[name] = round((now - clock) * 1000, 1)
            clock = now

        def fail(stage: str, message: str) -> Iterator[SoAyEvent]:
            answer.error, answer.error_stage = message, stage
            answer.timings_ms["total"] = round((time.perf_counter() - started) * 1000, 1)
            yield Failed(stage, message)
            yield Finished(answer)

        missing = api_missing(self.api)
        if missing is not None:  # nothing to link the question to: say what to import
            yield from fail(missing.what, missing.summary())
            return
        mention = find_entity(question, self.api)
        lap("entity")
        if mention is None:
            yield from fail("entity", "no scholar or paper of the library is named in the question: check the "
                            "spelling, or import their papers (Library tab F5, `scholar-tui import`)")
            return
        answer.entity, answer.entity_kind = mention.text, mention.kind
        yield EntityLinked(mention)

        intent_slot = "{name}" if mention.kind == "person" else "{title}"
        llm = self._llm() if self.choice_mode != "retrieval" else None
        choice = choose_intent(self.index, mention.masked(question, intent_slot), mention.kind, llm, self.choice_mode)
        intent = choice.intent
        answer.intent, answer.solution, answer.choice_mode = intent.key, list(intent.solution), choice.mode
        lap("solution")
        yield SolutionChosen(intent.key, list(intent.solution), intent.hops, choice.mode, choice.candidates,
                             choice.probabilities)

        if self.feedback is None:
            program = self._program(question, intent, mention.text, None)
            answer.program, answer.code_mode = program, self.code_mode
            lap("program")
            yield ProgramWritten(program, self.code_mode)
            result = self.sandbox.run(program)
            answer.result = result.as_dict()
            lap("run")
            yield ProgramRan(result)
        else:
            result = yield from self._run_with_feedback(question, intent, mention.text, answer)
            lap("program_and_run")
        if not result.ok or (answer.feedback or {}).get("status") == "limit_hit":
            failed_call = next((call for call in result.calls if not call.ok), None)
            message = result.error or (f"{failed_call.name}: {failed_call.error}" if failed_call else "the program failed")
            if answer.feedback and answer.feedback["status"] == "limit_hit":
                message += (f" · AutoFeedback loop {answer.feedback['loop_id']} hit its limit: "
                            "fix the program by hand in the API debugger (F4)")
            yield from fail("run", message)
            return
        answer.ok, answer.value = True, result.value
        answer.answer = phrase_answer(intent, mention.matched, result.value)
        answer.timings_ms["total"] = round((time.perf_counter() - started) * 1000, 1)
        yield AnswerPhrased(answer.answer, result.value)
        yield Finished(answer)

    def _program(self, question: str, intent: Intent, entity: str, previous: "FeedbackRecord | None") -> str:
        """The intent's program (template mode), or the LLM's; a retry after feedback is always the LLM's."""
        if self.code_mode == "template" and previous is None:
            return intent.program_for(entity)
        if previous is not None and self.llm_provider is None:
            return previous.request  # no model to rewrite it: re-sent as it was, and logged for a person
        return self._model_program(question, intent, entity, previous)

    def _run_with_feedback(self, question: str, intent: Intent, entity: str, answer: SoAyAnswer):
        """The program through an AutoFeedback loop: static scan, sandbox run, dynamic analysis, retries.

        A template program that fails is handed to the LLM with the feedback (there is nothing else
        to regenerate it from); a loop that runs out of rounds is logged for a person to fix.
        """
        loop = self.feedback
        assert loop is not None

        def generate(history):
            return self._program(question, intent, entity, history[-1] if history else None)

        def accept(run: SandboxResult, observation) -> bool:
            # An empty answer is an answer in SoAy (a scholar may have no coauthors); failures are not.
            return run.ok and all(call.ok for call in run.calls)

        events = loop.events(question, generate, self.sandbox.run, mode="program", relevant=list(intent.solution),
                             accept=accept)
        while True:
            try:
                event = next(events)
            except StopIteration as finished:
                outcome = finished.value
                break
            if isinstance(event, FeedbackRound):  # each round's program, then what AutoFeedback found in it
                first_template = event.round == 1 and self.code_mode == "template"
                yield ProgramWritten(event.request, "template" if first_template else "model")
            else:
                answer.feedback = event.to_json()
            yield event
        answer.program, answer.code_mode = outcome.final_request, self.code_mode
        result = outcome.final_response
        if result is None:  # nothing could be run (no API call at all): report the static finding
            finding = outcome.rounds[-1].finding if outcome.rounds else None
            result = SandboxResult(ok=False, error=finding.detail if finding else "no program could be run",
                                   error_kind="refused")
        answer.result = result.as_dict()
        yield ProgramRan(result)
        return result

    def _model_program(self, question: str, intent: Intent, entity: str, previous: "FeedbackRecord | None" = None) -> str:
        from scholar_tui.core.library.apis import SPECS

        llm = self._llm()
        if llm is None:
            raise RuntimeError("code mode 'model' (and AutoFeedback's retries) need an LLM")
        signatures = "\n".join(SPECS[name].signature() for name in SPECS)
        completion = llm.complete(model_code_prompt(question, intent, signatures, entity, previous),
                                  max_tokens=220, stop=["```"])
        return completion.text.strip()


def final_answer(events: Iterable[SoAyEvent]) -> SoAyAnswer:
    """The ``Finished`` answer of a run, for callers that want only the outcome (benchmarks, tests)."""
    for event in events:
        if isinstance(event, Finished):
            return event.answer
    raise RuntimeError("a SoAy run ended without its Finished event")
