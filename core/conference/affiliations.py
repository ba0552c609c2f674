"""Where people are from: the organisation a person's record names, for a question that asks for one.

People ask for an organisation in several ways: by its kind ("what university are they at?", "which company
…", "which unis …"), by the verb of belonging ("what institution is the president affiliated with?"), or with a
"where" of working or coming from ("where does Jane Doe work?", "where are the tutorial chairs from?"). A
conference site writes the answer as a field of the person's record, labelled "affiliation", "institution" or
"organization" beside the name, not as a "location": so these readers look for such a field, in the record of
the person or role the question names, and read every holder's when a role is shared ("the tutorial chairs").
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from scholar_tui.core.answer_kind import Kind
from scholar_tui.core.conference.asked_collections import role_holders
from scholar_tui.core.conference.computed import Computed, join_values, leaf_of
from scholar_tui.core.conference.events import EvidencePath
from scholar_tui.core.conference.kinds import LABEL_WORDS, PREFIX, heading_fit, label_kinds
from scholar_tui.core.conference.lexical import stem, words
from scholar_tui.core.conference.records import names_the_value
from scholar_tui.core.conference.tree import Node, Tree

PERSON_RECORD_FIELDS = ("affiliation", "institution", "organization", "organisation", "employer")
"""How a person's record says where they are (as a place's record says it by "location" or "address")."""
AFFILIATION_LABELS = frozenset(
    stem(word) for word in (*PERSON_RECORD_FIELDS, "affiliations", "institutions", "company", "university")
)
"""How a person's record labels the organisation they are with (general English, no site's wording)."""


ORGANISATION_NOUNS = (
    r"universit(?:y|ies)|unis?|institutions?|institutes?|organi[sz]ations?|compan(?:y|ies)|firms?|employers?|"
    r"labs?|laborator(?:y|ies)|schools?|colleges?"
)
ASKS_AFFILIATION = re.compile(
    rf"\b(?:what|which)\s+(?:{ORGANISATION_NOUNS})(?:['’]s\b|\s+(?:is|are|was|were|do|does|did)\b)|"
    r"\baffiliations?\b|\baffiliated(?:\s+with)?\s*\??\s*$|"
    r"\bwhere\s+(?:do|does|did|is|are|was|were)\b[^?]*?\b(?:work|works|worked|working|employed|from)\s*\??\s*$",
    re.IGNORECASE,
)
"""A question that asks for an organisation a person is with: by its kind and a verb of being ("which uni's she
at?", "what company does he work for?"; "which company sponsors the award?" asks who acts, not whom one is
with), by affiliation ("what institution is she affiliated with?"; "who is affiliated with X?" names the
organisation and asks who), or by a "where" of
working or coming from, said at the end ("where are they from?"; "where is the shuttle from the airport" asks
a place, its "from" does not end the question)."""


ORGANISATION_WORDS = frozenset(
    word
    for noun in "university universities uni unis institution institute organization organisation company firm "
    "employer lab laboratory school college affiliation affiliated".split()
    for word in words(noun)
)
"""The words by which a question names the kind of organisation it asks for: what is asked, not what about (a
site never writes "university" beside "affiliation: University of Cambridge" to say it is one)."""


ORDINAL = re.compile(r"\b(?:first|second|third|fourth|fifth|last|\d+(?:st|nd|rd|th))\b", re.IGNORECASE)
"""A question that picks one of several by its position ("the second keynote speaker") is not answered by the
records' affiliations read in the tree's order."""


def asks_affiliation(question: str) -> bool:
    return bool(ASKS_AFFILIATION.search(question))


ROLE_WORDS = LABEL_WORDS[Kind.PEOPLE] - {"name", "names"}


def affiliation_field(record: Node, tree: Tree) -> Node | None:
    """The record's field that names an organisation, when it has one: a board's "affiliation: Elected 2019 &
    2018 Program Chair" names a role held, not where one is."""
    for field in tree.children(record):
        text = (field.text or "").strip()
        if (
            field.is_leaf
            and text
            and set(words(field.label)) & AFFILIATION_LABELS
            and not set(words(text)) & ROLE_WORDS
        ):
            return field
    return None


def of_role_holders(question: str, evidence: Sequence[EvidencePath], tree: Tree) -> Computed | None:
    """The organisations of every holder of a role the question names ("which unis are the doctoral consortium
    chairs from?" of records typed "Doctoral Consortium Chairs"), read from their affiliation fields; None when
    no such records hold one, or when the question picks a person by position."""
    if ORDINAL.search(question):
        return None
    return _of_records(role_holders(question, evidence, tree, headed=True), evidence, tree)


def of_named_records(question: str, evidence: Sequence[EvidencePath], tree: Tree) -> Computed | None:
    """The organisation in the retrieved record the question's words name best by its headings ("Accessibility
    Chair » affiliation"), or in every record under a heading that is the role they share ("Tutorial Chairs » Bo
    Li, Hanie Sedghi, Martin Jaggi"); None when no retrieved record has such a field, or when the question picks
    a person by position."""
    if ORDINAL.search(question):
        return None
    return _of_records(_named_records(question, evidence, tree), evidence, tree)


