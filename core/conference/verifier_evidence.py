"""What the answer verifier reads of an answer and of the question: the words the question asks (a word agreeing
with one that begins the other), the nodes an answer rests on, the items of a list written out."""

from __future__ import annotations

import re
from collections.abc import Sequence, Set

from scholar_tui.core.conference.computed import Computed, leaf_of
from scholar_tui.core.conference.events import EvidencePath
from scholar_tui.core.conference.lexical import words
from scholar_tui.core.conference.tree import Node, Tree

LIST_SEPARATOR = re.compile(r",\s*|\s+and\s+|;\s*")
"""How a list is written out: "A, B and C"; two parts' answers are joined by "; "."""


def list_items(text: str) -> list[str]:
    return [item for item in LIST_SEPARATOR.split(text) if item.strip()]


ASKED_PREFIX = 3
"""A word of the question and a word of a label agree when one begins the other ("win" / "winners")."""


def asked_in(text_words: Sequence[str], question: str, leave_out: Set[str] = frozenset()) -> set[str]:
    """The words of a text the question asks, a word agreeing with one that begins the other ("winners"/"win")."""
    asked = [word for word in words(question) if len(word) >= ASKED_PREFIX and word not in leave_out]
    return {word for word in text_words if any(word.startswith(other) or other.startswith(word) for other in asked)}


def read_nodes(answer: Computed, evidence: Sequence[EvidencePath], tree: Tree) -> list[Node]:
    cited = [leaf_of(tree, item) for item in evidence if item.rank in answer.cited]
    return [node for node in [*answer.read, *cited] if node is not None]


def one_item(text: str) -> bool:
    return len(list_items(text)) == 1
