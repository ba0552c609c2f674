"""What two people have, each and in common: an attribute of each compared, the coauthors both have, the
place a paper's authors share.

A pair's plans walk from the first person to the second as a coauthor ("only those written with the
second scholar"): that reads their joint papers well, but a field of a person reached that way is the
second person's alone. "Which institution do A and B share?", "are A and B at the same university?",
"what are A's and B's affiliations?" ask for each person's value, and, where the question says they
share it, for the values both hold; the second person's value alone is of another kind (a confident
wrong answer where the two differ). "Which coauthor do A and B have in common?" asks for the people in
both coauthor lists, and "the university both authors of X share" for the organization every author
of that paper holds.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from scholar_tui.core.answer_kind import abstain_sentence
from scholar_tui.core.soay.entities import SAME_NAME, paper_record, similarity
from scholar_tui.core.soay.linking import Linked
from scholar_tui.core.soay.plans import FIELD_NOUNS, FIELD_WORDS, Plan
from scholar_tui.core.soay.reading import Reading
from scholar_tui.indexes.records import fold

# "share", "in common", "the same", "both", "mutual": the question asks what the two hold alike
SHARED = re.compile(r"\bshar(?:e|es|ed|ing)\b|\bin common\b|\bsame\b|\bboth\b|\bmutual\b|\bcommon\b", re.I)
# for a field of each ("the affiliations of both A and B" asks for each one's), "both" alone shares nothing
SHARED_VALUE = re.compile(r"\bshar(?:e|es|ed|ing)\b|\bin common\b|\bsame\b|\bmutual\b|\bcommon\b", re.I)
# A person's own fields, as the API that holds each gives it
PERSON_FIELDS = {
    "organization": "getPersonBasicInfo",
    "position": "getPersonBasicInfo",
    "education_experience": "getPersonBasicInfo",
    "gender": "getPersonBasicInfo",
    "email": "getPersonBasicInfo",
    "bio": "getPersonBasicInfo",
    "interests": "getPersonInterest",
}
COAUTHOR_NAMES = "name"  # a pair plan ending in getCoauthors' names: the coauthors themselves
HOW_COMMON = "each one's coauthors (getCoauthors), those in both lists"
HOW_EACH = "each one's coauthors (getCoauthors)"
HOW_VENUES = "each one's papers (getPersonPubs) and their venues (getPublication), those in both"
PUBLISHED_IN = re.compile(r"\b(?:journals?|conferences?|proceedings|workshops?|symposi(?:um|a))\b", re.I)
VENUE_WORDS = re.compile(r"\b(?:venues?|journals?|conferences?|proceedings|workshops?|symposi(?:um|a))\b", re.I)
HOW_AUTHORS = "every author's organization in the paper's record, compared"


@dataclass
class PairAnswer:
    text: str
    value: Any
    sources: list[str] = field(default_factory=list)
    abstained: bool = False
    how: str = "read for each of the two and compared"  # what was done instead of the plan's own walk


def _person(api: Any, name: str) -> dict | None:
    """The library's scholar of this name (as the linker resolved it)."""
    try:
        hits = api.searchPerson(name=name)
    except Exception:
        return None
    return next((hit for hit in hits if similarity(hit.get("name") or "", name) >= SAME_NAME), None)


def _values(api: Any, person_id: str, field_name: str) -> tuple[list[str], str]:
    """A person's values of a field (a list: interests are several) and the call that gave them."""
    if PERSON_FIELDS[field_name] == "getPersonInterest":
        values = api.getPersonInterest(person_id=person_id) or []
        return [str(value) for value in values if value], f"getPersonInterest(person_id={person_id!r})"
    value = (api.getPersonBasicInfo(person_id=person_id) or {}).get(field_name)
    return ([str(value)] if value else []), f"getPersonBasicInfo(person_id={person_id!r})"


def _common(lists: list[list[str]]) -> list[str]:
    """The values every list holds (folded: case, accents and dashes do not part them)."""
    first, *rest = lists
    return [value for value in first if all(fold(value) in {fold(other) for other in others} for others in rest)]


def each_and_shared(api: Any, question: str, linked: Linked, plan: Plan) -> PairAnswer | None:
    """A pair question about a person's own field: each person's value, and those both hold where the
    question asks what they share. None for any other plan."""
    if linked.start != "pair" or plan.field not in PERSON_FIELDS or "getCoauthors" not in plan.solution:
        return None
    noun = FIELD_NOUNS.get(plan.field, plan.field)
    names = [mention.matched for mention in linked.mentions]
    held: list[list[str]] = []
    sources: list[str] = []
    for name in names:
        person = _person(api, name)
        values, source = _values(api, person["person_id"], plan.field) if person else ([], "")
        if not values:  # one of them has none: nothing can be compared, nor said of both
            return PairAnswer(abstain_sentence(noun, name), None, sources, abstained=True)
        held.append(values)
        sources.append(source)
    each = "; ".join(f"{name}: {', '.join(values)}" for name, values in zip(names, held, strict=True))
    if not SHARED_VALUE.search(question):
        return PairAnswer(f"{noun.capitalize()} of {' and '.join(names)} — {each}.", held, sources)
    common = _common(held)
    if common:
        return PairAnswer(f"Both {' and '.join(names)} have this {noun}: {', '.join(common)}.", common, sources)
    return PairAnswer(f"No: {' and '.join(names)} share no {noun} in the library ({each}).", [], sources)


