"""How SoAy says an answer: the value phrased with what it is about, checked against the kind asked
(``core.answer_kind``), or the one sentence saying what the library lacks; and the phrasings of the
question shapes (yes or no about a pair, two compared, a DOI read from a link)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from scholar_tui.core.answer_kind import Kind, abstain_sentence, fits
from scholar_tui.core.events import counted
from scholar_tui.core.soay.conditions import OPEN_ENDED
from scholar_tui.core.soay.narrowing import RANKED
from scholar_tui.core.soay.plans import FIELD_NOUNS, Plan

LISTED = 50  # items an answer names; a longer list is named by its first ones and counted


def render_value(value: Any, most: int = LISTED) -> str:
    """A value as an answer says it: a list's items each once (one affiliation shared by three authors
    is said once), and a list of more than ``most`` items (a prolific author's thousands of coauthors,
    which the APIs give most joint papers first) as its first ``most`` and how many in all. The whole
    value stays in the answer's ``value``."""
    if isinstance(value, list):
        if not value:
            return "(none)"
        items = list(dict.fromkeys(render_value(item) for item in value))
        shown = ", ".join(items[:most])
        if len(items) > most:
            shown += f" and {len(items) - most:,} more ({len(items):,} in all)"
        return shown
    if value is None:
        return "(unknown)"
    return str(value)


ROLES = {
    "first_author": "the first author of",
    "last_author": "the last author of",
    "coauthors": "the coauthors of",
    "pubs": "the papers of",
    "authors": "the authors of",
}


def years_said(year: int, year_to: int | None) -> str:
    """ "of 2021", "of 2021–2023", "since 2021", "up to 2019"."""
    if year_to is None or year_to == year:
        return f"of {year}"
    if year_to == OPEN_ENDED:
        return f"since {year}"
    return f"up to {year_to}" if year <= 1500 else f"of {year}–{year_to}"


def field_noun(plan: Plan) -> str:
    if (plan.first_item or plan.last_item) and plan.field == "authors.organization":
        return "affiliation"
    return FIELD_NOUNS.get(plan.field, plan.field.rsplit(".", 1)[-1].replace("_", " "))


def phrase_answer(plan: Plan, subject: str, value: Any) -> str:
    if plan.count:
        if plan.field in ("name", "title") and plan.routes:  # the coauthors, the papers walked to
            return f"Number of {subject.removeprefix('the ')}: {value}."
        return f"Number of {field_noun(plan)} of {subject}: {value}."
    if (plan.first_item or plan.last_item) and plan.field in ("authors.name", "authors_name_list"):
        return f"{subject[:1].upper()}{subject[1:]}: {render_value(value)}."
    if plan.field == "title" and not plan.routes and plan.start == "paper":  # "what is the X paper called"
        return f"The paper is {render_value(value)}."
    if plan.field in ("name", "title") and plan.routes:  # the people or papers walked to are the answer
        return f"{subject[:1].upper()}{subject[1:]}: {render_value(value)}."
    noun = field_noun(plan)
    return f"{noun[:1].upper()}{noun[1:]} of {subject}: {render_value(value)}."


def _missing(value: Any) -> bool:
    if value is None or value == "" or value == []:
        return True
    return isinstance(value, list) and all(_missing(item) for item in value)


def expected_kind(asked: Kind, plan: Plan) -> Kind:
    """The kind the value is checked against: the question's, or the plan's when the question names none
    (and a venue answers a "where" as well as a place)."""
    if asked is Kind.TEXT or {asked, plan.kind} <= {Kind.PLACE, Kind.VENUE}:
        return plan.kind
    return asked


def checked_answer(plan: Plan, asked: Kind, subject: str, value: Any) -> tuple[str, str]:
    """(text, reason): the phrased value when it is of the kind asked (reason ""), else the one sentence
    saying what the library lacks (reason "missing" for null or empty, "wrong kind" for a value that
    does not answer the question: a year for a "where" is never shown as the place)."""
    kind = expected_kind(asked, plan)
    if kind is Kind.COUNT and isinstance(value, list) and len(value) == 1:
        value = value[0]  # the one paper's figure ("how many citations does X's paper on … have")
    if plan.count or not _missing(value):
        if fits(kind, value):
            return phrase_answer(plan, subject, value), ""
        reason = "wrong kind"
    else:
        reason = "missing"
    noun = field_noun(plan) if reason == "missing" or kind is plan.kind else kind.noun
    if reason == "missing" and plan.narrow in RANKED:  # nothing to rank by: that figure is what is missing
        ranked_by = RANKED[plan.narrow][0]
        noun = FIELD_NOUNS.get(ranked_by, ranked_by)
        subject = subject.replace(f"the {plan.narrow.replace('_', ' ')} paper of", "the papers of", 1)
    return abstain_sentence(noun, subject), reason


