"""The answer verifier's checks of a value (``verifier``): of the asked event, the asked kind of fact (a place of
study, a topic, a count, a list) and the thing the question names."""

from __future__ import annotations

import re
from collections.abc import Sequence

from scholar_tui.core.conference.computed import Computed
from scholar_tui.core.conference.events import EvidencePath
from scholar_tui.core.conference.kind_checks import ASKS_TOPIC
from scholar_tui.core.conference.plain_sentence import abstain, question_topic
from scholar_tui.core.conference.question_shape import conference_kind, question_form
from scholar_tui.core.conference.tree import Tree
from scholar_tui.core.conference.values import URL, find_dates
from scholar_tui.core.conference.verifier_evidence import list_items, read_nodes

EDITION = re.compile(r"\b([A-Z][A-Za-z]*[A-Z][A-Za-z]*)\s?'?((?:19|20)\d\d)\b")
"""An event named with its year as people and sites write it: "NeurIPS 2022", "ICML 2023", "ISWC2022"."""


STUDY = re.compile(
    r"\b(?:ph\.?\s?d|doctorate|doctoral degree|degree|graduat\w*|stud(?:y|ied|ies)|alma mater|master'?s|"
    r"bachelor'?s|diploma|obtained|educat\w*)\b",
    re.IGNORECASE,
)
"""Words a sentence about someone's education uses: the question asks where they studied when it uses one of
them with "where"/"which university"."""


ASKS_PLACE_OF_STUDY = re.compile(r"\b(?:where|which (?:university|school|college|institution))\b", re.IGNORECASE)


CATEGORY_REPEATS = 3
"""A value written as the text of this many nodes is a category the site sorts records by ("Poster",
"Plenary Speaker"), not what one of them is about."""


def other_event(question: str, answer: Computed, evidence: Sequence[EvidencePath], tree: Tree) -> Computed | None:
    """A value that names an event with its year which is neither this site's conference nor one the question
    names answers for that event."""
    own = _edition_keys(tree.root.label or tree.name)
    asked = _edition_keys(question)
    for acronym, year in EDITION.findall(answer.text):
        key = (acronym.lower(), year)
        if key not in own and key not in asked and acronym.lower() not in {name for name, _ in asked}:
            return abstain(tree, "information", question_topic(question, tree))  # for this edition
    return None


def _edition_keys(text: str) -> set[tuple[str, str]]:
    return {(acronym.lower(), year) for acronym, year in EDITION.findall(text)}


def affiliation_as_study(
    question: str, answer: Computed, evidence: Sequence[EvidencePath], tree: Tree
) -> Computed | None:
    """Where someone studied is said by a sentence about their studies; their current post answers another
    question."""
    if not (ASKS_PLACE_OF_STUDY.search(question) and STUDY.search(question)):
        return None
    said = [answer.text, answer.support, *(node.text or "" for node in answer.read)]
    said += [item.value for item in evidence if item.rank in answer.cited]
    if any(STUDY.search(text) for text in said):
        return None
    return abstain(tree, "place of study", question_topic(question, tree))


def category_as_topic(question: str, answer: Computed, evidence: Sequence[EvidencePath], tree: Tree) -> Computed | None:
    """ "What is X talking about?" is not answered by the category X's record is filed under."""
    if answer.operation == "yes_no" or not ASKS_TOPIC.search(question):
        return None
    text = answer.text.strip().rstrip(".")
    if URL.fullmatch(text):
        return abstain(tree, f"information on {question_topic(question, tree) or 'it'}")
    repeats = sum(1 for node in tree.nodes if (node.text or "").strip() == text)
    if repeats >= CATEGORY_REPEATS:
        return abstain(tree, f"information on {question_topic(question, tree) or 'it'}")
    return None


DISTINCT_NAME = re.compile(r"\b([A-Za-z]*[a-z][A-Z][A-Za-z0-9]*|[A-Z][A-Z0-9]{2,}(?:-[A-Z0-9]+)*)['’]s\b")
"""A thing's owner named as no common word is written ("ChinaScope's talk", "MEPDaW's room", "GNNQ's session"):
what is asked belongs to that one."""


