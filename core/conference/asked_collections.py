"""Counts and lists over the right node: the records a "how many …"/"which …"/"who are …" question is
about.

``collection`` finds the node labelled with the noun the question asks for ("keynotes" → "Keynote Speakers")
and holding records, or, when no node is so labelled, the records of the evidence's list that name it
("Keynote 1: Andrew Ng …"); ``stated_count`` reads a number the site writes before the thing ("31 members");
``role_holders`` the people several records list under the role asked; ``item_text`` names each record (a
person by name, a workshop by title). A count over the wrong node was issue #24's "2 keynotes" (the site
lists 3).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from scholar_tui.core.answer_kind import Kind
from scholar_tui.core.answer_kind import fits as kind_fits
from scholar_tui.core.conference.events import EvidencePath
from scholar_tui.core.conference.kinds import (
    ASKING,
    GENERIC,
    LABEL_WORDS,
    NUMBER_WORDS,
    PREFIX,
    YEAR,
    heading_fit,
    label_kinds,
    split_digits,
)
from scholar_tui.core.conference.lexical import STOPWORDS, WORD, stem, words
from scholar_tui.core.conference.tree import Node, Tree


def asked_phrase(question: str) -> str:
    """The words of the thing asked about as the question writes them ("keynote speakers")."""
    match = NOUN_PATTERN.search(question.lower())
    return next((group for group in match.groups() if group), "").strip() if match else ""


def asked_noun(question: str) -> list[str]:
    """The stems of the thing a "how many"/"which"/"who are" question asks about ("keynote speakers" → keynote, speaker)."""
    match = NOUN_PATTERN.search(question.lower())
    if not match:
        return []
    phrase = next(group for group in match.groups() if group)
    return [word for word in words(phrase) if word not in GENERIC]


NOUN_PATTERN = re.compile(
    r"\bhow many\s+([a-z][\w\s-]*?)(?:\s+(?:are|is|were|was|will|do|does|did|can|have|has|had|got|get|gets|in|on|at|of|for|"
    r"there|does)\b|\?|$)"
    r"|\b(?:which|what)\s+([a-z][\w\s-]*?)\s+(?:are|is|were|will|do|does)\b"
    r"|\bwho\s+(?:are|were|is)\s+(?:the\s+)?([a-z][\w\s-]*?)(?:\s+(?:at|of|for|in|on|this|these|next)\b|\?|$)"
    r"|\b(?:list|name)\s+(?:all\s+)?(?:the\s+)?([a-z][\w\s-]*?)(?:\s+(?:at|of|for|in|on)\b|\?|$)"
)


def _names(label: str, noun: list[str]) -> bool:
    stems = set(words(label))
    return bool(noun) and set(noun) <= stems | {stem(word) + "s" for word in stems}


def _records(node: Node, tree: Tree) -> list[Node]:
    return [child for child in tree.children(node) if not child.is_leaf or child.text]


@dataclass
class Collection:
    node: Node | None  # the node whose records are the things asked about (None: records found by name)
    items: list[Node]
    ranks: list[int]  # the evidence paths inside it


COMPLEMENT = re.compile(
    r"^\s*(?:which|what)\s+[a-z][\w\s-]*?\s+(?:are|is|were)\s+(?:the\s+)?([a-z][\w\s-]*?)\s*\??$", re.IGNORECASE
)
""""Which companies are Gold sponsors?": the list is named by what they are ("Gold Sponsors")."""


HAVING = re.compile(
    r"^\s*how many\s+[a-z][\w\s-]*?\s+(?:have|has|had|offer|offers|offered|post|posts|posted)\s+"
    r"(?:a\s+|an\s+|the\s+|any\s+)?([a-z][\w\s-]*?)(?:\s+(?:on|in|at|for|of|during|this)\b.*)?\s*\??$",
    re.IGNORECASE,
)
""""How many companies have job postings on the job fair page?": the things counted are the entries of the list
named by what they have ("Job Posting": one record per company), when no list is named by the things."""


HOW_MANY_PEOPLE = re.compile(r"\bhow many\s+(?:people|persons|members|of them)\b", re.IGNORECASE)


CONTAINER = re.compile(r"\b(?:on|in|of)\s+the\s+([a-z][\w\s-]*?)\s*\??$", re.IGNORECASE)
""""How many people are on the X?": when the thing counted is only people, the list counted is the X."""


def collection(question: str, evidence: Sequence[EvidencePath], tree: Tree) -> Collection | None:
    """The records a "how many …"/"which …" question asks about (see the module doc)."""
    found = _collection(question, asked_noun(question), evidence, tree)
    container = CONTAINER.search(question)
    list_names = (
        # "How many people are on the research track program committee?": the list the question names
        container if container and HOW_MANY_PEOPLE.search(question) else None,
        HAVING.match(question),  # "how many companies have job postings …?": the list of what they have
        COMPLEMENT.match(question),
    )
    for named in list_names:
        if found is None and named:
            list_words = [word for word in words(named.group(1)) if word not in GENERIC]
            found = _collection(question, list_words, evidence, tree, labelled_only=True)
    return found


def _collection(
    question: str, noun: list[str], evidence: Sequence[EvidencePath], tree: Tree, labelled_only: bool = False
) -> Collection | None:
    if not noun:
        return None
    near = {
        ancestor.id
        for item in evidence
        if 0 <= item.node_id < len(tree.nodes)
        for ancestor in tree.ancestors(tree.nodes[item.node_id])
    }
    labelled = [
        node
        for node in tree.nodes
        if not node.is_leaf
        and _names(with_parents(node, tree), noun)
        and len(_records(node, tree)) >= 2
        and (any(not child.is_leaf for child in tree.children(node)) or _string_list(node, tree))
    ]
    if labelled:  # a list of records (its entries, not a page's sections) first, the one named most fully, the longest
        best = max(
            labelled,
            key=lambda node: (
                _is_list(node, tree),
                _names(node.label, noun),
                _names_listed(node, tree, noun),
                heading_fit(question, tree, node),
                len(_records(node, tree)),
                node.id in near,
                -node.depth,
            ),
        )
        inside = [
            item.rank
            for item in evidence
            if 0 <= item.node_id < len(tree.nodes) and best in tree.ancestors(tree.nodes[item.node_id])
        ]
        return Collection(best, _records(best, tree), inside)
    if labelled_only:
        return None
    # a record names the thing by its specific word: "keynote" of "keynote speakers"
    specific = [word for word in noun if word not in LABEL_WORDS[Kind.PEOPLE]] or noun
    for item in evidence:  # records of the evidence's list whose own text names the thing ("Keynote 2: …")
        if not 0 <= item.node_id < len(tree.nodes):
            continue
        record = record_of(tree, tree.nodes[item.node_id])
        above = tree.parent(record) if record is not None else None
        if above is None:
            continue
        named = _named_records(above, tree, specific, question)
        if len(named) >= 2:
            return Collection(None, named, [item.rank])
    # anywhere in the site: the list with most records naming it (ICML's keynotes sit in one workshop's program)
    lists = [
        (len(named), node.id, named)
        for node in tree.nodes
        if not node.is_leaf and _is_list(node, tree)
        for named in [_named_records(node, tree, specific, question)]
        if len(named) >= 2
    ]
    if lists:
        return Collection(None, max(lists)[2], [])
    return None


def with_parents(node: Node, tree: Tree) -> str:
    """A node's label with its parent's and grandparent's ("Doctoral Consortium PC » Chairs")."""
    chain = [node, *tree.ancestors(node)[-2:][::-1]] if tree.ancestors(node) else [node]
    return " ".join(item.label for item in chain)


