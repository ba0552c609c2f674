"""Two questions in one ("When and where is ICML?", "How much was the prize and who paid for it?").

People join two questions about one thing with "and"; each part asks its own kind (a date and a place, an
amount and a sponsor), so each is answered on its own and the answer says both, or which part the data lacks.
"""

from __future__ import annotations

import re

from scholar_tui.core.conference.question_words import WH_PHRASE as WH

JOINED_WORDS = re.compile(rf"^\s*({WH})\s+and\s+({WH})\b\s*(.+)$", re.IGNORECASE)
""""When and where is X?": two question words sharing one rest."""
JOINED_CLAUSES = re.compile(rf"^\s*({WH}\b.+?),?\s+and\s+({WH}\b.+)$", re.IGNORECASE)
""""How much was the prize and who paid for it?": a second question clause after "and"."""
SUBJECT = re.compile(
    rf"^\s*{WH}(?:\s+\w+)??\s+(?:is|are|was|were|does|do|did|will|would|can|could|should)\s+(.+?)\s*[?.!]*\s*$",
    re.IGNORECASE,
)
""""How much was the best demo prize" → "the best demo prize": what the first part asks about."""
PRONOUN = re.compile(r"\b(it|they|them|its|their)\b", re.IGNORECASE)
PRONOUN_MEANS = {"it": "{}", "they": "{}", "them": "{}", "its": "{}'s", "their": "{}'s"}


COUNTED = r"how\s+many\s+"
VERB = r"(?:are|is|were|was|will|do|does|did|have|has|can)\b"
JOINED_COUNTS = re.compile(rf"^\s*({COUNTED})([a-z][\w-]*)\s+and\s+(?!how\b)([a-z][\w-]*)\s+(.+)$", re.IGNORECASE)
""""How many diamond and platinum exhibitors are there?", "how many keynotes and panels are there?": two counts
asked at once, one per word joined ("how many diamond exhibitors …", "how many platinum exhibitors …")."""
TOTAL = re.compile(r"\b(?:in total|total|altogether|combined|all together|together)\b", re.IGNORECASE)
"""A total asked of the two ("how many keynotes and panels in total?") is one count, not two."""
ELIDED_COUNT = re.compile(rf"^\s*{COUNTED}(?={VERB})", re.IGNORECASE)
""""… and how many are full-day?": the second count leaves out the thing counted, which the first names."""
COUNTED_THING = re.compile(rf"^\s*{COUNTED}(.+?)\s+(?={VERB})", re.IGNORECASE)


SINGULAR_PAIR = re.compile(
    rf"^\s*({WH})(?:'s|’s|\s+is|\s+was)\s+(the\s+(?:(?!\b(?:between|both|and)\b).)+?)\s+and\s+(the\s+[^?]+?)\s*\??\s*$",
    re.IGNORECASE,
)
""""Who's the general chair and the local chair?": a singular verb before two things joined asks each of them (one
person holds each role); "Who are the chairs and the organisers?" asks one list."""


def split_parts(question: str) -> list[str] | None:
    """The two questions of a joined question, each whole ("who paid for it?" → "who paid for the best demo
    prize?"); None when it asks one thing ("Who are the chairs and the organisers?" joins two nouns, not two
    questions)."""
    counts = JOINED_COUNTS.match(question)
    if counts and not TOTAL.search(question):
        asked, first, second, rest = counts.groups()
        return [_capitalised(f"{asked}{first} {rest}"), _capitalised(f"{asked}{second} {rest}")]
    pair = SINGULAR_PAIR.match(question)
    if pair:
        asked, first, second = pair.groups()
        return [_capitalised(f"{asked} is {first}?"), _capitalised(f"{asked} is {second}?")]
    joined = JOINED_WORDS.match(question)
    if joined:
        first, second, rest = joined.groups()
        return [_capitalised(f"{first} {rest}"), _capitalised(f"{second} {rest}")]
    clauses = JOINED_CLAUSES.match(question)
    if not clauses:
        return None
    first, second = clauses.group(1).strip(), clauses.group(2).strip()
    thing = COUNTED_THING.match(first)
    bare = re.fullmatch(rf"\s*{COUNTED}[\w\s-]+?", first) and not re.search(rf"\b{VERB}", first)
    counted_second = COUNTED_THING.match(second)
    if bare and counted_second:  # "how many workshops and how many tutorials are there?": the first shares the rest
        first = f"{first} {second[counted_second.end() :]}".rstrip("?")
    if thing and ELIDED_COUNT.match(second):  # "how many tutorials are half-day and how many are full-day?"
        second = ELIDED_COUNT.sub(lambda match: f"{match.group(0)}{thing.group(1)} ", second, count=1)
    subject = SUBJECT.match(first)
    # "how many sponsor chairs are there and who are they?": "they" are the things counted, not "there"
    named = thing.group(1) if thing else subject.group(1) if subject else None
    if PRONOUN.search(second) and named is not None:
        second = PRONOUN.sub(lambda match: PRONOUN_MEANS[match.group(1).lower()].format(named), second, count=1)
    return [_capitalised(first if first.endswith("?") else f"{first}?"), _capitalised(second)]


def _capitalised(question: str) -> str:
    return question[:1].upper() + question[1:]
