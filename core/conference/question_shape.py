"""What a question asks, read from its wording alone: its form (yes/no, count, sum, compare,
earliest/latest, list, span) and its kind (a place, a date, an amount, people, …).

General English only, no site's words: the form picks the operator (``answer.OPERATORS``), the kind the checks
the answer must pass (``kind_checks``).
"""

from __future__ import annotations

import re
from functools import lru_cache

from scholar_tui.core.answer_kind import Kind, asked_kind
from scholar_tui.core.conference.affiliations import asks_affiliation
from scholar_tui.core.conference.lexical import WORD, stem, words
from scholar_tui.core.conference.question_words import AUXILIARIES, CONTRACTED, alternation
from scholar_tui.core.conference.values import ASKS_EMAIL, ASKS_LINK, HOW_MUCH, WHEN

YES_NO_OPENERS = frozenset(AUXILIARIES)
"""A question that opens with an auxiliary asks yes or no ("Can I attend remotely?")."""


LIST_CUES = re.compile(
    r"\b(who are|what are|which are|which \w+s are|which (?:people|children|media|data|criteria) are|list|name the|"
    r"names of)\b",
    re.IGNORECASE,
)
""""Which workshops are …" asks a list; "which platform are papers submitted on?" asks one platform: a singular
noun after "which" asks one value whatever verb follows (the "are" agrees with "papers")."""


SUM_CUES = re.compile(r"\b(together|in total|total|combined|altogether|sum)\b", re.IGNORECASE)


EARLIEST_CUES = re.compile(r"\b(earliest|first|soonest|next|begin|begins|start|starts|opening)\b", re.IGNORECASE)


COMPARE_CUES = re.compile(
    r"\b(cheaper|more expensive|less expensive|higher|lower|more|less|earlier|later|bigger|smaller)\b"
    r".*\bthan\b|\bwhich (?:one )?is (?:cheaper|more|less|earlier|later|higher|lower)\b",
    re.IGNORECASE,
)


IDENTIFIER_NUMBER = re.compile(
    r"\b(?:phone|telephone|fax|mobile|contact|room|booth|reference|registration|order|invoice|paper|submission|"
    r"account|id|identification)\s+number",
    re.IGNORECASE,
)
""""The phone number of the organisers" names a number to read, not a count of things."""


def question_form(question: str) -> str:
    """The question's form, which picks the operator (``answer.OPERATORS``). Its "yes_no" is narrower than
    ``support.asks_yes_no``: an "or" question asks which (a span), and one opening with a condition is not read."""
    lowered = question.strip().lower()
    first = WORD.findall(lowered)[:1]
    if re.search(r"\bhow many\b", lowered):
        return "count"
    if SUM_CUES.search(lowered) and HOW_MUCH.search(lowered):
        return "sum"
    if first and first[0] in YES_NO_OPENERS and not re.search(r"\bor\b", lowered):
        return "yes_no"  # "Is it in person or virtual?" asks which, not whether
    if COMPARE_CUES.search(lowered):
        return "compare"
    if re.search(r"\bnumber of\b", lowered) and not IDENTIFIER_NUMBER.search(lowered):
        return "count"
    if (WHEN.search(lowered) or "date" in lowered) and re.search(r"\b(earliest|first|soonest|latest|last)\b", lowered):
        return (
            "earliest" if EARLIEST_CUES.search(lowered) and not re.search(r"\b(latest|last)\b", lowered) else "latest"
        )
    if LIST_CUES.search(lowered):
        return "list"
    return "span"


def asks_for_type(question: str) -> bool:
    return any(pattern.search(question) for pattern in (WHEN, HOW_MUCH, ASKS_EMAIL, ASKS_LINK))


def things_named(question: str) -> list[str]:
    """The things a comparison or a sum names: the parts around 'and'/'or'/'than'/','."""
    body = re.sub(r"^(how much|which|what)\b[^,]*?\b(do|does|is|are|would|will)\b", "", question, flags=re.IGNORECASE)
    parts = re.split(r"\band\b|\bor\b|\bthan\b|,|\bvs\.?\b", body, flags=re.IGNORECASE)
    return [part for part in parts if words(part)]


ONLINE_ACTION = re.compile(
    r"\bwhere\s+(?:can|do|should|could|may)\s+(?:i|we|you|one)\s+(?:find|get|download|access|"
    r"see|read|register|apply|submit|sign up|upload|buy)\b",
    re.IGNORECASE,
)
""""Where can I find the slides?" asks for a pointer (a link, a page), not for a place."""


