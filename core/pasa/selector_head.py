"""The Selector's scoring head: a within-query ranker, calibrated, over the evidence of one paper.

PaSa's Selector scores a paper by P(True) of its decision token. A 135 M model's P(True) carries
almost no signal, so here it is one input among several (``FEATURES``, see ``evidence``): the
query's dense match with the title and abstract, the word match with the paper's description
(its title and abstract, or the sentence citing it in a section [Expand] read, whichever matches
better), the plain search's rank, how many searches/expansions found it, and the pool's coherence
(its closeness to the centroid of the plain search's top hits, pseudo-relevance feedback; see
``evidence``). Two heads share one file:

- ``prior``: every input but P(True). It ranks the pool before any model call (the first papers
  on screen) and picks which papers the Selector's model judges (its top ``judge_limit``);
- ``full``: every input; a paper the model did not judge gets the training mean of P(True).

Each is fitted to rank *inside one query* (``fit_ranking``): a logistic regression on the
differences between an answer's inputs and a non-answer's of the same query (pairwise, as a
learning-to-rank model), so a query whose pool is all close or all far does not tilt it; the
plain-search rank is an input, so the head moves a paper past plain search's order only on the
evidence. The ranking score is then calibrated into a probability of relevance (Platt scaling on
the pooled training papers).

Which papers are selected (``selection``):

- ``expected_f1`` (heads trained now): per query, the k most probable papers for the k that
  maximises the expected F1 of the selected set when each paper is relevant independently with its
  probability (``expected_f1_by_cut``; Jansche 2007, Ye et al. 2012 "Optimizing F-measures: a tale
  of two approaches"). Nothing is tuned: a query whose pool holds several likely answers selects
  more, one whose best paper is a long shot selects one. 5-fold CV by source paper on the training
  split: mean F1 0.247 against 0.234 for the threshold + cap (the table in ``training/selector_head.py``);
- ``threshold`` (older head files): probability above ``threshold`` and among the query's
  ``max_selected`` best, both chosen on the training split for the mean per-query F1.

Nothing is chosen on test queries. The weights are a small JSON file: the
user's own (``scholar-tui pasa train-selector``, in the data folder) or the shipped default
(``default_head.json``, see ``training/selector_head.py`` for the run).

Why the citation context is not an input of its own: on citation-derived training queries the
answers are the works one (hidden) source paper cites, so in this library no answer is ever
reached with a citing sentence, and a separate weight can only learn "context means wrong" (it
did: a large negative weight that pushed plain-search hits out of the top 20 on queries a person
wrote). Taken as one more description of the paper, it inherits the word match's learned weight.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

# Every input ``evidence`` computes (a head file may name any of them).
ROW_FEATURES = (
    "p_true",
    "query_dense",
    "query_lexical",
    "description_lexical",
    "plain_log_rank",
    "vector_rank",
    "text_rank",
    "plain_score",
    "plain_hit",
    "context_lexical",
    "found_by",
    "depth",
    "has_abstract",
    "centroid_dense",
)
# The trained heads' inputs. Left out, because on citation-derived queries they learn the benchmark's
# construction rather than relevance: "cited by pool papers" and "context_lexical" on their own (see the
# module doc), and "has_abstract" (every answer is a cited work, which the library holds without abstract).
# Tried on the training split and left out for adding nothing there (the table in training/selector_head.py):
# an RM3-style expanded-query word match, the dense and full-text ranks apart, co-citation with the top hits.
FEATURES = ("p_true", "query_dense", "description_lexical", "plain_log_rank", "found_by", "centroid_dense")
PRIOR_FEATURES = tuple(name for name in FEATURES if name != "p_true")
DEFAULT_FILE = Path(__file__).with_name("default_head.json")
HEAD_FILE_NAME = "pasa-selector-head.json"
SELECTION_RULES = ("expected_f1", "threshold")


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
        return _sigmoid(z @ np.asarray(self.weights) + self.bias)

    @classmethod
    def fit(
        cls, features: tuple[str, ...], rows: np.ndarray, labels: np.ndarray, *, l2: float = 1.0, steps: int = 50
    ) -> "LogisticHead":
        rows = np.asarray(rows, dtype=float)
        labels = np.asarray(labels, dtype=float)
        if rows.ndim != 2 or len(rows) != len(labels) or len(rows) == 0:
            raise ValueError("fit needs one row of features per label")
        if labels.min() == labels.max():
            raise ValueError("fit needs relevant and irrelevant papers both")
        mean, scale = _standardizer(rows)
        w = _newton(np.hstack([(rows - mean) / scale, np.ones((len(rows), 1))]), labels, l2, steps, shrink_last=False)
        return cls(tuple(features), _rounded(w[:-1]), round(float(w[-1]), 6), _rounded(mean), _rounded(scale))


def _sigmoid(z):
    return 1.0 / (1.0 + np.exp(-np.clip(z, -60.0, 60.0)))  # clipped: a separable toy set must not overflow


def _rounded(values) -> list[float]:
    return [round(float(value), 6) for value in values]


def _standardizer(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    mean, scale = rows.mean(axis=0), rows.std(axis=0)
    scale[scale < 1e-9] = 1.0
    return mean, scale


def _newton(x: np.ndarray, labels: np.ndarray, l2: float, steps: int, *, shrink_last: bool) -> np.ndarray:
    """L2-penalized logistic regression by Newton's method; the last column (a bias) is shrunk or not."""
    w = np.zeros(x.shape[1])
    penalty = np.full(x.shape[1], l2)
    if not shrink_last:
        penalty[-1] = 0.0
    for _ in range(steps):
        p = _sigmoid(x @ w)
        gradient = x.T @ (p - labels) + penalty * w
        hessian = (x * (p * (1 - p))[:, None]).T @ x + np.diag(penalty + 1e-9)
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return w


