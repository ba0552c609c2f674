"""Choosing a plan for a question: by what it asks for and what it starts from.

A question is read into a few facts (``reading.Reading``): the kind of answer it asks for, what it
starts from (a person, a paper, a pair of people), the relations it walks and what narrows a person's
papers. Every generated plan that starts there is scored: the answer's kind must agree, the field's own
words (``plans.FIELD_WORDS``) and the relations must be named, and fewer hops win a tie. No plan is
chosen by being the nearest known question. What no API holds (a birth date, the date a paper was
accepted, a ratio, an attribute no field names) is recognised here too, so that no near field answers
for it.
"""

from __future__ import annotations

import re
from difflib import SequenceMatcher
from functools import cache

from scholar_tui.core.answer_kind import Kind
from scholar_tui.core.soay.narrowing import RANKED
from scholar_tui.core.soay.plans import FIELD_NOUNS, FIELD_WORDS, Plan, default_plans
from scholar_tui.core.soay.reading import BINDING, RANK_CUES, ROUTE_CUES, Reading
from scholar_tui.core.soay.shapes import threshold


def _tokens(text: str) -> list[str]:
    return re.findall(r"[\w'’-]+", text.lower())


def _word_hits(words: tuple[str, ...], text: str) -> int:
    """How many places of the text name one of the field's words: a word start ("cit" in "cited"), a
    phrase ("work on"), or a one-letter typo of a long word ("autors"); a place counts once, however
    many of the words it matches ("work" and "works")."""
    tokens = _tokens(text)
    places: set[object] = set()
    for word in words:
        if " " in word:
            if re.search(rf"\b{re.escape(word)}\b", text, re.I):
                places.add(word)
            continue
        for index, token in enumerate(tokens):
            typo = (
                len(word) >= 5
                and len(token) >= 5
                and abs(len(token) - len(word)) <= 1
                and not word.startswith(token)  # "work" is a word of its own, not a typo of "works"
                and SequenceMatcher(None, token, word).ratio() >= 0.83
            )
            if token.startswith(word) or typo:
                places.add(index)
    return len(places)


# A paper's own title answers only a question that asks for a title ("Which papers cite X?" does not).
OWN_TITLE_WORDS = ("title", "titles", "called", "named", "full name")


# What no API holds about a person, asked by a word that fits a field's kind ("When was X born?" is a
# date, "Where was X born?" a place): the nearest field (the years of X's papers, X's affiliation) must
# not answer for it.
NOT_HELD: tuple[tuple[re.Pattern[str], str], ...] = (
    (
        re.compile(r"\bborn\b|\bbirth(?:day|place|date)\b|\b(?:date|place|year) of birth\b", re.I),
        "date or place of birth",
    ),
    (re.compile(r"\bhow old\b|\bX(?:'s|’s) age\b|\bage of X\b", re.I), "age"),
    (re.compile(r"\bdied\b|\b(?:date|year) of death\b|\bpassed away\b", re.I), "date of death"),
    (re.compile(r"\bmarried\b|\bnationality\b|\bcitizenship\b|\bsalary\b|\bhometown\b", re.I), "personal record"),
)


def not_held(masked: str) -> str | None:
    """What the question asks that no API holds about anyone (a birth date, an age), or None."""
    return next((thing for pattern, thing in NOT_HELD if pattern.search(masked)), None)


# A paper's record dates its publication (its arXiv posting or its journal year) and nothing else: "when
# was X accepted / presented / reviewed" asks the date of another event, which the year must not answer.
EVENT_NOUNS = {
    "accepted": "acceptance",
    "rejected": "rejection",
    "reviewed": "review",
    "revised": "revision",
    "presented": "presentation",
    "retracted": "retraction",
    "withdrawn": "withdrawal",
    "defended": "defence",
}
_EVENTS = "|".join(EVENT_NOUNS)
_EVENT_NAMES = "|".join(EVENT_NOUNS.values())
EVENT_DATE = re.compile(
    rf"\bwhen\b[^?,;]*?\b({_EVENTS})\b|\b({_EVENT_NAMES})\s+date\b|\bdate\s+of\s+(?:its\s+|the\s+)?({_EVENT_NAMES})\b",
    re.I,
)


