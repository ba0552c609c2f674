"""A conference as a tree: pages and headings are inner nodes, contents are leaves.

ConferenceQA stores a conference as nested JSON: dicts (headings → content), lists (records or
paragraphs) and strings (the contents). ``tree_from_data`` turns any such value into a ``Tree`` of
``Node``s; every string becomes a leaf, and every leaf is one root-to-leaf path (``paths.py``).

A node keeps two names. ``key`` is what the source called it (a dict key, or a list position as
``"0"``, ``"1"``…) and is used to resolve a question's ``from`` field; ``label`` is what a path
shows, so a list record is labelled by its title ("Expo") rather than by its position.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from scholar_tui.config.files import StateError, refuse_special_file, shown_path

NodeKind = Literal["root", "section", "item", "leaf"]
PATH_SEPARATOR = "»"

# Field names that usually hold a record's title; the first one present labels the record.
TITLE_FIELDS = (
    "title",
    "name",
    "session",
    "workshop",
    "tutorial",
    "speaker",
    "event",
    "track",
    "paper",
    "question",
    "q",
    "level",
    "conference",
    "type",
    "label",
    "heading",
)
MAX_LABEL_CHARS = 80


class ConferenceError(Exception):
    """A conference could not be imported or found; the message is one line for the user."""


@dataclass
class Node:
    id: int
    parent: int | None
    kind: NodeKind
    key: str
    label: str
    text: str | None = None
    """A leaf's content; None for inner nodes."""
    depth: int = 0
    children: list[int] = field(default_factory=list)
    position: int = 0
    """The node's place among its parent's children (kept so that nothing scans a long list for it)."""

    @property
    def is_leaf(self) -> bool:
        return self.kind == "leaf"