def coauthors_in_common(api: Any, question: str, linked: Linked, plan: Plan) -> PairAnswer | None:
    """ "Which coauthor do A and B have in common?": the people in both coauthor lists (not A or B);
    None where the question does not ask what the two share, or the plan is not their coauthors."""
    if linked.start != "pair" or plan.field != COAUTHOR_NAMES or plan.solution != ("searchPerson", "getCoauthors"):
        return None
    names = [mention.matched for mention in linked.mentions]
    lists: list[list[str]] = []
    sources: list[str] = []
    for name in names:
        person = _person(api, name)
        if person is None:
            return PairAnswer(abstain_sentence("coauthors", name), None, sources, abstained=True)
        coauthors = api.getCoauthors(person_id=person["person_id"]) or []
        lists.append(
            [c.get("name") or "" for c in coauthors if all(fold(c.get("name") or "") != fold(n) for n in names)]
        )
        sources.append(f"getCoauthors(person_id={person['person_id']!r})")
    both = " and ".join(names)
    if not SHARED.search(question):  # "the coauthors of A and B": each one's
        each = "; ".join(f"{name}: {', '.join(found) or 'none'}" for name, found in zip(names, lists, strict=True))
        return PairAnswer(f"Coauthors of {both} — {each}.", lists, sources, how=HOW_EACH)
    common = [name for name in lists[0] if any(similarity(name, other) >= SAME_NAME for other in lists[1])]
    if plan.count:
        return PairAnswer(
            f"Number of coauthors {both} have in common: {len(common)}.", len(common), sources, how=HOW_COMMON
        )
    if common:
        return PairAnswer(f"The coauthors {both} have in common: {', '.join(common)}.", common, sources, how=HOW_COMMON)
    return PairAnswer(f"None: {both} have no coauthor in common in the library (0).", [], sources, how=HOW_COMMON)


# the words for an affiliation, as a question names it ("the same university", "which institution")
# ("where" alone names no organization)
ORGANIZATION_WORDS = tuple(word for word in FIELD_WORDS["authors.organization"] if word != "where")


def authors_share_place(api: Any, question: str, linked: Linked, reading: Reading) -> PairAnswer | None:
    """ "Both authors of X are at the same university — which one?": the organization every author of
    the paper holds, or each author's where they differ. None where no shared organization is asked."""
    if linked.start != "paper" or len(linked.mentions) != 1 or not SHARED.search(reading.masked):
        return None
    if reading.cues & {
        "first_author",
        "last_author",
    }:  # "is the first author at the same place as the last": two of them
        return None
    if not any(re.search(rf"\b{re.escape(word)}", reading.masked, re.I) for word in ORGANIZATION_WORDS):
        return None
    title = linked.mentions[0].matched
    record, source = paper_record(api, title)
    authors = record.get("authors") or []
    places = [[author.get("organization") or ""] for author in authors]
    if len(authors) < 2 or not all(place[0] for place in places):
        return PairAnswer(
            abstain_sentence("affiliation for every author", title), None, [source], abstained=True, how=HOW_AUTHORS
        )
    common = _common(places)
    if common:
        text = f"The authors of {title} share this affiliation: {common[0]}."
        return PairAnswer(text, common, [source], how=HOW_AUTHORS)
    each = "; ".join(f"{author.get('name')}: {place[0]}" for author, place in zip(authors, places, strict=True))
    said = f"No: the authors of {title} share no affiliation in the library ({each})."
    return PairAnswer(said, [], [source], how=HOW_AUTHORS)


def venues_in_common(api: Any, question: str, linked: Linked) -> PairAnswer | None:
    """ "Has A published in the same venue as B?": the venues of A's papers that B's papers appeared in
    too (their joint papers are another question). None where no shared venue is asked."""
    if linked.start != "pair" or not SHARED.search(question) or not VENUE_WORDS.search(question):
        return None
    names = [mention.matched for mention in linked.mentions]
    venues: list[list[str]] = []
    sources: list[str] = []
    for name in names:
        person = _person(api, name)
        pubs = api.getPersonPubs(person_id=person["person_id"]) if person else []
        held = [(api.getPublication(pub_id=pub["pub_id"]) or {}).get("venue") for pub in pubs]
        # a preprint server is no journal or conference a question of that kind asks about
        kept = {venue for venue in held if venue and (fold(venue) != "arxiv" or not PUBLISHED_IN.search(question))}
        venues.append(sorted(kept))
        sources.append(f"getPersonPubs(person_id={person['person_id']!r})" if person else "searchPerson")
    if not all(venues):
        missing = names[venues.index([])]
        noun = "journal or conference" if PUBLISHED_IN.search(question) else "venue"
        return PairAnswer(abstain_sentence(f"{noun} for any paper of {missing}"), None, sources, True, HOW_VENUES)
    common = _common(venues)
    both = " and ".join(names)
    if common:
        return PairAnswer(f"Yes: {both} both have papers in {', '.join(common)}.", common, sources, how=HOW_VENUES)
    each = "; ".join(f"{name}: {', '.join(found)}" for name, found in zip(names, venues, strict=True))
    return PairAnswer(f"No: {both} have no venue in common in the library ({each}).", [], sources, how=HOW_VENUES)


def what_they_share(api: Any, question: str, linked: Linked, plan: Plan, reading: Reading) -> PairAnswer | None:
    """The answer for two people's fields, their common coauthors or a paper's shared affiliation; None
    where the question is none of these (the plan answers it)."""
    try:
        return (
            venues_in_common(api, question, linked)
            or each_and_shared(api, question, linked, plan)
            or coauthors_in_common(api, question, linked, plan)
            or authors_share_place(api, question, linked, reading)
        )
    except Exception:  # a look-up that fails leaves the question to the plan, which reports its own failure
        return None
