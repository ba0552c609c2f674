"""The sentences SoAy says instead of running a program: the question asks for something no API returns,
or a condition (a venue, a place, a ranking, a person left out) that the chosen plan cannot apply.

Each is decided before the sandbox runs, from the question's reading and the plan, and said in one
plain sentence (``core.answer_kind.abstain_sentence``): never the value of another field in its place,
never a list the condition did not narrow.
"""

from __future__ import annotations

from typing import Any

from scholar_tui.core.answer_kind import Kind, abstain_sentence
from scholar_tui.core.soay.choose import ASKED_BY_VERB, asked_thing, field_named, noun_asked
from scholar_tui.core.soay.conditions import Condition, not_applied
from scholar_tui.core.soay.entities import SAME_NAME, Mention, paper_record, similarity
from scholar_tui.core.soay.linking import Linked, subject_of
from scholar_tui.core.soay.phrasing import ROLES, field_noun
from scholar_tui.core.soay.plans import Plan
from scholar_tui.core.soay.reading import BINDING, Reading
from scholar_tui.core.soay.shapes import is_yes_no, superlative
from scholar_tui.core.soay.verdicts import people_place


def unsupported(reading: Reading, linked: Linked, plans: tuple[Plan, ...]) -> str:
    """Nothing any API returns is named by the question: what it asks for, said missing, about whom."""
    by_verb = any(pattern.search(reading.masked) for pattern, _ in ASKED_BY_VERB)  # "funded": funding information
    thing = (
        (None if by_verb else noun_asked(reading.masked))  # "Which publisher's ebooks is …": no publisher
        or asked_thing(reading.masked)
        or (field_named(reading, plans) if reading.start == "person" else None)
    )
    about = linked.names()
    for route in BINDING:  # "the h-index of the first author of X": about the first author
        about = f"{ROLES[route]} {about}" if route in reading.cues else about
    return abstain_sentence(thing or "record that answers this question", about)


def not_an_author(api: Any, paper: Mention, people: tuple[Mention, ...]) -> str | None:
    """The sentence for a person named beside a paper who is not among its authors, else None."""
    record, _source = paper_record(api, paper.matched)
    authors = [author.get("name") or "" for author in record.get("authors") or []]
    for person in people:
        if all(similarity(author, person.matched) < SAME_NAME for author in authors):
            return f"The library has no {person.matched} among the authors of {paper.matched}."
    return None


def condition_refusal(api: Any, plan: Plan, reading: Reading, linked: Linked, unapplied: list[Condition]) -> str | None:
    """The sentence for a question whose conditions the plan cannot apply, else None: a venue, a topic,
    a year or a third person it cannot take into account, a person named beside a paper they did not
    write, a place that narrows no list of people, a ranking no plan makes."""
    refusal = None
    if unapplied:  # a venue, a topic, a year, a third person this answer cannot take into account
        about = subject_of(plan, linked, reading.topic, reading.year, reading.year_to)
        walked = plan.routes and plan.field in ("name", "title", "authors_name_list")  # the answer is who/what
        refusal = not_applied(about if walked else f"the {field_noun(plan)} of {about}", unapplied)
    elif linked.start == "paper" and linked.extra:  # "A's X paper", "A's coauthors on X": A is an author
        refusal = not_an_author(api, linked.mentions[0], linked.extra)
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
    return refusal


def left_out_refusal(plan: Plan, linked: Linked, reading: Reading) -> str:
    """A negated condition the program cannot turn round ("people with no paper on X" are not those with
    one paper without X): said, never answered with what it would have left out."""
    said = " and ".join(words for _, words in reading.left_out)
    return abstain_sentence(f"way to answer for {subject_of(plan, linked, None)} {said}")
