"""Question shapes beyond one value of one entity, read from the question's words.

People ask two questions in one ("Who wrote X and when did it come out?"), compare two scholars
("Who has more citations, A or B?"), ask yes or no about a pair ("Did A and B write together?") and
ask for a few items of a list ("Name three coauthors of A"). Each shape is found here; the engine
answers it with the same generated plans (two runs, one run per person, the top of a list).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_WH = r"(?:who|whom|whose|when|where|what|which|how|in (?:which|what)|did|does|do|is|are|was|were|has|have)\b"
# ", and who …", " and when …", "; where …": a second question starts where a question word follows
_SECOND_QUESTION = re.compile(rf"(?:\s*,\s*(?:and\s+)?|\s+and\s+|\s*;\s*)(?={_WH})", re.I)
_PRONOUN = re.compile(r"\b(?:it|they|them|he|him|she|her|this paper|that paper|the paper|this one)\b", re.I)
_POSSESSIVE = re.compile(r"\b(?:its|their|his)\b", re.I)


_ASKS = re.compile(rf"\s*(?:{_WH}|(?:name|list|give|tell|show|find)\b)", re.I)


@dataclass(frozen=True)
class Compound:
    first: str
    second: str
    at: int  # where the second question starts in the whole one


# "Which paper did A write with B, and when?": the second question said by its question word alone
_ELLIPTIC = re.compile(r"(?:\s*,\s*(?:and\s+)?|\s+and\s+)(when|where|who|by whom)\s*\??\s*$", re.I)
_ELLIPTIC_ASKS = {
    "when": "When was it published?",
    "where": "Where was it published?",
    "who": "Who wrote it?",
    "by whom": "Who wrote it?",
}


def split_compound(question: str) -> Compound | None:
    """Two questions asked as one, split where the second begins; None for one question."""
    elliptic = _ELLIPTIC.search(question)
    if elliptic and len(question[: elliptic.start()].split()) >= 3:
        first = question[: elliptic.start()].strip(" ,;")
        return Compound(first + "?", _ELLIPTIC_ASKS[elliptic.group(1).lower()], elliptic.start())
    for match in _SECOND_QUESTION.finditer(question):
        first, second = question[: match.start()].strip(" ,;"), question[match.end() :].strip()
        asks = _ASKS.match(first)  # "A versus B, who is cited more?" is one question: its first part asks nothing
        if asks and len(first.split()) >= 3 and len(second.split()) >= 2:
            return Compound(first if first.endswith("?") else first + "?", second[:1].upper() + second[1:], match.end())
    return None


_PLURAL = re.compile(r"\b(?:they|them|these papers|those papers|these|those)\b", re.I)
_SINGULAR_THING = re.compile(r"\b(?:it|this paper|that paper|the paper|this one)\b", re.I)
_PERSON = re.compile(r"\b(?:he|him|she|her)\b", re.I)


def resolve_pronouns(question: str, name: str, *, things: str | None = None, thing: str | None = None) -> str:
    """The second question with its pronouns replaced by what the first one named or answered.

    ``things``: what the first part's answer is, when it is a list of papers or people ("the papers of
    A of 2022"): "where were they published" asks about those, not about A's papers at large.
    ``thing``: the one paper the first part answered ("it"). Any pronoun left names the first part's
    entity ("when did it come out" → "when did ‹title› come out")."""
    if things:
        question = _PLURAL.sub(lambda _: things, question)
    if thing:
        question = _SINGULAR_THING.sub(lambda _: thing, question)
    if things or thing:  # "he"/"him" still names the person the first part is about
        question = _PERSON.sub(lambda _: name, question)
    question = _POSSESSIVE.sub(lambda _: f"{name}'s", question)
    return _PRONOUN.sub(lambda _: name, question)


_MORE = re.compile(r"\b(?:more|most|higher|highest|bigger|greater|larger)\b", re.I)
_FEWER = re.compile(r"\b(?:fewer|fewest|less|least|lower|lowest|smaller)\b", re.I)


_LATER = re.compile(r"\b(?:newer|newest|later|latest|more recent|most recent|younger)\b", re.I)
_EARLIER = re.compile(r"\b(?:older|oldest|earlier|earliest|first)\b", re.I)


def compared_in_time(question: str) -> bool:
    """Whether a comparison is of dates ("Is A older than B?"), not of counts."""
    return bool(_LATER.search(question) or _EARLIER.search(question))


def comparison(question: str) -> str | None:
    """ "max" for "who has more …, A or B" (or "… newer …"), "min" for "… fewer …" (or "… older …"), None
    when nothing is compared."""
    if not re.search(r"\bor\b|\bthan\b|\bcompare|\bvs\.?(?!\w)|\bversus\b", question, re.I):
        return None
    if compared_in_time(question):
        later, earlier = _LATER.search(question), _EARLIER.search(question)
        return "max" if later and (not earlier or later.start() < earlier.start()) else "min"
    more, fewer = _MORE.search(question), _FEWER.search(question)
    if more and (not fewer or more.start() < fewer.start()):
        return "max"
    return "min" if fewer else None


_YES_NO = re.compile(r"^\s*(?:did|do|does|have|has|had|is|are|was|were|can)\b", re.I)


def is_yes_no(question: str) -> bool:
    return bool(_YES_NO.search(question))


NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9}
NUMBER_NAMES = {value: word for word, value in NUMBER_WORDS.items()}
_LIST_OF = re.compile(
    r"\b(one|two|three|four|five|six|seven|eight|nine|\d{1,2})\s+(?:of\s+(?:the\s+|\S+(?:'s|’s)\s+|his\s+|her\s+|"
    r"their\s+)?)?(?:\w+\s+)?(?:co-?authors?|collaborators?|papers?|publications?|articles?|authors?|works|"
    r"titles?|interests?|topics?|people|researchers?)\b",
    re.I,
)


_TOP_ONE = re.compile(
    r"\b(?:most frequent|most common|main|closest|top|favou?rite|usual)\s+(?:co-?author|collaborator)\b(?!s)|"
    r"\bmost\s+(?:papers|publications|often|frequently)\b[^?]*\bwith\b|\bwith\b[^?]*\bmost\s+(?:often|frequently)\b",
    re.I,
)


def top_one(question: str) -> bool:
    return bool(_TOP_ONE.search(question))


# "more than 4 authors", "at least 10 citations": a number compared with, no year ("before 2020" is a span)
_COMPARED = r"\b(?:more|fewer|less|greater|higher|lower)\s+than|\bat\s+(?:least|most)|\bover|\bunder|\babove|\bbelow"
THRESHOLD_BEFORE = re.compile(rf"(?:{_COMPARED})\s*$", re.I)
THRESHOLD = re.compile(
    rf"(?:{_COMPARED})\s+(?!(?:1[5-9]\d\d|20\d\d)\b)(?:\d+|{'|'.join(NUMBER_WORDS)})\s+[a-z][\w-]*", re.I
)


def threshold(question: str) -> str | None:
    """The comparison with a number a question filters by ("more than 4 authors"), which no plan applies."""
    found = THRESHOLD.search(question)
    return found.group(0) if found else None


def list_limit(question: str) -> int | None:
    """How many items a question asks for ("name three coauthors" → 3); None: all of them. A count
    ("how many …") is never limited."""
    if re.search(r"\bhow many\b", question, re.I):
        return None
    if top_one(question):  # "X's most frequent coauthor": the API ranks them, the first is it
        return 1
    match = _LIST_OF.search(question)
    if not match or THRESHOLD_BEFORE.search(question[: match.start()]):
        return None  # "papers with more than 4 authors": a threshold, not how many to list
    word = match.group(1).lower()
    return NUMBER_WORDS.get(word) or (int(word) if word.isdigit() and int(word) > 0 else None)


_LEAVE_OUT = r"\b(?:besides|except(?: for)?|other than|apart from|aside from|excluding|not counting)\s+"
_EXCLUDING = re.compile(_LEAVE_OUT + r"([^?,.;]+)", re.I)
_LEFT_OUT_BEFORE = re.compile(_LEAVE_OUT + "$", re.I)


def left_out_at(question: str, start: int) -> bool:
    """Whether the name starting at ``start`` is one the question leaves out ("… apart from Gordon Fraser")."""
    return bool(_LEFT_OUT_BEFORE.search(question[:start]))


def excluded_name(question: str) -> str | None:
    """Who a question leaves out of a list ("who else worked on X besides Hong Zhu" → "Hong Zhu")."""
    match = _EXCLUDING.search(question)
    return match.group(1).strip() if match else None


_SUPERLATIVE = re.compile(
    r"\b(?:most|fewest|least|highest|lowest|biggest|largest|smallest|best|top|longest|shortest|youngest|greatest)\b",
    re.I,
)


def superlative(question: str) -> str | None:
    """The superlative a question ranks by ("publish most in", "the most coauthors"), or None."""
    found = _SUPERLATIVE.search(question)
    return found.group(0) if found else None


# "which of A's papers weren't with B", "what did A write without B", "A's papers not about X": a
# negation between the person asked about and a condition turns the condition into one to leave out.
_NEGATION = re.compile(r"(?:\bnot\b|n't\b|\bnever\b|\bwithout\b|\bno\b)", re.I)
# "no" negates a condition in a question for things ("which coauthor has no paper on X"); in a yes or no
# ("Does A have no papers in 2020?") it is what is asked, and the answer says whether there are any
_NEGATION_NOT_NO = re.compile(r"(?:\bnot\b|n't\b|\bnever\b|\bwithout\b)", re.I)


def _negations(question: str) -> re.Pattern[str]:
    return _NEGATION_NOT_NO if is_yes_no(question) else _NEGATION


_CLAUSE_END = re.compile(r"[?.!;,]|\b(?:and|or|but)\b", re.I)
NEGATION_REACH = 4  # words between the negation and the condition it negates ("weren't published in")


def negated_after(question: str, after: int) -> bool:
    """Whether a negation follows ``after`` in its clause ("what did A and B not write together")."""
    rest = _CLAUSE_END.split(question[after:], maxsplit=1)[0]
    return bool(_negations(question).search(rest))


def negated_between(question: str, after: int, start: int) -> bool:
    """Whether a negation in ``question[after:start]`` negates what starts at ``start``: within a few
    words of it, in the same clause. A negation before the person asked about ("Didn't A and B write
    together?") asks a yes or no and negates no condition, so only the text after them is read."""
    between = question[after:start]
    negations = list(_negations(question).finditer(between))
    if not negations:
        return False
    rest = between[negations[-1].end() :]  # the last negation before the condition is the one that reaches it
    return not _CLAUSE_END.search(rest) and len(rest.split()) <= NEGATION_REACH


ORDINALS = {"second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8, "ninth": 9}
_ORDINAL_AUTHOR = re.compile(
    rf"\b({'|'.join(ORDINALS)}|[2-9](?:nd|rd|th))[- ](?:author|writer|name(?: listed)?)\b|"
    rf"\b(?:author|name)\s+(?:number|no\.?|#)\s*([2-9])\b",
    re.I,
)


def author_place(question: str) -> tuple[int, str] | None:
    """(the place, as said) of "the second / 3rd author of X": one author by their place in the byline,
    as "the first author" and "the last author" are."""
    found = _ORDINAL_AUTHOR.search(question)
    if not found:
        return None
    said = (found.group(1) or found.group(2)).lower()
    return ORDINALS.get(said) or int(said[0]), said