def fit_ranking(
    features: tuple[str, ...], groups: list[tuple[np.ndarray, np.ndarray]], *, l2: float = 1.0, steps: int = 50
) -> LogisticHead:
    """A within-query ranker, calibrated: (rows, labels) per query in, a ``LogisticHead`` out.

    The weights come from a pairwise logistic regression (answer minus non-answer of the same query,
    both signs, no bias) on standardized inputs; one scale factor and a bias then turn that ranking
    score into a probability (Platt scaling over every training paper). Ranking by the probability is
    ranking by the pairwise score, so within a query the order is the pairwise model's.
    """
    groups = [(np.asarray(rows, dtype=float), np.asarray(labels, dtype=bool)) for rows, labels in groups]
    everything = np.vstack([rows for rows, _ in groups]) if groups else np.zeros((0, len(features)))
    labels = np.concatenate([labels for _, labels in groups]) if groups else np.zeros(0, dtype=bool)
    if len(everything) == 0 or labels.all() or not labels.any():
        raise ValueError("fit needs relevant and irrelevant papers both")
    mean, scale = _standardizer(everything)
    differences = []
    for rows, marks in groups:
        z = (rows - mean) / scale
        if marks.any() and not marks.all():
            differences.append((z[marks][:, None, :] - z[~marks][None, :, :]).reshape(-1, len(features)))
    if not differences:
        raise ValueError("fit needs a query with relevant and irrelevant papers both")
    pairs = np.vstack(differences)
    both_ways = np.vstack([pairs, -pairs])
    direction = _newton(both_ways, np.r_[np.ones(len(pairs)), np.zeros(len(pairs))], l2, steps, shrink_last=True)
    ranking_score = ((everything - mean) / scale) @ direction
    platt = _newton(
        np.c_[ranking_score, np.ones(len(ranking_score))], labels.astype(float), 1e-6, steps, shrink_last=False
    )
    return LogisticHead(
        tuple(features), _rounded(direction * platt[0]), round(float(platt[1]), 6), _rounded(mean), _rounded(scale)
    )


@dataclass
class SelectorHead:
    prior: LogisticHead
    full: LogisticHead
    p_true_mean: float  # stands in for P(True) of a paper the model did not judge
    threshold: float  # selected = full score above it (chosen on the training split)
    judge_limit: int = 5  # papers the Selector's model judges per query (the prior's top ones)
    max_selected: int | None = None  # at most this many selected per query (chosen with the threshold)
    selection: str = "threshold"  # "expected_f1" | "threshold": the rule of ``select`` (see the module doc)
    provenance: dict = field(default_factory=dict)  # how it was trained, and its figures
    origin: str = ""  # the file it was read from

    def prior_scores(self, rows: Sequence[Mapping[str, float | None]]) -> np.ndarray:
        return self.prior.score(np.array([[row[name] for name in self.prior.features] for row in rows]))

    def full_scores(self, rows: Sequence[Mapping[str, float | None]]) -> np.ndarray:
        table = [
            [
                self.p_true_mean if name == "p_true" and row.get(name) is None else row[name]
                for name in self.full.features
            ]
            for row in rows
        ]
        return self.full.score(np.array(table, dtype=float))

    def select(self, scores) -> "Selection":
        """Which papers of one query's scores are selected, and why, by the head's rule."""
        if self.selection == "expected_f1":
            return expected_f1_selection(scores)
        return threshold_selection(scores, self.threshold, self.max_selected)

    def selected(self, scores) -> np.ndarray:
        return self.select(scores).chosen

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
            prior, full = (
                LogisticHead(**{**data["prior"], "features": tuple(data["prior"]["features"])}),
                LogisticHead(**{**data["full"], "features": tuple(data["full"]["features"])}),
            )
            cap = data.get("max_selected")
            head = cls(
                prior,
                full,
                float(data["p_true_mean"]),
                float(data["threshold"]),
                int(data.get("judge_limit", 5)),
                None if cap is None else int(cap),
                str(data.get("selection", "threshold")),
                data.get("provenance", {}),
                str(path),
            )
        except (OSError, ValueError, KeyError, TypeError) as error:
            raise HeadFileError(f"{path}: not a Selector head file ({error})") from error
        if head.selection not in SELECTION_RULES:
            raise HeadFileError(
                f"{path}: unknown selection rule {head.selection!r} (one of {', '.join(SELECTION_RULES)})"
            )
        for model in (prior, full):
            unknown = set(model.features) - set(ROW_FEATURES)
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


