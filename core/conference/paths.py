"""Root-to-leaf paths, joined by '»' as in the STAR paper (WWW2023»Attendees»…»ACM Members»$300)."""

from __future__ import annotations

from dataclasses import dataclass

from scholar_tui.core.conference.tree import PATH_SEPARATOR, Node, Tree


@dataclass(frozen=True)
class LeafPath:
    node_id: int
    labels: tuple[str, ...]
    """The names from the root down to the leaf's own key (the heading chain)."""
    value: str
    """The leaf's content: what a span answer starts from."""

    @property
    def text(self) -> str:
        """The whole path, value included: what the path baseline embeds and what is shown."""
        return PATH_SEPARATOR.join([*self.labels, self.value] if self.value else self.labels)

    @property
    def heading(self) -> str:
        return PATH_SEPARATOR.join(self.labels)


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
