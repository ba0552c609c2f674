"""SoAyEval: EM, DS, WS, WP and EE per hop count, ACC, and the weighted Score.

For one question, with the gold (solution, answer) and a method's (solution, answer, error):
- EE: execution error — the program did not run to an answer (refused, crashed, timed out).
- EM: the solution and the answer both match the gold.
- DS: the answer is right but came from a different solution.
- WP: the solution is right but the answer is wrong (a wrong program).
- WS: the answer is wrong and so is the solution.
ACC = EM + DS (the answer is right). Score weights ACC by hop count; the paper's weights are not
printed, but (1/6, 1/3, 1/2) reproduce every Score in its Table 3 from the ACC columns
(e.g. SoAyGPT-4: 95.83/6 + 87.37/3 + 82.94/2 = 86.57), favouring multi-hop questions.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

Outcome = Literal["EM", "DS", "WS", "WP", "EE"]
OUTCOMES: tuple[Outcome, ...] = ("EM", "DS", "WS", "WP", "EE")
HOP_WEIGHTS = {1: 1 / 6, 2: 1 / 3, 3: 1 / 2}


def _normal_text(text: str) -> str:
    text = unicodedata.normalize("NFKD", text)
    text = "".join(char for char in text if not unicodedata.combining(char))
    return re.sub(r"\s+", " ", text).strip().lower()


def normalise_answer(value: Any) -> Any:
    """A canonical form: numbers as floats, text folded, lists as sorted tuples, dicts by key."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str):
        stripped = value.strip()
        try:
            return float(stripped)
        except ValueError:
            return _normal_text(stripped)
    if isinstance(value, dict):
        return tuple(sorted((str(key), normalise_answer(item)) for key, item in value.items()))
    if isinstance(value, (list, tuple, set)):
        items = [normalise_answer(item) for item in value]
        if len(items) == 1:  # a one-element list answers the same as its element
            return items[0]
        return tuple(sorted(items, key=repr))
    return _normal_text(str(value))


def answers_match(predicted: Any, gold: Any) -> bool:
    left, right = normalise_answer(predicted), normalise_answer(gold)
    if isinstance(left, float) and isinstance(right, float):
        return math.isclose(left, right, rel_tol=1e-6, abs_tol=1e-9)
    return left == right


def judge(
    gold_solution: Sequence[str],
    gold_answer: Any,
    solution: Sequence[str] | None,
    answer: Any,
    *,
    executed: bool,
) -> Outcome:
    if not executed:
        return "EE"
    same_solution = solution is not None and list(solution) == list(gold_solution)
    if answers_match(answer, gold_answer):
        return "EM" if same_solution else "DS"
    return "WP" if same_solution else "WS"


@dataclass
class HopReport:
    hops: int
    count: int
    rates: dict[str, float]  # outcome -> percent

    @property
    def accuracy(self) -> float:
        return self.rates["EM"] + self.rates["DS"]


@dataclass
class SoAyEvalReport:
    by_hops: dict[int, HopReport]

    @property
    def score(self) -> float:
        present = {hops: report for hops, report in self.by_hops.items() if report.count}
        total_weight = sum(HOP_WEIGHTS.get(hops, 0.0) for hops in present)
        if not total_weight:
            return 0.0
        # renormalised when a hop count is missing from the run, so the scale stays 0–100
        return sum(HOP_WEIGHTS.get(hops, 0.0) * report.accuracy for hops, report in present.items()) / total_weight

    def as_dict(self) -> dict[str, Any]:
        return {
            "score": round(self.score, 2),
            "by_hops": {
                hops: {
                    "count": report.count,
                    **{k: round(v, 2) for k, v in report.rates.items()},
                    "ACC": round(report.accuracy, 2),
                }
                for hops, report in sorted(self.by_hops.items())
            },
        }


def soay_eval(outcomes: Iterable[tuple[int, Outcome]]) -> SoAyEvalReport:
    """Aggregate (hop count, outcome) pairs into per-hop rates (percent) and the Score."""
    counts: dict[int, dict[str, int]] = defaultdict(lambda: dict.fromkeys(OUTCOMES, 0))
    for hops, outcome in outcomes:
        counts[hops][outcome] += 1
    reports = {}
    for hops, by_outcome in counts.items():
        total = sum(by_outcome.values())
        reports[hops] = HopReport(hops, total, {name: 100.0 * n / total for name, n in by_outcome.items()})
    return SoAyEvalReport(reports)
