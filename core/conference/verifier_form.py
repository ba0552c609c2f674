"""The answer verifier's check of a value's form (``verifier``): the value shown has the form the question's asked
thing takes.

The asked thing is read from the question's structure, its wh-word and head noun, by ``question_shape``'s
``conference_kind`` (the project's kind vocabulary, ``answer_kind.Kind``); the value's form from its own text and
the label of the field it was read from (read by ``answer_kind``'s cues, as a question is). A value of
another form answers another question, whatever words it shares with this one:

* an amount asked ("how much", "what's the fee") is answered by a value that writes one, a date or time asked by one
  that writes a date or a time of day, a count by one that writes a number;
* a bare time or date (nothing but "12:30-13:00") answers only a question that asks when: "what's on the menu?"
  asks for the dishes, "what font …?" for a font;
* a bare place (a field the site labels a place or an affiliation: "USA") answers only a question asking where:
  "what else is X doing?" asks for a role, "who …?" for people;
* a thing a number names ("which CEUR volume") is answered by that number, which a sentence writes beside the
  thing's noun ("CEUR-WS Vol-3254"); a paragraph's "(1)" or "2022" numbers something else;
* a sentence answering "what/which <thing> …" ("which file types") shares a content word with the question: one
  sharing none is about something else on the page the search reached.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from scholar_tui.core.answer_kind import Kind, asked_kind
from scholar_tui.core.conference import kinds
from scholar_tui.core.conference.asking import CLOCK_TIME, asks_clock_time, says_clock_time
from scholar_tui.core.conference.computed import Computed
from scholar_tui.core.conference.events import EvidencePath
from scholar_tui.core.conference.kind_checks import of_kind
from scholar_tui.core.conference.lexical import words
from scholar_tui.core.conference.plain_sentence import abstain, not_held, question_topic
from scholar_tui.core.conference.question_shape import (
    CONTRACTION,
    HEAD_ALONE,
    HEAD_NOUN,
    TIME_WORDS,
    conference_kind,
)
from scholar_tui.core.conference.tree import Node, Tree
from scholar_tui.core.conference.values import find_amounts, find_dates
from scholar_tui.core.conference.verifier_evidence import read_nodes

BARE_VALUE_WORDS = 3
"""A value is bare (a time, a place and nothing else) when no more than this many words are left once its time,
date or place is taken out: "12:30-13:00" and "Mon, July 24 (AoE)" are a time and a date, "Deadline to order is
June 22, pick it up onsite" says more."""


NAME_WORDS = 8
"""A name or a short value takes at most this many words (``answer_kind``'s names); a longer answer is a sentence,
which says the thing asked when it answers "which <thing>"."""


PREFIX = kinds.PREFIX
"""Two words that agree in their first letters are one ("printing"/"printed"), as the operators read them."""


ABBREVIATION = 3
"""A noun written short keeps at least its first three letters ("Vol." for "volume")."""


def other_form(question: str, answer: Computed, evidence: Sequence[EvidencePath], tree: Tree) -> Computed | None:
    """The plain sentence when the answer's value has another form than the question's asked thing, else None."""
    if answer.operation in ("yes_no", "abstain"):
        return None
    asked = CONTRACTION.sub(r"\1 is", question)
    kind = conference_kind(asked)
    text = answer.text.strip().rstrip(".")
    if not _of_asked_kind(kind, text):
        return not_held(kind, question, tree)
    asks_time = kind is Kind.DATE or bool(TIME_WORDS.search(asked)) or asks_clock_time(asked)
    if not asks_time and bare_time(text):
        return not_held(kind, question, tree)
    if kind is not Kind.PLACE and _bare_place(kind, text, read_nodes(answer, evidence, tree)):
        return not_held(kind, question, tree)
    numbered = _numbered_thing(asked)
    if numbered and not _writes_number_of(numbered, text):
        return abstain(tree, "number", question_topic(question, tree))
    if kind is Kind.TEXT and not asks_time and _head_thing(asked) and len(text.split()) > NAME_WORDS:
        if not _shares_content(asked, text):
            return not_held(kind, question, tree)
    return None


def _of_asked_kind(kind: Kind, text: str) -> bool:
    """An amount, a date or time, a number: the kinds whose values have a form of their own."""
    if kind is Kind.DATE:
        return bool(find_dates(text)) or says_clock_time(text) or of_kind(kind, text)
    if kind in (Kind.MONEY, Kind.COUNT):
        return of_kind(kind, text) or bool(re.search(r"\d", text))
    return True


