"""The answer a person reads: a program's value phrased with what it is about and the calls it came from,
when it is of the kind the question asks for; else the one sentence saying what the library lacks.

``Judge`` reads the run's value against the question (its conditions, the people it leaves out, a place
in the byline, an identifier asked of a link, a yes or no about a pair, two papers named at once) and
says it through ``phrasing``'s sentences; it asks the library again only to say why nothing is left
(no venue held for any of the person's papers, papers known only as preprints).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Any

from scholar_tui.core.answer_kind import Kind, abstain_sentence
from scholar_tui.core.sandbox import Sandbox, SandboxResult
from scholar_tui.core.soay.conditions import Condition, none_left
from scholar_tui.core.soay.entities import SAME_NAME, paper_record, similarity
from scholar_tui.core.soay.events import Abstained, AnswerPhrased, SoAyAnswer, SoAyEvent
from scholar_tui.core.soay.linking import Linked, left_out_subject, papers_of, subject_of
from scholar_tui.core.soay.narrowing import RANKED
from scholar_tui.core.soay.phrasing import (
    asked_identifier,
    checked_answer,
    recorded_identifier,
    render_value,
    yes_or_no,
)
from scholar_tui.core.soay.plans import Plan
from scholar_tui.core.soay.reading import Reading
from scholar_tui.core.soay.shapes import NUMBER_NAMES, author_place, excluded_name, is_yes_no, top_one
from scholar_tui.indexes.records import fold

JOINT_PAPERS = "pair|getPersonPubs:one|title|value|pair"
PAPER_AUTHORS = "searchPublication|getPublication:one|authors.name|value|all"  # in byline order
ANYONE = re.compile(r"\b(?:anyone|anybody|someone|somebody|any author|the same (?:author|person|people))\b", re.I)
# A narrowing tests a field of the person's papers; the plan that lists that field for all of them
HELD_BY: dict[str, str] = {
    "venue": "searchPerson|getPersonPubs:one|getPublication:each|venue|value|all",
    "year": "searchPerson|getPersonPubs:one|year|value|all",
}


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


def papers_were_left(plan: Plan, result: SandboxResult) -> bool:
    """Whether some of the person's papers passed the narrowing: the plan went on to read each one's
    record (their authors' organizations). An empty value is then the field missing from those records,
    not "no paper matches": blaming the topic for a field no record holds is a wrong answer."""
    walked = [hop.api for hop in plan.hops]
    if "getPersonPubs" not in walked:
        return False
    after = set(walked[walked.index("getPersonPubs") + 1 :])
    return any(call.ok and call.name in after for call in result.calls)


def cite(result: SandboxResult, plan: Plan) -> list[str]:
    """The calls of the plan's last API that produced the value: the record it came from."""
    calls = [call for call in result.calls if call.ok and call.name == plan.hops[-1].api]
    shown = [f"{call.name}({', '.join(f'{k}={v!r}' for k, v in call.arguments.items())})" for call in calls[:3]]
    if len(calls) > 3:
        shown.append(f"… {len(calls) - 3} more {plan.hops[-1].api} calls")
    return shown


class Judge:
    """Turns a run's value into the answer's sentence; ``api`` and ``sandbox`` ask the library why
    nothing is left, ``plans`` are the solution library those questions are asked through."""

    def __init__(self, api: Any, sandbox: Sandbox, plans: tuple[Plan, ...]) -> None:
        self.api = api
        self.sandbox = sandbox
        self.plans = plans

    def phrase_result(
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
        if value == [] and not plan.count and conditions and not ranked and not papers_were_left(plan, result):
            yield from self.nothing_left(answer, plan, linked, before, conditions)  # none fits, or nothing to test
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

    def in_common(self, question: str, linked: Linked, plan: Plan, answer: SoAyAnswer) -> Iterator[SoAyEvent]:
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
            record, source = paper_record(self.api, title)
            bylines.append([author.get("name") or "" for author in record.get("authors") or []])
            answer.sources.append(source)
        shared = [name for name in bylines[0] if any(names_them(other, name) for other in bylines[1])]
        both = " and ".join(titles)
        answer.value = shared
        answer.answer = (
            f"{'Yes: ' if asked_yes_no else ''}The authors of both {both}: {render_value(shared)}."
            if shared
            else f"No: no author of the library wrote both {both}."
        )
        yield AnswerPhrased(answer.answer, shared, answer.sources)

    def nothing_left(
        self, answer: SoAyAnswer, plan: Plan, linked: Linked, subject: str, conditions: Sequence[Condition]
    ) -> Iterator[SoAyEvent]:
        """No paper fits the conditions: "none of them matches" where the library holds what they test
        for the person's papers; where it holds none (no venue for any of them), that is what is said."""
        head = linked.mentions[0].matched
        for condition in conditions:
            held = HELD_BY.get(condition.narrow)
            if held and not self.field_held(held, head):
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
            answer.answer = answer.answer.removesuffix(".") + self.preprints_said(head)
        yield AnswerPhrased(answer.answer, [], answer.sources)

    def preprints_said(self, name: str) -> str:
        """ " (3 of the 5 papers of A are known only as arXiv preprints: …)." — a venue matched by none of the
        person's papers may still be where a preprint appeared, which the library does not record."""
        venues = self.field_values(HELD_BY["venue"], name)
        preprints = sum(str(venue).strip().lower().startswith("arxiv") for venue in venues)  # "arXiv (Cornell …)"
        if not preprints:
            return "."
        counted = f"all {len(venues)}" if preprints == len(venues) else f"{preprints} of the {len(venues)}"
        return (
            f" ({counted} papers of {name} are known only as arXiv preprints: where they appeared "
            "after arXiv is not in the library)."
        )

    def field_values(self, key: str, name: str) -> list:
        """The field (their venues, their years) of each paper of the person, as the library holds it."""
        plan = next(plan for plan in self.plans if plan.key == key)
        result = self.sandbox.run(plan.program_for(name))
        return list(result.value or []) if result.ok else []

    def field_held(self, key: str, name: str) -> bool:
        """Whether any paper of the person has the field (their venues, their years) in the library."""
        return any(value not in (None, "") for value in self.field_values(key, name))
