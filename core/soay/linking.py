"""What a question starts from and what it narrows its answer by: the paper or people it names
(``Linked``: found by the fuzzy-search APIs, never generated), the people an answer leaves out, the
question's conditions (``conditions.py``), and the answer's subject in words ("the papers of A of
2022"), which a second question's pronouns refer back to."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from scholar_tui.core.soay.conditions import Condition, question_conditions
from scholar_tui.core.soay.coverage import best_covering, better_described, describes_another, their_paper_described
from scholar_tui.core.soay.entities import Mention, find_people
from scholar_tui.core.soay.narrowing import RANKED
from scholar_tui.core.soay.phrasing import ROLES, years_said
from scholar_tui.core.soay.plans import Plan
from scholar_tui.core.soay.reading import SLOT, Reading
from scholar_tui.core.soay.shapes import comparison, left_out_at, negated_after, negated_between
from scholar_tui.core.soay.titles import SURE_TITLE, find_paper, named_in_title
from scholar_tui.indexes.records import fold


@dataclass(frozen=True)
class Linked:
    """What a question starts from: its entities (one, or a pair of people) and the plan's arguments."""

    mentions: tuple[Mention, ...]
    extra: tuple[Mention, ...] = ()  # people named beyond a pair ("A with B and C"), or beside a paper

    @property
    def start(self) -> str:
        if self.mentions[0].kind == "paper":
            return "paper"
        return "pair" if len(self.mentions) > 1 else "person"

    def masked(self, question: str) -> str:
        for mention in sorted(self.mentions + self.extra, key=lambda m: -m.start):
            question = question[: mention.start] + SLOT + question[mention.end :]
        return question

    def names(self) -> str:
        return " and ".join(m.matched for m in self.mentions)

    def all_names(self) -> str:
        """ "A, B and C": every person a pair question names, the extra ones too."""
        names = [m.matched for m in self.mentions + self.extra]
        return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


EXACT = 1.0  # a paper named by its identifier, or its title read letter for letter
# "who wrote both A and B", "which of A's authors also wrote B": people common to two papers
BOTH_PAPERS = re.compile(r"\bboth\b|\balso\b|\bin common\b", re.I)


def link(question: str, api: Any) -> Linked | None:
    """The paper the question names, else the scholars it names (two: a pair)."""
    paper = _paper_read_alike(question, api)
    people: list[Mention] = []
    if paper is None:
        # a scholar the question leaves out ("who else … apart from B") is no second entity to start from
        people = [mention for mention in find_people(question, api) if not left_out_at(question, mention.start)]
        if all(mention.others for mention in people):  # no one named for sure: a paper named by what it is about?
            paper = _paper_described(question, api)
        elif len(people) == 1:  # "A's coauthors on the paper about …": one of A's papers, described
            described_paper = their_paper_described(question, people[0], api)
            if described_paper is not None:
                return Linked((described_paper,), tuple(people))
    if paper is not None:
        # "Which has more citations, A or B?", "Who wrote both A and B?": the second paper, in the rest
        if comparison(question) or BOTH_PAPERS.search(question):
            rest = question[: paper.start] + " " * (paper.end - paper.start) + question[paper.end :]
            # "… or the strip planarity testing one": the second may be named by what it is about
            other = find_paper(rest, api) or _paper_described(rest, api)
            if other is not None and other.matched != paper.matched:
                return Linked(tuple(sorted((paper, other), key=lambda m: m.start)))
        # a scholar named beside the paper ("A's coauthors on the X paper") is a condition on the answer
        rest = question[: paper.start] + " " * (paper.end - paper.start) + question[paper.end :]
        beside = [m for m in find_people(rest, api) if not left_out_at(rest, m.start) and not m.others]
        if beside:  # "Orso's REST paper": the title among that scholar's papers, where the library has one
            paper = _among_their_papers(paper, beside[0], api) or paper
        return Linked((paper,), tuple(beside))
    return Linked(tuple(people[:2]), tuple(people[2:])) if people else None


def _paper_read_alike(question: str, api: Any) -> Mention | None:
    """The paper a span of the question reads like (titles.py), unless the words around it describe
    another: a paper the question describes better, or particulars its record lacks (the library then
    holds no paper the question names that way)."""
    paper = find_paper(question, api) or _title_naming_someone(question, api)
    if paper is None or paper.score >= EXACT:  # an identifier, or the title letter for letter
        return paper
    better = better_described(question, paper, api) if paper.score < SURE_TITLE else None
    if better is None and describes_another(question, paper, api):
        return None
    return better or paper


def _paper_described(question: str, api: Any) -> Mention | None:
    """The one paper the question describes by what it is about (coverage.py), or None."""
    covering = best_covering(question, api)
    return covering[0] if covering else None


def _among_their_papers(paper: Mention, person: Mention, api: Any) -> Mention | None:
    """The one paper of the person whose title holds the words the question named a paper by, where the
    paper found first is not theirs ("Orso's REST paper" is his REST APIs paper, not another "REST: …")."""
    try:
        found = api.searchPerson(name=person.matched)
        pubs = api.getPersonPubs(person_id=found[0]["person_id"]) if found else []
    except Exception:
        return None
    titles = [pub.get("title") or "" for pub in pubs]
    if paper.matched in titles:
        return None
    words = [word for word in fold(paper.text).split() if len(word) > 2]
    holding = [title for title in titles if words and all(word in fold(title).split() for word in words)]
    if len(holding) != 1:
        return None
    return Mention("paper", paper.text, paper.start, paper.end, holding[0], paper.score)


