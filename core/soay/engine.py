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
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from scholar_tui.core.answer_kind import Kind, abstain_sentence, fits, is_abstain
from scholar_tui.core.events import Engine, Event, FeedbackFinished, FeedbackRound, cancelled, counted
from scholar_tui.core.library.sandbox_apis import FACTORY
from scholar_tui.core.sandbox import Limits, Sandbox, SandboxResult
from scholar_tui.core.soay.choose import (
    BINDING,
    Reading,
    answers_what_is_asked,
    asked_thing,
    field_named,
    rank_plans,
    read_question,
    support,
)
from scholar_tui.core.soay.conditions import Condition, narrowings, none_left, not_applied
from scholar_tui.core.soay.entities import Mention, similarity
from scholar_tui.core.soay.linking import (
    Linked,
    conditions_of,
    left_out_people,
    left_out_subject,
    link,
    negated_conditions,
    papers_of,
    subject_of,
)
from scholar_tui.core.soay.phrasing import (
    ROLES,
    asked_identifier,
    checked_answer,
    compared,
    expected_kind,
    field_noun,
    measured,
    recorded_identifier,
    render_value,
    yes_or_no,
)
from scholar_tui.core.soay.plans import RANKED, Narrow, Plan, add_narrowings, default_plans, leaving_out
from scholar_tui.core.soay.shapes import (
    NUMBER_NAMES,
    author_place,
    compared_in_time,
    comparison,
    excluded_name,
    is_yes_no,
    resolve_pronouns,
    split_compound,
    superlative,
    top_one,
)
from scholar_tui.core.soay.verdicts import at_place, authorship, authorship_asked, people_place, place_asked
from scholar_tui.indexes.records import fold
from scholar_tui.models.origin import logs_prompts_as

if TYPE_CHECKING:  # AutoFeedback is imported only when it is switched on (open_soay)
    from scholar_tui.core.autofeedback import FeedbackLoop, FeedbackRecord

CodeMode = Literal["template", "model"]
ChoiceMode = Literal["auto", "retrieval", "llm"]
LETTERS = "ABC"
CANCELLED = "the question was cancelled"


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


def cite(result: SandboxResult, plan: Plan) -> list[str]:
    """The calls of the plan's last API that produced the value: the record it came from."""
    calls = [call for call in result.calls if call.ok and call.name == plan.hops[-1].api]
    shown = [f"{call.name}({', '.join(f'{k}={v!r}' for k, v in call.arguments.items())})" for call in calls[:3]]
    if len(calls) > 3:
        shown.append(f"… {len(calls) - 3} more {plan.hops[-1].api} calls")
    return shown


MODEL_CODE_PREFIX = (
    "Write a short Python program that answers the question by calling these APIs. "
    "Assign the answer to `result`. No imports.\n"
)


def model_code_prompt(
    question: str, plan: Plan, api_signatures: str, entity: str, previous: "FeedbackRecord | None" = None
) -> str:
    examples = [other for other in default_plans() if other.solution == plan.solution and other.narrow == ""][:2]

    def example(other: Plan) -> str:
        entity = "Ada Lovelace" if other.start != "paper" else "On Computable Numbers"
        return (
            f"Task: {other.description}\nSolution: {' -> '.join(other.solution)}\n```python\n"
            f"{other.program_for(entity, 'Alan Turing')}\n```"
        )

    shots = "\n\n".join(example(other) for other in examples)
    retry = ""
    if previous is not None:  # AutoFeedback: the failed program and what was wrong with it
        retry = (
            f"This program failed:\n```python\n{previous.request}\n```\nFeedback: {previous.feedback}\n"
            "Corrected program:\n"
        )
    return (
        f"{MODEL_CODE_PREFIX}{api_signatures}\n\n{shots}\n\n"
        f"Question: {question}\nTask: {plan.description}\nSolution: {' -> '.join(plan.solution)}\n"
        f"# the entity to search for is {entity!r}\n{retry}```python\n"
    )


