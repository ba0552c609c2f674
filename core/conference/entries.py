"""The entry a question names, among the entries of one list.

Sites keep like things as sibling records of one list: a job fair's schedule has one record per company,
each with the same fields ("SLOT 1 DATE AND TIME"); the grants page one record per grant ("Student Grants",
"Free Registration"), each with its "description". Retrieval finds the list, but often a *neighbour's*
field ranks first: its words match the question as well as the named record's do, since only the record's
name tells them apart. Answering from it is a confident wrong answer ("when's IBM Research's first slot?"
→ Elsevier's slot; "do I have to prove I'm a student for the student grant?" → the free registration's
rule).

The tree says which record is asked: the question writes its name. So before any answer is read, each
evidence path inside a record of a list is checked against the record's siblings:

- a sibling the question names better than the path's own record (its name's words are the question's, and
  more of them) is the asked entry: the path is replaced by that sibling's field of the same label (the
  value the question asks for), or left out when the sibling has no such field;
- a path whose list holds no entry of the name the question writes, while another list of the same kind of
  things does (two lists sharing entries' names: the job postings' companies and the job fair's), is about
  another entry and is left out: a company that posts jobs but has no job fair slot has no slot to answer
  with;
- an entry inside an entry of the type the question names (a paper of a workshop, for "the … workshop") stands
  only when the question names that enclosing entry;
- an ordinal the question writes ("the second slot") picks, among a record's fields whose labels differ
  only by their number ("SLOT 1 …", "SLOT 2 …"), the one of that number.

Nothing here names a site's label: it reads the list's own structure and the question's words.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from itertools import islice

from scholar_tui.core.conference.asked_collections import CATEGORY_MAX_WORDS
from scholar_tui.core.conference.computed import leaf_of
from scholar_tui.core.conference.events import EvidencePath
from scholar_tui.core.conference.kinds import GENERIC
from scholar_tui.core.conference.lexical import words
from scholar_tui.core.conference.paths import node_path_text
from scholar_tui.core.conference.tree import TITLE_FIELDS, Node, Tree

POSSESSIVE = re.compile(r"['’]s?\b")
ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "1st": 1, "2nd": 2, "3rd": 3}
ORDINAL = re.compile(r"\b(" + "|".join(ORDINALS) + r")\b", re.IGNORECASE)
NUMBER = re.compile(r"\d+")
RECORD_LEAVES = 60
"""How many leaves of a record are read for the name of the entry asked (its own fields, not a long list)."""


def _words(text: str) -> set[str]:
    """A text's content words, stemmed and whole ("Videolectures" is not "video"; "IBM Research's" → ibm,
    research)."""
    return set(words(POSSESSIVE.sub(" ", text)))


def _record(tree: Tree, node: Node) -> Node | None:
    """The nearest record (a list's element) that holds ``node``, or None when it lies in no list of records."""
    for step in [node, *reversed(tree.ancestors(node))]:
        if step.kind == "item" and step.label and len(_items(tree, step)) > 1:
            return step
    return None


def _items(tree: Tree, record: Node) -> list[Node]:
    """The records of ``record``'s list, itself included."""
    parent = tree.parent(record)
    return [] if parent is None else [child for child in tree.children(parent) if child.kind == "item"]


def _name(tree: Tree, text: str) -> frozenset[str]:
    """What a name says beyond how questions ask and the conference's own name ("IBM Research" → ibm, research)."""
    conference = _words(tree.root.label)
    return frozenset(
        word for word in _words(text) if word not in GENERIC and not word.isdigit() and word not in conference
    )


def _record_names(tree: Tree, record: Node) -> list[frozenset[str]]:
    """The names a record goes by: its label and the fields that title it anywhere in it (an award's record is
    labelled by its paper and named by its "type", "Best Paper -- Research Track"; a keynote by its speaker's
    "name"). Its descriptions are not names: a word they share with the question names nothing."""
    memo: dict[int, list[frozenset[str]]] = tree.__dict__.setdefault("_entry_names", {})
    if record.id in memo:  # a long list's entries are compared for every path read from it
        return memo[record.id]
    names = [_name(tree, record.label)]
    for leaf in islice(tree.subtree_leaves(record), RECORD_LEAVES):
        if leaf.text and leaf.label.strip().lower() in TITLE_FIELDS and len(leaf.text.split()) <= CATEGORY_MAX_WORDS:
            names.append(_name(tree, leaf.text))
    memo[record.id] = [name for name in names if name]
    return memo[record.id]


def _called(tree: Tree, asked: set[str], record: Node) -> tuple[frozenset[str], int]:
    """The words of the question that name ``record``, of each of its names that the question writes more than
    half of ("the student grant" names "Student Grants"; "sponsor" alone does not name "Doctoral Consortium
    Sponsor [exclusive]"), and how many words of its best-written name the question leaves out (of two records
    called alike, "Best Paper -- Main Track" is named whole and "Best Student Paper -- Main Track" is not)."""
    called: set[str] = set()
    unsaid = len(asked)
    for name in _record_names(tree, record):
        said = name & asked
        if len(said) * 2 > len(name):
            called |= said
            unsaid = min(unsaid, len(name - asked))
    return frozenset(called), unsaid


def _same_field(tree: Tree, leaf: Node, record: Node, other: Node) -> Node | None:
    """The node under ``other`` reached by the labels that lead from ``record`` down to ``leaf``; a label that
    writes its record's name is matched by the other record's label with its name in that place ("Early
    Industrial Workshops Registration" under "Industrial" is "Early Student Workshops Registration" under "Full
    time student")."""
    chain = [step for step in [*tree.ancestors(leaf), leaf] if step.depth > record.depth]
    own, others = set().union(*_record_names(tree, record)), set().union(*_record_names(tree, other))
    current = other
    for step in chain:
        unnamed = _words(step.key) - own
        following = next((child for child in tree.children(current) if child.key == step.key), None) or next(
            (child for child in tree.children(current) if unnamed and _words(child.key) - others == unnamed), None
        )
        if following is None or (step.is_leaf and not following.text):
            return None
        current = following
    return current if current.is_leaf else None


def _as_evidence(tree: Tree, item: EvidencePath, node: Node) -> EvidencePath:
    return replace(item, node_id=node.id, path=node_path_text(tree, node), value=node.text or "")


def _better_named(tree: Tree, asked: set[str], record: Node) -> list[Node]:
    """The sibling records the question names with more of its words than ``record`` (and all of ``record``'s):
    those named by most words, then whose name the question writes most wholly (several records may go by one
    name, each holding other fields: "Full time student" once per event priced)."""
    own = frozenset(asked & set().union(*_record_names(tree, record)))  # what the question says of it
    scored = []
    for other in _items(tree, record):
        if other.id == record.id:
            continue
        named, unsaid = _called(tree, asked, other)
        if named > own:
            scored.append(((len(named), -unsaid), other))
    best = max((score for score, _ in scored), default=None)
    return [other for score, other in scored if score == best]


def _names_of_records(tree: Tree) -> dict[frozenset[str], list[int]]:
    """Each record label's name → the records so labelled (built once per tree)."""
    cached: dict[frozenset[str], list[int]] | None = getattr(tree, "_record_names", None)
    if cached is None:
        cached = {}
        for node in tree.nodes:
            if node.kind == "item" and node.label:
                name = _name(tree, node.label)
                if name:
                    cached.setdefault(name, []).append(node.id)
        tree._record_names = cached  # type: ignore[attr-defined]
    return cached


def asked_entries(question: str, tree: Tree) -> dict[frozenset[str], list[Node]]:
    """The records whose label the question writes whole, by name."""
    asked = _words(question)
    return {
        name: [tree.nodes[node_id] for node_id in node_ids]
        for name, node_ids in _names_of_records(tree).items()
        if name <= asked
    }


def _list_names(tree: Tree, record: Node) -> set[frozenset[str]]:
    return {_name(tree, item.label) for item in _items(tree, record)}


def _lacks(tree: Tree, record: Node, item: EvidencePath, name: frozenset[str], holders: list[Node]) -> bool:
    """Whether ``record``'s list is a list of the things named like the asked entry (it shares an entry's name
    with a list that holds it: the job fair's companies and the job postings' companies) and holds no entry so
    named, and ``record`` itself does not mention it: the site lists that thing elsewhere, not here."""
    names = _list_names(tree, record)
    if name in names:
        return False
    said = _words(item.path)
    for leaf in islice(tree.subtree_leaves(record), RECORD_LEAVES):
        said |= _words(f"{leaf.label} {leaf.text or ''}")
    if name <= said:
        return False
    return any(_same_things(names, _list_names(tree, holder) - {name}) for holder in holders if _items(tree, holder))


SHARED_ENTRIES = 2
"""Two lists that share at least two entries' names (and half of the shorter's) list the same kind of things."""


def _same_things(names: set[frozenset[str]], others: set[frozenset[str]]) -> bool:
    shared = len(names & others)
    return shared >= SHARED_ENTRIES and shared * 2 >= min(len(names), len(others))


def _ordinal_field(question: str, tree: Tree, leaf: Node) -> Node | None:
    """The sibling field whose label is the leaf's with the number the question's ordinal writes."""
    ordinal = ORDINAL.search(question)
    if ordinal is None or not NUMBER.search(leaf.label):
        return None
    wanted = str(ORDINALS[ordinal.group(1).lower()])
    if NUMBER.findall(leaf.label) == [wanted]:
        return None
    shape = NUMBER.sub("#", leaf.label)
    return next(
        (
            other
            for other in tree.siblings(leaf)
            if other.is_leaf
            and other.text
            and NUMBER.sub("#", other.label) == shape
            and NUMBER.findall(other.label) == [wanted]
        ),
        None,
    )


def _list_type(tree: Tree, record: Node) -> set[str]:
    """The words of the label of the list a record belongs to ("workshops" → workshop)."""
    parent = tree.parent(record)
    return _words(parent.label) if parent is not None else set()


def _part_of_unnamed(tree: Tree, asked: set[str], record: Node) -> bool:
    """Whether ``record`` is an entry of a list the question does not name by type ("essays") inside an entry of
    one it does ("the reinforcement learning workshop": an entry of "workshops"), and that enclosing entry is
    not the one the question names (none of its names' words beyond the type is the question's): a paper titled
    "Replicable Reinforcement Learning" in another workshop is no reinforcement learning workshop."""
    if _list_type(tree, record) & asked:
        return False
    for outer in reversed(tree.ancestors(record)):
        if outer.kind != "item" or len(_items(tree, outer)) < 2:
            continue
        kind_words = _list_type(tree, outer) & asked
        if kind_words:
            return not (asked - kind_words) & set().union(*_record_names(tree, outer))
    return False


def of_named_entries(question: str, evidence: Sequence[EvidencePath], tree: Tree) -> list[EvidencePath]:
    """The evidence read from the entries the question names (see the module doc), in its order, each node once."""
    asked = _words(question)
    named = asked_entries(question, tree)
    kept: list[EvidencePath] = []
    seen: set[int] = set()
    found = {item.node_id for item in evidence}
    for item in evidence:
        leaf = leaf_of(tree, item)
        record = _record(tree, leaf) if leaf is not None else None
        if leaf is None or record is None:
            kept.append(item)
            seen.add(item.node_id)
            continue
        others = _better_named(tree, asked, record)
        if others:
            fields = [(field, other) for other in others if (field := _same_field(tree, leaf, record, other))]
            if not fields or fields[0][0].id in found:
                continue  # the named entry has no such field (a neighbour's would answer for it), or it is found
            (field, other), *_ = fields
            item, leaf, record = _as_evidence(tree, item, field), field, other
        elif any(_lacks(tree, record, item, name, holders) for name, holders in named.items()):
            continue  # the question names an entry this list does not hold
        elif _part_of_unnamed(tree, asked, record):
            continue  # a paper of a workshop the question does not name, for "the … workshop"
        numbered = _ordinal_field(question, tree, leaf)
        if numbered is not None:
            item = _as_evidence(tree, item, numbered)
        if item.node_id not in seen:
            kept.append(item)
            seen.add(item.node_id)
    return kept