RARE_NAME_NODES = 30
"""A name the site writes on fewer nodes than this names one thing (a sponsor, a workshop); "PDF" or the
conference's own acronym, written all over, names none."""


def other_named_thing(question: str, answer: Computed, evidence: Sequence[EvidencePath], tree: Tree) -> Computed | None:
    """When the question names one thing by its own name ("ChinaScope's sponsored talk"), the answer is read from
    that thing's nodes: a sentence about sponsored talks in general answers for none of them."""
    if answer.operation in ("yes_no", "abstain"):
        return None
    names = {name.lower() for name in DISTINCT_NAME.findall(question)}
    if not names:
        return None
    texts = [item.path for item in evidence if item.rank in answer.cited]
    for node in read_nodes(answer, evidence, tree):
        record = next((above for above in reversed(tree.ancestors(node)) if above.kind == "item"), node)
        texts.append(" ".join([*(ancestor.label for ancestor in tree.ancestors(node)), node.label, node.text or ""]))
        texts.extend(f"{leaf.label} {leaf.text or ''}" for leaf in tree.subtree_leaves(record))
    said = " ".join(texts).lower()
    for name in names:
        written = sum(1 for node in tree.nodes if name in f"{node.label} {node.text or ''}".lower())
        if 0 < written < RARE_NAME_NODES and name not in said:
            return abstain(tree, conference_kind(question).noun, question_topic(question, tree))
    return None


def paragraphs_counted(
    question: str, answer: Computed, evidence: Sequence[EvidencePath], tree: Tree
) -> Computed | None:
    """A count resting on a sentence is a number that sentence writes; the number of paragraphs beside it (a call's
    seven instructions) counts no thing the question names."""
    if answer.operation != "count" or answer.read:
        return None
    number = re.match(r"\s*(\d+)\b", answer.text)
    cited = [item.value for item in evidence if item.rank in answer.cited]
    if number is None or not cited or not all(len(value.split()) > SENTENCE_WORDS for value in cited):
        return None
    if any(re.search(rf"\b{number.group(1)}\b", value) for value in cited):
        return None
    return abstain(tree, "count", question_topic(question, tree))


ASKS_DATES = re.compile(r"\b(?:deadlines?|dates?|days?|when)\b", re.IGNORECASE)


def calendar_count(question: str, answer: Computed, evidence: Sequence[EvidencePath], tree: Tree) -> Computed | None:
    """A count of entries of the important-dates list ("Doctoral Consortium Submissions: 13 May") counts deadlines,
    not the things they are for: "how many submissions did it get?" is not answered by the deadlines named so."""
    if answer.operation != "count" or ASKS_DATES.search(question):
        return None
    for node in answer.read[:1]:
        fields = [child for child in tree.children(node) if child.is_leaf and child.text]
        if node.kind == "item" and any(find_dates(child.text or "") for child in fields):
            return abstain(tree, "count", question_topic(question, tree))
    return None


SENTENCE_WORDS = 12
"""A list is names joined by commas; a run of more words closed by a full stop is a sentence about them."""


LIST_ITEM_WORDS = 20
"""An item of a list of people or things is a name or a title; a run of more words without a comma or an "and" is
a paragraph's sentence."""


def paragraph_as_list(question: str, answer: Computed, evidence: Sequence[EvidencePath], tree: Tree) -> Computed | None:
    """A question asking for a list is not answered by one paragraph that mentions the things (a list read from
    several entries, such as a call's instructions, may well be sentences)."""
    if question_form(question) != "list" or answer.operation == "yes_no":
        return None
    texts = [item.value for item in evidence if item.rank in answer.cited] + [node.text or "" for node in answer.read]
    if not any(answer.text.strip().rstrip(".")[:80] in text for text in texts):
        return None  # not one node's text: the items were gathered from entries of their own
    items = list_items(answer.text)
    sentence = answer.text.rstrip().endswith(".") and len(answer.text.split()) > SENTENCE_WORDS
    if sentence or any(len(item.split()) > LIST_ITEM_WORDS for item in items):
        return abstain(tree, "list", question_topic(question, tree))
    return None
