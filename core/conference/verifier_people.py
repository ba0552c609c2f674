"""The answer verifier's checks of a "who" (``verifier``): a person, not the heading asked about, and one person
of a heading that holds several only when the question picks that one."""

from __future__ import annotations

from collections.abc import Sequence

from scholar_tui.core.answer_kind import Kind
from scholar_tui.core.conference.computed import Computed, join_values
from scholar_tui.core.conference.events import EvidencePath
from scholar_tui.core.conference.kind_checks import of_kind
from scholar_tui.core.conference.lexical import words
from scholar_tui.core.conference.plain_sentence import abstain, question_topic
from scholar_tui.core.conference.question_shape import conference_kind
from scholar_tui.core.conference.tree import Node, Tree
from scholar_tui.core.conference.verifier_evidence import asked_in, one_item, read_nodes

ECHO_SHARE = 0.6
"""An answer most of whose words the question already says names what was asked about."""


def echo(question: str, answer: Computed, evidence: Sequence[EvidencePath], tree: Tree) -> Computed | None:
    """A "who" answered by the name of the thing the question asks about ("who won the X challenge?" → "X in Life
    Science challenge"): mostly the question's own words read back from the thing's heading, and no person."""
    if conference_kind(question) is not Kind.PEOPLE or answer.operation not in ("span", "value", "list"):
        return None
    said = set(words(answer.text))
    if said and len(asked_in(list(said), question)) / len(said) >= ECHO_SHARE and not of_kind(Kind.PEOPLE, answer.text):
        return abstain(tree, "person", question_topic(question, tree))
    return None


SEVERAL = 2
"""A heading holding this many people holds several."""


NAME_WORDS = 5
"""A person's name as a record's title: a few capitalised words."""


def one_of_several(question: str, answer: Computed, evidence: Sequence[EvidencePath], tree: Tree) -> Computed | None:
    """One person read from a heading that holds several: the question must pick that one (a word of it found in
    that record and not in all the others: "the past president", "the one from Apple"); when it picks another, that
    one is the answer, and when it picks none, it asked for the heading's people, who are all named."""
    single = answer.operation in ("span", "value") or (answer.operation == "list" and one_item(answer.text))
    if conference_kind(question) is not Kind.PEOPLE or not single:
        return None
    record = _person_record(answer, evidence, tree)
    parent = tree.parent(record) if record is not None else None
    if record is None or parent is None:
        return None
    people = [node for node in tree.children(parent) if _person_of(node)]
    if len(people) < SEVERAL or record not in people:
        return None
    headings = {word for node in tree.ancestors(record) for word in words(node.label)}
    asked = set(words(question)) - headings
    picked = {node.id: _record_words(node, tree) & asked for node in people}
    if all(picked[node.id] == picked[record.id] for node in people):
        if picked[record.id]:
            return None  # every record says it alike (the question names the heading's own kind)
        names = [_person_of(node) for node in people]
        return Computed(join_values(names), "list", answer.cited, [*answer.read, *people])
    if picked[record.id] and not any(picked[node.id] > picked[record.id] for node in people):
        return None
    most = max(len(words_picked) for words_picked in picked.values())
    chosen = [node for node in people if len(picked[node.id]) == most]
    if len(chosen) == 1:  # the one record the question's words pick ("the past president" of the emeritus members)
        return Computed(_person_of(chosen[0]), "value", answer.cited, [chosen[0]])
    return abstain(tree, "person", question_topic(question, tree))


def _person_record(answer: Computed, evidence: Sequence[EvidencePath], tree: Tree) -> Node | None:
    """The record of the person the answer names: the entry titled with the name, or the list leaf that is it."""
    name = answer.text.strip().rstrip(".")
    read = read_nodes(answer, evidence, tree)
    for node in [*read, *(leaf for record in read for leaf in tree.subtree_leaves(record))]:
        if node.kind == "item" and node.label.strip() == name:
            return node
        if (node.text or "").strip() == name:
            parent = tree.parent(node)
            return parent if parent is not None and parent.kind == "item" and parent.label.strip() == name else node
    return None


def _person_of(node: Node) -> str:
    """The person a list entry names ("Joelle Pineau" of her record, "Tom Dietterich" of a bare list leaf), else ""."""
    if not node.key.isdigit():  # a field of one record ("name", "affiliation"), not an entry of a list
        return ""
    name = (node.label if node.kind == "item" else node.text or "").strip()
    return name if name and len(name.split()) <= NAME_WORDS and of_kind(Kind.PEOPLE, name) else ""


def _record_words(node: Node, tree: Tree) -> set[str]:
    texts = [node.label, node.text or "", *(f"{leaf.label} {leaf.text or ''}" for leaf in tree.subtree_leaves(node))]
    return {word for text in texts for word in words(text)}
