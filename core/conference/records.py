"""A list record's fields: which one a question names, and which one it asks for.

A conference site lists people, papers, packages and workshops as records of fields ("name",
"affiliation", "Home page"). A question usually names a record by one field ("… the General
Chair, Jane Doe") and asks for another ("What is … homepage?"). Retrieval uses this to bring the
asked field next to the named one; the answer reads it. One place, so both agree.
"""

from __future__ import annotations

from scholar_tui.core.conference.lexical import words
from scholar_tui.core.conference.tree import Node, Tree
from scholar_tui.core.conference.values import holds_asked_value

NAMED_SHARE = 2 / 3
"""A short value "is named" by the question when this share of its words is in it ("Who is the
Past President?" names "Elected & Past President"); a general majority, not tuned."""
NAMED_MAX_WORDS = 12


def names_the_value(question: str, value: str) -> bool:
    """Whether the question names ``value`` (a person, a title, a role) rather than asks for it."""
    if value.lower() in question.lower():
        return True
    value_words = set(words(value))
    if not value_words or len(value.split()) > NAMED_MAX_WORDS:
        return False
    return len(value_words & set(words(question))) / len(value_words) >= NAMED_SHARE


def label_fit(asked: dict[str, float], label: str) -> float:
    """How well a label fits the question's (expanded) words; a label of several words also counts
    written as one ("Home page" fits "homepage")."""
    label_words = set(words(label))
    if len(label_words) > 1:
        label_words.add("".join(words(label)))
    return sum(asked.get(word, 0.0) for word in label_words)


def named_record(question: str, leaf: Node, tree: Tree) -> Node | None:
    """The record ``leaf`` is a field of, when the question names that field's value."""
    record = tree.parent(leaf)
    if record is None or record.kind != "item" or not leaf.text or not names_the_value(question, leaf.text):
        return None
    return record


def asked_field(question: str, asked: dict[str, float], leaf: Node, tree: Tree, *, fallback: str) -> Node | None:
    """The field of ``leaf``'s record the question asks for, when the question names ``leaf``'s value.

    The field whose label the question's words fit, or that holds a value of the asked kind (a
    link for "website", a date for "when"); of equals the fuller one. When no field fits:
    ``fallback="title"`` gives the record's title field ("Which member is affiliated with X?"
    asks who), ``"fullest"`` the fullest field ("Where is Jane Doe based?"), ``""`` none.
    """
    record = named_record(question, leaf, tree)
    if record is None:
        return None
    fields = [
        node for node in tree.siblings(leaf) if node.is_leaf and node.text and not names_the_value(question, node.text)
    ]
    if not fields:
        return None

    def fit(node: Node) -> float:
        return label_fit(asked, node.label) + (1.0 if holds_asked_value(question, node.text or "") else 0.0)

    best = max(fields, key=lambda node: (fit(node), len(node.text or "")))
    if fit(best) > 0 or fallback == "fullest":
        return best
    if fallback == "title":
        return next((node for node in fields if node.text == record.label), None)
    return None