def _of_records(records: Sequence[Node], evidence: Sequence[EvidencePath], tree: Tree) -> Computed | None:
    """The records' affiliations, each once, cited by the retrieved paths within the records (the field that
    says the role they hold, "type: Sponsor Chairs", with the affiliation), the fields not retrieved read."""
    fields = [field for record in records if (field := affiliation_field(record, tree)) is not None]
    if not fields:
        return None
    ranks = {item.node_id: item.rank for item in evidence}
    answered = {record.id for record in records}
    cited = sorted({item.rank for item in evidence if _record_id(item, tree) in answered})
    read = [field for field in fields if field.id not in ranks]
    return Computed(join_values(list(dict.fromkeys(field.text or "" for field in fields))), "span", cited, read)


def _record_id(item: EvidencePath, tree: Tree) -> int | None:
    """The id of the record a retrieved field belongs to."""
    leaf = leaf_of(tree, item)
    record = tree.parent(leaf) if leaf is not None else None
    return None if record is None else record.id


def _named_records(question: str, evidence: Sequence[EvidencePath], tree: Tree) -> list[Node]:
    """The retrieved record with an affiliation field whose headings share most words with the question (of
    equals the best ranked), and beside it the other records under its heading when the record's own label adds
    nothing the question names: the heading is then the role they share ("Tutorial Chairs » Bo Li"). The role, the
    record's label or the heading's, is one the question names whole."""
    scored: list[tuple[int, int, Node]] = []
    for item in evidence:
        if not 0 <= item.node_id < len(tree.nodes):
            continue
        record = tree.parent(tree.nodes[item.node_id])
        if record is not None and affiliation_field(record, tree) is not None:
            scored.append((_record_fit(question, record, tree), -item.rank, record))
    if not scored:
        return []
    fit, _, record = max(scored, key=lambda entry: entry[:2])
    heading = tree.parent(record)
    if fit == 0 or heading is None:
        return []
    if heading_fit(question, tree, heading) < fit:
        return [record] if _wholly_named(question, record.label) else []
    if not _wholly_named(question, heading.label):
        return []
    return [entry for entry in tree.children(heading) if affiliation_field(entry, tree) is not None]


def _wholly_named(question: str, label: str) -> bool:
    """Whether the question names every word of the role a record is labelled with: "the registration chair" is
    not the "Accessibility Chair", whose one word "chair" it shares."""
    return {word[:PREFIX] for word in words(label)} <= {word[:PREFIX] for word in words(question)}


def _record_fit(question: str, record: Node, tree: Tree) -> int:
    """How many question words a record's headings hold; a record labelled by its person's name counts by its
    heading alone unless the question names that person ("Andreas Krause's affiliation" is not asked of
    "Outstanding Reviewers » Andrea Burns", whose label shares a stem with "Andreas")."""
    named_by_person = any(
        field.is_leaf and Kind.PEOPLE in label_kinds(field.label) and (field.text or "").strip() == record.label.strip()
        for field in tree.children(record)
    )
    heading = tree.parent(record)
    if named_by_person and heading is not None and not names_the_value(question, record.label):
        return heading_fit(question, tree, heading)
    return heading_fit(question, tree, record)


AT_ORGANISATION = re.compile(
    r"^\s*(?:is|was)\s+(?:the\s+)?(?:[a-z][\w-]*\s+){0,3}?(?P<person>[A-Z][\w'’.-]+(?:\s+[A-Z][\w'’.-]+)+)\s+"
    r"(?:at|with|from|working (?:at|for)|employed (?:at|by))\s+(?P<organisation>[^?]+?)"
    r"(?:\s+(?:like|as|too|also)\b[^?]*)?\s*\?*\s*$"
)
"""A yes/no question whether a person, named in full, is with an organisation ("is Cory Henson at Siemens like
Ganesh?", "is industry chair Petar Ristoski at IBM?"): what follows "like" only sets the comparison."""


def decides_at(question: str, cited: Sequence[EvidencePath], tree: Tree) -> bool:
    """Whether a cited path is the name field of the record of the person an "is X at Org?" question names, and
    that record has an affiliation field: the field then decides the verdict, whatever organisation it names."""
    asked = AT_ORGANISATION.match(question)
    if asked is None:
        return False
    for item in cited:
        leaf = leaf_of(tree, item)
        record = tree.parent(leaf) if leaf is not None else None
        if leaf and record and (leaf.text or "").strip(" ,") == asked.group("person"):
            return affiliation_field(record, tree) is not None
    return False


def whether_at(question: str, evidence: Sequence[EvidencePath], tree: Tree) -> Computed | None:
    """ "Is X at Org?": Yes or No by the affiliation field of the record whose name is X, said with it ("No,
    Bosch."); None when the question asks no such thing or no retrieved record of X has such a field."""
    asked = AT_ORGANISATION.match(question)
    if asked is None:
        return None
    person, organisation = asked.group("person"), asked.group("organisation")
    for item in evidence:
        leaf = leaf_of(tree, item)
        record = tree.parent(leaf) if leaf is not None else None
        if leaf is None or record is None or (leaf.text or "").strip(" ,") != person:
            continue
        field = affiliation_field(record, tree)
        if field is None:
            continue
        said = {word[:PREFIX] for word in words(field.text or "")}
        verdict = "Yes" if {word[:PREFIX] for word in words(organisation)} <= said else "No"
        return Computed(f"{verdict}, {field.text}.", "yes_no", [item.rank], [field], branch_checked=True)
    return None