JOINT_PAPERS = "pair|getPersonPubs:one|title|value|pair"
PAPER_AUTHORS = "searchPublication|getPublication:one|authors.name|value|all"  # in byline order
ANYONE = re.compile(r"\b(?:anyone|anybody|someone|somebody|any author|the same (?:author|person|people))\b", re.I)
# A narrowing tests a field of the person's papers; the plan that lists that field for all of them
HELD_BY: dict[str, str] = {
    "venue": "searchPerson|getPersonPubs:one|getPublication:each|venue|value|all",
    "year": "searchPerson|getPersonPubs:one|year|value|all",
}
SAME_NAME = 0.85  # a name left out by the question ("besides Hong Zhu") reads this much like the item


def names_them(name: str, said: str) -> bool:
    """Whether the words a question leaves out ("besides Del Maestro") name this person: their whole name
    read closely enough, or its last words (a surname) exactly."""
    whole, words = fold(name), fold(said)
    return similarity(name, said) >= SAME_NAME or (len(words) >= 3 and whole.endswith(" " + words))


def run_failure(result: SandboxResult, answer: SoAyAnswer) -> str | None:
    """What went wrong with a program's run (its error, the failed call, an AutoFeedback loop that ran
    out of rounds), or None when it ran."""
    limit_hit = (answer.feedback or {}).get("status") == "limit_hit"
    if result.ok and not limit_hit:
        return None
    failed_call = next((call for call in result.calls if not call.ok), None)
    message = result.error or (f"{failed_call.name}: {failed_call.error}" if failed_call else "the program failed")
    if limit_hit and answer.feedback:
        message += (
            f" · AutoFeedback loop {answer.feedback['loop_id']} hit its limit: "
            "fix the program by hand in the API debugger (F4)"
        )
    return message


RANK_FIGURE = re.compile(r"\s+\((?:\d{4}|\d+ citations)\)$")  # "Morphy (2019)": the ranked paper's figure


def referents(first: SoAyAnswer) -> dict[str, str]:
    """What a second question's pronouns can refer to in the first part's answer: the papers or people
    it listed (``things``: "the papers of A of 2022"), or the one paper it named (``thing``)."""
    if first.ok and first.abstained and first.papers:  # "A's most cited paper" the library cannot rank:
        return {"thing": first.papers, "things": first.papers}  # "where was it published" asks of it still
    if not first.ok or first.abstained or first.asked not in ("paper", "people") or not first.subject:
        return {}
    values = first.value if isinstance(first.value, list) else [first.value]
    found = {"things": first.subject}
    if first.asked == "paper" and len(values) == 1 and isinstance(values[0], str):
        found["thing"] = RANK_FIGURE.sub("", values[0])
    elif first.papers:  # "who wrote A's latest paper and where was it published": "it" is that paper
        found["thing"] = first.papers
    return found


def joined_answer(question: str, answers: list[SoAyAnswer]) -> SoAyAnswer:
    """Two questions asked as one: one answer holding both, said in turn."""
    said = [a.answer if a.ok else f"{a.question} — {a.error}" for a in answers]
    total = sum(a.timings_ms.get("total", 0.0) for a in answers)
    return SoAyAnswer(
        question=question,
        ok=any(a.ok for a in answers),
        entity=answers[0].entity,
        entity_kind=answers[0].entity_kind,
        intent=" + ".join(a.intent or "none" for a in answers),
        solution=[api for a in answers for api in a.solution],
        choice_mode=answers[0].choice_mode,
        program="\n\n".join(a.program for a in answers if a.program),
        code_mode=answers[0].code_mode,
        value=[a.value for a in answers],
        answer=" ".join(dict.fromkeys(text for text in said if text)),  # one sentence said once for both parts
        abstained=all(a.abstained for a in answers),
        asked=" + ".join(a.asked or "text" for a in answers),
        sources=[source for a in answers for source in a.sources],
        error=None if all(a.ok for a in answers) else "; ".join(a.error or "" for a in answers if not a.ok),
        error_stage=next((a.error_stage for a in answers if not a.ok), None),
        timings_ms={"total": round(total, 1)},
    )


CHOICE_PREFIX = (
    "You map a user's question about scholars or papers to the request it makes.\n"
    "Reply with the letter of the matching request only.\n\n"
)


