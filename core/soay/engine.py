"""SoAy inference: question → entities → plan → program → sandbox → checked answer, as typed events.

Which parts a model decides, and how (reported in every answer):
- the plan (a combination of the solution library generated from the API graph, ``plans.py``):
  chosen by what the question asks for and what it starts from (``choose.py``); with
  ``choice_mode="llm"`` the LLM picks among the top three by their descriptions, constrained to
  their letters;
- the program: ``template`` runs the plan's generated program (the honest mode for a 135M model,
  which cannot write programs); ``model`` lets the LLM write it from the plan and the programs of
  that solution as examples — for a bigger model. Either runs in the sandbox.
The entities are spans of the question found by the fuzzy-search APIs, never generated. The value
is checked against the kind the question asks for (``core.answer_kind``) and cited by the API
calls that produced it; a missing value, or one of another kind, is said in one plain sentence.

This module is the pipeline: the stages in order and the program written and run. What it yields is
in ``events.py``; the sentence a person reads is made by ``judge.py`` (a run's value) and
``refusals.py`` (what is said instead of running); two questions in one are split and joined by
``compound.py``; the model's prompts are in ``prompts.py``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from scholar_tui.core.answer_kind import Kind, abstain_sentence, fits, is_abstain
from scholar_tui.core.events import Engine, FeedbackRound, cancelled
from scholar_tui.core.library.sandbox_apis import FACTORY
from scholar_tui.core.sandbox import Limits, Sandbox, SandboxResult
from scholar_tui.core.soay.choose import answers_what_is_asked, rank_plans, support
from scholar_tui.core.soay.compound import compound_parts, joined_answer, referents
from scholar_tui.core.soay.conditions import narrowings, not_applied
from scholar_tui.core.soay.events import (
    Abstained,
    AnswerPhrased,
    EntityLinked,
    Failed,
    Finished,
    ProgramRan,
    ProgramWritten,
    SoAyAnswer,
    SoAyEvent,
    SolutionChosen,
    final_answer,
)
from scholar_tui.core.soay.judge import JOINT_PAPERS, Judge, cite, run_failure
from scholar_tui.core.soay.linking import Linked, conditions_of, left_out_people, link, negated_conditions
from scholar_tui.core.soay.narrowing import Narrow, add_narrowings, leaving_out
from scholar_tui.core.soay.pairs import PairAnswer, what_they_share
from scholar_tui.core.soay.phrasing import compared, expected_kind, measured
from scholar_tui.core.soay.plans import Plan, default_plans
from scholar_tui.core.soay.prompts import LETTERS, choice_prompt, model_code_prompt
from scholar_tui.core.soay.reading import Reading, read_question
from scholar_tui.core.soay.refusals import condition_refusal, left_out_refusal, unsupported
from scholar_tui.core.soay.shapes import compared_in_time, comparison, resolve_pronouns
from scholar_tui.core.soay.verdicts import at_place, authorship, authorship_asked, place_asked
from scholar_tui.models.origin import logs_prompts_as

if TYPE_CHECKING:  # AutoFeedback is imported only when it is switched on (open_soay)
    from scholar_tui.core.autofeedback import FeedbackLoop, FeedbackRecord

# The engine's public face: callers (the CLI, the Scholar Q&A tab, the history, the benchmarks, tests)
# import the events and the answer from here as from their own module.
__all__ = [
    "Abstained",
    "AnswerPhrased",
    "ChoiceMode",
    "CodeMode",
    "EntityLinked",
    "Failed",
    "Finished",
    "ProgramRan",
    "ProgramWritten",
    "SoAyAnswer",
    "SoAyEngine",
    "SoAyEvent",
    "SolutionChosen",
    "final_answer",
    "program_sandbox",
]

CodeMode = Literal["template", "model"]
ChoiceMode = Literal["auto", "retrieval", "llm"]
CANCELLED = "the question was cancelled"


@dataclass(frozen=True)
class Arguments:
    """What a plan's program is filled with: the resolved title or name, a pair's second person, a topic, a year."""

    entity: str
    other: str | None = None
    topic: str | None = None
    year: int | None = None
    year_to: int | None = None
    extra: tuple[tuple[Narrow, str], ...] = ()  # narrowings beyond the plan's own (conditions.narrowings)
    left_out: tuple[str, ...] = ()  # narrowings turned round: what they keep is dropped ("not with B")


def program_sandbox(backend: str = "local") -> Sandbox:
    """The sandbox SoAy's programs run in: the academic APIs of ``backend``, 10 s a program."""
    return Sandbox(FACTORY, {"backend": backend}, limits=Limits(time_s=10.0))