def _names_listed(node: Node, tree: Tree, noun: list[str]) -> bool:
    """A plain list of names that are the things asked: people only when people are asked ("Workshop Chairs"
    lists chairs, not workshops)."""
    people = Kind.PEOPLE in label_kinds(node.label)
    return _string_list(node, tree) and (not people or Kind.PEOPLE in label_kinds(" ".join(noun)))


def _string_list(node: Node, tree: Tree) -> bool:
    """A list of names written as plain entries ("DIAMOND: [Google Research, CITADEL Securities]")."""
    children = tree.children(node)
    return len(children) >= 2 and all(
        child.is_leaf and not child.label and child.text and len(child.text.split()) <= 8 for child in children
    )


def _is_list(node: Node, tree: Tree) -> bool:
    """A list of records: most of its children are list entries (``item`` nodes)."""
    children = tree.children(node)
    return bool(children) and sum(child.kind == "item" for child in children) * 2 >= len(children)


def _named_records(parent: Node, tree: Tree, specific: list[str], question: str = "") -> list[Node]:
    """The records of ``parent`` whose own fields (not their sub-lists) name the thing, in this edition (a field
    "2020 General chair" names another year's chair)."""
    return [
        entry
        for entry in tree.children(parent)
        if entry.kind == "item"
        and any(
            _names(leaf.text or "", specific) and not other_years(leaf.text or "", tree, question)
            for leaf in tree.children(entry)
            if leaf.is_leaf and leaf.label
        )
    ]