DOI_ASKED = re.compile(r"\bdoi\b", re.I)
DOI = re.compile(r"\b10\.\d{4,9}/[^\s\"<>]+")


ARXIV_ID_ASKED = re.compile(r"\barxiv\s*(?:id|identifier|number|no\.?)\b", re.I)
ARXIV_ID = re.compile(r"arxiv\.org/(?:abs|pdf)/([^\s?#]+?)(?:\.pdf)?$")


def arxiv_id_in(link: Any) -> str | None:
    """The arXiv id a paper's link holds (https://arxiv.org/abs/2212.11803); a DOI link holds none."""
    found = ARXIV_ID.search(link) if isinstance(link, str) else None
    return found.group(1) if found else None


def doi_in(link: Any) -> str | None:
    """The DOI a paper's link holds (https://doi.org/10.3390/e23091165); an arXiv link holds none."""
    found = DOI.search(link) if isinstance(link, str) else None
    return found.group(0) if found else None


# Identifiers read out of a paper's link, in the order they are looked for: (what it is called, the
# question's cue, the reader of the link)
IDENTIFIERS: tuple[tuple[str, re.Pattern, Callable[[Any], str | None]], ...] = (
    ("arXiv id", ARXIV_ID_ASKED, arxiv_id_in),
    ("DOI", DOI_ASKED, doi_in),
)


RECORD_KEYS = {"arXiv id": "arxiv_id", "DOI": "doi"}  # where getPublication's record holds each identifier


def recorded_identifier(noun: str, records: Iterable[Any]) -> str | None:
    """The identifier a paper's record holds beside its link (an arXiv paper's journal DOI), from the
    records the program fetched; None where none holds it."""
    key = RECORD_KEYS.get(noun)
    for record in records:
        found = record.get(key) if key and isinstance(record, dict) else None
        if found:
            return str(found)
    return None


def asked_identifier(question: str) -> tuple[str, Callable[[Any], str | None]] | None:
    """The identifier a question asks for ("the arXiv number of X", "X's DOI") and its reader; None: none."""
    return next(((noun, read) for noun, asked, read in IDENTIFIERS if asked.search(question)), None)


WALKED = {"pubs": "papers", "coauthors": "coauthors", "authors": "authors"}


def measured(plan: Plan) -> str:
    """What a counting plan measures, in words: "publication count", "number of coauthors"."""
    if plan.count and plan.routes:
        return f"number of {WALKED.get(plan.routes[-1], field_noun(plan))}"
    return field_noun(plan)


def compared(names: list[str], figures: list[Any], noun: str, more: bool, in_time: bool = False) -> str:
    """ "Gordon Fraser has the higher publication count: Gordon Fraser 5, Andrea Stocco 4."; of years,
    "Morphy … is the earlier (year): EuclidNets … 2022, Morphy … 2019."."""
    both = ", ".join(f"{name} {figure}" for name, figure in zip(names, figures, strict=True))
    values = [int(float(str(figure).replace(",", ""))) for figure in figures]
    if len(set(values)) == 1:
        return f"{' and '.join(names)} have the same {noun}: {both}."
    pick = max if more else min
    winner = names[values.index(pick(values))]
    if in_time:
        return f"{winner} is the {'later' if more else 'earlier'} ({noun}): {both}."
    return f"{winner} has the {'higher' if more else 'lower'} {noun}: {both}."


def yes_or_no(names: str, titles: Any, conditions: Sequence[str] = ()) -> str:
    """A yes/no question about a pair, answered from their joint papers (none: "no", said as what the
    library holds); ``conditions``: what narrowed them ("the year 2019"), said, so that a "no" for 2019
    never reads as "never together"."""
    titles = titles if isinstance(titles, list) else []
    matching = f" matching {' and '.join(conditions)}" if conditions else ""
    if not titles:
        every = "all of" if ", " in names else "both"  # "A, B and C": three people
        none = "0 such joint papers" if conditions else "0 joint papers"
        return f"No: the library holds no paper written by {every} {names}{matching} ({none})."
    together = f"{counted(len(titles), 'paper')} together in the library{matching}"
    return f"Yes: {names} wrote {together}: {render_value(titles)}."
