"""STAR path descriptions, generated top-down (root first) and cached by content.

For every node, STAR's prompt holds the node's path, its siblings (a leaf sibling carries its
parent's text, i.e. "key: value", so a record's other fields travel with it) and the parent's
description, which is why generation runs level by level from the root.

Two describers:

* ``structural`` (the default for the tiny default model): a deterministic text built from exactly
  those parts — the readable path with the value (line 1), then the siblings and the parent's
  description (line 2). No model runs; it is reported as ``structural`` wherever results are shown.
  STAR embeds line 1 (see ``structural_description`` for the measurement behind that).
* ``llm``: the active model writes the description from the STAR prompt (one short sentence,
  greedy, batched by tree level). Worth it with a capable model; SmolLM2-135M writes noise.

A description is cached under the hash of its describer and its inputs. An unchanged node with an
unchanged parent description and siblings hashes the same, so a re-import regenerates nothing;
a change regenerates that node and what lies below it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol

from scholar_tui.core.conference.paths import described_value, node_labels
from scholar_tui.core.conference.tree import PATH_SEPARATOR, Node, Tree
from scholar_tui.core.events import Event

MAX_SIBLINGS = 10
"""The paper's prompt shows at most ten same-level nodes."""
MAX_SIBLING_CHARS = 80
MAX_PARENT_CHARS = 240
READABLE_SEPARATOR = " › "


@dataclass(frozen=True)
class DescriptionInput:
    """What STAR's prompt holds for one node."""

    labels: tuple[str, ...]
    """The node's path from the root, as labels."""
    value: str | None
    """A leaf's content (None for inner nodes)."""
    siblings: tuple[str, ...]
    parent_description: str
    long_section: int = 0
    """In a section too long to list (more than ``MAX_SIBLINGS`` siblings), its number of entries; else 0."""

    @property
    def path(self) -> str:
        return PATH_SEPARATOR.join([*self.labels, self.value] if self.value else self.labels)

    def content_hash(self, describer_id: str) -> str:
        payload = json.dumps(
            [describer_id, self.labels, self.value, self.siblings, self.parent_description]
            + ([self.long_section] if self.long_section else []),
            ensure_ascii=False,
        )
        return hashlib.sha256(payload.encode("utf-8")).hexdigest()


def sibling_texts(tree: Tree, node: Node) -> tuple[str, ...]:
    """Same-level nodes as text; leaf siblings carry their parent's text ("deadline: May 31").

    At most ``MAX_SIBLINGS``, the nearest in document order: building it costs the same in a
    section of 100,000 entries as in one of three.
    """
    texts = []
    nearest = tree.nearest_siblings(node, MAX_SIBLINGS)
    for sibling in nearest:
        if sibling.is_leaf:
            value = (sibling.text or "")[:MAX_SIBLING_CHARS]  # cut first: a sibling may be a whole page
            text = f"{sibling.label}: {value}" if sibling.label else value
        else:
            text = sibling.label
        text = text if len(text) <= MAX_SIBLING_CHARS else text[: MAX_SIBLING_CHARS - 1] + "…"
        if text:
            texts.append(text)
    return tuple(texts)


def description_input(tree: Tree, node: Node, parent_description: str) -> DescriptionInput:
    parent = tree.parent(node)
    size = len(parent.children) if parent is not None else 1
    return DescriptionInput(
        labels=node_labels(tree, node),
        value=described_value(node.text) if node.is_leaf else None,
        siblings=sibling_texts(tree, node),
        parent_description=parent_description,
        long_section=size if size > MAX_SIBLINGS + 1 else 0,
    )


# -- describers -------------------------------------------------------------------------------
class Describer(Protocol):
    kind: str
    """"structural" or "llm": reported beside every result."""
    identity: str
    """Cache identity: a different describer (or model) never reuses another's descriptions."""

    def describe(self, inputs: Sequence[DescriptionInput]) -> list[str]: ...


