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
from difflib import SequenceMatcher
from functools import cache

from scholar_tui.core.answer_kind import Kind, asked_kind
from scholar_tui.core.soay.conditions import OPEN_ENDED, VENUE_BEFORE_PAPERS, venue_named
from scholar_tui.core.soay.plans import FIELD_NOUNS, FIELD_WORDS, RANKED, Narrow, Plan, Start, default_plans
from scholar_tui.core.soay.shapes import comparison, is_yes_no, list_limit, threshold

ROUTE_CUES = {
    "first_author": re.compile(
        r"\b(?:first|lead|leading|primary|main|principal)[- ](?:author|writer|name)|\blisted first|"
        r"\bfirst[- ]listed|\bcomes? first|\bfirst on\b",
        re.I,
    ),
    "last_author": re.compile(
        r"\b(?:last|senior|final|corresponding)[- ](?:author|writer|name)|\blisted last|\blast[- ]listed|"
        r"\bcomes? last\b",
        re.I,
    ),
    "coauthors": re.compile(
        r"\bco-?authors?\b|\bco-?authored\b|\bcollaborat\w*|\bco-?wr[io]te\b|\bco-?writers?\b|\bwith whom\b|"
        r"\b(?:work|works|worked|working|written|wrote|write|writes|publish|published|publishes|partnered|"
        # "who is A affiliated / associated with" asks for an organization, not a coauthor
        r"teamed up)\b(?:\s+\w+){0,2}\s+with\b|\bwho\b(?!.*\b(?:affiliated|associated|employed)\s+with\b).*\bwith\b|"
        r"\bpeople\b.*\bwith\b|"
        r"\bteam(?:ed|s)?[- ]up\b|\bjoin(?:ed)? forces\b|\bpartner(?:ed)? up\b",
        re.I,
    ),
    "pubs": re.compile(
        r"\b(?:papers?|publications?|articles?|works|pubs|preprints?|manuscripts?)\b|\bwork of\b|"
        r"\b(?:publish\w*|wrote|written|write|authored|put out)\b",
        re.I,
    ),
    "authors": re.compile(
        r"\bauthors\b|\beach author\b|\bevery author\b|\b(?:the|its|an?) (?:author|writer)\b(?! (?:of|on) X\b(?:'s|’s))|"
        r"\bwriters\b|\bpeople (?:behind|who wrote)",
        re.I,
    ),
}
# Cues that, when present, a plan must follow (a "first author" question never answers for all authors).
BINDING = ("first_author", "last_author", "coauthors")
SLOT_WORD = "X"  # the slot the question's entities are masked with (SLOT below)
TOPIC = re.compile(
    r"\b(?:on|about|regarding|concerning|related to|in the (?:area|field) of|deals? with|dealing with|"
    r"cover(?:s|ing)?|mention(?:s|ing)?)\s+"
    r"(?!(?:it|them|this|that|X)\b)([^?!.]*[^\s?!.,])",
    re.I,
)
TOPIC_END = re.compile(
    r"\s+(?:has|have|had|did|does|do|is|are|was|were|called|named|titled|published|appeared|presented|released|"
    rf"written|cited|come|came|{SLOT_WORD})\b"
)
SOURCE_NUMBER = re.compile(r"\b(?:arxiv|doi)\s*(?:id|identifier|number|no\.?)\b", re.I)
# "what is X's paper on Y called": the paper's title is asked, not what it is about
NAME_ASKED = re.compile(r"\b(?:called|titled|named)\s*[?.!]*$|\bwhat(?:'s| is| was) the (?:title|name) of\b", re.I)
_PAPERS = r"(?:papers?|publications?|articles?|works?|preprints?|pubs?)"
# "when did A and B first write together", "when did X last publish": the first (last) time they did
_TOGETHER = r"(?:publish\w*|wr[io]te|written|co-?authored|collaborated|work(?:ed)?|teamed up|appeared)\b"
_FIRST_TIME = rf"\b(?:first|earliest)\s+{_TOGETHER}"
_LAST_TIME = rf"\b(?:last|latest|most recently)\s+{_TOGETHER}"
# "the latest paper of X", "X's most cited work", "which of X's papers is cited the most": the top
# papers by a figure (plans.RANKED), not all of them
RANK_CUES: dict[Narrow, re.Pattern[str]] = {
    "most_cited": re.compile(
        r"\bmost[- ](?:cited|citations|influential|referenced)\b|\bcited (?:the )?most\b|\bhighest[- ]cited\b|"
        r"\bmost citations\b",
        re.I,
    ),
    "latest": re.compile(
        rf"\b(?:latest|newest|most recent|last|recent)\s+(?:\w+\s+)?{_PAPERS}\b|{_LAST_TIME}|"
        r"\b(?:latest|newest|most recent)\s+(?:thing|stuff|one)\b|"  # "the newest thing A put out"
        rf"\b{_PAPERS}\s+(?:is|was|came)\s+(?:the\s+)?(?:latest|newest|most recent|last)\b|"
        # "is A still publishing / active?": the latest paper (its year) answers it, as "started publishing"
        # is answered by the earliest
        r"\bstill\s+(?:publish\w*|active|writ\w*|working|doing research|around)\b|"
        rf"\b{_TOGETHER}\s+(?:\w+\s+)?most recently\b",  # "what did A and B publish together most recently"
        re.I,
    ),
    "earliest": re.compile(
        rf"\b(?:earliest|oldest|first)\s+(?:\w+\s+)?{_PAPERS}\b|\b(?:start|started|begin|began)\s+publishing\b|"
        rf"{_FIRST_TIME}|"
        rf"\b{_PAPERS}\s+(?:is|was|came)\s+(?:the\s+)?(?:earliest|oldest|first)\b",
        re.I,
    ),
}
_Y = r"(1[5-9]\d\d|20\d\d)"
YEAR_RANGE = re.compile(rf"\b(?:between|from)\s+{_Y}\s+(?:and|to|until|till)\s+{_Y}\b|\b{_Y}\s*[-–]\s*{_Y}\b", re.I)
YEAR_OPEN = re.compile(rf"\b(since|after|before|until|up to)\s+{_Y}\b", re.I)


