"""What the Conference QA engines report, as they go: the CLI, the TUI and benchmarks consume these."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from .describe import DescribeProgress

__all__ = [
    "Answered", "DescribeProgress", "EmbedProgress", "EvalFinished", "EvalProgress", "EvidencePath",
    "IndexBuilt", "TreeLoaded", "TypeScores", "EvalReport",
]


@dataclass
class TreeLoaded:
    conference: str
    source: str
    nodes: int
    leaves: int


@dataclass
class EmbedProgress:
    done: int
    total: int
    reused: int
    """Vectors kept from the previous build because their text did not change."""


@dataclass
class IndexBuilt:
    conference: str
    leaves: int
    describer: str
    """"structural" (deterministic, no model) or "llm"."""
    describer_identity: str
    generated: int
    """Descriptions the describer wrote in this build (0 when nothing changed)."""
    cached: int
    embedded: int
    reused: int
    describe_s: float
    embed_s: float
    build_s: float
    """Describing + embedding + writing, without loading the embedding model."""
    embedder: str
    embedder_load_s: float = 0.0
    cpu_s: float = 0.0
    """CPU time of this process for the whole build (all threads, model load included): on a
    shared machine it says what the build cost when the wall clock also measures the neighbours."""

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class EvidencePath:
    rank: int
    node_id: int
    path: str
    value: str
    description: str
    score: float
    """Cosine similarity between the question and what was embedded for this path."""


@dataclass
class Answered:
    question: str
    conference: str
    method: str
    """"star" (descriptions) or "path" (raw paths)."""
    evidence: list[EvidencePath]
    extractive: str
    """The best path's leaf value."""
    model_answer: str | None = None
    answer_mode: str = "extractive"
    """How ``model_answer`` was made: "choose" (the model picks one of the top-5 leaf values with
    constrained choices), "generate" (a short free answer) or "extractive" (no model)."""
    model_detail: str = ""
    seconds: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class EvalProgress:
    done: int
    total: int
    question_type: str
    hit: bool | None


@dataclass
class TypeScores:
    question_type: str
    questions: int = 0
    f1: float = 0.0
    em: float = 0.0
    model_f1: float | None = None
    model_em: float | None = None
    resolved: int = 0
    """Questions whose ``from`` was found in the tree (hit@k counts only these)."""
    hit_at_1: float = 0.0
    hit_at_5: float = 0.0


@dataclass
class EvalReport:
    conference: str
    method: str
    describer: str
    answer_mode: str
    k: int
    index: IndexBuilt
    by_type: list[TypeScores]
    overall: TypeScores
    answer_s: float
    rows: list[dict[str, Any]] = field(default_factory=list)
    """One row per question: answers, scores, hit, top paths (for --json and inspection)."""

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class EvalFinished:
    report: EvalReport