def _shorten(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def structural_description(item: DescriptionInput) -> str:
    """Path, siblings and parent description, rendered as text: a statement line, then context.

    Line 1, the statement, reads the path from the first heading below the root (every path shares
    the root) with the value after a colon — "Dates › Paper Submissions › Author rebuttal period
    ends: Mar 19" — which is close to how a question paraphrases it. Line 2 holds the structure
    around it: the siblings (leaf siblings as "key: value") and the parent's statement.

    STAR embeds the first line of a description (``embedded_text``). Embedding line 2 as well
    lowered ICML hit@5 with all-MiniLM-L6-v2 (73.7 → 65.3; also when mixed in at lower weight),
    so the structure is kept for reading and for the LLM describer's prompt, not for the vector.
    """
    statement = READABLE_SEPARATOR.join(item.labels[1:]) or (item.labels[0] if item.labels else "")
    if item.value:
        statement = f"{statement}: {item.value}" if statement else item.value
    context = []
    if item.long_section:  # an entry of a long list: its size, not its neighbours repeated in every entry
        context.append(f"One of {item.long_section:,} same-level entries")
    elif item.siblings:
        context.append("Alongside: " + "; ".join(item.siblings))
    parent_statement = embedded_text(item.parent_description)
    if parent_statement:
        context.append("Within: " + _shorten(parent_statement, MAX_PARENT_CHARS))
    return statement + ("\n" + ". ".join(context) if context else "")


def embedded_text(description: str) -> str:
    """What STAR embeds for a description: its first line (an LLM description is one line)."""
    return description.split("\n", 1)[0]


class StructuralDescriber:
    kind = "structural"
    identity = "structural-v2"

    def describe(self, inputs: Sequence[DescriptionInput]) -> list[str]:
        return [structural_description(item) for item in inputs]


STAR_INSTRUCTION = (
    "Turn the query path into one sentence that a search engine can match to questions. "
    "Use the surrounding information.\n"
)


def star_prompt(item: DescriptionInput) -> str:
    """The STAR prompt (paper §3.3): siblings, the parent path's description, the query path.

    The fixed instruction comes first so llama.cpp reuses its KV cache from one node to the next.
    """
    more = item.long_section - 1 - len(item.siblings) if item.long_section else 0
    siblings = "; ".join(item.siblings) + (f"; and {more:,} more" if more > 0 else "") or "none"
    parent = item.parent_description or "none (this is the root)"
    return (
        f"{STAR_INSTRUCTION}Same-level nodes: {siblings}\nParent description: {_shorten(parent, 400)}\n"
        f"Query path: {_shorten(item.path, 600)}\nSentence:"
    )


class LLMDescriber:
    kind = "llm"

    def __init__(self, llm, max_tokens: int = 60) -> None:
        self.llm = llm
        self.max_tokens = max_tokens
        self.identity = f"llm-v1:{llm.backend_name}:{llm.model_name}"

    def describe(self, inputs: Sequence[DescriptionInput]) -> list[str]:
        descriptions = []
        for item in inputs:
            completion = self.llm.complete(
                messages=[{"role": "user", "content": star_prompt(item)}],
                max_tokens=self.max_tokens,
                temperature=0.0,
                stop=["\n"],
            )
            text = " ".join(completion.text.split())
            # An empty or cut-off reply still must not lose the path: the path is always kept.
            descriptions.append(
                f"{text} ({READABLE_SEPARATOR.join(item.labels[1:])}: {item.value or ''})"
                if item.value
                else (text or item.path)
            )
        return descriptions


# -- top-down generation with a cache ---------------------------------------------------------
@dataclass
class DescribeProgress(Event):
    """Descriptions done so far: ``generated`` ran the describer, ``cached`` came from the cache."""

    done: int
    total: int
    generated: int
    cached: int
    depth: int
    kind: str = "describe_progress"

    def summary(self) -> str:
        return f"describing {self.done}/{self.total} nodes ({self.generated} generated, {self.cached} cached)"


CacheLookup = Callable[[list[str]], dict[str, str]]
CacheStore = Callable[[list[tuple[str, str]]], None]


def describe_tree(
    tree: Tree,
    describer: Describer,
    cache_lookup: CacheLookup,
    cache_store: CacheStore,
    *,
    batch_size: int = 64,
    force: bool = False,
) -> Iterator[DescribeProgress | dict[int, tuple[str, str]]]:
    """Describe every node, root first; yields progress, and finally {node id: (hash, description)}.

    Each tree level is one pass: its parents' descriptions are known by then. Within a level,
    nodes are looked up in the cache in batches, and only the misses go to the describer.
    """
    results: dict[int, tuple[str, str]] = {}
    levels: dict[int, list[Node]] = {}
    for node in tree.nodes:
        levels.setdefault(node.depth, []).append(node)
    total, generated, cached = len(tree.nodes), 0, 0
    for depth in sorted(levels):
        nodes = levels[depth]
        for start in range(0, len(nodes), batch_size):
            batch = nodes[start : start + batch_size]
            inputs = [
                description_input(tree, node, results[node.parent][1] if node.parent is not None else "")
                for node in batch
            ]
            hashes = [item.content_hash(describer.identity) for item in inputs]
            known = {} if force else cache_lookup(hashes)
            missing = [index for index, key in enumerate(hashes) if key not in known]
            if missing:
                fresh = describer.describe([inputs[index] for index in missing])
                new_rows = [(hashes[index], text) for index, text in zip(missing, fresh, strict=False)]
                cache_store(new_rows)
                known = {**known, **dict(new_rows)}
            for node, key in zip(batch, hashes, strict=False):
                results[node.id] = (key, known[key])
            generated += len(missing)
            cached += len(batch) - len(missing)
            yield DescribeProgress(generated + cached, total, generated, cached, depth)
    yield results
