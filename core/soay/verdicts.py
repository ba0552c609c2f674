"""Yes-or-no questions answered from one record: whether a scholar wrote a paper (as an author, its first
or its last; "Did A write X?") and whether a scholar works at a place ("Is A at Rensselaer?"). The answer
says the record it rests on (the paper's authors, the person's affiliation), so that a "no" is checkable,
and a record the library lacks is said as missing, never as a "no"."""

from __future__ import annotations

import re
from typing import Any

from scholar_tui.core.answer_kind import abstain_sentence
from scholar_tui.core.soay.entities import SAME_NAME, Mention, paper_record, similarity
from scholar_tui.core.soay.phrasing import render_value
from scholar_tui.core.soay.reading import Reading
from scholar_tui.core.soay.shapes import author_place, is_yes_no
from scholar_tui.indexes.records import fold

# "Is A at Rensselaer?", "Does A work for NYU?", "Is A affiliated with Tilburg University?": a yes or no about
# where a person works, named by a capitalised place after the preposition
PLACE_ASKED = re.compile(
    r"\b(?:at|with|for|in)\s+(?:the\s+)?(?P<place>(?!X\b)[A-Z][\w&.'’-]*(?:\s+(?:(?:of|and|&|the|de|for)\s+)*"
    r"(?!X\b)[A-Z][\w&.'’-]*)*)"
)


def place_asked(reading: Reading) -> str | None:
    """The place a yes-or-no question about a person asks them to be at ("Is A at Rensselaer?"), or None."""
    if reading.start != "person" or reading.venue or not is_yes_no(reading.masked):
        return None
    if reading.cues & {"coauthors", "pubs"}:  # "Did A work with Yoshua Bengio?": a coauthor, not a place
        return None
    if re.search(r"\b(?:papers?|publish\w*|wr[io]te|written|co-?author\w*|cited)\b", reading.masked, re.I):
        return None
    found = PLACE_ASKED.search(reading.masked)
    return found.group("place").strip(" .,") if found else None


# "Which of A's coauthors is at Nagoya?", "authors of X from Oak Ridge": people narrowed by where they work
PEOPLE_AT_PLACE = re.compile(
    r"(?<!apart )(?<!aside )(?<!away )\b(?:at|from)\s+(?:the\s+)?"  # "apart from B" leaves a person out
    r"(?P<place>(?!X\b)[A-Z][\w&.'’-]*(?:\s+(?:(?:of|and|&|the|de|for)\s+)*"
    r"(?!X\b)[A-Z][\w&.'’-]*)*)"
)


def people_place(reading: Reading, people: bool) -> str | None:
    """The place a list of people is narrowed by ("coauthors at Nagoya"), which no plan applies (a
    person's affiliation is one field of their own, never a filter of a list); None: none is named, the
    answer is not people, or the words name the papers' venue."""
    if not people or reading.venue or reading.yes_no:
        return None
    found = PEOPLE_AT_PLACE.search(reading.masked)
    return found.group("place").strip(" .,") if found else None


def place_holds(place: str, organization: str) -> bool:
    """Whether an affiliation is the place named: every word of it (folded), or its initials ("NYU")."""
    named, held = fold(place).split(), fold(organization).split()
    if place.isupper() and 2 <= len(place) <= 6:
        initials = "".join(word[0] for word in held if word not in ("of", "and", "the", "for", "de"))
        return place.lower() in (initials, "".join(word[0] for word in held))
    return all(word in held for word in named if word not in ("the", "of", "and"))


AUTHORSHIP = re.compile(
    r"\b(?:wr[io]te|written|write|co-?authored|authored|co-?authors?|authors?|co-?wr[io]te|co-?writers?)\b", re.I
)
# "Did A write X in 2019 / in Nature?" asks more than who wrote it: not answered by the authors alone
MORE_THAN_AUTHORSHIP = re.compile(r"\b(?:in|at|during|before|after|since)\b|\b(?:19|20)\d\d\b", re.I)


def authorship_asked(reading: Reading) -> bool:
    """ "Did A write X?", "Is A the first author of X?": a yes or no about who wrote a paper, nothing more."""
    return (
        is_yes_no(reading.masked)
        and bool(AUTHORSHIP.search(reading.masked))
        and not MORE_THAN_AUTHORSHIP.search(reading.masked)
    )


def at_place(api: Any, person: Mention, place: str) -> tuple[str, str]:
    """Yes or no (or the sentence that the library holds no affiliation), and the call it rests on."""
    hits = api.searchPerson(name=person.matched)
    organization = (hits[0].get("organization") if hits else None) or ""
    source = f"searchPerson(name={person.matched!r})"
    if not organization:
        return abstain_sentence("affiliation", person.matched), source
    if place_holds(place, organization):
        return f"Yes: the library lists {person.matched}'s affiliation as {organization}.", source
    return f"No: the library lists {person.matched}'s affiliation as {organization}, not {place}.", source


def authorship(api: Any, paper: Mention, people: tuple[Mention, ...], reading: Reading) -> tuple[str, str]:
    """Yes or no, and the call it rests on: whether the people named beside a paper wrote it (as its
    first or last author, where the question says so)."""
    record, source = paper_record(api, paper.matched)
    authors = [author.get("name") or "" for author in record.get("authors") or []]
    role, held = "an author", authors
    if "first_author" in reading.cues:
        role, held = "the first author", authors[:1]
    elif "last_author" in reading.cues:
        role, held = "the last author", authors[-1:]
    elif author_place(reading.question):  # "Is A the second author of X?": that place only
        at, said = author_place(reading.question) or (0, "")
        role, held = f"the {said} author", authors[at - 1 : at]
    names = " and ".join(person.matched for person in people)
    if len(people) > 1 and role == "an author":
        role = "authors"
    listed = f"its authors are {render_value(authors)}" if authors else "the library lists no authors for it"
    if all(any(similarity(author, person.matched) >= SAME_NAME for author in held) for person in people):
        return f"Yes: {names} {'is' if len(people) == 1 else 'are'} {role} of {paper.matched} ({listed}).", source
    return f"No: {names} {'is' if len(people) == 1 else 'are'} not {role} of {paper.matched} ({listed}).", source