def bare_time(text: str) -> bool:
    """Whether a value is a time of day or a date and little else ("12:30-13:00", "June 22")."""
    if find_amounts(text):  # "$75.00" writes an amount, not the time 75.00
        return False
    rest = CLOCK_TIME.sub(" ", text)
    dates = find_dates(rest)
    if rest == text and not dates:
        return False
    for found in dates:
        rest = rest.replace(found.text, " ")
    return len([word for word in words(rest) if not word.isdigit()]) <= BARE_VALUE_WORDS


def _bare_place(kind: Kind, text: str, nodes: Sequence[Node]) -> bool:
    """Whether a short value was read from a field the site labels a place ("affiliation: NYU, USA" → "USA" for
    "what else is X doing?"). A "who" may be answered by an organisation ("institution: Bosch Center for AI"), so
    for people only a field labelled a place to be at (``kinds.LABEL_WORDS``: a country, a city, a room) counts."""
    if len(text.split()) > BARE_VALUE_WORDS:
        return False
    for node in nodes[:1]:
        if not text or text not in (node.text or "") or not _labels_place(node.label):
            return False
        return kind is not Kind.PEOPLE or Kind.PLACE in kinds.label_kinds(node.label)
    return False


def _labels_place(label: str) -> bool:
    """Whether a field's label names a place or an affiliation as a question's cue does ("affiliation", "country",
    "location"): read by ``answer_kind``'s cues, which a "site" (a web site, "Paper submission site") is not."""
    cued = asked_kind(f"which {label}?") if label else Kind.TEXT
    # "which venue" is a place; "which Conference dinner" only reads as a publication venue
    return cued is Kind.PLACE or (cued is Kind.VENUE and Kind.PLACE in kinds.label_kinds(label))


def _head_thing(question: str) -> list[str]:
    """The content words of the thing a "what/which <thing> …" question asks for ("file types", "ceur volume",
    "font"); empty when the question is not built so."""
    head = HEAD_NOUN.match(question) or HEAD_ALONE.match(question) or WHICH_THING.match(question)
    if head is None or not head.group(1)[:1].islower():  # "what is Anne Toulet presenting?" names a person
        return []
    return [word for word in words(head.group(1)) if word not in kinds.GENERIC]


WHICH_THING = re.compile(r"^\s*(?:what|which)\s+([a-z][\w-]*(?:\s+[a-z][\w-]*)?)\s+(?:has|have|had)\b", re.I)
""""Which volume has …", "what track has …": the thing asked, before the verb that says what it holds."""


NUMBERED = frozenset("volume vol issue".split())
"""Head nouns of things a number names, written beside it ("CEUR-WS Vol-3254", "Volume 13489 of LNCS", "issue 4"):
"which CEUR volume …" asks for that number. (A number asked by name, "what's the phone number", is the value itself,
which a sentence writes without the noun: ``kind_checks.of_asked_number`` asks it for digits.)"""


def _numbered_thing(question: str) -> str | None:
    """The head noun of a thing a number names ("volume" of "which ceur volume has …"), else None."""
    head = _head_thing(question)
    return head[-1] if head and head[-1] in NUMBERED else None


NUMBER_NEAR = 3
"""A sentence names a numbered thing's number next to it: "CEUR-WS Vol-3254", "volume 3254 of …"."""


def _writes_number_of(head: str, text: str) -> bool:
    """Whether a value writes the number of the thing: a short value a number in digits, a sentence a number within a
    few words of the thing's noun (a sentence's "(1)" or "2022" numbers something else)."""
    if len(text.split()) <= NAME_WORDS:
        return bool(re.search(r"\d", text))
    tokens = re.findall(r"[^\W\d_]+|\d+", text.lower())
    named = [index for index, token in enumerate(tokens) if _same_noun(token, head)]
    return any(
        token.isdigit() and any(abs(index - at) <= NUMBER_NEAR for at in named) for index, token in enumerate(tokens)
    )


def _same_noun(token: str, noun: str) -> bool:
    """ "volumes" or "vol" for "volume": the same first letters, or the noun written short."""
    return token[:PREFIX] == noun[:PREFIX] or (len(token) >= ABBREVIATION and noun.startswith(token))


def _shares_content(question: str, text: str) -> bool:
    """Whether a sentence holds a content word of the question (by its first letters): a sentence sharing none (a
    poster upload's steps for "what font does the paper template require?") is about another thing on the page the
    search reached, whatever its headings share."""
    asked = {word[:PREFIX] for word in words(question) if word not in kinds.GENERIC and not word.isdigit()}
    return bool(asked & {word[:PREFIX] for word in words(text)})