def other_years(text: str, tree: Tree, question: str) -> bool:
    """Whether ``text`` names a year that is neither the conference's (in its name) nor one the question names."""
    return bool(set(YEAR.findall(text)) - set(YEAR.findall(split_digits(f"{tree.root.label} {question}"))))


def record_of(tree: Tree, leaf: Node) -> Node | None:
    for node in reversed([*tree.ancestors(leaf)]):
        if node.kind == "item":
            return node
    return None


def role_holders(question: str, evidence: Sequence[EvidencePath], tree: Tree, headed: bool = False) -> list[Node]:
    """ "Who chairs the industry track?" matched a record's role ("type: Industry Track Chairs"): every
    record of that list holding the same role, when there are several (a role is often shared). The
    role is the evidence leaf, a record's short field, that names most of what the question names and
    least else (a role word aside), of equals the best ranked. ``headed``: else the records under a heading
    named by the role (for a one-value question; a list question gathers its records itself)."""
    asked = set(words(question)) - GENERIC
    roles = []
    for item in evidence:
        if not 0 <= item.node_id < len(tree.nodes):
            continue
        leaf = tree.nodes[item.node_id]
        record = tree.parent(leaf)
        if record is None or record.kind != "item" or Kind.PEOPLE in label_kinds(leaf.label) or not leaf.text:
            continue
        if other_years(leaf.text, tree, question):  # "2020 General chair": another edition's holder
            continue
        said = set(words(leaf.text))
        if len(leaf.text.split()) <= CATEGORY_MAX_WORDS and len(said & asked) >= min(2, len(said)):
            extra = said - asked - LABEL_WORDS[Kind.PEOPLE]
            roles.append((len(said & asked), -len(extra), -item.rank, leaf, record))
    if not roles:  # no field the question names ("Industry Track Chairs"): a heading over the records may
        return _headed_holders(question, evidence, tree, asked) if headed else []
    *_, leaf, record = max(roles, key=lambda role: role[:3])
    holders = [
        entry
        for entry in tree.siblings(record) + [record]
        if entry.kind == "item"
        and any(
            child.is_leaf and child.label == leaf.label and child.text == leaf.text for child in tree.children(entry)
        )
    ]
    holders.sort(key=lambda entry: entry.id)
    # one holder answers "who is …" when the role names all the question names ("Best Reviewer -- Research Track")
    one = bool(re.search(r"\bwho\s+(?:is|was)\b", question, re.IGNORECASE)) and asked <= set(words(leaf.text or ""))
    if len(holders) >= 2 or one:
        return holders
    return _headed_holders(question, evidence, tree, asked) if headed else []


def _headed_holders(question: str, evidence: Sequence[EvidencePath], tree: Tree, asked: set[str]) -> list[Node]:
    """ "Who chairs the workshops and tutorials?" found one record under a heading that names the role
    ("Workshop and Tutorial Chairs » Marta Sabou"): every record under that heading, when there are several
    and the question does not ask for one ("who is the …")."""
    if re.search(r"\bwho\s+(?:is|was)\b", question, re.IGNORECASE):
        return []
    for item in evidence[:TOP_HEADED]:
        if not 0 <= item.node_id < len(tree.nodes):
            continue
        record = next(
            (node for node in reversed(tree.ancestors(tree.nodes[item.node_id])) if node.kind == "item"), None
        )
        heading = tree.parent(record) if record is not None else None
        if heading is None or Kind.PEOPLE not in label_kinds(heading.label):
            continue
        named = {word[:PREFIX] for word in set(words(heading.label)) - LABEL_WORDS[Kind.PEOPLE]}
        wanted = {word[:PREFIX] for word in asked - LABEL_WORDS[Kind.PEOPLE]}
        holders = [entry for entry in tree.children(heading) if entry.kind == "item"]
        if named and len(named & wanted) * 2 >= len(named) and len(holders) >= 2:
            return holders
    return []