FIND_ACTION = re.compile(
    r"\bhow\s+(?:can|do|should|could|may)\s+(?:i|we|you|one)\s+(?:find|get|download|access|see|"
    r"reach|visit)\b",
    re.IGNORECASE,
)
""""How can I find the accepted workshops?" asks for a pointer too: a bare link may answer it."""


HEAD_NOUN = re.compile(
    r"^\s*(?:what|which)\s+(?:(?:is|are|was|were)\s+)?(?:the\s+|a\s+|an\s+)?"
    r"(?!(?:does|do|did|can|could|will|would|should|must|has|have)\b)([a-z][\w\s-]*?)\s+"
    r"(?:of|on|for|about|in|at|to|regarding|should|would|will|can|could|do|does|did|is|are|must)\b",
    re.IGNORECASE,
)
""""What <thing> of/should …": the thing names what is asked ("What review aspects should be considered
when reviewing …?" asks for aspects, whatever its "when" clause says)."""


HEAD_ALONE = re.compile(
    r"^\s*(?:what|which)\s+(?:is|are|was|were)\s+(?:the\s+|a\s+|an\s+)?([a-z][\w\s-]*?)\s*\??$", re.IGNORECASE
)
""""What is the hotel room rate?": the thing asked, with nothing after it."""


AMOUNT_NOUNS = frozenset(
    stem(word) for word in "prize prizes rate rates fee fees price prices cost costs money".split()
)
"""A head noun that names an amount: "What was the prize …?" asks for money as "How much …?" does (general
English; a rate may be a share, "acceptance rate", which the site then has no amount for)."""


TIME_WORDS = re.compile(r"\b(?:days?|dates?|deadlines?|due|when|time|long|years?|months?|weeks?)\b", re.IGNORECASE)
"""A question that says one of these may be answered by a date, whatever kind its head reads as."""


WHAT_DO = re.compile(r"^\s*(?:what|which)\s+(?:do|does|did|should|must|can|could|will|would)\b", re.IGNORECASE)


SUBORDINATE = re.compile(r"\b(?:when|where|if|while|before|after|once)\b.*$", re.IGNORECASE)
""""What does X cost?" asks for what its verb or object says; a clause opened by "when"/"where"/"if" after
it only sets the scene."""


WHAT_IS = re.compile(r"^\s*(?:what|which)\s+(?:is|are|was|were)\b", re.IGNORECASE)
SCENE_CLAUSE = re.compile(r"\s+(?:when|if|while)\s+(?:i|we|you|they|one|registering|submitting|applying)\b.*$", re.I)
""""What is the minimum password length when registering?", "… if I register late?": a clause about the asker's
circumstance after the thing asked sets the scene; it does not make the question a "when"."""


# a pure function of the question's text (fixed regexes, no site data) and asked up to 5 times per question on
# answer.py's way (its abstentions, the kind checks, the stated value, the verifier): remembered, not re-read
@lru_cache(maxsize=1024)
def conference_kind(question: str) -> Kind:
    """The asked kind (``core.answer_kind``), read for a conference site: a venue is a place here, and
    "where can I find/register …" asks for a pointer, which the span operators answer."""
    if WHAT_IS.match(question):
        question = SCENE_CLAUSE.sub("?", question)
    head = HEAD_NOUN.match(question) or HEAD_ALONE.match(question)
    if head and set(words(head.group(1))[-1:]) & AMOUNT_NOUNS:
        return Kind.MONEY  # "What was the prize for …?", "What is the hotel room rate?": an amount
    if head:
        kind = asked_kind(f"what {head.group(1)}?")
    elif WHAT_DO.match(question):  # "What do I need to bring when I register?": the "when" clause asks nothing
        kind = asked_kind(SUBORDINATE.sub("", question))

    else:
        kind = asked_kind(question)
    if kind is Kind.VENUE or (kind is Kind.TEXT and asks_affiliation(question)):
        kind = Kind.PLACE  # "which unis are they from?" asks where they are, as "which university" does
    if kind is Kind.PLACE and ONLINE_ACTION.search(question):
        return Kind.TEXT
    return kind


CONTRACTION = re.compile(rf"\b({alternation(CONTRACTED)})['’]s\b", re.IGNORECASE)
""""What's", "Who's": a question word with "is" written short (``question_words.CONTRACTED``)."""