def selection_f1(chosen, labels, answers: int) -> float:
    """F1 of one query's selection (a bool per paper) against its labels and its number of answers."""
    chosen = np.asarray(chosen, dtype=bool)
    return f1(int(chosen.sum()), int(np.asarray(labels, dtype=bool)[chosen].sum()), answers)


def selected_mask(scores, threshold: float, max_selected: int | None) -> np.ndarray:
    """Which papers of one query are selected: above the threshold and among its ``max_selected`` best."""
    scores = np.asarray(scores, dtype=float)
    chosen = scores > threshold
    if max_selected is not None and chosen.sum() > max_selected:
        best = np.argsort(-scores, kind="stable")[:max_selected]
        chosen = np.zeros(len(scores), dtype=bool)
        chosen[best] = scores[best] > threshold
    return chosen


@dataclass
class Selection:
    """One query's selection: which papers, and per paper the reason the rationale shows."""

    chosen: np.ndarray  # bool per paper, in the scores' order
    reasons: list[str]  # e.g. "selected: top k=3 of the expected-F1 cut (rank 2, expected F1 0.41)"


def threshold_selection(scores, threshold: float, max_selected: int | None) -> Selection:
    chosen = selected_mask(scores, threshold, max_selected)
    cap = "" if max_selected is None else f", at most {max_selected}"
    return Selection(
        chosen,
        [
            f"selected: score above the threshold {threshold:.3f}{cap}"
            if chosen_one
            else f"not selected: below the threshold {threshold:.3f}{cap}"
            for chosen_one in chosen
        ],
    )


def expected_f1_by_cut(probabilities) -> np.ndarray:
    """E[F1] of selecting the k most probable papers, for k = 0..n (sorted best first inside).

    Each paper is relevant independently with its probability; the number of relevant papers among
    the k selected (t) and among the rest (u) are Poisson-binomial, and F1 = 2t / (k + t + u)
    (Jansche 2007; Ye et al. 2012). Answers outside the pool are not counted: the head cannot see them.
    """
    p = np.sort(np.clip(np.asarray(probabilities, dtype=float), 0.0, 1.0))[::-1]
    best_k = _count_distributions(p)  # best_k[k, t]: P(t relevant among the k best)
    rest = _count_distributions(p[::-1])[::-1]  # rest[k, u]: P(u relevant among the others)
    counts = np.arange(len(p) + 1, dtype=float)
    values = np.zeros(len(p) + 1)
    for k in range(1, len(p) + 1):
        f1_at = 2 * counts[:, None] / np.maximum(k + counts[:, None] + counts[None, :], 1.0)
        values[k] = best_k[k] @ f1_at @ rest[k]
    return values


def _count_distributions(p: np.ndarray) -> np.ndarray:
    """row k: the distribution of how many of the first k Bernoullis (probabilities ``p``) come up."""
    rows = np.zeros((len(p) + 1, len(p) + 1))
    rows[0, 0] = 1.0
    for k, probability in enumerate(p):
        rows[k + 1] = rows[k] * (1 - probability)
        rows[k + 1, 1:] += rows[k, :-1] * probability
    return rows


def expected_f1_selection(scores) -> Selection:
    """The query's k best papers for the k with the highest expected F1 (at least one paper)."""
    scores = np.asarray(scores, dtype=float)
    if len(scores) == 0:
        return Selection(np.zeros(0, dtype=bool), [])
    expected = expected_f1_by_cut(scores)
    k = int(np.argmax(expected[1:])) + 1  # ties: the smaller cut
    order = np.argsort(-scores, kind="stable")
    rank = np.empty(len(scores), dtype=int)
    rank[order] = np.arange(1, len(scores) + 1)
    cut = f"k={k} of the expected-F1 cut (expected F1 {expected[k]:.2f})"
    return Selection(
        rank <= k,
        [f"selected: rank {r}, top {cut}" if r <= k else f"not selected: rank {r}, below the top {cut}" for r in rank],
    )


def best_selection(
    groups: list[tuple[list[float], list[bool], int]], caps=(None, 1, 2, 3, 4, 5, 6, 8, 10)
) -> tuple[float, int | None, float]:
    """The threshold and cap with the best mean per-query F1 (scores, labels, answer count per query), and that F1."""
    every = sorted({round(score, 4) for scores, _, _ in groups for score in scores})
    candidates = sorted(set(every[:: max(len(every) // 200, 1)]) | {0.5})
    best = (0.5, None, -1.0)
    for cap in caps:
        for threshold in candidates:
            values = []
            for scores, labels, answers in groups:
                values.append(selection_f1(selected_mask(scores, threshold, cap), labels, answers))
            mean = sum(values) / len(values) if values else 0.0
            if mean > best[2] + 1e-12:
                best = (threshold, cap, mean)
    return best


def best_threshold(groups: list[tuple[list[float], list[bool], int]]) -> tuple[float, float]:
    """The threshold alone (no cap) with the best mean per-query F1, and that F1."""
    threshold, _, value = best_selection(groups, caps=(None,))
    return threshold, value
