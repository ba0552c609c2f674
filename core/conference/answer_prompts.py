"""Evidence paths rendered for a reader and for a model's prompt.

Only the "choose" and "generate" answer modes use these: the computed answer needs no prompt.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from scholar_tui.core.conference.computed import Computed
from scholar_tui.core.conference.events import EvidencePath
from scholar_tui.core.conference.tree import PATH_SEPARATOR

MAX_CANDIDATE_CHARS = 220


def _short(text: str, limit: int = MAX_CANDIDATE_CHARS) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def readable_path(path: str) -> str:
    """A path as a reader sees it: the root dropped, ' › ' between headings, the value after ':'."""
    parts = path.split(PATH_SEPARATOR)
    if len(parts) > 2:
        parts = parts[1:]
    return " › ".join(parts[:-1]) + ": " + parts[-1] if len(parts) > 1 else parts[0]


def choice_prompt(question: str, evidence: Sequence[EvidencePath]) -> str:
    lines = "\n".join(f"{item.rank}. {_short(readable_path(item.path))}" for item in evidence)
    return (
        "Pick the line from a conference website that answers the question. Reply with its number only.\n"
        f"{lines}\nQuestion: {question}\nNumber:"
    )


def generate_prompt(question: str, evidence: Sequence[EvidencePath], computed: Computed) -> str:
    lines = "\n".join(f"[{item.rank}] {_short(readable_path(item.path), 400)}" for item in evidence)
    return (
        "Answer the question from these lines of a conference website, briefly, and cite the lines you used "
        "as [n]. If the lines do not say, answer that the site does not say.\n"
        f"{lines}\nA computed answer ({computed.operation}): {computed.text}\nQuestion: {question}\nAnswer:"
    )


CITATION = re.compile(r"\s*\[(\d+)\]")
