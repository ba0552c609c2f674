"""Whom to write to: "who do I email about X?", "where do I send requests?", "what email should I write to?" ask
for an address to write to, not for a person's name nor a place.

A site gives the address in the sentence that says what to write about ("Such requests should be sent to
press@icml.cc") or in the one after it, where a paragraph was cut across two nodes ("… Such requests" » "should
be sent to press@…") or where one sentence says whom to contact and the next how ("please contact the Diversity
and Inclusion co-chairs" » "The co-chairs can be reached by email at …"). So the reader looks in each retrieved
node and the node that follows it in its section.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from scholar_tui.core.conference.computed import Computed, leaf_of
from scholar_tui.core.conference.events import EvidencePath
from scholar_tui.core.conference.tree import Node, Tree
from scholar_tui.core.conference.values import EMAIL, SENTENCE_END

ASKS_CONTACT = re.compile(
    r"\b(?:who|whom|where)\s+(?:do|should|can|could|would|must)\s+(?:i|we|one|you)\s+"
    r"(?:e-?mail|write|send|contact|reach|direct)\b|"
    r"\bwhat\s+(?:e-?mail|e-?mail\s+address|address)\s+(?:do|should|can|could|would|must)\s+(?:i|we|one|you)\b",
    re.IGNORECASE,
)
"""A question for an address to write to: "who do I email/write to", "where do I send …", "what email should I
write to" (general English of writing to someone; "who organises X" asks a name)."""


WRITING = "write send email mail contact reach"
"""What an address says of itself: it is written, sent, mailed to (as "15 pages" says "pages"), so the asker's
verb of writing is answered by it and need not be found in the cited path."""


def asks_contact(question: str) -> bool:
    return bool(ASKS_CONTACT.search(question))


def contact_address(question: str, evidence: Sequence[EvidencePath], tree: Tree) -> Computed | None:
    """The sentence giving an e-mail address in the best ranked retrieved node that holds one, or in the node
    right after it in its section (cited by its own path); None when neither holds one."""
    for item in evidence:
        leaf = leaf_of(tree, item)
        if leaf is None:
            continue
        sentence = _sentence_with_address(item.value)
        if sentence:
            return Computed(sentence, "span", [item.rank], said=WRITING)
        following = _next_leaf(leaf, tree)
        sentence = _sentence_with_address(following.text or "") if following is not None else ""
        if following is not None and sentence:
            return Computed(sentence, "span", [item.rank], [following], said=WRITING)
    return None


def _next_leaf(leaf: Node, tree: Tree) -> Node | None:
    """The node after ``leaf`` in its section, when it is a leaf (the paragraph's next piece)."""
    parent = tree.parent(leaf)
    if parent is None:
        return None
    children = parent.children
    at = leaf.position  # kept by the tree: no scan of a long section for it
    following = tree.nodes[children[at + 1]] if at < len(children) - 1 else None
    return following if following is not None and following.is_leaf else None


def _sentence_with_address(text: str) -> str:
    """The first sentence of ``text`` that holds an e-mail address, else ""."""
    return next((sentence.strip() for sentence in SENTENCE_END.split(text) if EMAIL.search(sentence)), "")
