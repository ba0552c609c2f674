"""What kind of answer a question asks for, whether a value is of that kind, and how to say it is missing.

Every engine that answers a person's question (SoAy, conference QA, paper search) checks its
value against the question before showing it: a "where" is answered by a place or a venue, a
"how many" by a count, a "who" by people, a "when" by a date. A value of another kind is never
shown in its place; the engine says in one plain sentence what the data does not hold
(``abstain_sentence``) — a confident wrong answer is worse than none.

``asked_kind`` reads cues, not whole questions: each kind has a few interrogative patterns
("how many", "in which journal", "with whom", "what year"…) and the cue that starts earliest in
the question wins, so "In which year was ‹Where to look…› published?" is a date whatever the
title says. Callers that know where the entity sits should pass the question with it masked.
"""

from __future__ import annotations

import re
from enum import Enum
from typing import Any


class Kind(str, Enum):
    PLACE = "place"  # a location, an address, an organization one works or studied at
    VENUE = "venue"  # where a paper appeared: a journal, a conference, arXiv
    COUNT = "count"  # a non-negative integer over a set
    DATE = "date"  # a year, a day, a span of days
    PEOPLE = "people"  # one or more person names
    PAPER = "paper"  # one or more publication titles
    MONEY = "money"  # a fee, a price
    TEXT = "text"  # anything else: an abstract, interests, a description

    @property
    def noun(self) -> str:
        """How a sentence names a missing value of this kind."""
        return NOUNS[self]


NOUNS = {
    Kind.PLACE: "place",
    Kind.VENUE: "venue",
    Kind.COUNT: "count",
    Kind.DATE: "date",
    Kind.PEOPLE: "person",
    Kind.PAPER: "paper",
    Kind.MONEY: "amount",
    Kind.TEXT: "answer",
}

_GAP = r"[^?!]{0,250}?"  # anything up to the question's end (a title may sit in between)
# (kind, cue) in priority order: at the same starting position, the earlier (more specific) wins.
CUES: tuple[tuple[Kind, str], ...] = (
    (
        Kind.MONEY,
        # "How much does the package run / set me back?" (not "how much time does it run")
        r"how much\b(?!\s+(?:time|longer|later|earlier|more time)\b)"
        + _GAP
        + r"\b(?:cost|costs|fee|fees|pay|price|charge|run|set (?:me|you|us|them) back|go for)\b|"
        r"how much (?:is|are|was|were|will|would)\b(?![^?]*\bcit)|how much (?:[a-z-]+ )?money\b|"  # "How much is a ticket?"
        r"how much (?:is|are) (?:the )?(?:registration|ticket|admission)|\b(?:fees?|prices?|costs?)\b|"
        r"\bwhat (?:do|does|did|will|would|should|must) [^?]{0,80}?\b(?:pay|be charged)\b(?!\s+(?:attention|a visit|tribute))",  # "What do students pay?"
    ),
    (
        Kind.COUNT,
        r"how many|how much|how often|how (?:highly |widely |frequently |much |many times )?cited|"
        r"number of|\bcounts?\b|\btally\b|\bcitations?\b|\bh-index\b",
    ),
    (Kind.DATE, r"\bwhen\b|(?:what|which) (?:year|month|day|date)|\bdeadlines?\b|\byears?\b|\bdates?\b"),
    (
        Kind.VENUE,
        r"(?:which|what) (?:journal|conference|venue|proceedings|periodical|outlet)|"
        r"\bwhere\b" + _GAP + r"\b(?:published|publish|appear|appeared|presented|printed|"
        r"come out|came out)\b|\bvenues?\b|\bjournals?\b|published (?:in|at|by) what",
    ),
    (
        Kind.PLACE,
        r"\bwhere(?:abouts)?\b|\blocat(?:ion|ed)\b|(?:what|which) (?:city|country|place|town|room|hall|building|"
        r"university|universities|institution|institute|organi[sz]ation|school|college|lab|"
        r"laboratory|company)|\baffiliat(?:ion|ions|ed)\b|\baddress\b|\balma maters?\b",
    ),
    (
        Kind.PEOPLE,
        r"\bwho(?:m|se)?\b|(?:which|what) (?:authors?|researchers?|scholars?|people|persons?|"
        r"scientists?|speakers?|chairs?|organi[sz]ers?)\b|\bco-?authors?\b|\bcollaborators?\b|"
        r"\b(?:first|lead|last|primary|senior)[- ]authors?\b|\bauthors?\b|\bspeakers?\b|"
        r"\bwriters?\b",
    ),
    (
        Kind.PAPER,
        r"(?:which|what)\s+(?:other\s+|else\s+|more\s+|of\s+\w+(?:'s|’s)?\s+)?(?:papers?|publications?|"
        r"articles?|works?|titles?)\b|\btitles?\b|"
        r"\b(?:papers?|publications?|articles?|works)\s+(?:of|by|from|written|authored)\b|"
        r"\blist\b(?:\s+\w+){0,2}\s+(?:papers|publications|articles|works)\b|"
        # "what else has X published?" asks for the papers too: "else" says besides the ones named
        r"what (?:else )?(?:has|have|did)\b" + _GAP + r"\b(?:publish|published|write|written|author|authored)\b",
    ),
    # free text: said explicitly so that a later "who" ("the person who wrote …") does not win
    (
        Kind.TEXT,
        r"\binterests?\b|\babstracts?\b|\babout\b|\btopics?\b|\bfields?\b|\bareas?\b|"
        r"\bsummar(?:y|ize|ise)\b|\bdescribe\b|\bbio(?:graphy)?\b|\be-?mail\b|\bgender\b|"
        r"\bposition\b|\beducation(?:al)?\b|\bwork(?:s|ing)? on\b|\bresearch(?:es|ing)?\b|"
        r"\bstud(?:y|ies|ying)\b",
    ),
)
_COMPILED = tuple((kind, re.compile(cue, re.IGNORECASE)) for kind, cue in CUES)


