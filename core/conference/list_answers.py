"""Lists and counts: the records of the node the question names.

"Who are the workshop chairs?" and "How many keynotes are there?" are answered over a section's children, not
from one leaf; ``listed_records`` and ``counted_records`` read the collection ``asked_collections.collection`` finds and
refuse a narrower one ("only a list of “outstanding” reviewers"), ``list_answer`` and ``count_answer`` read
the best path's section when no collection is named.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from scholar_tui.core.answer_kind import Kind
from scholar_tui.core.conference import asked_collections, checks, coverage
from scholar_tui.core.conference.computed import (
    MAX_LIST_ITEMS,
    Computed,
    join_values,
    leaf_of,
    leaf_text,
    section_leaves,
)
from scholar_tui.core.conference.events import EvidencePath
from scholar_tui.core.conference.plain_sentence import abstain, question_topic
from scholar_tui.core.conference.span_answers import named_node, span_answer
from scholar_tui.core.conference.tree import Node, Tree
from scholar_tui.core.conference.values import NUMBER


def list_answer(question: str, evidence: Sequence[EvidencePath], tree: Tree) -> Computed:
    """The values of the section the best path sits in, when its siblings are the list asked for."""
    leaf = leaf_of(tree, evidence[0])
    if leaf is None:
        return span_answer(question, evidence, tree)
    parent = tree.parent(leaf)
    items = section_leaves(tree, leaf)
    above = tree.parent(parent) if parent is not None else None
    if parent is not None and parent.kind == "item" and above is not None:
        # a record's field matched: list the same field of every record in the list (and the
        # list's bare entries, which are records of one field)
        same_field: list[Node] = []
        for entry in tree.children(above):
            if entry.is_leaf:
                same_field += [entry] if entry.text else []
            else:
                same_field += [
                    child
                    for child in tree.children(entry)
                    if child.is_leaf and child.label == leaf.label and child.text
                ]
        if len(same_field) > 1:
            items = same_field
    if len(items) <= 1:
        return span_answer(question, evidence, tree)
    ranks = {item.node_id: item.rank for item in evidence}
    texts = [node.text or "" for node in items[:MAX_LIST_ITEMS]]
    cited = sorted({ranks[node.id] for node in items if node.id in ranks}) or [evidence[0].rank]
    return Computed(join_values(texts), "list", cited)


def count_answer(question: str, evidence: Sequence[EvidencePath], tree: Tree) -> Computed:
    """How many: the children of the node the question names (above the best path)."""
    leaf = leaf_of(tree, evidence[0])
    noun = re.search(
        r"how many\s+([a-z][\w\s-]*?)(?:\s+(?:are|is|were|will|do|does|did|can|have|has|in|on|at|of|for)\b|\?|$)",
        question,
        re.IGNORECASE,
    )
    noun_text = noun.group(1).strip() if noun else ""
    if leaf is None:
        return span_answer(question, evidence, tree)
    # A number written in the value answers directly ("31 members").
    written = NUMBER.findall(evidence[0].value)
    named = named_node(tree, leaf, question)
    counted = [child for child in tree.children(named) if child.is_leaf and child.text or not child.is_leaf]
    if len(counted) <= 1 and written and len(evidence[0].value.split()) <= 6:
        return Computed(f"{written[0]} {noun_text}".strip(), "count", [evidence[0].rank])
    count = len(counted)
    return Computed(f"{count} {noun_text}".strip(), "count", [evidence[0].rank])


def counted_records(question: str, evidence: Sequence[EvidencePath], tree: Tree) -> Computed | None:
    """How many: a number the site writes before the thing, else the records of the node the question names."""
    stated = asked_collections.stated_count(question, evidence)
    noun = asked_collections.asked_phrase(question)
    qualifier = checks.count_qualifier(question)  # "were accepted": only a list of accepted ones counts them
    values = {item.rank: item.value for item in evidence}
    if stated is not None and (qualifier is None or checks.names_qualifier(qualifier, [values[stated[1]]])):
        return Computed(f"{stated[0]} {noun}".strip(), "count", [stated[1]])  # "2 days", as the site writes it
    found = asked_collections.collection(question, evidence, tree)
    if found is None:
        return None
    narrowed = coverage.narrower_set(question, found.node.label) if found.node is not None else None
    if narrowed is not None:  # "How many reviewers?" over "Outstanding Reviewers (Top 10%)" counts a part of them
        return abstain(tree, "count", f"{question_topic(question, tree) or 'them'} (only a list of “{narrowed}” ones)")
    attribute = checks.count_attribute(question)
    if attribute is not None and found.node is not None:
        return _records_having(attribute, question, found.node, found, noun, tree)
    if qualifier is not None and not checks.names_qualifier(
        qualifier,
        [asked_collections.with_parents(found.node, tree)] if found.node is not None else [leaf_text(found.items[0])],
    ):
        return None
    return Computed(
        f"{len(found.items)} {noun}".strip(),
        "count",
        found.ranks,
        [found.node] if found.node is not None else found.items[:1],
    )


def _records_having(
    attribute: list[str], question: str, node: Node, found: asked_collections.Collection, noun: str, tree: Tree
) -> Computed | None:
    """ "How many tutorials are half-day?": the records of the list whose short field says the attribute ("duration:
    Half Day"), not every record of it (an abstract that mentions "a full day" says nothing of its own length); all
    of them when the list's own label says it ("Half-day tutorials"); None when no record says it (the attribute
    is not how this list is told apart). The fields that say it are read, so the answer cites them."""
    if checks.names_all(attribute, asked_collections.with_parents(node, tree)):
        return Computed(f"{len(found.items)} {noun}".strip(), "count", found.ranks, [node])
    saying = [_field_saying(attribute, record, tree) for record in found.items]
    fields = [field for field in saying if field is not None]
    if not fields:
        return None
    said = re.search(r"\b(?:are|is|were|was|will be)\s+([a-z][\w-]*)\s*[?.!]*\s*$", question, re.IGNORECASE)
    shown = f" {said.group(0).strip(' ?.!')}" if said else ""
    if len(fields) == 1 and noun.endswith("s") and not noun.endswith("ss"):  # "1 tutorial is full-day"
        noun, shown = (
            noun[:-1],
            re.sub(r"^ (?:are|were)\b", lambda verb: " is" if "are" in verb.group(0) else " was", shown),
        )
    return Computed(f"{len(fields)} {noun}{shown}".strip(), "count", found.ranks, [node, *fields])


def _field_saying(attribute: list[str], record: Node, tree: Tree) -> Node | None:
    """The record's field that is the attribute, as a category is written ("Half Day" for "half-day": its words and
    at most ``ATTRIBUTE_EXTRA_WORDS`` more), not a sentence that mentions its words ("Not a full day of it.")."""
    for leaf in tree.subtree_leaves(record):
        text = leaf.text or ""
        if len(text.split()) <= len(attribute) + ATTRIBUTE_EXTRA_WORDS and checks.names_all(attribute, text):
            return leaf
    return None


ATTRIBUTE_EXTRA_WORDS = 1
"""A category may add a word to the attribute's ("Full Day Tutorial", "Virtual only"); more makes a sentence."""


def listed_records(kind: Kind, question: str, evidence: Sequence[EvidencePath], tree: Tree) -> Computed | None:
    """Which/who are: the records of the node the question names, each by its title (a person by name)."""
    found = asked_collections.collection(question, evidence, tree)
    if found is None:
        return None
    narrowed = coverage.narrower_set(question, found.node.label) if found.node is not None else None
    if narrowed is not None:  # "Who are the reviewers?" is not answered by the outstanding ones
        return abstain(tree, "list", f"{question_topic(question, tree) or 'them'} (only a list of “{narrowed}” ones)")
    texts = [asked_collections.item_text(kind, record, tree) for record in found.items[:MAX_LIST_ITEMS]]
    return Computed(
        join_values(texts),
        "list",
        found.ranks,
        [found.node] if found.node is not None else found.items[:MAX_LIST_ITEMS],
    )
