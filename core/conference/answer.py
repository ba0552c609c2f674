"""Answers from the top-k evidence paths.

The extractive answer is always the best path's leaf value. The model's answer is kept small
enough for a tiny model to get right:

* ``choose`` (the default): the model reads the question and the k numbered candidate paths and
  replies with one number, constrained by ``choices``; its answer is that path's leaf value. The
  first token's probabilities over the numbers are kept as its confidence.
* ``generate``: a short free answer (≤ 48 tokens, one line) from the same paths — for a bigger
  model; SmolLM2-135M tends to copy or ramble.
"""

from __future__ import annotations

from collections.abc import Sequence

from .events import Answered, EvidencePath

ANSWER_MODES = ("extractive", "choose", "generate")
MAX_CANDIDATE_CHARS = 220


def _short(text: str, limit: int = MAX_CANDIDATE_CHARS) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _readable(path: str) -> str:
    """A path as the model reads it: the root dropped, ' › ' between headings, the value after ':'."""
    parts = path.split("»")
    if len(parts) > 2:
        parts = parts[1:]
    return " › ".join(parts[:-1]) + ": " + parts[-1] if len(parts) > 1 else parts[0]


def choice_prompt(question: str, evidence: Sequence[EvidencePath]) -> str:
    lines = "\n".join(f"{item.rank}. {_short(_readable(item.path))}" for item in evidence)
    return (
        "Pick the line from a conference website that answers the question. Reply with its number only.\n"
        f"{lines}\nQuestion: {question}\nNumber:"
    )


def generate_prompt(question: str, evidence: Sequence[EvidencePath]) -> str:
    lines = "\n".join(f"- {_short(_readable(item.path))}" for item in evidence)
    return (
        "Answer the question from these lines of a conference website, in a few words.\n"
        f"{lines}\nQuestion: {question}\nAnswer:"
    )


def answer_from_evidence(question: str, evidence: Sequence[EvidencePath], llm=None, mode: str = "choose") -> Answered:
    if mode not in ANSWER_MODES:
        raise ValueError(f"answer mode must be one of {', '.join(ANSWER_MODES)}")
    extractive = evidence[0].value if evidence else ""
    answered = Answered(question=question, conference="", method="", evidence=list(evidence),
                        extractive=extractive, answer_mode="extractive")
    if llm is None or mode == "extractive" or not evidence:
        return answered
    if mode == "choose":
        choices = [str(item.rank) for item in evidence]
        probabilities = llm.choose(None, choices, messages=[{"role": "user", "content": choice_prompt(question, evidence)}])
        best = max(choices, key=lambda choice: probabilities.get(choice, 0.0))
        chosen = evidence[choices.index(best)]
        answered.model_answer = chosen.value
        answered.model_detail = f"{llm.model_name} chose path {best} (p={probabilities.get(best, 0.0):.2f})"
    else:
        completion = llm.complete(messages=[{"role": "user", "content": generate_prompt(question, evidence)}],
                                  max_tokens=48, temperature=0.0, stop=["\n"])
        answered.model_answer = completion.text.strip()
        answered.model_detail = f"{llm.model_name}, {completion.completion_tokens} tokens in {completion.duration_s:.1f} s"
    answered.answer_mode = mode
    return answered
