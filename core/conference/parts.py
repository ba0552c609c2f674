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


def split_parts(question: str) -> list[str] | None:
    """The two questions of a joined question, each whole ("who paid for it?" → "who paid for the best demo
    prize?"); None when it asks one thing ("Who are the chairs and the organisers?" joins two nouns, not two
    questions)."""
    joined = JOINED_WORDS.match(question)
    if joined:
        first, second, rest = joined.groups()
        return [_capitalised(f"{first} {rest}"), _capitalised(f"{second} {rest}")]
    clauses = JOINED_CLAUSES.match(question)
    if not clauses:
        return None
    first, second = clauses.group(1).strip(), clauses.group(2).strip()
    subject = SUBJECT.match(first)
    if subject and PRONOUN.search(second):
        thing = subject.group(1)
        second = PRONOUN.sub(lambda match: PRONOUN_MEANS[match.group(1).lower()].format(thing), second, count=1)
    return [_capitalised(first if first.endswith("?") else f"{first}?"), _capitalised(second)]


def _capitalised(question: str) -> str:
    return question[:1].upper() + question[1:]