def choice_prompt(question: str, options: list[Plan]) -> str:
    lines = [f"{LETTERS[i]}) {plan.description}" for i, plan in enumerate(options)]
    return CHOICE_PREFIX + "Requests:\n" + "\n".join(lines) + f"\n\nQuestion: {question}\nRequest:"


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
        parts = self._compound_parts(question)
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

    def _compound_parts(self, question: str) -> tuple[str, str, str] | None:
        """(the first question, the second as asked, the first's entity) of two questions in one."""
        compound = split_compound(question)
        if compound is None:
            return None
        whole = link(question, self.api)  # a title that runs across the split ("Who and what …") stays whole
        if whole is not None and any(m.start < compound.at < m.end for m in whole.mentions):
            return None
        first = link(compound.first, self.api)
        if first is None:
            return None
        return compound.first, compound.second, first.names()

    def _run_one(self, question: str, cancel: threading.Event | None) -> Iterator[SoAyEvent]:
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
            answer.timings_ms["total"] = round((time.perf_counter() - started) * 1000, 1)
            yield Finished(answer)
            return
        if len(linked.mentions) == 2 and linked.start == "paper":  # "who wrote both A and B"
            yield from self._in_common(question, linked, plan, answer)
            answer.timings_ms["total"] = round((time.perf_counter() - started) * 1000, 1)
            yield Finished(answer)
            return
        plan = choice.plan = self._applying(plan, reading, linked)
        through = self._coauthors_on_papers(plan, reading, linked)
        if through is not None:  # "who did A work with on flaky tests": the authors of those papers, less A
            reading.count_after = plan.count  # "how many people did A publish with in 2022": counted once A is out
            plan = choice.plan = through
            reading.excluded += (head.matched,)
        answer.intent, answer.solution, answer.choice_mode = plan.key, list(plan.solution), choice.mode
        answer.asked = expected_kind(reading.asked, plan).value  # a question naming no kind asks for the plan's
        lap("solution")
        yield SolutionChosen(
            plan.key,
            list(plan.solution),
            len(plan.hops),
            choice.mode,
            choice.candidates,
            choice.probabilities,
            asked=reading.asked.value,
            description=plan.description,
        )

        place = place_asked(reading) if linked.start == "person" else None
        if place is not None:  # "Is A at Rensselaer?": yes or no, from the affiliation the library holds
            text, source = at_place(self.api, head, place)
            answer.ok, answer.answer, answer.sources = True, text, [source]
            answer.abstained = is_abstain(text)
            answer.value = None if answer.abstained else text.startswith("Yes")
            answer.timings_ms["total"] = round((time.perf_counter() - started) * 1000, 1)
            yield (
                Abstained(text, "missing", answer.sources)
                if answer.abstained
                else AnswerPhrased(text, answer.value, answer.sources)
            )
            yield Finished(answer)
            return
        if linked.start == "paper" and linked.extra and authorship_asked(reading):  # "Did A write X?"
            text, source = authorship(self.api, head, linked.extra, reading)
            answer.ok, answer.answer, answer.value, answer.sources = True, text, text.startswith("Yes"), [source]
            answer.timings_ms["total"] = round((time.perf_counter() - started) * 1000, 1)
            yield AnswerPhrased(text, answer.value, answer.sources)
            yield Finished(answer)
            return
        if not choice.supported:  # nothing any API returns is named: no value of another field stands in
            thing = asked_thing(reading.masked) or (
                field_named(reading, self.plans) if reading.start == "person" else None
            )
            answer.ok, answer.abstained = True, True
            about = linked.names()
            for route in BINDING:  # "the h-index of the first author of X": about the first author
                about = f"{ROLES[route]} {about}" if route in reading.cues else about
            answer.answer = abstain_sentence(thing or "record that answers this question", about)
            answer.timings_ms["total"] = round((time.perf_counter() - started) * 1000, 1)
            yield Abstained(answer.answer, "no field")
            yield Finished(answer)
            return
        conditions = conditions_of(reading, linked)
        reading.left_out = negated_conditions(question, reading, linked)
        unapplied, extra = narrowings(plan, conditions)
        refusal = None
        if unapplied:  # a venue, a topic, a year, a third person this answer cannot take into account
            about = subject_of(plan, linked, reading.topic, reading.year, reading.year_to)
            walked = plan.routes and plan.field in ("name", "title", "authors_name_list")  # the answer is who/what
            refusal = not_applied(about if walked else f"the {field_noun(plan)} of {about}", unapplied)
        elif linked.start == "paper" and linked.extra:  # "A's X paper", "A's coauthors on X": A is an author
            refusal = self._not_an_author(head, linked.extra)
        people = plan.kind is Kind.PEOPLE or (plan.count and plan.field in ("name", "authors_name_list"))
        place = people_place(reading, people and not is_yes_no(reading.masked))
        if not refusal and place:  # "which of A's coauthors is at Nagoya": no list of people is narrowed by it
            about = subject_of(plan, linked, reading.topic, reading.year, reading.year_to)
            refusal = abstain_sentence(f"way to apply “at {place}” to {about}")
        ranked_by = superlative(reading.masked)
        if not refusal and ranked_by and not (reading.rank or reading.limit or reading.compare):
            # "Which journal did A publish most in?": no plan ranks what it lists, so the list is no answer
            about = subject_of(plan, linked, reading.topic, reading.year, reading.year_to)
            refusal = abstain_sentence(f"way to rank by “{ranked_by}” {about if plan.routes else 'for ' + about}")
        if refusal:
            answer.ok, answer.abstained, answer.answer = True, True, refusal
            answer.timings_ms["total"] = round((time.perf_counter() - started) * 1000, 1)
            yield Abstained(refusal, "condition")
            yield Finished(answer)
            return
        # the programs search for what the linker resolved: the library's own title or name
        other = linked.mentions[1].matched if len(linked.mentions) > 1 else None
        left_out = tuple(narrow for narrow, _ in reading.left_out)
        arguments = Arguments(head.matched, other, reading.topic, reading.year, reading.year_to, extra, left_out)
        # the answer would hold what was left out; people "with no paper on X" are not those with one without X
        if left_out and (through is not None or self._template(plan, arguments) is None):
            said = " and ".join(words for _, words in reading.left_out)
            text = abstain_sentence(f"way to answer for {subject_of(plan, linked, None)} {said}")
            answer.ok, answer.abstained, answer.answer = True, True, text
            answer.timings_ms["total"] = round((time.perf_counter() - started) * 1000, 1)
            yield Abstained(text, "condition")
            yield Finished(answer)
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
        yield from self._judge(answer, plan, reading, linked, result, conditions)
        answer.timings_ms["total"] = round((time.perf_counter() - started) * 1000, 1)
        yield Finished(answer)

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

    def _judge(
        self,
        answer: SoAyAnswer,
        plan: Plan,
        reading: Reading,
        linked: Linked,
        result: SandboxResult,
        conditions: Sequence[Condition] = (),  # the question's conditions, all applied
    ) -> Iterator[SoAyEvent]:
        """The value if it is of the kind asked, cited; else the sentence saying what the library lacks."""
        answer.ok, answer.sources = True, cite(result, plan)
        subject = subject_of(plan, linked, reading.topic, reading.year, reading.year_to)
        own = {plan.narrow, "pair"} if plan.narrow != "pair" else set()  # said by subject_of already
        beyond = [c for c in conditions if c.narrow not in own]
        if reading.left_out:  # "A's papers not with B": said as such, never as the joint papers
            subject = left_out_subject(subject, linked, reading)
            beyond = [c for c in beyond if c.narrow not in dict(reading.left_out)]
        before = subject
        if beyond:  # the narrowings added for the question's other conditions, said with what they narrow
            subject += f" ({', '.join(c.said for c in beyond)})"
        answer.subject, answer.papers = subject, papers_of(plan, linked, reading)
        value = result.value
        if value == [] and reading.left_out and not plan.count:  # every paper was left out
            negated = " and ".join(words for _, words in reading.left_out)
            answer.answer = f"None: the library holds no paper of {linked.mentions[0].matched} {negated}."
            answer.value = []
            yield AnswerPhrased(answer.answer, [], answer.sources)
            return
        if reading.yes_no and plan.key == JOINT_PAPERS and not reading.left_out:  # none together: "no"
            said = [c.said for c in beyond if c.narrow != "pair"]  # the third person is in the names
            answer.answer, answer.value = yes_or_no(linked.all_names(), value, said), value
            yield AnswerPhrased(answer.answer, value, answer.sources)
            return
        if value == [] and plan.narrow == "pair" and not plan.count and not conditions and not reading.left_out:
            answer.answer, answer.value = yes_or_no(linked.all_names(), value), value
            yield AnswerPhrased(answer.answer, value, answer.sources)
            return
        ranked = any(c.narrow in RANKED for c in conditions)  # none left to rank: the figure is missing
        if value == [] and not plan.count and conditions and not ranked:  # none fits, or nothing to test
            yield from self._none_left(answer, plan, linked, before, conditions)
            return
        # entities masked: a linked name is never left out by "besides"; "with him" leaves the person out
        left_out = [name for name in (excluded_name(reading.question), *reading.excluded) if name]
        if left_out and isinstance(value, list) and plan.kind is Kind.PEOPLE:  # "who else … besides A"
            value = [item for item in value if not any(names_them(str(item), name) for name in left_out)]
            if reading.count_after:  # how many they are, once the person is left out
                value = len(dict.fromkeys(value))
                answer.answer, answer.value = f"Number of coauthors of {before}: {value}.", value
                yield AnswerPhrased(answer.answer, value, answer.sources)
                return
            subject += f" other than {' and '.join(reading.excluded)}" if reading.excluded else ""
        identifier = asked_identifier(reading.question) if plan.field == "url" else None
        if identifier is not None:  # an arXiv id only from an arXiv link, a DOI only where the link is one
            noun, read = identifier
            fetched = [call.result for call in result.calls if call.ok and call.name == "getPublication"]
            value = read(value) or recorded_identifier(noun, fetched)  # the link first, then the record
            text = f"{noun} of {subject}: {value}." if value else abstain_sentence(noun, subject)
            answer.answer, answer.abstained, answer.value = text, value is None, value
            yield AnswerPhrased(text, value, answer.sources) if value else Abstained(text, "missing", answer.sources)
            return
        place = author_place(reading.question) if plan.key == PAPER_AUTHORS and isinstance(value, list) else None
        if place is not None:  # "the second author of X": one name, by its place in the byline
            at, ordinal = place
            text = (
                f"The {ordinal} author of {linked.names()}: {value[at - 1]}."
                if at <= len(value)
                else f"{linked.names()} has {len(value)} author{'s' * (len(value) != 1)} in the library, "
                f"so no {ordinal} author: {', '.join(map(str, value))}."
            )
            answer.answer, answer.value = text, value[at - 1] if at <= len(value) else value
            yield AnswerPhrased(text, answer.value, answer.sources)
            return
        if reading.limit and isinstance(value, list) and len(value) > reading.limit and not plan.count:
            value = value[: reading.limit]  # "name three coauthors": the first three, as the API ranks them
            first = "the most frequent" if top_one(reading.question) else NUMBER_NAMES.get(reading.limit)
            subject = f"{first or reading.limit} of {subject}"
        text, reason = checked_answer(plan, reading.asked, subject, value)
        answer.answer = text
        if reason:
            answer.abstained = True
            yield Abstained(text, reason, answer.sources)
        else:
            answer.value = value
            yield AnswerPhrased(text, value, answer.sources)

    def _in_common(self, question: str, linked: Linked, plan: Plan, answer: SoAyAnswer) -> Iterator[SoAyEvent]:
        """Two papers named, not compared ("Who wrote both A and B?"): the authors they share, where the
        people who wrote a paper are asked; any other answer for two papers at once is said missing."""
        titles = [mention.matched for mention in linked.mentions]
        answer.ok = True
        asked_yes_no = is_yes_no(question) and ANYONE.search(question) is not None  # "did anyone write both"
        if not asked_yes_no and (plan.kind is not Kind.PEOPLE or plan.routes):
            answer.abstained = True
            answer.answer = abstain_sentence(f"way to answer for two papers at once ({' and '.join(titles)})")
            yield Abstained(answer.answer, "condition")
            return
        bylines = []
        for title in titles:
            hits = self.api.searchPublication(publication_info=title)
            record = self.api.getPublication(pub_id=hits[0]["pub_id"]) if hits else {}
            bylines.append([author.get("name") or "" for author in record.get("authors") or []])
            answer.sources.append(f"getPublication(pub_id={hits[0]['pub_id']!r})" if hits else "searchPublication")
        shared = [name for name in bylines[0] if any(names_them(other, name) for other in bylines[1])]
        both = " and ".join(titles)
        answer.value = shared
        answer.answer = (
            f"{'Yes: ' if asked_yes_no else ''}The authors of both {both}: {render_value(shared)}."
            if shared
            else f"No: no author of the library wrote both {both}."
        )
        yield AnswerPhrased(answer.answer, shared, answer.sources)

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

    def _none_left(
        self, answer: SoAyAnswer, plan: Plan, linked: Linked, subject: str, conditions: Sequence[Condition]
    ) -> Iterator[SoAyEvent]:
        """No paper fits the conditions: "none of them matches" where the library holds what they test
        for the person's papers; where it holds none (no venue for any of them), that is what is said."""
        head = linked.mentions[0].matched
        for condition in conditions:
            held = HELD_BY.get(condition.narrow)
            if held and not self._field_held(held, head):
                answer.abstained = True  # "The library has no venue for any paper of A, so none can be …"
                answer.answer = abstain_sentence(
                    f"{condition.narrow} for any paper of {head}, so none can be matched to {condition.said}"
                )
                yield Abstained(answer.answer, "missing", answer.sources)
                return
        answer.value = []
        papers = f"joint paper of {linked.all_names()}" if linked.start == "pair" else f"paper of {head}"
        answer.answer = none_left(papers, conditions)
        if any(condition.narrow == "venue" for condition in conditions):
            answer.answer = answer.answer.removesuffix(".") + self._preprints_said(head)
        yield AnswerPhrased(answer.answer, [], answer.sources)

    def _preprints_said(self, name: str) -> str:
        """ " (3 of the 5 papers of A are known only as arXiv preprints: …)." — a venue matched by none of the
        person's papers may still be where a preprint appeared, which the library does not record."""
        venues = self._field_values(HELD_BY["venue"], name)
        preprints = sum(str(venue).strip().lower().startswith("arxiv") for venue in venues)  # "arXiv (Cornell …)"
        if not preprints:
            return "."
        counted = f"all {len(venues)}" if preprints == len(venues) else f"{preprints} of the {len(venues)}"
        return (
            f" ({counted} papers of {name} are known only as arXiv preprints: where they appeared "
            "after arXiv is not in the library)."
        )

    def _field_values(self, key: str, name: str) -> list:
        """The field (their venues, their years) of each paper of the person, as the library holds it."""
        plan = next(plan for plan in self.plans if plan.key == key)
        result = self.sandbox.run(plan.program_for(name))
        return list(result.value or []) if result.ok else []

    def _field_held(self, key: str, name: str) -> bool:
        """Whether any paper of the person has the field (their venues, their years) in the library."""
        return any(value not in (None, "") for value in self._field_values(key, name))

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

    def _not_an_author(self, paper: Mention, people: tuple[Mention, ...]) -> str | None:
        """The sentence for a person named beside a paper who is not among its authors, else None."""
        hits = self.api.searchPublication(publication_info=paper.matched)
        record = self.api.getPublication(pub_id=hits[0]["pub_id"]) if hits else None
        authors = [author.get("name") or "" for author in (record or {}).get("authors") or []]
        for person in people:
            if all(similarity(author, person.matched) < SAME_NAME for author in authors):
                return f"The library has no {person.matched} among the authors of {paper.matched}."
        return None

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


def final_answer(events: Iterable[SoAyEvent]) -> SoAyAnswer:
    """The ``Finished`` answer of a run, for callers that want only the outcome (benchmarks, tests)."""
    for event in events:
        if isinstance(event, Finished):
            return event.answer
    raise RuntimeError("a SoAy run ended without its Finished event")
