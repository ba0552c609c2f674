"""The Selector's scoring head: a calibrated logistic regression over the evidence of one paper.

PaSa's Selector scores a paper by P(True) of its decision token. A 135 M model's P(True) carries
almost no signal, so here it is one input among several (``FEATURES``, see ``evidence``): the
query's dense and lexical match with the title and abstract, the plain search's ranks, the
citation context of papers reached by [Expand], and the crawl's structure. Two heads share one
file:

- ``prior``: every input but P(True). It ranks the pool before any model call (the first papers
  on screen) and picks which papers the Selector's model judges (its top ``judge_limit``);
- ``full``: every input; a paper the model did not judge gets the training mean of P(True).

Both are fitted with Newton's method on standardized inputs (L2 penalty), so the output is a
probability of relevance. ``threshold`` (selected = score above it) is chosen on the training
split for the mean per-query F1; nothing is chosen on test queries. The weights are a small
JSON file: the user's own (``scholar-tui pasa train-selector``, in the data folder) or the
shipped default (``default_head.json``, see ``training/selector_head.py`` for the run).
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

# "Cited by pool papers" is shown beside every score but is not an input: on citation-derived queries
# with the query-date cut-off, a work no earlier paper cites is one only the (hidden) source cites, so
# the head would learn the benchmark's construction, not relevance (it did: a large negative weight).
FEATURES = ("p_true", "query_dense", "query_lexical", "vector_rank", "text_rank", "plain_score", "plain_hit",
            "context_lexical", "found_by", "depth", "has_abstract")
PRIOR_FEATURES = tuple(name for name in FEATURES if name != "p_true")
DEFAULT_FILE = Path(__file__).with_name("default_head.json")
HEAD_FILE_NAME = "pasa-selector-head.json"


class HeadFileError(ValueError):
    """A weights file that is not a scoring head; the message names the file."""


@dataclass
class LogisticHead:
    features: tuple[str, ...]
    weights: list[float]
    bias: float
    mean: list[float]
    scale: list[float]

    def score(self, rows: np.ndarray) -> np.ndarray:
        """Probabilities for rows of the head's features (in ``features`` order)."""
        z = (np.asarray(rows, dtype=float) - np.asarray(self.mean)) / np.asarray(self.scale)
        return 1.0 / (1.0 + np.exp(-(z @ np.asarray(self.weights) + self.bias)))

    @classmethod
    def fit(cls, features: tuple[str, ...], rows: np.ndarray, labels: np.ndarray, *, l2: float = 1.0,
            steps: int = 50) -> "LogisticHead":
        rows = np.asarray(rows, dtype=float)
        labels = np.asarray(labels, dtype=float)
        if rows.ndim != 2 or len(rows) != len(labels) or len(rows) == 0:
            raise ValueError("fit needs one row of features per label")
        if labels.min() == labels.max():
            raise ValueError("fit needs relevant and irrelevant papers both")
        mean, scale = rows.mean(axis=0), rows.std(axis=0)
        scale[scale < 1e-9] = 1.0
        x = np.hstack([(rows - mean) / scale, np.ones((len(rows), 1))])
        w = np.zeros(x.shape[1])
        penalty = np.full(x.shape[1], l2)
        penalty[-1] = 0.0  # the bias is not shrunk
        for _ in range(steps):
            p = 1.0 / (1.0 + np.exp(-(x @ w)))
            gradient = x.T @ (p - labels) + penalty * w
            hessian = (x * (p * (1 - p))[:, None]).T @ x + np.diag(penalty + 1e-9)
            step = np.linalg.solve(hessian, gradient)
            w -= step
            if np.abs(step).max() < 1e-8:
                break
        return cls(tuple(features), [round(float(v), 6) for v in w[:-1]], round(float(w[-1]), 6),
                   [round(float(v), 6) for v in mean], [round(float(v), 6) for v in scale])


