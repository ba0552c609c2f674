"""Where a conference's papers are published: the proceedings, journal or series a question asks for.

"Where do the papers get published?" asks for a publication venue, not a place one travels to: a site answers it
with a node labelled by what it is ("Posters and Demos Proceedings: http://ceur-ws.org/Vol-3254") or with a
sentence that says it ("Papers published at ICML are indexed in the Proceedings of Machine Learning Research").
The place readers look for a "location" and find neither, so this reader is tried first for such a question.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from scholar_tui.core.conference.computed import Computed, leaf_of
from scholar_tui.core.conference.events import EvidencePath
from scholar_tui.core.conference.kinds import PREFIX, heading_fit
from scholar_tui.core.conference.lexical import stem, words
from scholar_tui.core.conference.tree import Tree

ASKS_PUBLICATION = re.compile(
    r"\bwhere\b[^?]*\b(?:published|publish|indexed|printed)\b|"
    r"\b(?:which|what)\s+(?:proceedings|journal|publisher|series|volume)\s+(?:is|are|was|were|do|does|did|will|would)\b",
    re.IGNORECASE,
)
"""A question for a publication venue: a "where" of publishing, or "which proceedings/journal …" with a verb of
being or doing after it ("which journal sponsors the consortium?" asks who acts; "which journal's papers are
eligible?" asks which papers, neither where one publishes)."""


PUBLICATION_LABELS = frozenset(
    stem(word) for word in "proceedings journal journals publication publications publisher series volume".split()
)
"""How a site labels the venue its papers appear in (general English)."""


PUBLISHED_IN = re.compile(
    r"\b(?:published|indexed|included|appear|appears|archived|printed)\s+(?:in|at|by|with)\s+(?:the\s+)?"
    r"([A-Z][\w-]*(?:\s+(?:of|and|for|on|in|[A-Z][\w-]*|\d+))*)"
)
"""How a sentence states where papers appear: "indexed in the Proceedings of Machine Learning Research",
"published by Springer in the Lecture Notes in Computer Science"."""


def asks_publication(question: str) -> bool:
    return bool(ASKS_PUBLICATION.search(question))


def publication_venue(question: str, evidence: Sequence[EvidencePath], tree: Tree) -> Computed | None:
    """The node labelled as proceedings or a journal that the question's words name best (of equals the best
    ranked), else the first retrieved sentence that says where papers are published, naming a venue other than
    the conference itself ("published at ICML" names the conference, not where it publishes); None when
    neither is retrieved."""
    labelled = []
    for item in evidence:
        leaf = leaf_of(tree, item)
        if leaf is not None and leaf.text and set(words(leaf.label)) & PUBLICATION_LABELS:
            labelled.append((heading_fit(question, tree, leaf), -item.rank, item, leaf))
    if labelled:
        *_, item, leaf = max(labelled, key=lambda entry: entry[:2])
        return Computed(leaf.text or "", "span", [item.rank])
    own = {word[:PREFIX] for word in words(tree.root.label)}
    for item in evidence:
        for sentence in re.split(r"(?<=[.!?])\s+", item.value):
            named = [match.group(1) for match in PUBLISHED_IN.finditer(sentence)]
            if any({word[:PREFIX] for word in words(name)} - own for name in named):
                return Computed(sentence.strip(), "span", [item.rank])
    return None