# "What percentage / proportion of X's papers …", "how many papers each year": a ratio of two counts or a
# count for every year, which no plan computes; one count or a list must not answer for it
RATIO = re.compile(r"\b(percent(?:age)?|proportion|fraction|ratio)\b|%|\b(?:each|per|every)\s+(year)\b", re.I)


def ratio_asked(masked: str) -> str | None:
    """The ratio asked ("percentage", "count per year": how many each year), or None."""
    found = RATIO.search(masked)
    if not found:
        return None
    return "count per year" if found.group(2) else (found.group(1) or "percentage").lower()


def undated_event(masked: str) -> str | None:
    """The date the question asks that no record holds ("date of acceptance"), or None."""
    found = EVENT_DATE.search(masked)
    if not found:
        return None
    word = found.group(1)
    return f"date of {EVENT_NOUNS[word.lower()] if word else (found.group(2) or found.group(3)).lower()}"


# "What is X's ‹noun phrase›?", "the ‹noun phrase› of X": the whole question asks for one attribute of
# the person (a noun phrase of one to four words, nothing after it).
_NOUN_WORD = (
    r"(?!(?:of|the|by|with|on|in|at|for|and|from|to|an?)\b)[a-z][\w-]*"  # "abstracts of the work" is no one noun
)
_NOUN_PHRASE = rf"{_NOUN_WORD}(?:\s+{_NOUN_WORD}){{0,3}}"
ATTRIBUTE_ASKED = re.compile(
    r"^\s*(?:(?:what|which|who)(?:'s|’s|\s+is|\s+are|\s+was|\s+were)\s+|(?:tell me|give me|do you know)\s+)?"
    rf"(?:X(?:'s|’s)\s+(?P<own>{_NOUN_PHRASE})|the\s+(?P<of>{_NOUN_PHRASE})\s+of\s+X)"
    r"\s*[?.!]*\s*$",
    re.I,
)
# Words of the fields' documentation that name no attribute ("Number of publications" names publications).
DOC_FILLER = {"the", "of", "a", "an", "to", "and", "or", "as", "in", "when", "that", "are", "is", "same", "first"}
DOC_FILLER |= {"number", "source", "counts", "other", "known", "latest", "most", "pass", "apis", "over", "every"}
DOC_FILLER |= {"scholar", "person", "short", "names", "name", "prominent", "their", "each", "for", "how", "list"}
DOC_FILLER |= {"them", "they", "order", "its", "with", "this", "from"}


def attribute_asked(masked: str) -> str | None:
    """The noun phrase of "What is X's ‹noun phrase›?" / "the ‹noun phrase› of X" ("job title"), or None."""
    found = ATTRIBUTE_ASKED.search(masked)
    return (found.group("own") or found.group("of")).strip() if found else None


@cache
def attribute_words() -> tuple[str, ...]:
    """Every word that names something a person's plans return: the fields' names, the words people use
    for them (``FIELD_WORDS``), their nouns, and the words of their documentation."""
    words: set[str] = set()
    for plan in default_plans():
        if plan.start != "person":
            continue
        name = plan.field.rsplit(".", 1)[-1]
        words.update(part for part in name.split("_") if len(part) > 3)
        words.update(FIELD_WORDS.get(plan.field, ()))
        words.update(FIELD_NOUNS.get(plan.field, name).split())
        doc = re.sub(r"\([^)]*\)", " ", plan.description.split(" — ", 1)[0].split(":", 1)[-1])  # no examples
        words.update(re.findall(r"[a-z][\w-]{2,}", doc.lower()))
    return tuple(sorted(words - DOC_FILLER))


def names_a_relation(text: str) -> bool:
    """Whether the words name a person's papers, coauthors or a ranking of the papers."""
    cues = (*ROUTE_CUES.values(), *RANK_CUES.values())
    return any(cue.search(text) for cue in cues)


def unheld_attribute(reading: Reading) -> str | None:
    """The attribute of a person a question asks for ("What is X's salary?") where no field any API
    returns about a person is named by its head word, nor any relation (papers, coauthors): the library
    has none, whatever field lies nearest. None where nothing of the kind is asked."""
    noun = attribute_asked(reading.masked) if reading.start == "person" else None
    # the phrase's last word is what it names ("research funding" is funding, not research)
    if noun is None or names_a_relation(noun) or _word_hits(attribute_words(), noun.split()[-1]):
        return None
    return noun