# A noun right after an auxiliary verb is the question's subject, not what it asks for:
# "What does the first author of X work on?" asks for topics, not for people.
_SUBJECT_BEFORE = re.compile(
    r"\b(?:does|do|did|has|have|had|can|could|will|would)\s+"
    r"(?:the\s+|a\s+|an\s+|his\s+|her\s+|their\s+|its\s+)?$",
    re.IGNORECASE,
)


def _first_cue(cue: re.Pattern, question: str) -> int | None:
    for match in cue.finditer(question):
        if not _SUBJECT_BEFORE.search(question[: match.start()]):
            return match.start()
    return None


def asked_kind(question: str) -> Kind:
    """The kind of value the question asks for; TEXT when no cue says otherwise."""
    best: tuple[int, int, Kind] | None = None
    for rank, (kind, cue) in enumerate(_COMPILED):
        start = _first_cue(cue, question)
        if start is not None and (best is None or (start, rank) < best[:2]):
            best = (start, rank, kind)
    return best[2] if best else Kind.TEXT


# -- does a value fit the kind? ---------------------------------------------------------------------
MONTHS = (
    r"jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|"
    r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?"
)
_YEAR = re.compile(r"^(1[5-9]\d\d|20\d\d|2100)$")
_DATE = re.compile(
    rf"^\s*(?:\d{{4}}-\d{{1,2}}(?:-\d{{1,2}})?(?:T[\d:.Z+-]+)?|\d{{1,2}}[/.]\d{{1,2}}[/.]\d{{2,4}}|"
    rf"(?:(?:mon|tue|wed|thu|fri|sat|sun)\w*,?\s+)?(?:\d{{1,2}}(?:st|nd|rd|th)?\s+)?(?:{MONTHS})\.?"
    rf"(?:\s+\d{{1,2}}(?:st|nd|rd|th)?)?(?:\s*[-–]\s*(?:(?:{MONTHS})\.?\s+)?\d{{1,2}}(?:st|nd|rd|th)?)?"
    rf",?(?:\s+\d{{4}})?|(?:1[5-9]\d\d|20\d\d))\s*$",
    re.IGNORECASE,
)
_MONEY = re.compile(r"[$€£¥₹]|\b(?:usd|eur|gbp|chf|cad|aud|jpy|dollars?|euros?|pounds?)\b|\bfree\b", re.IGNORECASE)
_HAS_LETTER = re.compile(r"[^\W\d_]")