def year_span(masked: str) -> tuple[int | None, int | None, re.Match | None]:
    """(first year, last year, where it was said): "in 2021" → (2021, None); "between 2021 and 2023" →
    (2021, 2023); "since 2021" → (2021, 9999); "before 2020" → (1500, 2019)."""
    found = YEAR_RANGE.search(masked)
    if found:
        low, high = (int(y) for y in found.groups() if y)
        return min(low, high), max(low, high), found
    found = YEAR_OPEN.search(masked)
    if found:
        word, year = found.group(1).lower(), int(found.group(2))
        if word in ("since", "after"):
            return year + (word == "after"), OPEN_ENDED, found
        return 1500, year - (word == "before"), found
    found = DECADE.search(masked)
    if found:  # "in the 2000s", "the '90s": its ten years
        first = int(found.group(1)) if found.group(1) else int(found.group(2)) * 10
        first += 0 if found.group(1) else (1900 if first >= 30 else 2000)
        return first, first + 9, found
    found = YEAR.search(masked)
    return (int(found.group(1) or found.group(2)) if found else None), None, found


DECADE = re.compile(r"\b(?:the\s+)?(?:((?:1[5-9]|20)\d0)|'?(\d)0)'?s\b", re.I)


YEAR = re.compile(
    r"\b(?:in|during|from|of|since)\s+(1[5-9]\d\d|20\d\d)\b|"
    r"\b(1[5-9]\d\d|20\d\d)\s+(?:papers?|publications?|articles?|works?|preprints?)\b",  # "X's 2019 paper"
    re.I,
)
NOT_TOPICS = {"average", "arxiv", "the arxiv", "record", "file", "the library", "google scholar"}
# "coauthors on every paper", "on all of them": a quantifier, not what the papers are about
NOT_TOPICS |= {"every", "each", "all", "any", "both", "all of them", "every one", "each one", "all their", "all his"}
SLOT = "X"