def answers_attribute(plan: Plan, reading: Reading) -> bool:
    """Whether the plan answers "What is X's ‹noun phrase›?": that asks about X, not X's papers, so a plan
    through the papers answers it only where the phrase names the papers ("X's latest paper"), or names
    the plan's field at least as fully as any of the person's own ("X's abstracts"; "job title" is in
    the position's words more than in the titles')."""
    noun = attribute_asked(reading.masked) if reading.start == "person" else None
    if noun is None or "pubs" not in plan.routes or names_a_relation(noun):
        return True
    own = max(_word_hits(FIELD_WORDS.get(field, ()), noun) for field in own_fields())
    return _word_hits(FIELD_WORDS.get(plan.field, ()), noun) >= max(own, 1)


@cache
def own_fields() -> tuple[str, ...]:
    """The fields a person's plans return about the person, walking no relation (position, e-mail …)."""
    return tuple(sorted({plan.field for plan in default_plans() if plan.start == "person" and not plan.routes}))


def walks_unnamed_papers(plan: Plan, reading: Reading) -> bool:
    """A date about a person answered from their papers' years, where the question names no papers
    nor anything that narrows them ("When did X get his PhD?"): the date asked is the person's own."""
    named = "pubs" in reading.cues or reading.topic or reading.year or reading.rank or reading.venue
    return reading.start == "person" and reading.asked is Kind.DATE and "pubs" in plan.routes and not named


# What a count ranges over, in the words people use for it: "how many venues" is no count of papers.
COUNTED_AS: dict[str, tuple[str, ...]] = {
    "pubs": ("paper", "publication", "article", "work", "preprint", "pub", "joint", "time", "title", "one"),
    "coauthors": ("coauthor", "co-author", "collaborator", "people", "person", "researcher", "scholar", "author"),
    "authors": ("author", "people", "person", "writer", "name", "researcher", "scholar", "coauthor", "co-author"),
    "num_citation": ("citation", "time", "cite", "reference"),
    "interest": ("interest", "topic", "area", "field", "subject"),
}
COUNT_NOUN = re.compile(
    r"\bhow many\s+((?:[a-z][\w-]*\s+){0,2}?[a-z][\w-]*)(?=\s+(?:does|do|did|has|have|had|is|are|was|were|X|in|by|of|on|at|for)\b|\s*[?]|$)",
    re.I,
)
COUNT_MODIFIERS = {"different", "distinct", "other", "total", "separate", "unique"}


def counted_words(masked: str) -> list[str]:
    """What "how many ‹words›" counts ("different venues" → ["venue"]), singular; [] for "how many of
    X's papers" or no noun."""
    found = COUNT_NOUN.search(masked)
    words = found.group(1).lower().split() if found else []
    if words[:1] == ["of"]:  # "how many of X's papers": what follows the slot is counted, read by the plan
        return []
    return [word.removesuffix("s") for word in words if word not in COUNT_MODIFIERS and word != "x"]


def _counted_by(plan: Plan) -> str:
    """What the plan counts, as COUNTED_AS names it ("authors", "pubs", "interest" …)."""
    people = {"authors_name_list": "authors", "authors.name": "authors", "authors": "authors"}.get(plan.field)
    counted = people or (plan.routes[-1] if plan.count and plan.routes else plan.field.rsplit(".", 1)[-1])
    return {"num_pubs": "pubs", "title": "pubs", "name": "authors", "interests": "interest"}.get(counted, counted)


def _said_as(nouns: list[str], said: tuple[str, ...]) -> bool:
    return any(noun.startswith(word) or word.startswith(noun) for noun in nouns for word in said)


def counts_what_is_asked(plan: Plan, reading: Reading) -> bool:
    """Whether the plan counts what the question counts: "how many venues has X published in?" is no
    count of X's papers, "how many times was X cited" is one of citations."""
    nouns = counted_words(reading.masked)
    if not nouns or reading.asked is not Kind.COUNT:
        return True
    return _said_as(nouns, COUNTED_AS.get(_counted_by(plan), tuple(nouns)))


