"""What the Conference QA engine reports as it goes (``core.events`` shape): the CLI prints
``summary()`` or ``to_json()``, the TUI renders them, benchmarks read them."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from scholar_tui.core.conference.describe import DescribeProgress
from scholar_tui.core.events import Event

__all__ = [
    "Answered",
    "DescribeProgress",
    "EmbedProgress",
    "EvalFinished",
    "EvalProgress",
    "EvalReport",
    "EvidenceFound",
    "EvidencePath",
    "IndexBuilt",
    "MethodReport",
    "TreeLoaded",
    "TypeScores",
]


@dataclass
class TreeLoaded(Event):
    conference: str
    source: str
    nodes: int
    leaves: int
    kind: str = "tree_loaded"

    def summary(self) -> str:
        return f"{self.conference}: {self.nodes} nodes, {self.leaves} paths"


@dataclass
class EmbedProgress(Event):
    done: int
    total: int
    reused: int
    """Vectors kept from the previous build because their text did not change."""
    kind: str = "embed_progress"

    def summary(self) -> str:
        return f"embedding {self.done}/{self.total} texts ({self.reused} reused)"


@dataclass
class IndexBuilt(Event):
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
    kind: str = "index_built"

    def summary(self) -> str:
        return (
            f"index: {self.leaves} paths · descriptions {self.generated} generated / {self.cached} cached "
            f"({self.describer}) · vectors {self.embedded} embedded / {self.reused} reused ({self.embedder}) · "
            f"built in {self.build_s:.1f} s (describe {self.describe_s:.1f} s, embed {self.embed_s:.1f} s"
            + (f"; embedder load {self.embedder_load_s:.1f} s apart" if self.embedder_load_s else "")
            + f"; CPU {self.cpu_s:.0f} s)"
        )

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class EvidencePath:
    """One retrieved path: where it ranks, what it says, and how well it matched."""

    rank: int
    node_id: int
    path: str
    value: str
    description: str
    score: float
    """The retriever's score: cosine for dense-only search, the fused (RRF) score otherwise."""
    kept: str = ""
    """Why the path is in the top k whatever its score says ("BM25's best match"), or ""."""


@dataclass
class EvidenceFound(Event):
    """The top paths for a question, before it is answered (the pane shows them at once)."""

    question: str
    conference: str
    method: str
    evidence: list[EvidencePath]
    kind: str = "evidence_found"

    def summary(self) -> str:
        return f"{len(self.evidence)} paths found ({self.method})"


@dataclass
class Answered(Event):
    question: str
    conference: str
    method: str
    """"star" (hybrid retrieval over descriptions, re-scored with the tree) or "path" (raw paths)."""
    evidence: list[EvidencePath]
    answer: str
    """The answer the engine gives: computed from the evidence, or written by a capable model."""
    operation: str = "span"
    """How the answer was made: span, value, list, yes_no, count, sum, earliest, latest, compare, model."""
    cited: list[int] = field(default_factory=list)
    """Ranks (1-based) of the evidence paths the answer rests on."""
    computed: str = ""
    """The deterministic answer (equal to ``answer`` unless a model wrote it)."""
    answer_mode: str = "computed"
    """"computed" (offline, deterministic), "choose" (the model picks a path) or "generate"."""
    model_detail: str = ""
    seconds: float = 0.0
    value: str = ""
    """The value asked, which a benchmark's short gold answer is scored against: a yes/no answer's verdict
    ("Yes", "No"), otherwise the answer itself (filled from ``answer`` when not given)."""
    support: str = ""
    """The sentence the value rests on when the answer quotes one (a yes/no answer's deciding sentence, from the
    paths ``cited``); empty otherwise. ``answer`` reads "<value>, <support>"."""
    kind: str = "answered"

    def __post_init__(self) -> None:
        self.value = self.value or self.answer

    def summary(self) -> str:
        cited = ", ".join(f"[{rank}]" for rank in self.cited) or "no path"
        return f"{self.answer} (from {cited})"

    @property
    def cited_paths(self) -> list[str]:
        return [self.evidence[rank - 1].path for rank in self.cited if 0 < rank <= len(self.evidence)]

    def as_dict(self) -> dict[str, Any]:
        return self.to_json()


@dataclass
class EvalProgress(Event):
    done: int
    total: int
    question_type: str
    hit: bool | None
    kind: str = "eval_progress"

    def summary(self) -> str:
        return f"answering {self.done}/{self.total} ({self.question_type})"


@dataclass
class TypeScores:
    question_type: str
    questions: int = 0
    f1: float = 0.0
    em: float = 0.0
    resolved: int = 0
    """Questions whose ``from`` was found in the tree (hit@k counts only these)."""
    hit_at_1: float = 0.0
    hit_at_5: float = 0.0


@dataclass
class MethodReport:
    """One retrieval configuration's scores on a dataset (a method, or an ablation row)."""

    method: str
    retrieval: str
    """The parts that ran, in words ("star dense + BM25 + query expansion + tree re-score")."""
    by_type: list[TypeScores]
    overall: TypeScores
    rows: list[dict[str, Any]] = field(default_factory=list)
    """One row per question: answer, scores, hit, top paths (for --json and --errors)."""


@dataclass
class EvalReport:
    conference: str
    describer: str
    answer_mode: str
    k: int
    index: IndexBuilt
    methods: list[MethodReport]
    """STAR and the path baseline, scored in the same run (and the ablation rows when asked)."""
    answer_s: float
    person: Any = None
    """``core.conference.person.PersonScores`` of a person-written set run in the same evaluation (or None)."""

    def method(self, name: str) -> MethodReport:
        return next(report for report in self.methods if report.method == name)

    def as_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["person"] = self.person.as_dict() if self.person is not None else None
        return data


@dataclass
class EvalFinished(Event):
    report: EvalReport
    kind: str = "eval_finished"

    def summary(self) -> str:
        parts = [
            f"{item.method} hit@5 {100 * item.overall.hit_at_5:.1f} F1 {100 * item.overall.f1:.1f}"
            for item in self.report.methods
        ]
        return f"{self.report.conference}: " + " · ".join(parts)