TOP_HEADED = 3


def stated_count(question: str, evidence: Sequence[EvidencePath]) -> tuple[str, int] | None:
    """A number the site writes before the thing asked about ("hosting nine tutorials", "690 parking stalls")."""
    noun = asked_noun(question)
    if not noun:
        return None
    for item in evidence:
        tokens = WORD.findall(item.value.lower())
        labels = enumeration_labels(item.value)
        for position, token in enumerate(tokens[:-1]):
            if not (token.isdigit() or token in NUMBER_WORDS) or re.fullmatch(r"(?:19|20)\d\d", token):
                continue  # a year ("ISWC 2022 keynote") is not how many
            if token in labels:
                continue  # "(1) financial need, … (3) willingness to volunteer": an item's label, not a count
            after = [
                stem(word) for word in tokens[position + 1 : position + 1 + len(noun) + 1] if word not in STOPWORDS
            ]
            if after and noun[-1] in after[: len(noun)] or _after_modifier(tokens[position + 1 :], noun):
                return token, item.rank
        hyphened = hyphened_count(noun[-1]).search(item.value)  # "(8) full-access registrations"
        if hyphened:
            return hyphened.group(1).lower(), item.rank
    return None


def _after_modifier(tokens: Sequence[str], noun: list[str]) -> bool:
    """The thing asked right after one word the question leaves out: "(15) exhibitor booth badges" for "booth
    badges"; not a bound ("three or more reviewers") nor a comparison ("two more days")."""
    if len(tokens) < len(noun) + 1:
        return False
    modifier, *rest = tokens[: len(noun) + 1]
    return modifier not in STOPWORDS and modifier not in ASKING and [stem(word) for word in rest] == noun


ENUMERATION = re.compile(r"\((\d{1,2})\)")


def enumeration_labels(text: str) -> set[str]:
    """The numbers that label a text's items "(1) … (2) … (3) …": a run of them from 1, each one more."""
    found = [int(number) for number in ENUMERATION.findall(text)]
    run: set[int] = set()
    for number in found:
        if number == len(run) + 1:
            run.add(number)
    return {str(number) for number in run} if len(run) >= 2 else set()


def hyphened_count(noun_stem: str) -> re.Pattern:
    """A number before the thing with one hyphenated modifier between: "(8) full-access registrations"."""
    numbers = "|".join(NUMBER_WORDS)
    return re.compile(
        rf"\(?\b(\d[\d,]*|{numbers})\b\)?\s+[a-z]+-[a-z]+\s+{re.escape(noun_stem)}[a-z]*\b", re.IGNORECASE
    )


def item_text(kind: Kind, record: Node, tree: Tree) -> str:
    """What a record is called in a list: a person's name for a "who" question, else its label or text."""
    if record.is_leaf:
        return record.text or ""
    if kind is Kind.PEOPLE:
        for leaf in tree.subtree_leaves(record):
            if Kind.PEOPLE in label_kinds(leaf.label) and kind_fits(Kind.PEOPLE, leaf.text or ""):
                return leaf.text or ""
    return full_title(record, tree)


def full_title(record: Node, tree: Tree) -> str:
    """A record's label is its title field ("Keynote 1: Andrew Ng (Landing AI)") cut to a path's 80
    characters; a list names the record by the whole title, from the field the label was cut from."""
    for child in tree.children(record):
        text = child.text or ""
        if child.is_leaf and len(text) > len(record.label) and text.startswith(record.label):
            return text
    return record.label


CATEGORY_MAX_WORDS = 12
"""A category field is short ("Best Student Paper -- Research Track"); a paragraph that mentions the
prize among others ("sponsor one of the best paper awards …") does not say who won it."""
