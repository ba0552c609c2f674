"""SoAyBench over the active backend, and the benchmark that scores SoAy and the baseline on it.

Generation follows SoAy §5: for every intent (combination) the library can answer, real entities
fill its phrasings and the intent's program, run in the sandbox, gives the gold answer; questions
whose gold answer is empty are dropped, as the paper drops code whose result does not match.
Seen phrasings make the train split, the held-out phrasing the test split, so a test question is
worded unlike anything SoAy's retriever indexed.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from scholar_tui.core.sandbox import Sandbox
from scholar_tui.core.soay.evaluate import SoAyEvalReport, judge, soay_eval
from scholar_tui.core.soay.intents import INTENTS, Intent
from scholar_tui.core.soay.prompts import SoAyRecord


def _empty(value: Any) -> bool:
    if value is None or value == "" or value == []:
        return True
    return isinstance(value, list) and all(_empty(item) for item in value)


@dataclass
class BenchProgress:
    done: int
    total: int
    message: str


def entity_pool(kind: str, library) -> list[str]:
    """Every scholar name or paper title of the library: candidates, not yet checked."""
    if kind == "person":
        return sorted({row["name"] for row in library.people_names()})
    return sorted({paper["title"] for paper in library.all_papers() if paper.get("title")})


def findable(kind: str, entity: str, api) -> bool:
    """True when the entity's own fuzzy search finds it first (else a question about it is ambiguous)."""
    if kind == "person":
        return (api.searchPerson(name=entity) or [{}])[0].get("name") == entity
    return (api.searchPublication(publication_info=entity) or [{}])[0].get("title") == entity


def generate_bench(
    library,
    api,
    sandbox: Sandbox,
    *,
    per_intent: int = 8,
    seed: int = 0,
    seen_per_entity: int = 2,
    intents: Iterable[Intent] = INTENTS,
) -> Iterator[SoAyRecord | BenchProgress]:
    """Yield SoAyRecords (and progress); ``per_intent`` entities per intent, gold by execution.

    Candidates are drawn in random order and checked as they are drawn, so a library of thousands
    of papers costs a few fuzzy searches per intent, not one per paper.
    """
    rng = random.Random(seed)
    intents = [intent for intent in intents if intent.bench]
    pools: dict[str, list[str]] = {}
    checked: dict[tuple[str, str], bool] = {}
    for number, intent in enumerate(intents, start=1):
        if intent.entity not in pools:
            pools[intent.entity] = entity_pool(intent.entity, library)
        pool = list(pools[intent.entity])
        rng.shuffle(pool)
        kept = 0
        for entity in pool:
            if kept == per_intent:
                break
            key = (intent.entity, entity)
            if key not in checked:
                checked[key] = findable(intent.entity, entity, api)
            if not checked[key]:
                continue
            gold = sandbox.run(intent.program_for(entity))
            if not gold.ok or _empty(gold.value):
                continue
            kept += 1
            slot = {"name": entity, "title": entity}
            seen = rng.sample(intent.seen_phrasings, min(seen_per_entity, len(intent.seen_phrasings)))
            for index, phrasing in enumerate(seen):
                yield SoAyRecord(
                    f"{intent.key}-{kept}-train{index}",
                    phrasing.format(**slot),
                    list(intent.solution),
                    intent.program_for(entity),
                    gold.value,
                    intent.hops,
                    "train",
                )
            yield SoAyRecord(
                f"{intent.key}-{kept}-test",
                intent.held_out_phrasing.format(**slot),
                list(intent.solution),
                intent.program_for(entity),
                gold.value,
                intent.hops,
                "test",
            )
        yield BenchProgress(number, len(intents), f"{intent.key}: {kept} entities")


@dataclass
class MethodRun:
    name: str
    report: SoAyEvalReport
    latencies_s: list[float]
    rows: list[dict[str, Any]] = field(default_factory=list)

    @property
    def median_latency_s(self) -> float:
        return statistics.median(self.latencies_s) if self.latencies_s else 0.0

    def as_dict(self) -> dict[str, Any]:
        return {
            "method": self.name,
            **self.report.as_dict(),
            "median_latency_s": round(self.median_latency_s, 3),
            "questions": len(self.latencies_s),
        }


Answerer = Callable[[str], Any]  # returns an object with .ok, .solution, .value


def score_method(
    name: str, answer: Answerer, records: list[SoAyRecord], progress: Callable[[int, int], None] | None = None
) -> MethodRun:
    outcomes, latencies, rows = [], [], []
    for number, record in enumerate(records, start=1):
        started = time.perf_counter()
        result = answer(record.question)
        latencies.append(time.perf_counter() - started)
        outcome = judge(record.solution, record.answer, result.solution or None, result.value, executed=result.ok)
        outcomes.append((record.hops, outcome))
        rows.append({"id": record.id, "outcome": outcome, "solution": result.solution, "ok": result.ok})
        if progress:
            progress(number, len(records))
    return MethodRun(name, soay_eval(outcomes), latencies, rows)


def spread_over_hops(records: list[SoAyRecord], limit: int) -> list[SoAyRecord]:
    """Up to ``limit`` records, taken round-robin over hop counts so every hop is measured."""
    if not limit or limit >= len(records):
        return records
    by_hops: dict[int, list] = {}
    for record in records:
        by_hops.setdefault(record.hops, []).append(record)
    picked: list = []
    while len(picked) < limit:
        for group in by_hops.values():
            if group and len(picked) < limit:
                picked.append(group.pop(0))
    return picked


def compare_with_baseline(engine, test: list[SoAyRecord], baseline_limit: int) -> list[MethodRun]:
    """SoAy on the test questions, then the slow step-by-step baseline on up to ``baseline_limit`` of
    them (spread over hop counts), with the same model and APIs; the first question warms up first."""
    from scholar_tui.core.soay.baseline import StepByStepAgent
    from scholar_tui.core.soay.engine import final_answer

    def soay(question: str):
        return final_answer(engine.run(question))

    soay(test[0].question)  # warm-up: models loaded, sandbox started
    soay_run = score_method("SoAy", soay, test)
    agent = StepByStepAgent(engine.api, engine.llm_provider())
    return [soay_run, score_method("step-by-step", agent.answer, spread_over_hops(test, baseline_limit))]