@dataclass
class Reading:
    question: str
    masked: str  # the question with its entities as the slot word
    asked: Kind
    start: Start
    cues: set[str]
    field_text: str = ""  # the masked question without its relation words: what names the field
    topic: str | None = None
    year: int | None = None  # "… papers in 2021": the papers of that year only
    year_to: int | None = None  # the last year of a span ("between 2021 and 2023"; 9999: "since 2021")
    rank: Narrow | None = None  # "latest", "earliest", "most_cited": the top paper by that figure
    yes_no: bool = False  # "Did A and B write together?": answered yes or no, with the joint papers
    compare: str | None = None  # "max" / "min": which of a pair has more (fewer) of a figure
    limit: int | None = None  # "name three coauthors": at most this many items
    venue: str | None = None  # "… appeared in Physical Review B": only the papers of that venue
    without_head: bool = False  # "who wrote X's latest paper with him": the person is not one of the answer
    alone: bool = False  # "which papers did X write alone": only those X is the one author of
    count_after: bool = False  # a count of people taken after some are left out (the engine sets it)
    # the conditions negated ("not with B"): (their narrowing, or one none can take; the words); the engine sets it
    left_out: tuple[tuple[str, str], ...] = ()
    venue_before_papers: bool = False  # the venue was read from "X's ‹Name› paper" (it may be a title word)
    excluded: tuple[str, ...] = ()  # people the answer leaves out (the person of "with him", of "A's coauthors on X")
    scores: list[tuple[str, float]] = field(default_factory=list)


# "the coauthors / collaborators of …": the relation named as a noun; a verb ("who co-wrote X",
# "who collaborated on X") asked of a paper names the people who wrote it
COAUTHOR_NOUN = re.compile(r"\bco-?authors\b|\bco-?author of\b|\bcollaborators?\b|\bco-?writers?\b", re.I)
CO_WRITING = re.compile(r"\bco-?wr[io]te\b|\bco-?written\b|\bco-?authored\b|\bcollaborated on\b", re.I)


# "Who is A affiliated with?", "who does A work for?": "who" asks for the organization, not a person
ORGANIZATION_ASKED = re.compile(
    r"\bwho\b.*\b(?:affiliated|associated|employed)\s+(?:with|by|at)\b|\bwho\b.*\bworks?\s+for\b|"
    r"\bwho\s+employs\b",
    re.I,
)


# "the X paper": the noun names the entity (already found), not a field to return
SLOT_NOUN = re.compile(rf"\b{SLOT}\s+(?:paper|article|preprint|publication|study|report)\b", re.I)


# "which papers did X write alone", "X's single-authored papers": the papers X is the one author of
ALONE = re.compile(
    r"\b(?:alone|solo|by (?:him|her|them)sel(?:f|ves)|single[- ]authored|sole[- ]authored|as (?:the )?sole author|"
    r"on (?:his|her|their) own|without (?:any )?co-?authors)\b",
    re.I,
)


# "with him", "alongside her": the person the question is about, who is then no answer of it
WITH_HEAD = re.compile(r"\b(?:with|alongside|beside)\s+(?:him|her|them)\b", re.I)


