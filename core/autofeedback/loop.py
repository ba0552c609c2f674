"""The two feedback loops (AutoFeedback §3.1, Figure 3; §3.3.2, Algorithm 1) with their limits.

A generated request first goes through static scanning. An error found while static rounds
remain becomes static feedback and the model regenerates. Otherwise the request is sent (an E1
cannot be: there is nothing to send) and DAC assesses the response; a failed or unsatisfying one
becomes dynamic feedback — the ReAct trace of thought, action and observation — while dynamic
rounds remain, and the regenerated request is scanned again. The paper caps the rounds to avoid a
dead loop (3 static, 2 dynamic in its experiments, §4.1.4): when they run out the loop stops and
is marked ``limit_hit``, for a person to take over from the logs (§5, threat 2).

A request that still has a static error when the static rounds run out is sent anyway: the
server is the final judge, and the scanner can be wrong (the retriever's top-1 is a guess).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from scholar_tui.core.autofeedback.dynamic import DynamicObservation, ReActStep
from scholar_tui.core.autofeedback.static import StaticFinding
from scholar_tui.core.autofeedback.templates import dynamic_feedback
from scholar_tui.core.events import Engine, FeedbackFinished, FeedbackRound, cancelled
from scholar_tui.models.origin import new_run_id, prompt_origin

Mode = Literal["request", "program"]


@dataclass(frozen=True)
class FeedbackLimits:
    static: int = 3
    dynamic: int = 2

    @classmethod
    def from_settings(cls, settings) -> "FeedbackLimits":
        return cls(settings.autofeedback.static_rounds, settings.autofeedback.dynamic_rounds)


@dataclass
class Generation:
    """What ``generate`` may return instead of a bare string: the text and what it cost."""

    text: str
    thought: str | None = None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None


@dataclass
class FeedbackRecord:
    """One piece of feedback given so far; ``generate`` gets the list of them, oldest first."""

    kind: Literal["static", "dynamic"]
    request: str
    feedback: str
    finding: StaticFinding | None = None
    observation: DynamicObservation | None = None
    step: ReActStep | None = None


@dataclass
class Round:
    number: int
    kind: Literal["static", "dynamic"]
    request: str
    finding: StaticFinding | None
    observation: DynamicObservation | None
    feedback: str | None
    thought: str | None
    prompt_tokens: int | None
    completion_tokens: int | None
    duration_s: float

    @property
    def sub_type(self) -> str | None:
        if self.finding is not None:
            return self.finding.sub_type
        if self.observation is not None and not self.observation.satisfied:
            return "E4.other"
        return None

    def event(self, loop_id: int | None) -> FeedbackRound:
        """This round as the engines report it (the shared ``core.events`` vocabulary)."""
        reason = ""
        if self.finding is not None:
            reason = self.finding.detail or self.finding.sub_type
        elif self.observation is not None and not self.observation.satisfied:
            reason = self.observation.reason
        return FeedbackRound(
            loop_id,
            self.number,
            self.kind,
            self.request,
            ok=self.sub_type is None,
            sub_type=self.sub_type,
            reason=reason,
            feedback=self.feedback or "",
        )


@dataclass
class LoopResult:
    status: Literal["solved", "limit_hit", "cancelled"]
    final_request: str
    final_observation: DynamicObservation | None
    rounds: list[Round] = field(default_factory=list)
    loop_id: int | None = None
    static_rounds: int = 0
    dynamic_rounds: int = 0
    final_response: Any = None
    """What ``execute`` returned for the last request sent (APICall / SandboxResult); None if none was."""

    @property
    def solved(self) -> bool:
        return self.status == "solved"

    @property
    def tokens(self) -> int:
        return sum((r.prompt_tokens or 0) + (r.completion_tokens or 0) for r in self.rounds)

    def event(self) -> FeedbackFinished:
        return FeedbackFinished(
            self.loop_id,
            self.status,
            self.static_rounds,
            self.dynamic_rounds,
            [round_.event(self.loop_id) for round_ in self.rounds],
        )


class LoopCancelled(Exception):
    """The request's ``cancel`` was set: no more generations nor sends."""


def _generation(value: Any) -> Generation:
    return value if isinstance(value, Generation) else Generation(text=str(value or ""))