def names_what_is_counted(plan: Plan, reading: Reading) -> bool:
    """Whether the noun after "how many" is one of the words for what the plan counts ("people" for a
    paper's authors)."""
    nouns = counted_words(reading.masked)
    return bool(nouns) and _said_as(nouns, COUNTED_AS.get(_counted_by(plan), ()))


SOURCE_ID = re.compile(r"\b(?:arxiv|doi|openalex|orcid|isbn|issn)\b", re.I)


def answers_what_is_asked(plan: Plan, reading: Reading) -> bool:
    """Whether the plan can answer for what is asked at all: a count of what the question counts, and
    never the library's own id for a source's ("the arXiv id of X" is not "paper:24")."""
    if plan.field.endswith("_id") and SOURCE_ID.search(reading.field_text):
        return False
    return counts_what_is_asked(plan, reading)


# "Which ‹noun› is/did/put …": the noun is what the question asks for ("Which publisher's ebooks is X's
# chapter in?", "Which publisher put out …"). Paper titles answer only when the noun names papers; for
# any other noun (a publisher, a funder, a lab) a list of papers is a value of another kind.
ASKED_NOUN = re.compile(
    r"^\W*(?:which|what)\s+(?!(?:else|other|one|ones|of|kind)\b)([a-z]+)(?:'s|’s)?\s+(?:([a-z]+)\s+)?"
    r"(?:is|are|was|were|did|does|do|has|have|had|put|published|printed|released|brought|[a-z]{3,}ed)\b",
    re.I,
)
PAPER_NOUNS = (
    "paper",
    "publication",
    "article",
    "work",
    "chapter",
    "preprint",
    "title",
    "manuscript",
    "study",
    "studies",
    "review",
    "report",
    "survey",
    "thesis",
    "book",
    "piece",
    "pub",
)


def noun_asked(masked: str) -> str | None:
    """The noun of "which ‹noun› is/did/put …" when it names no paper (a publisher, a funder), else None."""
    found = ASKED_NOUN.search(masked)
    noun = found.group(1).lower() if found else ""
    if noun in ("", "x", "is", "are", "was", "were", "did", "does", "do", "has"):
        return None
    # "Which ICSE papers did …": the second word is the noun, the first says which of them
    named = [word.lower() for word in found.groups() if word] if found else []
    return None if any(_names_papers(word) for word in named) else noun


def _names_papers(word: str) -> bool:
    return word in PAPER_NOUNS or word.removesuffix("s") in PAPER_NOUNS  # "papers", "pubs"


# Places an affiliation is not: an organization's name answers "which university", never "which country"
GEOGRAPHIC = ("country", "city", "town", "state", "province", "region", "continent", "nation")


def asks_a_region(reading: Reading) -> bool:
    """Whether the question asks "which country/city …": an organization's name is of another kind."""
    return noun_asked(reading.masked) in GEOGRAPHIC


def asks_other_than_papers(reading: Reading) -> bool:
    """Whether the question asks "which ‹noun› …" with a noun that names no paper: paper titles are then
    a value of another kind."""
    return noun_asked(reading.masked) is not None


# "the impact factor of the journal X was in", "the conference's acceptance rate": a venue is a name in a
# paper's record (getPublication's ``venue``, a string), an end of the API graph that nothing further is
# held about; an attribute of it asked for is never answered by the venue's name.
_VENUE_NOUN = r"(?:journal|venue|conference|proceedings|workshop|symposium|publisher|outlet|magazine)"
_ATTRIBUTE = r"[a-z][\w-]*(?:\s+[a-z][\w-]*){0,2}"
VENUE_ATTRIBUTE = re.compile(
    rf"\b(?P<of>{_ATTRIBUTE})\s+of\s+(?:the|its|that|this|their|his|her)\s+{_VENUE_NOUN}\b|"
    rf"\b{_VENUE_NOUN}(?:'s|’s)\s+(?P<own>{_ATTRIBUTE})",
    re.I,
)
VENUE_OWN_WORDS = {"name", "names", "title", "acronym", "abbreviation", "which", "what", "one", "kind", "type"}


def venue_attribute(masked: str) -> str | None:
    """What the question asks about a paper's venue beyond its name ("impact factor"), or None."""
    found = VENUE_ATTRIBUTE.search(masked)
    if not found:
        return None
    words = [word for word in (found.group("of") or found.group("own")).lower().split() if word not in ("the", "a")]
    if not words or words[-1] in VENUE_OWN_WORDS or words[0] in VENUE_OWN_WORDS:
        return None
    return " ".join(words)