def is_date(value: Any) -> bool:
    """A year (int or text) or a date or span of days written out ('July 23-29, 2023', '2023-07-23')."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return bool(_YEAR.match(str(value)))
    return isinstance(value, str) and bool(_DATE.match(value.strip()))


def is_count(value: Any) -> bool:
    """A non-negative whole number (an int, an integral float, or its digits as text)."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return value >= 0
    if isinstance(value, float):
        return value.is_integer() and value >= 0
    return isinstance(value, str) and value.strip().replace(",", "").isdigit()


def _words(value: Any) -> str | None:
    """Text that names something: has a letter and is neither a date nor a bare number."""
    if isinstance(value, dict):  # an API record: its name or title
        value = value.get("name") or value.get("title")
    if not isinstance(value, str) or not value.strip():
        return None
    text = value.strip()
    if is_date(text) or is_count(text) or not _HAS_LETTER.search(text):
        return None
    return text


def _is_name(value: Any) -> bool:
    text = _words(value)
    return text is not None and len(text.split()) <= 8 and not re.search(r"\d|https?://|@", text)


def _items(value: Any) -> list[Any] | None:
    """A list's items (None when empty: an empty list answers nothing); a single value as one item."""
    if isinstance(value, (list, tuple, set, frozenset)):
        items = list(value)
        return items or None
    return [value]


_ITEM_CHECKS = {
    Kind.PLACE: lambda v: _words(v) is not None,
    Kind.VENUE: lambda v: _words(v) is not None,
    Kind.PEOPLE: _is_name,
    Kind.PAPER: lambda v: _words(v) is not None,
    Kind.DATE: is_date,
    Kind.MONEY: lambda v: isinstance(v, str) and bool(_MONEY.search(v)),
    Kind.TEXT: lambda v: (isinstance(v, str) and bool(v.strip())) or (isinstance(v, dict) and bool(v)),
}


def fits(kind: Kind, value: Any) -> bool:
    """Whether ``value`` can answer a question asking for ``kind``.

    A count is one whole number (never a list, never a year-looking text); the other kinds take a
    value or a non-empty list whose every item fits (a list of venues, of names, of titles).
    None, empty text and empty lists fit nothing: they are a missing value, said as such.
    """
    if value is None:
        return False
    if kind is Kind.COUNT:
        return is_count(value)
    items = _items(value)
    if items is None:
        return False
    check = _ITEM_CHECKS[kind]
    if kind is Kind.TEXT:  # interests, an abstract: text of any shape, but something
        return all(check(item) or is_count(item) for item in items)
    return all(check(item) for item in items)


# -- saying what is missing -------------------------------------------------------------------------
def abstain_sentence(missing: str, about: str | None = None, *, source: str = "The library") -> str:
    """The one plain sentence for a value the data does not hold.

    ``abstain_sentence("citation count", "‹title›")`` → "The library has no citation count for ‹title›.";
    ``abstain_sentence("location", source="ICML 2023's site data")`` → "ICML 2023's site data has no location."
    """
    subject = f" for {about.strip()}" if about and about.strip() else ""
    return f"{source.strip()} has no {missing.strip()}{subject}."


_ABSTAIN = re.compile(r"^[^\n]{1,200}? has no [^\n]+\.$")


def is_abstain(text: Any) -> bool:
    """Whether an answer is the plain not-in-the-data sentence (what benchmarks count as abstained)."""
    return isinstance(text, str) and bool(_ABSTAIN.match(text.strip()))