class FeedbackLoop(Engine):
    """Runs one instruction to a solved request or to the limits, logging every round.

    ``generate(history) -> str | Generation``: the request (``<<API>>…<</API>>``) or program for
    the instruction, given the feedback so far (``list[FeedbackRecord]``; empty the first time).
    ``execute(text) -> APICall | SandboxResult``: send the request / run the program.

    ``events(…)`` is the engine's stream: a ``FeedbackRound`` as each round ends (it is logged
    first), then one ``FeedbackFinished``; the generator returns the ``LoopResult``
    (``result = yield from loop.events(…)``). ``run(…)`` drives it to that result for a caller
    that shows no rounds as they come (PaSa's crawl, the bench).
    """

    def __init__(self, feedback, limits: FeedbackLimits = FeedbackLimits(), log=None, *, source: str = "api") -> None:
        self.feedback = feedback  # an AutoFeedback
        self.limits = limits
        self.log = log  # an indexes.autofeedback_log.FeedbackLog, or None
        self.source = source

    def _scan(self, mode: Mode, text: str, instruction: str, relevant) -> StaticFinding | None:
        if mode == "program":
            findings = self.feedback.scan_program(text, instruction, relevant)
            return findings[0] if findings else None
        return self.feedback.scan_request(text, instruction, relevant)

    def _analyse(self, mode: Mode, response: Any, instruction: str) -> DynamicObservation:
        if mode == "program":
            return self.feedback.analyse_program(response, instruction)
        return self.feedback.analyse_response(response, instruction)

    def run(self, *args, **kwargs) -> LoopResult:
        """``events(…)`` driven to its end, for a caller that shows no rounds as they come; same arguments."""
        events = self.events(*args, **kwargs)
        while True:
            try:
                next(events)
            except StopIteration as finished:
                return finished.value

    def events(
        self,
        instruction: str,
        generate: Callable[[list[FeedbackRecord]], Any],
        execute: Callable[[str], Any],
        *,
        mode: Mode = "request",
        relevant: Sequence[str] | None = None,
        accept: Callable[[Any, DynamicObservation], bool] | None = None,
        cancel: threading.Event | None = None,
    ) -> Generator[FeedbackRound | FeedbackFinished, None, LoopResult]:
        loop_id = None
        if self.log is not None:
            loop_id = self.log.start_loop(
                instruction,
                source=self.source,
                mode=mode,
                static_limit=self.limits.static,
                dynamic_limit=self.limits.dynamic,
            )
        origin_run = loop_id if loop_id is not None else new_run_id()  # the prompt log's link to this loop
        history: list[FeedbackRecord] = []
        steps: list[ReActStep] = []
        rounds: list[Round] = []
        static_used = dynamic_used = 0

        def produce() -> tuple[Generation, float]:
            if cancelled(cancel):
                raise LoopCancelled
            started = time.perf_counter()
            with prompt_origin("autofeedback", origin_run, instruction):  # the round's model calls, in the prompt log
                value = _generation(generate(list(history)))
            return value, time.perf_counter() - started

        def record(kind, text, generation, finding, observation, feedback, seconds) -> FeedbackRound:
            round_ = Round(
                len(rounds) + 1,
                kind,
                text,
                finding,
                observation,
                feedback,
                generation.thought,
                generation.prompt_tokens,
                generation.completion_tokens,
                seconds,
            )
            rounds.append(round_)
            if self.log is not None:
                self.log.add_round(
                    loop_id,
                    kind,
                    request=text,
                    error_type=round_.sub_type.split(".")[0] if round_.sub_type else None,
                    sub_type=round_.sub_type,
                    returns=list(finding.returns) if finding else None,
                    feedback=feedback,
                    response=observation.response if observation else None,
                    ok=observation.satisfied if observation else False,
                    thought=generation.thought,
                    observation=observation.observation if observation else None,
                    prompt_tokens=generation.prompt_tokens,
                    completion_tokens=generation.completion_tokens,
                    duration_s=seconds,
                )
            return round_.event(loop_id)

        status: Literal["solved", "limit_hit", "cancelled"] = "limit_hit"
        observation: DynamicObservation | None = None
        response: Any = None
        try:
            generation, seconds = produce()
            while True:
                text = generation.text
                started = time.perf_counter()
                finding = self._scan(mode, text, instruction, relevant)
                if finding is not None and static_used < self.limits.static:
                    static_used += 1
                    yield record(
                        "static",
                        text,
                        generation,
                        finding,
                        None,
                        finding.feedback,
                        seconds + time.perf_counter() - started,
                    )
                    history.append(FeedbackRecord("static", text, finding.feedback, finding=finding))
                    generation, seconds = produce()
                    continue
                if cancelled(cancel):  # scanned, not sent
                    raise LoopCancelled
                if finding is not None and finding.error_type == "E1":
                    yield record(
                        "static", text, generation, finding, None, None, seconds + time.perf_counter() - started
                    )
                    observation = response = None
                    break  # nothing that can be sent
                response = execute(text)
                observation = self._analyse(mode, response, instruction)
                satisfied = accept(response, observation) if accept is not None else observation.satisfied
                observation.satisfied = bool(satisfied)
                elapsed = seconds + time.perf_counter() - started
                if satisfied:
                    yield record("dynamic", text, generation, finding, observation, None, elapsed)
                    status = "solved"
                    break
                if dynamic_used >= self.limits.dynamic:
                    yield record("dynamic", text, generation, finding, observation, None, elapsed)
                    break
                dynamic_used += 1
                step = ReActStep(action=text, observation=observation.observation, thought=generation.thought)
                steps.append(step)
                feedback = dynamic_feedback(steps, program=mode == "program")
                yield record("dynamic", text, generation, finding, observation, feedback, elapsed)
                history.append(FeedbackRecord("dynamic", text, feedback, observation=observation, step=step))
                generation, seconds = produce()
        except LoopCancelled:
            status = "cancelled"
        except BaseException as error:  # the model or the executor crashed: the loop must not stay "running"
            if self.log is not None:
                self.log.finish_loop(
                    loop_id,
                    "failed",
                    final_request=rounds[-1].request if rounds else None,
                    final_response={"error": f"{type(error).__name__}: {error}"},
                )
            raise
        final = rounds[-1].request if rounds else ""
        if self.log is not None and status == "cancelled":  # the log knows no such status: failed, saying why
            self.log.finish_loop(loop_id, "failed", final_request=final, final_response={"error": "cancelled"})
        elif self.log is not None:
            self.log.finish_loop(
                loop_id, status, final_request=final, final_response=observation.response if observation else None
            )
        result = LoopResult(status, final, observation, rounds, loop_id, static_used, dynamic_used, response)
        yield result.event()
        return result