MADE_BY = re.compile(
    r"\bwho(?:'s|’s|\s+is|\s+are|\s+was|\s+were)?\s+(?:did|does|do|made|makes|behind|created|developed|built|"
    r"conducted|came up with|responsible for)\b",
    re.I,
)


def support(plan: Plan, reading: Reading) -> int:
    """How many of the question's words name what the plan returns: its field's words, or a relation
    it walks that only it can ("coauthors" for a count of coauthors). Zero: the question asks for
    something no API returns (an h-index, a funder, a birth date) and the nearest field must not answer
    for it."""
    if reading.start != "paper" and not_held(reading.masked) or walks_unnamed_papers(plan, reading):
        return 0
    if undated_event(reading.masked) or ratio_asked(reading.masked) or threshold(reading.masked):
        return 0
    if not answers_what_is_asked(plan, reading) or not answers_attribute(plan, reading):
        return 0
    if unheld_attribute(reading) or venue_attribute(reading.masked):
        return 0
    if plan.kind is Kind.PAPER and asks_other_than_papers(reading):
        return 0
    if plan.kind is Kind.PLACE and asks_a_region(reading):
        return 0
    words = FIELD_WORDS.get(plan.field, ())
    if plan.start == "paper" and plan.field == "title" and not plan.routes:
        words = OWN_TITLE_WORDS
    # a rank names the papers ranked: a person's (the plan's own narrowing) or a pair's joint papers
    ranks = reading.rank is not None and (
        plan.narrow == reading.rank or (plan.narrow == "pair" and "pubs" in plan.routes)
    )
    field_hits = _word_hits(words, reading.field_text) + ranks
    # "who did the X paper?", "who's behind X?": who made the work are its authors, the only people a
    # paper's record holds; "who funded / reviewed / edited X" asks for people it does not hold
    field_hits += (
        plan.start == "paper"
        and plan.field in ("authors", "authors.name")
        and not plan.routes
        and not plan.count
        and MADE_BY.search(reading.masked) is not None
    )
    # "how many people are on X": the noun counted names what the count ranges over (COUNTED_AS)
    field_hits += bool(plan.count and reading.asked is Kind.COUNT and names_what_is_counted(plan, reading))
    field_hits += reading.venue is not None and plan.field == "title" and "pubs" in plan.routes  # what appeared
    # a relation named counts only for a plan that returns who or what it walks to ("the coauthors of X"),
    # not for any field of theirs ("the h-index of the first author of X" names no field)
    walked = plan.field.rsplit(".", 1)[-1] in ("name", "title", "authors", "authors_name_list")
    return field_hits + walked * sum(route in reading.cues for route in plan.routes if route in BINDING)


# What the question asks for, in its own words, for the sentence saying that no field holds it.
ASKED_THING = (
    re.compile(r"\bhow many\s+([\w\- ]{2,40}?)\s+(?:does|do|did|has|have|is|are|was|were)\b", re.I),
    re.compile(
        r"\b(?:what|which)(?:'s|’s| is| are| was| were)?\s+(?:the\s+|an?\s+)?(?:X(?:'s|’s)\s+)?"
        r"([\w\- ]{2,40}?)\s+(?:of|for|does|did|do|has|have|is|are|was|were|behind)\b",
        re.I,
    ),
    re.compile(r"\bX(?:'s|’s)\s+([\w\- ]{2,40}?)\s*[?.!]*$", re.I),
    re.compile(r"\bthe\s+([\w\- ]{2,40}?)\s+(?:of|for|behind)\s+X\b", re.I),
)


# Things asked for by a verb rather than a noun ("Who funded X?").
ASKED_BY_VERB = (
    (re.compile(r"\b(?:fund|financ|sponsor)\w*|\bgrants?\b", re.I), "funding information"),
    (re.compile(r"\b(?:cite|cites|citing)\b|\bcited by\b", re.I), "list of the papers citing it"),
)


