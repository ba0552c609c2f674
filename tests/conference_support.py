"""Asking the computed answerer on a small site a test writes: the evidence is the paths named by
their ends, ranked in the order given (no retrieval)."""

from __future__ import annotations

from scholar_tui.core.conference.answer import answer_question
from scholar_tui.core.conference.events import EvidencePath
from scholar_tui.core.conference.kinds import node_evidence
from scholar_tui.core.conference.paths import leaf_path, node_path_text
from scholar_tui.core.conference.tree import Tree


def node_at(tree: Tree, path_end: str):
    found = [node for node in tree.nodes if node_path_text(tree, node).endswith(path_end)]
    assert found, path_end
    return found[0]


def ask_on(tree: Tree, question: str, *path_ends: str):
    evidence = [node_evidence(tree, node_at(tree, end), rank) for rank, end in enumerate(path_ends, start=1)]
    return answer_question(question, evidence, tree)


def leaf_evidence(tree: Tree, *leaf_texts: str) -> list[EvidencePath]:
    """The paths to the leaves holding these texts, ranked in the order given (what retrieval found)."""
    found = []
    for rank, text in enumerate(leaf_texts, start=1):
        leaf = next(node for node in tree.leaves() if node.text == text)
        path = leaf_path(tree, leaf)
        found.append(EvidencePath(rank, leaf.id, path.text, path.value, path.text, 1.0))
    return found
