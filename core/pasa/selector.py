"""The Selector's model: P(True) of the decision token, one input of the scoring head.

The prompt is PaSa's Table 15 (``core.pasa.prompts.selector_prompt``), sent as one user turn of
the chat template, the form the Selector is fine-tuned on. Its decision token comes first
(§4.3): ``llm.choose(..., ["True", "False"])`` reads P(True) from the first token's distribution.
P(True) stays visible beside every score; the score itself is the head's (``selector_head``),
which also reads the query match, the citation context and the crawl's structure.

Throughput: the query sits at the start of the prompt, so every paper judged for one query shares
the prompt's prefix, and llama.cpp reuses its KV cache for it when the calls run back to back —
which is how the engine judges (a few plain-search hits before the Crawler's first call, the rest
in one batch after the crawl), never interleaved with Crawler calls.

The rationale is templated from the evidence the score was made of (marked so); a model that can
write one may be asked for it with ``rationale="model"``.
"""

from __future__ import annotations

import threading

from scholar_tui.core.events import counted
from scholar_tui.core.pasa.crawler import TINY_MODEL_MARKERS
from scholar_tui.core.pasa.phrases import matched_phrases
from scholar_tui.core.pasa.prompts import selector_prompt
from scholar_tui.models.base import LLM
from scholar_tui.models.grammars import gbnf_literal

MAX_ABSTRACT_WORDS = 150


def short_abstract(abstract: str) -> str:
    """The abstract as the Selector sees it (and is fine-tuned on): its first ``MAX_ABSTRACT_WORDS`` words."""
    words = abstract.split()
    return " ".join(words[:MAX_ABSTRACT_WORDS]) + (" …" if len(words) > MAX_ABSTRACT_WORDS else "")


def resolve_rationale_mode(requested: str, model_name: str) -> str:
    if requested in ("template", "model"):
        return requested
    if requested != "auto":
        raise ValueError(f"rationale mode must be auto, template or model, not {requested!r}")
    return "template" if any(marker in model_name.lower() for marker in TINY_MODEL_MARKERS) else "model"


def scored_rationale(query: str, row: dict, parts, score: float, selection: str) -> str:
    """Why a paper scored as it did, from its evidence (query phrases found, the citing sentence, ranks).

    ``selection`` is the selection rule's reason ("selected: rank 2, top k=3 of the expected-F1 cut …").
    """
    found = matched_phrases(query, f"{row['title']} {row['abstract'] or ''}")
    bits = [f"{selection}; score {score:.2f}"]
    bits.append(
        f"{'title and abstract' if row['abstract'] else 'title'} "
        + (
            f"mention {', '.join(repr(phrase) for phrase in found)}"
            if found
            else "share none of the query's key phrases"
        )
    )
    if parts.citing_sentence:
        bits.append(f"cited as “{parts.citing_sentence[:160]}”")
    if parts.plain_rank is not None:
        bits.append(f"plain search rank {parts.plain_rank}")
    if parts.pool_coherence:
        bits.append(f"pool coherence {parts.pool_coherence:.2f}")
    if parts.found_by > 1:
        bits.append(f"found by {parts.found_by} actions")
    if parts.cited_by_pool:
        bits.append(f"cited by {counted(parts.cited_by_pool, 'paper')} of the pool")
    bits.append("P(True) " + ("not asked" if parts.p_true is None else f"{parts.p_true:.2f}"))
    return "; ".join(bits) + "."


class Selector:
    def __init__(self, llm: LLM, *, rationale: str = "auto", rationale_tokens: int = 40) -> None:
        self.llm = llm
        self.rationale_mode = resolve_rationale_mode(rationale, llm.model_name)
        self.rationale_tokens = rationale_tokens
        self.calls = 0

    def _messages(self, query: str, title: str, abstract: str) -> list[dict[str, str]]:
        return [{"role": "user", "content": selector_prompt(query, title, short_abstract(abstract))}]

    def probability(self, query: str, title: str, abstract: str, cancel: threading.Event | None = None) -> float:
        """P(True) for one <query, paper> pair."""
        scores = self.llm.choose(
            None, ["True", "False"], messages=self._messages(query, title, abstract), temperature=0.0, cancel=cancel
        )
        self.calls += 1
        return float(scores.get("True", 0.0))

    def model_rationale(
        self, query: str, title: str, abstract: str, decision: bool, cancel: threading.Event | None = None
    ) -> str:
        token = "True" if decision else "False"
        grammar = f"root ::= {gbnf_literal(token + chr(10) + 'Reason: ')} [^\\n]+\n"
        completion = self.llm.chat(
            self._messages(query, title, abstract),
            grammar=grammar,
            max_tokens=self.rationale_tokens,
            temperature=0.0,
            cancel=cancel,
        )
        self.calls += 1
        text = completion.text.split("Reason:", 1)[-1].strip()
        return text + ("…" if completion.finish_reason == "length" else "")
