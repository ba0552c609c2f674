"""The Selector agent: P(True) of the decision token ranks papers; a short rationale follows.

The prompt is PaSa's Table 15 (``core.pasa.prompts.selector_prompt``), sent as one user turn of
the chat template, the form the Selector is fine-tuned on. Its decision token comes first
(§4.3): ``llm.choose(..., ["True", "False"])`` reads P(True) from the first token's distribution,
and that probability ranks the results; the decision is P(True) > 0.5.

Throughput: the query sits at the start of the prompt, so every paper judged for one query shares
the prompt's prefix, and llama.cpp reuses its KV cache for it when the calls run back to back —
which is how a batch is judged (``judge_batch``), rather than interleaved with Crawler calls.

The rationale is capped. With a bigger model it is generated after the decision, forced to begin
with the decision token (grammar), for selected papers only. With the tiny default model it is
templated from evidence — the query's key phrases found in the title or abstract — and marked so:
SmolLM2-135M's free text would not be a reason.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass

from ...models.base import LLM, CancelToken
from ...models.grammars import gbnf_literal
from scholar_tui.core.pasa.prompts import SelectorRecord, selector_prompt
from .crawler import TINY_MODEL_MARKERS
from .phrases import matched_phrases

MAX_ABSTRACT_WORDS = 150


def resolve_rationale_mode(requested: str, model_name: str) -> str:
    if requested in ("template", "model"):
        return requested
    if requested != "auto":
        raise ValueError(f"rationale mode must be auto, template or model, not {requested!r}")
    return "template" if any(marker in model_name.lower() for marker in TINY_MODEL_MARKERS) else "model"


@dataclass
class Judgement:
    paper_id: int
    probability: float
    decision: bool
    rationale: str
    rationale_kind: str
    seconds: float


def templated_rationale(query: str, title: str, abstract: str, probability: float, decision: bool) -> str:
    found = matched_phrases(query, f"{title} {abstract}")
    evidence = (f"mentions {', '.join(repr(phrase) for phrase in found)}" if found
                else "shares none of the query's key phrases")
    if abstract:
        evidence = evidence.replace("mentions", "mention").replace("shares", "share")
    where = "title and abstract" if abstract else "title"
    return f"P(True) = {probability:.2f}; the {where} {evidence}."


class Selector:
    def __init__(self, llm: LLM, *, rationale: str = "auto", rationale_tokens: int = 40,
                 threshold: float = 0.5) -> None:
        self.llm = llm
        self.rationale_mode = resolve_rationale_mode(rationale, llm.model_name)
        self.rationale_tokens = rationale_tokens
        self.threshold = threshold
        self.calls = 0
        self.records: list[SelectorRecord] = []  # this run's decisions, as Selector training records

    def _messages(self, query: str, title: str, abstract: str) -> list[dict[str, str]]:
        words = abstract.split()
        short = " ".join(words[:MAX_ABSTRACT_WORDS]) + (" …" if len(words) > MAX_ABSTRACT_WORDS else "")
        return [{"role": "user", "content": selector_prompt(query, title, short)}]

    def probability(self, query: str, title: str, abstract: str, cancel: CancelToken | None = None) -> float:
        """P(True) for one <query, paper> pair."""
        scores = self.llm.choose(None, ["True", "False"], messages=self._messages(query, title, abstract),
                                 temperature=0.0, cancel=cancel)
        self.calls += 1
        return float(scores.get("True", 0.0))

    def _model_rationale(self, query: str, title: str, abstract: str, decision: bool,
                         cancel: CancelToken | None) -> str:
        token = "True" if decision else "False"
        grammar = f'root ::= {gbnf_literal(token + chr(10) + "Reason: ")} [^\\n]+\n'
        completion = self.llm.chat(self._messages(query, title, abstract), grammar=grammar,
                                   max_tokens=self.rationale_tokens, temperature=0.0, cancel=cancel)
        self.calls += 1
        text = completion.text.split("Reason:", 1)[-1].strip()
        return text + ("…" if completion.finish_reason == "length" else "")

    def judge(self, query: str, paper: dict, cancel: CancelToken | None = None) -> Judgement:
        clock = time.perf_counter()
        title, abstract = paper["title"], paper.get("abstract") or ""
        probability = self.probability(query, title, abstract, cancel)
        decision = probability > self.threshold
        if self.rationale_mode == "model" and decision:
            rationale, kind = self._model_rationale(query, title, abstract, decision, cancel), "model"
        else:
            rationale, kind = templated_rationale(query, title, abstract, probability, decision), "template"
        self.records.append(SelectorRecord(query=query, title=title, abstract=abstract, decision=decision,
                                           rationale=rationale))
        return Judgement(paper["id"], probability, decision, rationale, kind, time.perf_counter() - clock)

    def judge_batch(self, query: str, papers: list[dict], cancel: CancelToken | None = None) -> Iterator[Judgement]:
        """Back to back, so that the shared prompt prefix stays in llama.cpp's cache."""
        for paper in papers:
            if cancel is not None and cancel.cancelled:
                return
            yield self.judge(query, paper, cancel)
