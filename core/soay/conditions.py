"""The conditions a question sets on its answer, and which of them the chosen plan applies.

A question names more than a field and an entity: a venue ("… appeared in Physical Review B"), a
topic ("on Luttinger liquids"), a year or a span, the top paper by a figure ("latest"), more people
("with Hong Zhu and Dongmei Liu"). Each is a ``Condition``. The plan applies one of them itself (its
``narrow``); the others are applied as more narrowings of the person's papers (``plans.add_narrowings``)
where the plan walks a person's papers, and where it does not, the answer says plainly which
condition it could not apply: an answer never reads as if it applied a condition it ignored.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from scholar_tui.core.answer_kind import abstain_sentence
from scholar_tui.core.soay.narrowing import Narrow, add_narrowings
from scholar_tui.core.soay.plans import Plan

_CAPITALISED = r"[A-Za-z]*[A-Z][\w&+-]*\.?"
# "appeared in Physical Review B", "published at ICSE", "in the journal Entropy": a named venue is a
# capitalised run after "in"/"at" (the slot X, the masked entity, is none)
VENUE_NAMED = re.compile(
    r"(?:\b(?:appear\w*|publish\w*|present\w*|came out|come out|accepted|printed)\s+)?"
    r"\b(?:in|at)\s+(?:the\s+)?(?:(?:journal|conference|venue|proceedings)\s+(?:of\s+)?)?"
    rf"(?P<venue>(?!X\b){_CAPITALISED}(?:\s+(?:(?:of|for|and|&|the)\s+)*(?!X\b){_CAPITALISED})*"
    r"(?:\s+(?:19|20)\d\d\b)?)"  # "at AITest 2020": that year's meeting, matched in the venue's own words
)
# "his Annals of Physics paper", "which Physical Review B papers": a capitalised run naming the papers
VENUE_BEFORE_PAPERS = re.compile(
    r"\b(?i:which|what|any|the|his|her|their|X's|X’s)\s+"
    rf"(?P<venue>(?!X\b){_CAPITALISED}(?:\s+(?:(?:of|for|and|&|the)\s+)*(?!X\b){_CAPITALISED})*)"
    r"\s+(?:papers?|articles?|publications?)\b"
)
NOT_VENUES = {"arxiv's", "english", "python", "java"}


# A venue is where papers appear: "in"/"at" a capitalised name is one only where the question speaks of
# papers or publishing ("Is A at Paris-Saclay?" asks where A works)
PAPERS_SAID = re.compile(
    r"\b(?:papers?|publications?|articles?|works|preprints?|publish\w*|appear\w*|wr[io]te|written|write|authored|"
    r"came out|come out|presented|printed|accepted|anything)\b",
    re.I,
)


def venue_named(masked: str) -> re.Match | None:
    """Where the question names a venue the papers must have appeared in ("… in Physical Review B",
    "his Annals of Physics paper")."""
    if not PAPERS_SAID.search(masked):
        return None
    for pattern in (VENUE_NAMED, VENUE_BEFORE_PAPERS):
        for match in pattern.finditer(masked):
            if match.group("venue").lower() not in NOT_VENUES:
                return match
    return None


@dataclass(frozen=True)
class Condition:
    narrow: Narrow  # the narrowing that applies it
    value: str  # as the program takes it (Python source: a quoted name, a year, "2021:2023")
    said: str  # as an answer names it: "Physical Review B (a venue)"


def narrowings(plan: Plan, conditions: list[Condition]) -> tuple[list[Condition], tuple[tuple[Narrow, str], ...]]:
    """(the conditions not applied, the extra narrowings that apply the rest): the plan's own narrowing
    applies its condition (a pair's own: the second person); the others narrow the person's papers
    where the plan walks them, and none can where it does not."""
    rest = [c for c in conditions if c.narrow != plan.narrow or plan.narrow == "pair"]
    extra = tuple((c.narrow, c.value) for c in rest)
    if rest and add_narrowings(plan.program, plan.narrow, extra) is None:
        return rest, ()
    return [], extra


def not_applied(subject: str, conditions: list[Condition]) -> str:
    """The one sentence for conditions the answer cannot apply ("The library has no way to apply the
    venue Physical Review B to the affiliation of A."; ``is_abstain`` reads it as such)."""
    return abstain_sentence(f"way to apply {' and '.join(c.said for c in conditions)} to {subject}")


def none_left(papers: str, conditions: Sequence[Condition]) -> str:
    """No paper is left after the narrowings, and the library holds what they test: that is the answer
    ("No paper of A in the library matches the venue Physical Review B.")."""
    return f"No {papers} in the library matches {' and '.join(c.said for c in conditions)}."


def question_conditions(
    venue: str | None,
    topic: str | None,
    year: tuple[int, int | None] | None,
    rank: Narrow | None,
    people: list[str],
    alone: bool = False,
) -> list[Condition]:
    """The conditions a question sets, each with the narrowing that applies it."""
    found = [Condition("pair", repr(name), f"the papers written with {name}") for name in people]
    if alone:
        found.append(Condition("alone", "", "the papers written alone"))
    if venue:
        found.append(Condition("venue", repr(venue), f"the venue {venue}"))
    if topic:
        # a topic is matched in the titles (the abstracts are not searched): said so
        found.append(Condition("topic", repr(topic), f"the topic “{topic}” in its title"))
    if year:
        low, high = year
        span = f"{low}:{high}" if high is not None and high != low else str(low)
        found.append(
            Condition("year", span, f"the years {years_text(low, high)}" if ":" in span else f"the year {low}")
        )
    if rank:
        found.append(Condition(rank, "", f"the {rank.replace('_', ' ')} paper"))
    return found


OPEN_ENDED = 9999  # "since 2021": no last year


def years_text(low: int, high: int | None) -> str:
    if high == OPEN_ENDED:
        return f"since {low}"
    return f"up to {high}" if low <= 1500 else f"{low}–{high}"
