"""The computed answer (``Computed``) and the small tree helpers every answer operator shares.

Kept apart from the operators so that each of them, and ``kinds``, can build an answer without importing the
answer flow (``answer``) that calls them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from scholar_tui.core.conference.events import EvidencePath
from scholar_tui.core.conference.lexical import words
from scholar_tui.core.conference.tree import Node, Tree

MAX_LIST_ITEMS = 40


@dataclass
class Computed:
    text: str
    operation: str
    cited: list[int] = field(default_factory=list)
    read: list[Node] = field(default_factory=list)
    """Tree nodes the answer was read from beyond the retrieved paths (a sibling, the list counted):
    cited as evidence paths of their own after the retrieved ones."""
    said: str = ""
    """What the value itself says beyond its paths: a number of megabytes answering "what's the upload cap?" is
    the cap (``value_answers.measure_words``); the confidence check reads it with the cited paths."""
    branch_checked: bool = False
    """Read from the sibling branch the question names (``checks.named_sibling``) in place of a cited path the
    confidence check accepted: the branch names what the question is about, its value is of the asked kind."""


def overlap(question_words: dict[str, float], text: str) -> float:
    return sum(question_words.get(word, 0.0) for word in set(words(text)))


def leaf_of(tree: Tree, item: EvidencePath) -> Node | None:
    return tree.nodes[item.node_id] if 0 <= item.node_id < len(tree.nodes) else None


def leaf_text(node: Node) -> str:
    return f"{node.label}: {node.text}" if node.label and node.text else (node.text or "")


PREFIX_CHARS = 5
"""Words that agree in their first five letters are one word when typed values compete
("notified" / "Notification date"): truncation stemming, a general IR technique, not tuned."""


def section_leaves(tree: Tree, leaf: Node) -> list[Node]:
    parent = tree.parent(leaf)
    if parent is None:
        return [leaf]
    return [node for node in tree.subtree_leaves(parent) if node.text]


def join_values(texts: Sequence[str]) -> str:
    texts = [text for text in texts if text]
    if len(texts) <= 1:
        return "".join(texts)
    return ", ".join(texts[:-1]) + " and " + texts[-1]