def asked_thing(masked: str) -> str | None:
    noun = attribute_asked(masked) or venue_attribute(masked)  # "What is X's salary?": in the question's words
    if noun:
        return noun
    held = not_held(masked) or undated_event(masked) or ratio_asked(masked)
    if held:
        return held
    compared = threshold(masked)
    if compared:  # "papers with more than 4 authors": no plan filters by a number
        return f"way to apply “{compared}”"
    for pattern, thing in ASKED_BY_VERB:
        if pattern.search(masked):
            return thing
    counted = COUNT_NOUN.search(masked)
    if counted and counted_words(masked):  # "how many different venues …": a count of them
        return f"count of {counted.group(1).strip()}"
    for pattern in ASKED_THING:
        match = pattern.search(masked)
        if match and match.group(1).strip().lower() not in ("", "x", "the"):
            return match.group(1).strip()
    return None


def field_named(reading: Reading, plans: tuple[Plan, ...] | None = None) -> str | None:
    """The noun of the field a question's words name most (its "PhD" names the education), among the
    plans from its start: how a missing answer is said when no plan answered for it."""
    counted = [
        (_word_hits(FIELD_WORDS.get(plan.field, ()), reading.field_text), plan)
        for plan in (plans if plans is not None else default_plans())
        if plan.start == reading.start and not plan.routes
    ]
    hits, plan = max(counted, key=lambda item: item[0], default=(0, None))
    return FIELD_NOUNS.get(plan.field, plan.field) if plan is not None and hits else None


PROFILE_FIELDS = ("bio", "position", "gender", "email", "education_experience")  # about the person, never a paper


def score_plan(plan: Plan, reading: Reading) -> float:
    asked = reading.asked
    kind = plan.kind
    figure = plan.field.rsplit(".", 1)[-1].startswith("num_")
    if asked is Kind.COUNT and figure and _word_hits(FIELD_WORDS.get(plan.field, ()), reading.field_text):
        kind = Kind.COUNT  # each paper's figure, asked for by name ("how many citations does X's paper on … have")
    score = 0.0
    if asked is not Kind.TEXT:
        if kind is asked:
            score += 4
        elif {asked, kind} <= {Kind.PLACE, Kind.VENUE}:
            score += 2
        else:
            score -= 4
    elif plan.kind is Kind.COUNT:
        score -= 3  # no count is asked ("What are X's papers?"): a number answers none of it
    elif plan.kind is not Kind.TEXT:
        score -= 1  # a question with no kind cue most often wants a description
    score += 1.5 * min(_word_hits(FIELD_WORDS.get(plan.field, ()), reading.field_text), 2)
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
    if reading.year:
        score += 3 if plan.narrow == "year" else 0
    if reading.rank:
        score += 3 if plan.narrow == reading.rank else 0
        score += 1.5 if plan.field == "title" else 0  # what is ranked is the paper: its title answers
        if plan.field == RANKED[reading.rank][0] and reading.asked not in (Kind.DATE, Kind.COUNT):
            score -= 2  # "X's most cited work" asks for the paper, not for its citation count
    if "pubs" in reading.cues and plan.start == "person" and plan.field in PROFILE_FIELDS:
        score -= 3  # "What's X's paper about?" asks about the paper, not X's biography
    if plan.count and _word_hits(FIELD_WORDS["num_citation"], reading.field_text):
        score -= 3  # "how many citations …" counts citations, never the papers
    score -= 0.25 * len(plan.hops) + (0.1 if plan.count else 0)
    return score


def candidate_plans(reading: Reading, plans: tuple[Plan, ...] | None = None) -> list[Plan]:
    plans = plans if plans is not None else default_plans()
    return [
        plan
        for plan in plans
        if plan.start == reading.start
        and (plan.narrow != "topic" or reading.topic)
        and (plan.narrow != "year" or reading.year)
        and (plan.narrow not in RANKED or plan.narrow == reading.rank)
    ]


def rank_plans(reading: Reading, plans: tuple[Plan, ...] | None = None) -> list[tuple[Plan, float]]:
    """Plans for this start, best first (ties: fewer hops, then the key, so a choice is repeatable)."""
    scored = [(plan, score_plan(plan, reading)) for plan in candidate_plans(reading, plans)]
    scored.sort(key=lambda item: (-item[1], len(item[0].hops), item[0].key))
    reading.scores = [(plan.key, round(score, 2)) for plan, score in scored[:5]]
    return scored
