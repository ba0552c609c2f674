"""Where a question's answer lives: ConferenceQA's ``from`` field resolved to tree nodes.

``from`` is written by hand and is loose: separators vary ('/', '>>', '>', '.', sometimes none:
"Call For WorkshopsWorkshops"), the root is renamed or repeated ("ICM2023/…", "ISWC2023>>ISWC2023>>
Menu>>…", or left out: "Menu>>…"), list positions appear or not ("Accepted Papers>>4>>author",
"Keynote Speakers[2]"), keys contain '/' themselves ("Sponsors / Expo"), and a leaf's value may be
appended. It names a node — often an inner one ("ICML2023/Calls/Call For Papers"), whose whole
subtree is the evidence.

So a ``from`` is matched character by character against chains of node keys with everything but
letters and digits removed (separators and spacing cannot disagree then), list positions may be
consumed or skipped, and leading segments that match nothing (a wrong root) are dropped. A
retrieved path is a hit when its leaf lies under a resolved node.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from scholar_tui.core.conference.tree import Node, Tree

SEGMENT_SPLIT = re.compile(r">>|»|>|/")
FUZZY_MIN_CHARS = 16
"""Keys this long may differ from the ``from`` text by a typo or two ("its ow deadline")."""
MAX_DROPPED_SEGMENTS = 3
MAX_START_DEPTH = 2
PARTIAL_MATCH_SHARE = 0.7


def squash(text: str) -> str:
    """Lower-case letters and digits only: '2023 accepted workshops/workshops' → '2023acceptedworkshopsworkshops'."""
    return "".join(char for char in text.casefold() if char.isalnum())


@dataclass
class Resolution:
    source: str
    nodes: list[int] = field(default_factory=list)
    exact: bool = False
    """True when the whole ``from`` text was consumed; False when only a prefix of it matched."""
    dropped: int = 0
    """Leading segments left out (a root the tree names differently)."""

    @property
    def resolved(self) -> bool:
        return bool(self.nodes)


class EvidenceIndex:
    """Resolves ``from`` strings against one tree and tells whether a leaf lies under them."""

    def __init__(self, tree: Tree) -> None:
        self.tree = tree
        self._keys = [squash(node.key) for node in tree.nodes]
        self._texts = [squash(node.text or "") for node in tree.nodes]
        # A list record is also named by its title or any short field value: "Organization
        # Community>>General Chair" points at the record whose "type" is "General Chair".
        self._aliases: dict[int, set[str]] = {}
        for node in tree.nodes:
            if node.kind == "item":
                names = {squash(node.label)}
                for child in tree.children(node):
                    if child.is_leaf and child.text and len(child.text) <= 80:
                        names.add(squash(child.text))
                self._aliases[node.id] = {name for name in names if name} - {self._keys[node.id]}
        self._leaf_sets: dict[int, frozenset[int]] = {}

    # -- matching ----------------------------------------------------------------------------
    def _consume(self, node: Node, target: str, position: int) -> list[int]:
        """Positions in ``target`` after ``node`` is matched at ``position`` (several when optional)."""
        ends: list[int] = []
        key = self._keys[node.id]
        if node.kind == "item" or (node.is_leaf and not node.label):
            ends.append(position)  # list positions may be left out of a ``from``
        if key and target.startswith(key, position):
            ends.append(position + len(key))
        elif not key:
            ends.append(position)
        elif len(key) >= FUZZY_MIN_CHARS and target.startswith(key[:4], position):
            end = _fuzzy_end(key, target, position)
            if end is not None:
                ends.append(end)
        for alias in self._aliases.get(node.id, ()):
            if target.startswith(alias, position):
                ends.append(position + len(alias))
            elif len(alias) >= FUZZY_MIN_CHARS and target.startswith(alias[:4], position):
                end = _fuzzy_end(alias, target, position)
                if end is not None:
                    ends.append(end)
        if node.is_leaf:  # "…>Chairs>[{'names': 'Anastasia Dimou'}]": the value written out too
            text = self._texts[node.id]
            for end in list(ends):
                if text and target.startswith(text, end):
                    ends.append(end + len(text))
        return sorted(set(ends))

    def _match(self, start: Node, target: str) -> tuple[int, set[int]]:
        """The longest prefix of ``target`` that a downward chain from ``start`` spells, and its end nodes."""
        best_length, best_nodes = -1, set()
        seen: set[tuple[int, int]] = set()
        stack: list[tuple[int, int]] = [(start.id, end) for end in self._consume(start, target, 0)]
        while stack:
            node_id, position = stack.pop()
            if (node_id, position) in seen:
                continue
            seen.add((node_id, position))
            if position > best_length:
                best_length, best_nodes = position, {node_id}
            elif position == best_length:
                best_nodes.add(node_id)
            if position == len(target):
                continue
            for child_id in self.tree.nodes[node_id].children:
                for end in self._consume(self.tree.nodes[child_id], target, position):
                    if end > position or self.tree.nodes[child_id].children:
                        stack.append((child_id, end))
        return best_length, best_nodes

    def resolve(self, source: str) -> Resolution:
        segments = [segment for segment in SEGMENT_SPLIT.split(source) if squash(segment)]
        starts = [node for node in self.tree.nodes if node.depth <= MAX_START_DEPTH and not node.is_leaf]
        # The best prefix match seen, as (matched characters, share of the text, nodes, dropped).
        partial: tuple[int, float, set[int], int] | None = None
        for dropped in range(min(MAX_DROPPED_SEGMENTS, max(len(segments) - 1, 0)) + 1):
            target = squash("".join(segments[dropped:]))
            if not target:
                break
            found: set[int] = set()
            for start in starts:
                length, nodes = self._match(start, target)
                if length == len(target):
                    found |= nodes
                elif length > 0 and (partial is None or length > partial[0]):
                    partial = (length, length / len(target), nodes, dropped)
            if found:
                return Resolution(source, self._outermost(found), True, dropped)
        # A prefix match counts when it explains most of the text (a typo or extra word near the end).
        if partial is not None and partial[1] >= PARTIAL_MATCH_SHARE:
            return Resolution(source, self._outermost(partial[2]), False, partial[3])
        return Resolution(source)

    def _outermost(self, nodes: set[int]) -> list[int]:
        """Drop nodes that lie inside another resolved node (their leaves are counted already)."""
        kept = []
        for node_id in sorted(nodes):
            ancestors = {ancestor.id for ancestor in self.tree.ancestors(self.tree.nodes[node_id])}
            if not ancestors & nodes:
                kept.append(node_id)
        return kept

    # -- hits --------------------------------------------------------------------------------
    def evidence_leaves(self, resolution: Resolution) -> frozenset[int]:
        leaves: set[int] = set()
        for node_id in resolution.nodes:
            if node_id not in self._leaf_sets:
                node = self.tree.nodes[node_id]
                self._leaf_sets[node_id] = frozenset(leaf.id for leaf in self.tree.subtree_leaves(node))
            leaves |= self._leaf_sets[node_id]
        return frozenset(leaves)


def _edit_distance(first: str, second: str, limit: int) -> int:
    """Levenshtein distance, giving up (returning limit + 1) once it must exceed ``limit``."""
    previous = list(range(len(second) + 1))
    for row, char in enumerate(first, start=1):
        current = [row]
        for column, other in enumerate(second, start=1):
            current.append(min(previous[column] + 1, current[column - 1] + 1, previous[column - 1] + (char != other)))
        if min(current) > limit:
            return limit + 1
        previous = current
    return previous[-1]


def _fuzzy_end(key: str, target: str, position: int) -> int | None:
    limit = max(1, len(key) // 20)
    for length in range(len(key) - limit, len(key) + limit + 1):
        if (
            position + length <= len(target)
            and _edit_distance(key, target[position : position + length], limit) <= limit
        ):
            return position + length
    return None


def hit_at_k(retrieved_leaf_ids: Iterable[int], evidence: frozenset[int], k: int) -> bool:
    return any(leaf_id in evidence for leaf_id in list(retrieved_leaf_ids)[:k])
