"""Named values: a title, a prize's winner, a person named inside a sentence.

"What is the title of X?", "Who won the best paper award?" and "Who should I contact about child care?" are
answered from the node labelled so or the record the question names, never from a description that mentions
the thing, a role, or another prize's winner.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from scholar_tui.core.answer_kind import Kind
from scholar_tui.core.conference.asked_collections import CATEGORY_MAX_WORDS, record_of
from scholar_tui.core.conference.computed import Computed
from scholar_tui.core.conference.events import EvidencePath
from scholar_tui.core.conference.kinds import GENERIC, LABEL_WORDS, PREFIX, Found, label_kinds
from scholar_tui.core.conference.lexical import stem, words
from scholar_tui.core.conference.site_topics import names_topic
from scholar_tui.core.conference.tree import Node, Tree

PERSON_IN = re.compile(
    r"(?<![.!?]\s)(?<!^)\b([A-Z][a-z]+(?:\s(?:van|von|der|den|de|da|del|di|le|la|bin))*"
    r"(?:[- ][A-Z][a-z]+){1,2})\b"
)


NOT_NAMES = frozenset(
    """january february march april may june july august september october november december
monday tuesday wednesday thursday friday saturday sunday please the this click here convention center centre
hawaii honolulu conference university""".split()
)


def person_in_sentences(question: str, evidence: Sequence[EvidencePath]) -> Computed | None:
    """A person a sentence of the evidence names, in the sentence that shares a word with the question
    ("Please contact Stephanie Willes if you have any questions."): the answer to a "who" without a
    labelled name field. None when no sentence names one."""
    asked = {word[:PREFIX] for word in words(question)} - {word[:PREFIX] for word in GENERIC}
    for item in evidence[:3]:
        for sentence in re.split(r"(?<=[.!?])\s+", item.value):
            if not asked & {word[:PREFIX] for word in words(sentence)}:
                continue
            for match in PERSON_IN.finditer(sentence):
                name = match.group(1)
                parts = {part.lower() for part in re.split(r"[- ]", name)}
                # a name the question itself says ("Deep Learning" of the workshop asked about) is not the answer
                if (
                    match.start() > 0
                    and not parts & NOT_NAMES
                    and not set(words(name)) & LABEL_WORDS[Kind.PEOPLE]  # "Program Chairs" is a role
                    and not parts
                    <= set(question.lower().split()) | {word.strip("'\"?") for word in question.lower().split()}
                ):
                    return Computed(name, "value", [item.rank])
    return None


TITLE_OF = re.compile(r"\b(?:the\s+)?title\s+of\s+(.+?)\s*\??$", re.IGNORECASE)
""""What is the title of the second panel?": a title, read from a node labelled so or a record's own label
("the full name of the conference" is not a title field: it is answered as before)."""


CALLED = re.compile(
    r"^\s*(?:what|how)\s+(?:is|are|was|were|will)\s+(?:the\s+)?(.+?)\s+(?:be\s+)?(?:called|named|titled|entitled)\s*\??$",
    re.IGNORECASE,
)
""""What is Jane Doe's keynote called?" asks for the talk's title as "the title of Jane Doe's keynote" does."""


def title_thing(question: str) -> str | None:
    """What a title question asks the title of ("Jane Doe's keynote"), or None when it asks no title."""
    if re.search(r"\bwho\b", question, re.IGNORECASE):
        return None
    match = TITLE_OF.search(question) or CALLED.match(question)
    return match.group(1) if match else None


def asks_title(question: str) -> bool:
    return title_thing(question) is not None


