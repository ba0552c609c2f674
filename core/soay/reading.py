"""Reading a question into the facts that choose its plan (``Reading``).

The question is read with its entities masked (the slot word ``X``): the kind of answer it asks for
(``core.answer_kind.asked_kind``), what it starts from (a person, a paper, a pair of people), the
relations it walks (the first author, the coauthors, a person's papers — cue words, not whole
questions), what narrows a person's papers (a topic, a year or a span of years, a venue, "alone"),
a ranking ("latest", "most cited"), a limit ("name three"), a comparison or a yes or no.
``choose.py`` scores the plans against it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from scholar_tui.core.answer_kind import Kind, asked_kind
from scholar_tui.core.soay.conditions import OPEN_ENDED, VENUE_BEFORE_PAPERS, venue_named
from scholar_tui.core.soay.narrowing import Narrow
from scholar_tui.core.soay.plans import Start
from scholar_tui.core.soay.shapes import comparison, is_yes_no, list_limit

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
# "the doi for the X paper about user-database interaction": what follows the named paper's noun says
# what the paper is about (it names the paper, found already), not that its abstract is asked for
DESCRIBED_SLOT = re.compile(
    rf"\b{SLOT}\s+(?:paper|article|preprint|publication|study|report|one)\s+(?:about|on|regarding|concerning)\s+"
    r"[^?!.;,]*[\w)]",
    re.I,
)


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


# How people shorten words when they type fast ("how many ppl are on X", "papers w/ B"): read as the words.
TYPED_SHORT = {"ppl": "people", "w/": "with", "w/o": "without", "yr": "year", "yrs": "years", "abt": "about"}
_TYPED_SHORT = re.compile(r"(?<![\w/])(" + "|".join(re.escape(word) for word in TYPED_SHORT) + r")(?![\w/])", re.I)


def unabbreviated(text: str) -> str:
    """The text with the shortenings people type spelled out ("ppl" → "people")."""
    return _TYPED_SHORT.sub(lambda found: TYPED_SHORT[found.group(1).lower()], text)


def read_question(masked: str, start: Start, venue_as_topic: bool = False) -> Reading:
    """What a question (its entities already replaced by ``SLOT``) asks for and walks through.
    ``venue_as_topic``: the capitalised word before the paper noun ("X's Scratch paper") is a word of
    the papers' titles, not their venue (the engine checks which the library holds)."""
    masked = unabbreviated(masked)
    if start == "paper":
        masked = SLOT_NOUN.sub(SLOT, DESCRIBED_SLOT.sub(SLOT, masked))
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