@dataclass
class SelectorHead:
    prior: LogisticHead
    full: LogisticHead
    p_true_mean: float  # stands in for P(True) of a paper the model did not judge
    threshold: float  # selected = full score above it (chosen on the training split)
    judge_limit: int = 5  # papers the Selector's model judges per query (the prior's top ones)
    provenance: dict = field(default_factory=dict)  # how it was trained, and its figures
    origin: str = ""  # the file it was read from

    def prior_scores(self, rows: list[dict[str, float]]) -> np.ndarray:
        return self.prior.score(np.array([[row[name] for name in self.prior.features] for row in rows]))

    def full_scores(self, rows: list[dict[str, float]]) -> np.ndarray:
        table = [[self.p_true_mean if name == "p_true" and row.get(name) is None else row[name]
                  for name in self.full.features] for row in rows]
        return self.full.score(np.array(table, dtype=float))

    def to_dict(self) -> dict:
        data = asdict(self)
        data.pop("origin")
        return data

    def save(self, path: str | Path) -> Path:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(path.name + ".tmp")
        temporary.write_text(json.dumps(self.to_dict(), indent=1) + "\n", encoding="utf-8")
        temporary.replace(path)
        return path

    @classmethod
    def load(cls, path: str | Path) -> "SelectorHead":
        path = Path(path)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            prior, full = LogisticHead(**{**data["prior"], "features": tuple(data["prior"]["features"])}), \
                LogisticHead(**{**data["full"], "features": tuple(data["full"]["features"])})
            head = cls(prior, full, float(data["p_true_mean"]), float(data["threshold"]),
                       int(data.get("judge_limit", 5)), data.get("provenance", {}), str(path))
        except (OSError, ValueError, KeyError, TypeError) as error:
            raise HeadFileError(f"{path}: not a Selector head file ({error})") from error
        for model in (prior, full):
            unknown = set(model.features) - set(FEATURES)
            if unknown or not (len(model.weights) == len(model.mean) == len(model.scale) == len(model.features)):
                raise HeadFileError(f"{path}: weights do not match features (unknown: {sorted(unknown)})")
        return head


def head_file(data_dir: Path) -> Path:
    return Path(data_dir) / HEAD_FILE_NAME


def load_head(data_dir: Path | None) -> SelectorHead:
    """The user's trained head when there is one, else the shipped default."""
    if data_dir is not None and head_file(data_dir).is_file():
        return SelectorHead.load(head_file(data_dir))
    return SelectorHead.load(DEFAULT_FILE)


# -- figures ---------------------------------------------------------------------------------------------
def auc(scores, labels) -> float | None:
    """Area under the ROC curve (Mann-Whitney, ties count half); None without both classes."""
    scores, labels = np.asarray(scores, dtype=float), np.asarray(labels, dtype=bool)
    positives, negatives = scores[labels], scores[~labels]
    if len(positives) == 0 or len(negatives) == 0:
        return None
    greater = (positives[:, None] > negatives[None, :]).sum()
    ties = (positives[:, None] == negatives[None, :]).sum()
    return float((greater + 0.5 * ties) / (len(positives) * len(negatives)))


def mean_within_query_auc(groups: list[tuple[list[float], list[bool]]]) -> float | None:
    """AUC inside each query (papers of one pool ranked against each other), averaged over queries."""
    values = [value for value in (auc(scores, labels) for scores, labels in groups) if value is not None]
    return sum(values) / len(values) if values else None


def f1(selected: int, hits: int, answers: int) -> float:
    precision = hits / selected if selected else 0.0
    recall = hits / answers if answers else 0.0
    return 2 * precision * recall / (precision + recall) if precision + recall else 0.0


def best_threshold(groups: list[tuple[list[float], list[bool], int]]) -> tuple[float, float]:
    """The threshold with the best mean per-query F1 (scores, labels, answer count per query), and that F1."""
    every = sorted({round(score, 4) for scores, _, _ in groups for score in scores})
    candidates = sorted(set(every[:: max(len(every) // 200, 1)]) | {0.5})
    best = (0.5, -1.0)
    for threshold in candidates:
        values = []
        for scores, labels, answers in groups:
            chosen = [label for score, label in zip(scores, labels) if score > threshold]
            values.append(f1(len(chosen), sum(chosen), answers))
        mean = sum(values) / len(values) if values else 0.0
        if mean > best[1] + 1e-12:
            best = (threshold, mean)
    return best