# words that make "X's … papers" a clause ("X's coauthors wrote the most papers"), not a description
_CLAUSE_WORDS = (
    r"(?:the|a|an|most|more|wrote|write|written|writes|published|publish|publishes|did|does|do|has|have|had|is|are|"
    r"was|were|with|of|in|on|many|much)"
)
# "X's flaky test papers", "X's spatial statistical paper": the words before the paper noun say what
# the papers are about (never a rank, a count or a year: those are read as such)
DESCRIBED_PAPERS = re.compile(
    rf"(?:\b{SLOT}(?:'s|’s)|\b(?i:his|her|their))\s+(?!(?:latest|newest|recent|most|first|earliest|oldest|last|own|joint|other|best|"
    rf"top|all|new|main|\d|one|two|three|four|five)\b)((?:(?!{_CLAUSE_WORDS}\b)[a-z][\w-]*\s+){{1,4}}?)"
    r"(?:papers?|articles?|publications?)\b"
)
PAPER_WORDS_AROUND = re.compile(r"^(?:the|a|an|his|her|their)\s+|\s+(?:paper|papers|article|articles|work)$", re.I)


def _cut(text: str, found: re.Match | None) -> str:
    return text[: found.start()] + " " + text[found.end() :] if found else text


def read_question(masked: str, start: Start, venue_as_topic: bool = False) -> Reading:
    """What a question (its entities already replaced by ``SLOT``) asks for and walks through.
    ``venue_as_topic``: the capitalised word before the paper noun ("X's Scratch paper") is a word of
    the papers' titles, not their venue (the engine checks which the library holds)."""
    if start == "paper":
        masked = SLOT_NOUN.sub(SLOT, masked)
    with_head = WITH_HEAD.search(masked) if start == "person" else None
    cue_text = _cut(masked, with_head)  # "wrote X's paper with him" walks no coauthors: it leaves X out
    venue = venue_named(masked) if start in ("person", "pair") else None
    named_before = venue is not None and venue.re is VENUE_BEFORE_PAPERS
    if venue_as_topic and named_before:
        venue = None  # read below as what the papers are about (DESCRIBED_PAPERS)
    cue_text = _cut(cue_text, venue)  # "appeared in Physical Review B" names the papers' venue, not a field
    cues = {name for name, cue in ROUTE_CUES.items() if cue.search(cue_text)}
    alone_named = len(re.findall(rf"\b{SLOT}\b", masked)) == 1  # no scholar named beside the paper
    if (
        start == "paper"
        and alone_named
        and "coauthors" in cues
        and not cues & {"first_author", "last_author", "authors"}
    ):
        if CO_WRITING.search(cue_text) and not COAUTHOR_NOUN.search(cue_text):  # "who co-wrote X?": its authors
            cues = cues - {"coauthors"}
    topic, year, year_to = None, None, None
    if start in ("person", "pair"):
        year, year_to, found = year_span(masked)
        # the year and the venue are not part of the topic ("on graphs in 2021" → "graphs")
        masked_topic = _cut(masked, found)
        if venue is not None:
            masked_topic = _cut(masked_topic, venue_named(masked_topic))
        masked_topic = _cut(masked_topic, ALONE.search(masked_topic))  # "on his own" is no topic
        match = TOPIC.search(masked_topic) or DESCRIBED_PAPERS.search(masked_topic)
        if match is None and venue_as_topic:  # "X's Scratch paper": the capitalised words say what it is about
            match = VENUE_BEFORE_PAPERS.search(masked_topic)
        if match and match.group(1).strip().lower() not in NOT_TOPICS:
            # "papers on Luttinger liquids has X written": the topic ends where the clause goes on
            topic = TOPIC_END.split(match.group(1), maxsplit=1)[0].strip() or None
            # "on the BMC public health paper": the words that say what the papers are about
            topic = PAPER_WORDS_AROUND.sub("", topic or "").strip() or None
            topic = None if topic and topic.lower() in NOT_TOPICS else topic  # "on every paper"
    # the top of a person's papers, or of a pair's joint papers ("A and B's first paper together")
    rank = next((name for name, cue in RANK_CUES.items() if cue.search(masked)), None) if start != "paper" else None
    alone = ALONE.search(masked) if start == "person" else None
    if rank or venue or alone:
        cues.add("pubs")  # what is ranked (what appeared in a venue) is the person's papers, named or not
    field_text = cue_text
    for route in BINDING:  # "first author" names the relation, not the author's name as the field
        if route in cues or route != "coauthors":  # a verb read as the paper's authors names that field
            field_text = ROUTE_CUES[route].sub(" ", field_text)
    if rank:  # "latest publication" names the papers ranked, not a field of them
        field_text = RANK_CUES[rank].sub(" ", field_text)
    asked = asked_kind(_cut(masked, venue))  # "which papers appeared in Y" asks for papers, not a venue
    if asked is Kind.PEOPLE and ORGANIZATION_ASKED.search(masked):  # "who is A affiliated with": a place
        asked = Kind.PLACE
    if SOURCE_NUMBER.search(masked):  # "the arXiv number of X" names an identifier, not a count
        asked = Kind.TEXT
    if asked is Kind.TEXT and NAME_ASKED.search(masked):  # "what is X's paper about Y called": its title
        asked = Kind.PAPER
    if (venue or topic or year) and asked is Kind.TEXT and is_yes_no(masked):
        asked = Kind.PAPER  # "has A published in Nature / on fairness?": the papers that did (none is an answer too)
    elif venue and asked is Kind.TEXT:
        asked = Kind.PAPER
    reading = Reading(masked, masked, asked, start, cues, field_text, topic, year, year_to, rank)
    reading.limit = list_limit(masked)
    reading.venue = venue.group("venue") if venue else None
    reading.venue_before_papers = named_before and venue is not None
    reading.without_head = with_head is not None
    reading.alone = alone is not None
    if start == "pair":
        reading.compare = comparison(masked)
        together = cues & {"coauthors", "pubs"} or re.search(r"\btogether\b|\bjoint", masked, re.I)
        if is_yes_no(masked) and together and not reading.compare:  # do they share papers: the joint papers
            reading.yes_no, reading.asked = True, Kind.PAPER
            reading.cues = (cues - {"coauthors"}) | {"pubs"}
    return reading


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