@dataclass
class Tree:
    name: str
    nodes: list[Node]

    @property
    def root(self) -> Node:
        return self.nodes[0]

    def __getitem__(self, node_id: int) -> Node:
        return self.nodes[node_id]

    def leaves(self) -> Iterator[Node]:
        return (node for node in self.nodes if node.is_leaf)

    def ancestors(self, node: Node) -> list[Node]:
        """From the root down to ``node``'s parent."""
        chain: list[Node] = []
        current = node.parent
        while current is not None:
            chain.append(self.nodes[current])
            current = self.nodes[current].parent
        return chain[::-1]

    def parent(self, node: Node) -> Node | None:
        return None if node.parent is None else self.nodes[node.parent]

    def siblings(self, node: Node) -> list[Node]:
        parent = self.parent(node)
        if parent is None:
            return []
        return [self.nodes[child] for child in parent.children if child != node.id]

    def nearest_siblings(self, node: Node, limit: int) -> list[Node]:
        """Up to ``limit`` same-level nodes around ``node``, in document order: constant work per
        node (``siblings`` lists them all), so a section of 100,000 entries is not quadratic."""
        parent = self.parent(node)
        if parent is None:
            return []
        children = parent.children
        start = max(0, min(node.position - limit // 2, len(children) - limit - 1))
        return [self.nodes[child] for child in children[start : start + limit + 1] if child != node.id][:limit]

    def children(self, node: Node) -> list[Node]:
        return [self.nodes[child] for child in node.children]

    def subtree_leaves(self, node: Node) -> Iterator[Node]:
        stack = [node]
        while stack:
            current = stack.pop()
            if current.is_leaf:
                yield current
            stack.extend(self.nodes[child] for child in reversed(current.children))


def clean_text(value: Any) -> str:
    """One line of text: JSON scalars as strings, runs of whitespace (nbsp, CR/LF) as one space."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return STRAY_NONE.sub("", " ".join(str(value).split()))


# A scraper's missing field written out after a value ("Ballroom B None": 30 of ICML 2023's rooms); a
# value that is only "None" is kept, since a site may mean it ("Fee: None").
STRAY_NONE = re.compile(r"(?<=\S) None$")


def _record_label(record: Any, position: int, parent_label: str) -> str:
    """What a list element is called in a path: a record's title, else its position."""
    if isinstance(record, dict):
        scalars = {
            str(key): clean_text(value)
            for key, value in record.items()
            if not isinstance(value, (dict, list)) and clean_text(value)
        }
        lowered = {key.lower().strip(): key for key in scalars}
        for wanted in TITLE_FIELDS:
            for lower, key in lowered.items():
                if lower == wanted or (len(wanted) > 2 and lower.startswith(wanted)):
                    return scalars[key][:MAX_LABEL_CHARS]
        for value in scalars.values():
            if len(value) <= MAX_LABEL_CHARS:
                return value
        if len(record) == 1:  # {"Heading": [...]} records are named by their only key
            return clean_text(next(iter(record)))[:MAX_LABEL_CHARS]
    return f"{parent_label} {position + 1}".strip()


class _Builder:
    def __init__(self) -> None:
        self.nodes: list[Node] = []

    def add(self, parent: Node | None, kind: NodeKind, key: str, label: str, text: str | None = None) -> Node:
        node = Node(
            id=len(self.nodes),
            parent=None if parent is None else parent.id,
            kind=kind,
            key=key,
            label=label,
            text=text,
            depth=0 if parent is None else parent.depth + 1,
            position=0 if parent is None else len(parent.children),
        )
        self.nodes.append(node)
        if parent is not None:
            parent.children.append(node.id)
        return node

    def value(self, parent: Node, key: str, label: str, value: Any, *, in_list: bool) -> None:
        if isinstance(value, dict):
            node = self.add(parent, "item" if in_list else "section", key, label)
            for child_key, child in value.items():
                name = clean_text(child_key)
                self.value(node, name, name, child, in_list=False)
        elif isinstance(value, list):
            node = self.add(parent, "item" if in_list else "section", key, label)
            for position, element in enumerate(value):
                if isinstance(element, (dict, list)):
                    self.value(node, str(position), _record_label(element, position, label), element, in_list=True)
                else:
                    # A paragraph in a list is a leaf of its own; its position is not worth showing.
                    self.add(node, "leaf", str(position), "", clean_text(element))
        else:
            self.add(parent, "leaf", key, "" if in_list else label, clean_text(value))


def tree_from_data(data: Any, name: str | None = None) -> Tree:
    """A tree from parsed ConferenceQA-style JSON.

    A dict with a single key is the usual form (``{"ICML2023": {...}}``): that key is the root.
    Anything else (several keys, a list, a bare string) hangs under a root called ``name``.
    """
    builder = _Builder()
    if isinstance(data, dict) and len(data) == 1 and isinstance(next(iter(data.values())), (dict, list)):
        root_key, body = next(iter(data.items()))
        root_key = clean_text(root_key)
    else:
        root_key, body = name or "conference", data
    root = builder.add(None, "root", root_key, root_key)
    if isinstance(body, dict):
        for key, value in body.items():
            label = clean_text(key)
            builder.value(root, label, label, value, in_list=False)
    elif isinstance(body, list):
        for position, element in enumerate(body):
            if isinstance(element, (dict, list)):
                builder.value(root, str(position), _record_label(element, position, root_key), element, in_list=True)
            else:
                builder.add(root, "leaf", str(position), "", clean_text(element))
    else:
        builder.add(root, "leaf", "0", "", clean_text(body))
    tree = Tree(name=name or root_key, nodes=builder.nodes)
    if not any(True for _ in tree.leaves()):
        raise ConferenceError(f"{tree.name}: the data holds no text to answer from")
    return tree


def check_readable(path: Path) -> None:
    """ConferenceError unless ``path`` is a regular file: a FIFO or a device is refused by its
    kind without being opened (reading one may never end)."""
    try:
        if not refuse_special_file(path):
            raise ConferenceError(f"{shown_path(path)}: no such file")
    except StateError as error:
        raise ConferenceError(str(error)) from None


def read_json(path: Path) -> Any:
    """JSON from a file that may start with a UTF-8 byte-order mark (ConferenceQA's do)."""
    check_readable(path)
    try:
        return json.loads(path.read_text(encoding="utf-8-sig"))
    except UnicodeDecodeError as error:
        raise ConferenceError(f"{path}: not UTF-8 text ({error.reason})") from error
    except json.JSONDecodeError as error:
        raise ConferenceError(
            f"{path}: not valid JSON (line {error.lineno}, column {error.colno}: {error.msg})"
        ) from error
    except ValueError as error:  # json's int() of a number over 4,300 digits (Python's guard against slow parsing)
        raise ConferenceError(f"{path}: not read: it holds a number of over 4,300 digits") from error
    except OSError as error:
        raise ConferenceError(f"{path}: cannot read ({error.strerror})") from error


def load_json_tree(path: Path, name: str | None = None) -> Tree:
    return tree_from_data(read_json(path), name)


def tree_as_data(tree: Tree) -> Any:
    """The tree back as ConferenceQA-style JSON, ``{root: {...}}`` (an HTML import can be saved)."""
    return {tree.root.key: _node_data(tree, tree.root)}


def _node_data(tree: Tree, node: Node) -> Any:
    if node.is_leaf:
        return node.text
    children = tree.children(node)
    if children and all(child.key.isdigit() for child in children):
        return [_node_data(tree, child) for child in children]
    return {child.key: _node_data(tree, child) for child in children}