def _title_naming_someone(question: str, api: Any) -> Mention | None:
    """A title the question names by words that hold a name ("the history of Rao's score test"): the
    title wins over a scholar of that name who did not write it."""
    for mention in find_people(question, api):
        paper = named_in_title(question, mention, api)
        if paper is not None:
            return paper
    return None


def subject_of(
    plan: Plan, linked: Linked, topic: str | None, year: int | None = None, year_to: int | None = None
) -> str:
    """Who or what the value is about, in words: 'the first author of ‹title›', 'the papers of A and B on …'."""
    return _said_through(plan, linked, topic, year, year_to, plan.routes)


def papers_of(plan: Plan, linked: Linked, reading: Reading) -> str | None:
    """The person's papers the plan walks, in words ("the latest paper of A", "the papers of A of
    2022"): what a second question's "it" or "they" refers to when the first asked about them."""
    if "pubs" not in plan.routes:
        return None
    routes = plan.routes[: plan.routes.index("pubs") + 1]
    return _said_through(plan, linked, reading.topic, reading.year, reading.year_to, routes)


def _said_through(
    plan: Plan, linked: Linked, topic: str | None, year: int | None, year_to: int | None, routes: tuple[str, ...]
) -> str:
    subject = linked.names()
    for route in routes:
        role = "the joint papers of" if route == "pubs" and plan.narrow == "pair" else ROLES[route]
        subject = f"{role} {subject}"
        if route == "pubs" and plan.narrow == "topic" and topic:
            subject += f" on {topic}"
        if route == "pubs" and plan.narrow == "year" and year:
            subject += f" {years_said(year, year_to)}"
        if route == "pubs" and plan.narrow in RANKED and subject.startswith("the papers of"):
            subject = f"the {plan.narrow.replace('_', ' ')} paper of" + subject.removeprefix("the papers of")
    return subject


def left_out_people(reading: Reading, linked: Linked) -> None:
    """The people an answer leaves out: the person of "who wrote X's latest paper with him", and the
    person named beside a paper whose coauthors are asked ("A's coauthors on the X paper": that
    paper's authors other than A, never the coauthors of every author)."""
    if reading.without_head:
        reading.excluded += (linked.mentions[0].matched,)
    if linked.start == "paper" and linked.extra and "coauthors" in reading.cues:
        reading.cues = (reading.cues - {"coauthors"}) | {"authors"}
        reading.field_text += " authors"
        reading.excluded += tuple(mention.matched for mention in linked.extra)


def conditions_of(reading: Reading, linked: Linked) -> list[Condition]:
    """What the question narrows its answer by, beyond its entities (a paper's start has none: the
    people named beside it are checked as its authors)."""
    if linked.start == "paper":
        return []
    year = (reading.year, reading.year_to) if reading.year else None
    people = [mention.matched for mention in linked.extra]
    return question_conditions(reading.venue, reading.topic, year, reading.rank, people, reading.alone)


def negated_conditions(question: str, reading: Reading, linked: Linked) -> tuple[tuple[str, str], ...]:
    """The conditions the question negates, each (its narrowing, the words that say it is left out):
    a second person after "weren't with" / "without", a topic after "not about", a year or a venue after
    "not in". Only what follows the person asked about is read (see ``shapes.negated_between``)."""
    head = linked.mentions[0]
    if linked.start == "paper":  # "which coauthor has no paper about X": the paper named is the one left out
        return (("paper", "with that paper left out"),) if negated_between(question, 0, head.start) else ()
    found: list[tuple[str, str]] = []
    if linked.start == "pair" and negated_after(question, linked.mentions[-1].end):
        # "what did A and B not write together": whose papers are meant is not said; no plan answers it
        found.append(("both", "not written together"))
    for other in (*linked.mentions[1:], *linked.extra):
        if negated_between(question, head.end, other.start):
            found.append(("pair", f"not written with {other.matched}"))
    lowered = question.lower()
    spoken = (
        ("topic", reading.topic, "not on {}"),
        ("venue", reading.venue, "not in {}"),
        ("year", str(reading.year) if reading.year and reading.year_to is None else None, "not of {}"),
    )
    for narrow, words, said in spoken:
        at = lowered.find(words.lower(), head.end) if words else -1
        if words and at >= 0 and negated_between(question, head.end, at):
            found.append((narrow, said.format(words)))
    return tuple(found)


def left_out_subject(subject: str, linked: Linked, reading: Reading) -> str:
    """The answer's subject with its negated conditions said as such ("the papers of A not written with
    B"), never as what was left out ("the joint papers of A and B", "the papers of A on X")."""
    head = linked.mentions[0].matched
    said = " and ".join(words for _, words in reading.left_out)
    subject = subject.replace(f"the joint papers of {linked.names()}", f"the papers of {head}")
    for narrow, _ in reading.left_out:
        if narrow == "topic" and reading.topic:
            subject = subject.replace(f" on {reading.topic}", "", 1)
        if narrow == "year" and reading.year:
            subject = subject.replace(f" {years_said(reading.year, reading.year_to)}", "", 1)
    papers = f"the papers of {head}"
    return subject.replace(papers, f"{papers} {said}", 1) if papers in subject else f"{subject} ({said})"
