"""Root-to-leaf paths, joined by '»' as in the STAR paper (WWW2023»Attendees»…»ACM Members»$300)."""

from __future__ import annotations

from dataclasses import dataclass

from scholar_tui.core.conference.tree import PATH_SEPARATOR, Node, Tree

MAX_DESCRIBED_CHARS = 4000
"""A leaf's value is cut to this many characters where it is described, embedded, searched by
words and shown as a path; the answers read the whole value from the tree. The embedder reads
256 word pieces (about 1,000 characters) anyway, and no leaf of ICML or ISWC is longer (the
longest has 3,704): only a page-sized leaf is cut, so a 200 KB leaf costs what a 4 KB one does."""


def described_value(value: str | None) -> str | None:
    """``value`` cut to ``MAX_DESCRIBED_CHARS`` (marked with "…"), for descriptions and paths."""
    if value is None or len(value) <= MAX_DESCRIBED_CHARS:
        return value
    return value[: MAX_DESCRIBED_CHARS - 1] + "…"


@dataclass(frozen=True)
class LeafPath:
    node_id: int
    labels: tuple[str, ...]
    """The names from the root down to the leaf's own key (the heading chain)."""
    value: str
    """The leaf's content: what a span answer starts from."""

    @property
    def text(self) -> str:
        """The whole path, value included (cut to ``MAX_DESCRIBED_CHARS``): what the path baseline
        embeds, BM25 reads and what is shown."""
        value = described_value(self.value)
        return PATH_SEPARATOR.join([*self.labels, value] if value else self.labels)

    @property
    def heading(self) -> str:
        return PATH_SEPARATOR.join(self.labels)


def path_headings(path: str) -> list[str]:
    """An evidence path's headings: its parts from the root down, the leaf's value (the last part) left out."""
    return path.split(PATH_SEPARATOR)[:-1]


def path_headings_text(path: str) -> str:
    """An evidence path without its leaf's value, still joined by ``PATH_SEPARATOR``."""
    return PATH_SEPARATOR.join(path_headings(path))


def node_labels(tree: Tree, node: Node) -> tuple[str, ...]:
    """The labels from the root to ``node`` itself; unlabelled list paragraphs are skipped."""
    return tuple(item.label for item in [*tree.ancestors(node), node] if item.label)


def leaf_path(tree: Tree, leaf: Node) -> LeafPath:
    return LeafPath(node_id=leaf.id, labels=node_labels(tree, leaf), value=leaf.text or "")


def leaf_paths(tree: Tree) -> list[LeafPath]:
    """Every leaf as a path, in document order; a leaf with no text is no evidence and is left out."""
    return [leaf_path(tree, leaf) for leaf in tree.leaves() if leaf.text]


def node_path_text(tree: Tree, node: Node) -> str:
    if node.is_leaf:
        return leaf_path(tree, node).text
    return PATH_SEPARATOR.join(node_labels(tree, node))
