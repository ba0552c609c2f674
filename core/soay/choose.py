"""Choosing a plan for a question: by what it asks for and what it starts from.

A question is read into a few facts (``Reading``): the kind of answer it asks for
(``core.answer_kind.asked_kind`` on the question with its entities masked), what it starts from
(a person, a paper, a pair of people), the relations it walks (the first author, the coauthors,
a person's papers — cue words, not whole questions) and a topic that narrows a person's papers
("… publish on random polynomials"). Every generated plan that starts there is scored: the
answer's kind must agree, the field's own words (``plans.FIELD_WORDS``) and the relations must
be named, and fewer hops win a tie. No plan is chosen by being the nearest known question.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from scholar_tui.core.answer_kind import Kind, asked_kind
from scholar_tui.core.soay.plans import FIELD_WORDS, Plan, Start, default_plans

ROUTE_CUES = {
    "first_author": re.compile(
        r"\b(?:first|lead|leading|primary|main|principal)[- ](?:author|writer|name)|\blisted first|"
        r"\bfirst[- ]listed|\bcomes? first|\bfirst on\b", re.I),
    "coauthors": re.compile(
        r"\bco-?authors?\b|\bco-?authored\b|\bcollaborat\w*|\bco-?wr[io]te\b|\bco-?writers?\b|\bwith whom\b|"
        r"\b(?:work|works|worked|working|written|wrote|write|writes|publish|published|publishes|partnered|"
        r"teamed up)\b(?:\s+\w+){0,2}\s+with\b|\bwho\b.*\bwith\b|\bpeople\b.*\bwith\b", re.I),
    "pubs": re.compile(
        r"\b(?:papers?|publications?|articles?|works|pubs|preprints?|manuscripts?)\b|\b(?:publish\w*|wrote|"
        r"written|write|authored)\b", re.I),
    "authors": re.compile(r"\bauthors\b|\beach author\b|\bevery author\b|\bwriters\b|\bpeople (?:behind|who wrote)",
                          re.I),
}
# Cues that, when present, a plan must follow (a "first author" question never answers for all authors).
BINDING = ("first_author", "coauthors")
TOPIC = re.compile(r"\b(?:on|about|regarding|concerning|related to|in the (?:area|field) of)\s+"
                   r"(?!(?:it|them|this|that|X)\b)([^?!.]*[^\s?!.,])", re.I)
NOT_TOPICS = {"average", "arxiv", "the arxiv", "record", "file", "the library", "google scholar"}
SLOT = "X"


@dataclass
class Reading:
    question: str
    masked: str  # the question with its entities as the slot word
    asked: Kind
    start: Start
    cues: set[str]
    topic: str | None = None
    scores: list[tuple[str, float]] = field(default_factory=list)


def read_question(masked: str, start: Start) -> Reading:
    """What a question (its entities already replaced by ``SLOT``) asks for and walks through."""
    cues = {name for name, cue in ROUTE_CUES.items() if cue.search(masked)}
    topic = None
    if start == "person":
        match = TOPIC.search(masked)
        if match and match.group(1).strip().lower() not in NOT_TOPICS:
            topic = match.group(1).strip()
    return Reading(masked, masked, asked_kind(masked), start, cues, topic)


def _word_hits(words: tuple[str, ...], text: str) -> int:
    return sum(bool(re.search(rf"\b{re.escape(word)}", text, re.I)) for word in words)


def support(plan: Plan, reading: Reading) -> int:
    """How many of the question's words name what the plan returns: its field's words, or a relation
    it walks that only it can ("coauthors" for a count of coauthors). Zero: the question asks for
    something no API returns (an h-index, a funder) and the nearest field must not answer for it."""
    field_hits = _word_hits(FIELD_WORDS.get(plan.field, ()), reading.masked)
    return field_hits + sum(route in reading.cues for route in plan.routes if route in BINDING)


# What the question asks for, in its own words, for the sentence saying that no field holds it.
ASKED_THING = (
    re.compile(r"\bhow many\s+([\w\- ]{2,40}?)\s+(?:does|do|did|has|have|is|are|was|were)\b", re.I),
    re.compile(r"\b(?:what|which)(?:'s|’s| is| are| was| were)?\s+(?:the\s+|an?\s+)?(?:X(?:'s|’s)\s+)?"
               r"([\w\- ]{2,40}?)\s+(?:of|for|does|did|do|has|have|is|are|was|were|behind)\b", re.I),
    re.compile(r"\bX(?:'s|’s)\s+([\w\- ]{2,40}?)\s*[?.!]*$", re.I),
    re.compile(r"\bthe\s+([\w\- ]{2,40}?)\s+(?:of|for|behind)\s+X\b", re.I),
)


def asked_thing(masked: str) -> str | None:
    for pattern in ASKED_THING:
        match = pattern.search(masked)
        if match and match.group(1).strip().lower() not in ("", "x", "the"):
            return match.group(1).strip()
    return None


def score_plan(plan: Plan, reading: Reading) -> float:
    asked = reading.asked
    score = 0.0
    if asked is not Kind.TEXT:
        if plan.kind is asked:
            score += 4
        elif {asked, plan.kind} <= {Kind.PLACE, Kind.VENUE}:
            score += 2
        else:
            score -= 4
    elif plan.kind is not Kind.TEXT:
        score -= 1  # a question with no kind cue most often wants a description
    score += 1.5 * min(_word_hits(FIELD_WORDS.get(plan.field, ()), reading.masked), 2)
    routes = plan.routes
    for route in routes:  # a relation the plan walks must be named; the binding ones count for it too
        if route not in reading.cues:
            score -= 3
        elif route in BINDING:
            score += 1.5
    for route in BINDING:
        if route in reading.cues and route not in routes:
            score -= 3
    if reading.topic:
        score += 2.5 if plan.narrow == "topic" else 0
    score -= 0.25 * len(plan.hops) + (0.1 if plan.count else 0)
    return score


def candidate_plans(reading: Reading, plans: tuple[Plan, ...] | None = None) -> list[Plan]:
    plans = plans if plans is not None else default_plans()
    return [plan for plan in plans
            if plan.start == reading.start and (plan.narrow != "topic" or reading.topic)]


def rank_plans(reading: Reading, plans: tuple[Plan, ...] | None = None) -> list[tuple[Plan, float]]:
    """Plans for this start, best first (ties: fewer hops, then the key, so a choice is repeatable)."""
    scored = [(plan, score_plan(plan, reading)) for plan in candidate_plans(reading, plans)]
    scored.sort(key=lambda item: (-item[1], len(item[0].hops), item[0].key))
    reading.scores = [(plan.key, round(score, 2)) for plan, score in scored[:5]]
    return scored