@dataclass
class PlanChoice:
    plan: Plan
    reading: Reading
    candidates: list[tuple[str, float]]
    mode: str
    probabilities: dict[str, float] = field(default_factory=dict)
    supported: bool = True  # some word of the question names what the plan returns


class SoAyEngine(Engine):
    """One engine per app: it holds the plan library, the sandbox worker and an API connection.

    ``api`` answers entity look-ups in this process; programs call the APIs in the sandbox.
    """

    def __init__(
        self,
        api: Any,
        *,
        llm_provider: Callable[[], Any] | None = None,
        sandbox: Sandbox | None = None,
        backend: str = "local",
        choice_mode: ChoiceMode = "auto",
        code_mode: CodeMode = "template",
        feedback: "FeedbackLoop | None" = None,
    ) -> None:
        self.api = api
        self.plans = default_plans()
        self.llm_provider = llm_provider
        self.sandbox = sandbox or program_sandbox(backend)
        self.choice_mode = choice_mode
        self.code_mode = code_mode
        self.feedback = feedback  # AutoFeedback on every program (issue #5); None runs programs as they are
        self.judge = Judge(api, self.sandbox, self.plans)  # the run's value → the sentence a person reads

    def close(self) -> None:
        try:
            self.sandbox.close()
        finally:
            super().close()  # what open_soay opened for it: the library connection, the feedback log

    def _llm(self):
        return self.llm_provider() if self.llm_provider is not None else None

    def choose(self, question: str, linked: Linked) -> PlanChoice:
        reading = read_question(linked.masked(question), linked.start)  # type: ignore[arg-type]
        if reading.venue_before_papers and self._a_title_word(reading.venue or "", linked):
            # "X's Scratch paper": a word of X's titles and of none of their venues says what the paper is about
            reading = read_question(linked.masked(question), linked.start, venue_as_topic=True)  # type: ignore[arg-type]
        left_out_people(reading, linked)
        ranked = rank_plans(reading, self.plans)
        # a count of what the question counts ranks before one of something else ("how many coauthors … on X")
        answering = [item for item in ranked if answers_what_is_asked(item[0], reading)]
        if answering and answering[0][0].kind is ranked[0][0].kind:  # never a list where a count was asked
            ranked = answering
        candidates = [(plan.key, round(score, 2)) for plan, score in ranked[:5]]
        if reading.yes_no:  # "did A and B write together": their joint papers say yes or no
            joint = next(plan for plan, _ in ranked if plan.key == JOINT_PAPERS)
            return PlanChoice(joint, reading, candidates, "rules")
        llm = self._llm() if self.choice_mode == "llm" else None
        if llm is None or len(ranked) < 2:
            return PlanChoice(ranked[0][0], reading, candidates, "rules", supported=support(ranked[0][0], reading) > 0)
        options = [plan for plan, _ in ranked[: len(LETTERS)]]
        letters = list(LETTERS[: len(options)])
        probabilities = llm.choose(choice_prompt(reading.masked, options), letters, max_tokens=1)
        picked = max(letters, key=lambda letter: probabilities[letter])
        chosen = options[letters.index(picked)]
        return PlanChoice(
            chosen,
            reading,
            candidates,
            "llm",
            {options[letters.index(k)].key: v for k, v in probabilities.items()},
            supported=support(chosen, reading) > 0,
        )

    @logs_prompts_as("soay", text="question")  # the question's model calls, linked to it in the prompt log
    def run(self, question: str, *, cancel: threading.Event | None = None) -> Iterator[SoAyEvent]:
        """The question through every stage, one event each; the last is always ``Finished``.

        Two questions asked as one ("Who wrote X and when did it come out?") run one after the other,
        the second's pronouns naming what the first named, and end with one ``Finished`` holding both.
        ``cancel`` set: the stage running ends (a program run is not cut short) and the stream ends
        with ``Failed`` at stage ``cancelled``, then ``Finished``.
        """
        parts = compound_parts(question, self.api)
        if parts is None:
            yield from self._run_one(question, cancel)
            return
        first, second, name = parts
        answers: list[SoAyAnswer] = []
        for part in (first, second):
            if answers:  # "… and where were they published": "they" are what the first part answered
                part = resolve_pronouns(part, name, **referents(answers[0]))
            for event in self._run_one(part, cancel):
                if isinstance(event, Finished):
                    answers.append(event.answer)
                elif not isinstance(event, (AnswerPhrased, Abstained)):  # said once, both parts together
                    yield event
        joined = joined_answer(question, answers)
        if joined.ok and joined.abstained:
            yield Abstained(joined.answer or "", "missing", joined.sources)
        elif joined.ok:
            yield AnswerPhrased(joined.answer or "", joined.value, joined.sources)
        yield Finished(joined)

    def _run_one(self, question: str, cancel: threading.Event | None) -> Iterator[SoAyEvent]:
        answer = SoAyAnswer(question=question)
        started = clock = time.perf_counter()

        def lap(name: str) -> None:
            nonlocal clock
            now = time.perf_counter()
            answer.timings_ms[name] = round((now - clock) * 1000, 1)
            clock = now

        def finish(*events: SoAyEvent) -> Iterator[SoAyEvent]:
            """The last events of the run, then ``Finished`` with the whole answer and its total time."""
            answer.timings_ms["total"] = round((time.perf_counter() - started) * 1000, 1)
            yield from events
            yield Finished(answer)

        def fail(stage: str, message: str) -> Iterator[SoAyEvent]:
            answer.error, answer.error_stage = message, stage
            yield from finish(Failed(stage, message))

        def abstain(text: str, reason: str) -> Iterator[SoAyEvent]:
            """Said instead of running a program: what the library lacks, or a condition no plan applies."""
            answer.ok, answer.abstained, answer.answer = True, True, text
            yield from finish(Abstained(text, reason))

        if cancelled(cancel):
            yield from fail("cancelled", CANCELLED)
            return
        linked = link(question, self.api)
        lap("entity")
        if linked is None:
            yield from fail(
                "entity",
                "no scholar or paper of the library is named in the question: check the "
                "spelling, or import their papers (Library tab F5, `scholar-tui import`)",
            )
            return
        unsure = next((mention for mention in linked.mentions if mention.others), None)
        if unsure is not None:  # "Gordon" names two scholars: answering for one of them is a guess
            named = ", ".join((unsure.matched, *unsure.others))
            yield from fail(
                "entity", f"“{unsure.text}” names more than one scholar of the library ({named}): say which"
            )
            return
        head = linked.mentions[0]
        answer.entity, answer.entity_kind = linked.names(), linked.start
        for mention in linked.mentions:
            yield EntityLinked(mention)

        if cancelled(cancel):
            yield from fail("cancelled", CANCELLED)
            return
        choice = self.choose(question, linked)
        plan, reading = choice.plan, choice.reading
        if len(linked.mentions) == 2 and linked.start == "paper":  # two papers are only ever compared
            reading.compare = comparison(reading.masked)
        if reading.compare:  # "who has more citations, A or B": one figure for each, then compared
            yield from self._compare(linked, reading, answer, cancel)
            yield from finish()
            return
        if len(linked.mentions) == 2 and linked.start == "paper":  # "who wrote both A and B"
            yield from self.judge.in_common(question, linked, plan, answer)
            yield from finish()
            return
        shared = what_they_share(self.api, question, linked, plan, reading)
        if shared is not None:  # "which institution do A and B share": each person's value, and the common one
            yield from self._shared(shared, plan, choice, answer)
            yield from finish()
            return
        plan = choice.plan = self._applying(plan, reading, linked)
        through = self._coauthors_on_papers(plan, reading, linked)
        if through is not None:  # "who did A work with on flaky tests": the authors of those papers, less A
            reading.count_after = plan.count  # "how many people did A publish with in 2022": counted once A is out
            plan = choice.plan = through
            reading.excluded += (head.matched,)
        answer.asked = expected_kind(reading.asked, plan).value  # a question naming no kind asks for the plan's
        lap("solution")
        yield _solution_chosen(plan, choice, answer, reading.asked.value, plan.description)

        place = place_asked(reading) if linked.start == "person" else None
        if place is not None:  # "Is A at Rensselaer?": yes or no, from the affiliation the library holds
            text, source = at_place(self.api, head, place)
            answer.ok, answer.answer, answer.sources = True, text, [source]
            answer.abstained = is_abstain(text)
            answer.value = None if answer.abstained else text.startswith("Yes")
            yield from finish(
                Abstained(text, "missing", answer.sources)
                if answer.abstained
                else AnswerPhrased(text, answer.value, answer.sources)
            )
            return
        if linked.start == "paper" and linked.extra and authorship_asked(reading):  # "Did A write X?"
            text, source = authorship(self.api, head, linked.extra, reading)
            answer.ok, answer.answer, answer.value, answer.sources = True, text, text.startswith("Yes"), [source]
            yield from finish(AnswerPhrased(text, answer.value, answer.sources))
            return
        if not choice.supported:  # nothing any API returns is named: no value of another field stands in
            yield from abstain(unsupported(reading, linked, self.plans), "no field")
            return
        conditions = conditions_of(reading, linked)
        reading.left_out = negated_conditions(question, reading, linked)
        unapplied, extra = narrowings(plan, conditions)
        refusal = condition_refusal(self.api, plan, reading, linked, unapplied)
        if refusal:
            yield from abstain(refusal, "condition")
            return
        # the programs search for what the linker resolved: the library's own title or name
        other = linked.mentions[1].matched if len(linked.mentions) > 1 else None
        left_out = tuple(narrow for narrow, _ in reading.left_out)
        arguments = Arguments(head.matched, other, reading.topic, reading.year, reading.year_to, extra, left_out)
        # the answer would hold what was left out; people "with no paper on X" are not those with one without X
        if left_out and (through is not None or self._template(plan, arguments) is None):
            yield from abstain(left_out_refusal(plan, linked, reading), "condition")
            return
        if cancelled(cancel):
            yield from fail("cancelled", CANCELLED)
            return
        result = yield from self._execute(question, plan, arguments, answer, cancel)
        lap("program_and_run")
        if cancelled(cancel):
            yield from fail("cancelled", CANCELLED)
            return
        message = run_failure(result, answer)
        if message:
            yield from fail("run", message)
            return
        yield from self.judge.phrase_result(answer, plan, reading, linked, result, conditions)
        yield from finish()

    def _shared(self, shared: PairAnswer, plan: Plan, choice: PlanChoice, answer: SoAyAnswer) -> Iterator[SoAyEvent]:
        """What two people (a paper's authors) hold each and in common, said with the calls it came from."""
        yield _solution_chosen(plan, choice, answer, choice.reading.asked.value, f"{plan.description} — {shared.how}")
        answer.ok, answer.answer, answer.value, answer.sources = True, shared.text, shared.value, shared.sources
        answer.abstained = shared.abstained
        if shared.abstained:
            yield Abstained(shared.text, "missing", shared.sources)
        else:
            yield AnswerPhrased(shared.text, shared.value, shared.sources)

    def _execute(
        self, question: str, plan: Plan, arguments: Arguments, answer: SoAyAnswer, cancel: threading.Event | None
    ) -> Generator[SoAyEvent, None, SandboxResult]:
        """The plan's program written and run: through AutoFeedback when it is on (the README's promise
        for every SoAy program, a comparison's two included), else straight in the sandbox."""
        if self.feedback is not None:
            return (yield from self._run_with_feedback(question, plan, arguments, answer, cancel))
        program = self._program(question, plan, arguments, None)
        answer.program, answer.code_mode = program, self.code_mode
        yield ProgramWritten(program, self.code_mode)
        result = self.sandbox.run(program)
        answer.result = result.as_dict()
        yield ProgramRan(result)
        return result

    def _compare(
        self, linked: Linked, reading: Reading, answer: SoAyAnswer, cancel: threading.Event | None = None
    ) -> Iterator[SoAyEvent]:
        """ "Who has more X, A or B?" (two scholars, or two papers; "Is A older than B?"): the plan that gives
        X for one of them, run for each, compared.

        Either figure missing is said as such (never a winner picked from one figure)."""
        start = "paper" if linked.start == "paper" else "person"
        single = read_question(reading.masked, start)  # type: ignore[arg-type]
        single.asked = Kind.DATE if compared_in_time(reading.masked) else Kind.COUNT
        measuring = [plan for plan, _ in rank_plans(single, self.plans) if plan.kind is single.asked]
        in_time = single.asked is Kind.DATE  # "older" names no field: the year is what dates a paper
        plan = next((plan for plan in measuring if in_time or support(plan, single) > 0), None)
        if in_time and start == "person":
            plan = None  # "who is older": the library holds no one's age, and a list of years is no date of birth
        names = [mention.matched for mention in linked.mentions]
        answer.ok, answer.asked = True, single.asked.value
        if plan is None:
            answer.abstained = True
            answer.answer = abstain_sentence(f"figure to compare {' and '.join(names)} by", None)
            yield Abstained(answer.answer, "no field")
            return
        conditions = conditions_of(single, Linked(linked.mentions[:1])) if start == "person" else []
        plan = self._applying(plan, single, Linked(linked.mentions[:1]))  # "… papers in Physical Review B"
        answer.intent, answer.solution, answer.choice_mode = plan.key, list(plan.solution), "rules"
        yield SolutionChosen(
            plan.key, list(plan.solution), len(plan.hops), "rules", [], asked="count", description=plan.description
        )
        figures: list[Any] = []
        noun = measured(plan)
        unapplied, extra = narrowings(plan, conditions)
        if unapplied:  # "who has more papers in Physical Review B, A or B" with no way to apply the venue
            answer.abstained = True
            answer.answer = not_applied(f"the {noun} of {' and '.join(names)}", unapplied)
            yield Abstained(answer.answer, "condition")
            return
        for name in names:
            arguments = Arguments(name, None, single.topic, single.year, single.year_to, extra)
            result = yield from self._execute(reading.question, plan, arguments, answer, cancel)
            message = run_failure(result, answer)
            if message:
                answer.ok, answer.error, answer.error_stage = False, message, "run"
                yield Failed("run", message)
                return
            figures.append(result.value)
            answer.sources += cite(result, plan)
        missing = [
            name
            for name, figure in zip(names, figures, strict=True)
            if isinstance(figure, list) or not fits(single.asked, figure)  # one figure each, or none to compare
        ]
        if missing:
            answer.abstained = True
            answer.answer = abstain_sentence(noun, " and ".join(missing))
            yield Abstained(answer.answer, "missing", answer.sources)
            return
        answer.value = dict(zip(names, figures, strict=True))
        answer.answer = compared(names, figures, noun, reading.compare == "max", in_time)
        yield AnswerPhrased(answer.answer, answer.value, answer.sources)

    def _applying(self, plan: Plan, reading: Reading, linked: Linked) -> Plan:
        """The plan, or where it cannot apply the question's conditions (a person's publication count
        holds no venues), the best one of the same kind, named by the question, that can (counting
        the papers, narrowed)."""
        conditions = conditions_of(reading, linked)
        if not conditions or not narrowings(plan, conditions)[0]:
            return plan
        for other, _ in rank_plans(reading, self.plans):
            # never another field: a publication count may become a count of the papers, nothing else
            same = other.field == plan.field or (plan.field == "num_pubs" and other.count and other.field == "title")
            if (
                same
                and other.kind is plan.kind
                and support(other, reading) > 0
                and not narrowings(other, conditions)[0]
            ):
                return other
        return plan

    def _coauthors_on_papers(self, plan: Plan, reading: Reading, linked: Linked) -> Plan | None:
        """A person's coauthors narrowed by their papers (a topic, a year, a venue, the latest one) are
        the authors of those papers other than the person: getCoauthors holds no papers to narrow.
        None: the plan is not a list of the person's coauthors, or the question narrows nothing."""
        people = plan.kind is Kind.PEOPLE or (plan.count and plan.field in ("name", "authors_name_list"))
        if "coauthors" not in plan.routes or not people or plan.start != "person":
            return None  # "who did A write his X paper with" may walk A's coauthors' papers: the same people
        if not conditions_of(reading, linked):
            return None
        narrow = reading.rank or ("topic" if reading.topic else "year" if reading.year else "all")
        key = f"searchPerson|getPersonPubs:one|authors_name_list|value|{narrow}"
        return next((other for other in self.plans if other.key == key), None)

    def _a_title_word(self, words: str, linked: Linked) -> bool:
        """Whether the person's papers hold these words in a title and in no venue."""
        try:
            person = self.api.searchPerson(name=linked.mentions[0].matched)[0]
            pubs = self.api.getPersonPubs(person_id=person["person_id"])
            venues = [self.api.getPublication(pub_id=pub["pub_id"]).get("venue") or "" for pub in pubs]
        except Exception:
            return False
        wanted = words.lower().split()
        in_titles = any(all(word in (pub.get("title") or "").lower() for word in wanted) for pub in pubs)
        return in_titles and not any(all(word in venue.lower() for word in wanted) for venue in venues)

    def _program(self, question: str, plan: Plan, arguments: Arguments, previous: "FeedbackRecord | None") -> str:
        """The program written (``_written``) with the question's negated conditions turned round; a model's
        program that cannot take them gives way to the plan's own, which can (``_run_one`` checked it)."""
        program = self._written(question, plan, arguments, previous)
        if not arguments.left_out:
            return program
        return self._left_out(program, arguments) or self._template(plan, arguments) or program

    def _template(self, plan: Plan, arguments: Arguments) -> str | None:
        """The plan's own program, narrowed and with the negated conditions turned round; None where it
        cannot take them."""
        template = plan.program_for(
            arguments.entity, arguments.other, arguments.topic, arguments.year, arguments.year_to
        )
        narrowed = self._narrowed(template, plan, arguments)
        return self._left_out(narrowed, arguments) if narrowed is not None else None

    @staticmethod
    def _left_out(program: str, arguments: Arguments) -> str | None:
        for narrow in arguments.left_out:
            turned = leaving_out(program, narrow)
            if turned is None:
                return None
            program = turned
        return program

    def _written(self, question: str, plan: Plan, arguments: Arguments, previous: "FeedbackRecord | None") -> str:
        """The plan's program (template mode), or the LLM's; a retry after feedback is always the LLM's."""
        template = plan.program_for(
            arguments.entity, arguments.other, arguments.topic, arguments.year, arguments.year_to
        )
        if self.code_mode == "template" and previous is None:
            return self._narrowed(template, plan, arguments) or template
        if previous is not None and self.llm_provider is None:
            return previous.request  # no model to rewrite it: re-sent as it was, and logged for a person
        written = self._model_program(question, plan, arguments.entity, previous)
        # the question's other conditions narrow the model's program too; one that fetches no papers
        # where the plan does cannot take them, and the plan's own program is run instead
        return self._narrowed(written, plan, arguments) or self._narrowed(template, plan, arguments) or written

    @staticmethod
    def _narrowed(program: str, plan: Plan, arguments: Arguments) -> str | None:
        if not arguments.extra:
            return program
        return add_narrowings(program, plan.narrow, arguments.extra)

    def _run_with_feedback(
        self, question: str, plan: Plan, arguments: Arguments, answer: SoAyAnswer, cancel: threading.Event | None
    ):
        """The program through an AutoFeedback loop: static scan, sandbox run, dynamic analysis, retries.

        A template program that fails is handed to the LLM with the feedback (there is nothing else
        to regenerate it from); a loop that runs out of rounds is logged for a person to fix.
        """
        loop = self.feedback
        assert loop is not None

        def generate(history):
            return self._program(question, plan, arguments, history[-1] if history else None)

        def accept(run: SandboxResult, observation) -> bool:
            # An empty answer is an answer in SoAy (a scholar may have no coauthors); failures are not.
            return run.ok and all(call.ok for call in run.calls)

        events = loop.events(
            question,
            generate,
            self.sandbox.run,
            mode="program",
            relevant=list(plan.solution),
            accept=accept,
            cancel=cancel,
        )
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
            result = SandboxResult(
                ok=False, error=finding.detail if finding else "no program could be run", error_kind="refused"
            )
        answer.result = result.as_dict()
        yield ProgramRan(result)
        return result

    def _model_program(self, question: str, plan: Plan, entity: str, previous: "FeedbackRecord | None" = None) -> str:
        from scholar_tui.core.library.apis import SPECS

        llm = self._llm()
        if llm is None:
            raise RuntimeError("code mode 'model' (and AutoFeedback's retries) need an LLM")
        signatures = "\n".join(SPECS[name].signature() for name in SPECS)
        completion = llm.complete(
            model_code_prompt(question, plan, signatures, entity, previous), max_tokens=220, stop=["```"]
        )
        return completion.text.strip()


def _solution_chosen(
    plan: Plan, choice: PlanChoice, answer: SoAyAnswer, asked: str, description: str
) -> SolutionChosen:
    """The event that names the solution a question is answered by, noted on ``answer`` as well."""
    answer.intent, answer.solution, answer.choice_mode = plan.key, list(plan.solution), choice.mode
    return SolutionChosen(
        plan.key,
        list(plan.solution),
        len(plan.hops),
        choice.mode,
        choice.candidates,
        choice.probabilities,
        asked=asked,
        description=description,
    )