def counts_what_is_asked(plan: Plan, reading: Reading) -> bool:
    """Whether the plan counts what the question counts: "how many venues has X published in?" is no
    count of X's papers, "how many times was X cited" is one of citations."""
    nouns = counted_words(reading.masked)
    if not nouns or reading.asked is not Kind.COUNT:
        return True
    people = {"authors_name_list": "authors", "authors.name": "authors", "authors": "authors"}.get(plan.field)
    counted = people or (plan.routes[-1] if plan.count and plan.routes else plan.field.rsplit(".", 1)[-1])
    counted = {"num_pubs": "pubs", "title": "pubs", "name": "authors", "interests": "interest"}.get(counted, counted)
    said = COUNTED_AS.get(counted, tuple(nouns))
    return any(noun.startswith(word) or word.startswith(noun) for noun in nouns for word in said)


SOURCE_ID = re.compile(r"\b(?:arxiv|doi|openalex|orcid|isbn|issn)\b", re.I)


def answers_what_is_asked(plan: Plan, reading: Reading) -> bool:
    """Whether the plan can answer for what is asked at all: a count of what the question counts, and
    never the library's own id for a source's ("the arXiv id of X" is not "paper:24")."""
    if plan.field.endswith("_id") and SOURCE_ID.search(reading.field_text):
        return False
    return counts_what_is_asked(plan, reading)


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
    if unheld_attribute(reading):
        return 0
    words = FIELD_WORDS.get(plan.field, ())
    if plan.start == "paper" and plan.field == "title" and not plan.routes:
        words = OWN_TITLE_WORDS
    # a rank names the papers ranked: a person's (the plan's own narrowing) or a pair's joint papers
    ranks = reading.rank is not None and (
        plan.narrow == reading.rank or (plan.narrow == "pair" and "pubs" in plan.routes)
    )
    field_hits = _word_hits(words, reading.field_text) + ranks
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
    noun = attribute_asked(masked)  # "What is X's salary?": the thing in the question's own words
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