def titled(question: str, evidence: Sequence[EvidencePath], tree: Tree) -> Found | None:
    """The title a "title of …" question asks for: a leaf labelled "title" whose headings name the thing,
    else the record holding a field that the question names whole ("Francesca Rossi's keynote" → the
    keynote record holding "name: Francesca Rossi"), by its title field or its label. A description
    that merely mentions keynotes is not a title."""
    asked_title = title_thing(question)
    if asked_title is None:  # not a "title of …" question (asks_title says which are)
        return None
    thing = re.sub(r"['’]s\b", "", asked_title)  # "Rossi's keynote" names Rossi
    asked = set(words(thing))
    for item in evidence:
        if 0 <= item.node_id < len(tree.nodes):
            leaf = tree.nodes[item.node_id]
            if (
                stem(leaf.label.lower()) in TITLE_LABELS
                and leaf.text
                and names_topic(thing, tree, item.path)
                and not set(words(leaf.text)) <= asked
            ):
                return Found(leaf, leaf.text, item.rank)
    for item in evidence:
        if not 0 <= item.node_id < len(tree.nodes):
            continue
        leaf = tree.nodes[item.node_id]
        named = set(words(leaf.text or ""))
        record = record_of(tree, leaf) or _titled_heading(tree, leaf, asked)
        if record is None or not named or not named <= asked:
            continue
        # its title field, or the field the question calls the thing by ("Tendai Moyo's talk" → "Talk: …")
        called = asked - named
        title = next(
            (
                child
                for child in tree.children(record)
                if child.is_leaf
                and child.text
                and (stem(child.label.lower()) in TITLE_LABELS or set(words(child.label)) & called)
            ),
            None,
        )
        return Found(title or record, title.text if title and title.text else record.label, item.rank)
    return None


def _titled_heading(tree: Tree, leaf: Node, asked: set[str]) -> Node | None:
    """The heading a person's field sits under when the site keys a talk by its title ("Circular Health »
    speaker » name: Ilaria Capua"): the nearest ancestor whose label is neither a field's nor a role's
    ("speaker") nor words of the question itself; None for a leaf that is not a person's field."""
    if Kind.PEOPLE not in label_kinds(leaf.label):
        return None
    for node in reversed(tree.ancestors(leaf)[1:]):
        label = set(words(node.label))
        if label and not label <= LABEL_WORDS[Kind.PEOPLE] | asked | GENERIC:
            return node
    return None


TITLE_LABELS = frozenset({stem("title")})
"""A "name" field holds a person; a "title" field what a talk, panel or paper is called."""


WON = re.compile(
    r"\bwho\s+(?:won|received|got|was awarded|were awarded)\s+(?:the\s+|a\s+|an\s+)?(.+?)\s*\??$", re.IGNORECASE
)
""""Who won the best paper award in the research track?": the record whose category names every word of the prize."""


def asked_prize(question: str) -> set[str]:
    """The words of the prize a "who won …" question names ("best", "paper"; "award" aside), or none."""
    match = WON.search(question)
    return set(words(match.group(1))) - {stem("award"), stem("awards"), stem("prize")} - GENERIC if match else set()


def award_winner(question: str, evidence: Sequence[EvidencePath], tree: Tree) -> Found | None:
    """The winner of the prize a "who won …" question names: the record (in the evidence, else anywhere in
    the site) with a short field naming every word of the prize, the fewest other words first, answered
    by its title (a paper) or its label (a person)."""
    prize = asked_prize(question)
    if not prize:
        return None

    def is_category(node: Node) -> bool:
        text = set(words(node.text or ""))
        return (
            node.is_leaf and bool(node.text) and len((node.text or "").split()) <= CATEGORY_MAX_WORDS and prize <= text
        )

    ranked = [(tree.nodes[item.node_id], item.rank) for item in evidence if 0 <= item.node_id < len(tree.nodes)]
    candidates: list[tuple[Node, int | None]] = [(node, rank) for node, rank in ranked if is_category(node)]
    if not candidates:
        candidates = [(node, None) for node in tree.leaves() if is_category(node)]
    in_records = [(node, rank, record) for node, rank in candidates if (record := record_of(tree, node)) is not None]
    if not in_records:
        return None
    node, rank, record = min(
        in_records, key=lambda entry: (len(set(words(entry[0].text or "")) - prize), entry[1] or 99)
    )
    title = next(
        (
            child
            for child in tree.children(record)
            if child.is_leaf and child.text and stem(child.label.lower()) in TITLE_LABELS
        ),
        None,
    )
    return Found(title or record, title.text if title and title.text else record.label, rank)
