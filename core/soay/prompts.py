"""What SoAy writes for training and how a fine-tuned SoAy model is prompted (SoAy Appendix B).

``SoAyRecord`` is one SoAyBench question (one JSONL line, ``core.jsonl``). SoAyLLaMA takes the API
description and the query as input and answers with the solution, then the program; the texts
are built here so that the engine prompts a fine-tuned model exactly as ``training.soay_sft``
trained it (one user turn of the model's chat template, see ``training.sft.encode_example``).
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from typing import Any, Literal

from scholar_tui.core.jsonl import FormatError, require

SPLITS = ("train", "test")


@dataclass(frozen=True)
class SoAyRecord:
    """One SoAyBench question: the solution (API sequence) and the program that answers it."""

    id: str
    question: str
    solution: list[str]
    program: str
    answer: Any
    hops: int
    split: Literal["train", "test"]

    @classmethod
    def from_dict(cls, data: dict[str, Any], where: str = "record") -> "SoAyRecord":
        solution = require(data, "solution", list, where)
        if not solution or not all(isinstance(step, str) and step for step in solution):
            raise FormatError(f"{where}: field 'solution' must be a non-empty list of API names")
        split = require(data, "split", str, where)
        if split not in SPLITS:
            raise FormatError(f"{where}: field 'split' must be one of {SPLITS}, got {split!r}")
        if "answer" not in data:
            raise FormatError(f"{where}: missing field 'answer'")
        return cls(
            id=str(require(data, "id", (str, int), where)),
            question=require(data, "question", str, where),
            solution=list(solution),
            program=require(data, "program", str, where),
            answer=data["answer"],
            hops=require(data, "hops", int, where),
            split=split,
        )

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


# -- SoAy: API description + query -> solution + program (SoAy Appendix B) ------------------------
def soay_prompt(question: str, api_description: str) -> str:
    return (
        f"{api_description.strip()}\n\n"
        "Answer the query with a solution (the APIs to call, in order) and a Python program that calls them.\n"
        f"Query: {question.strip()}"
    )


def soay_response(solution: list[str], program: str) -> str:
    return f"Solution: {' -> '.join(solution)}\nProgram:\n```python\n{program.strip()}\n```"


_SOAY_RESPONSE = re.compile(
    r"Solution:\s*(?P<solution>[^\n]*)\nProgram:\s*\n```(?:python)?\n(?P<program>.*?)(?:\n```|$)", re.S
)


def parse_soay_response(text: str) -> tuple[list[str], str] | None:
    """(solution, program) from a model's answer in ``soay_response`` form; None if it is not."""
    match = _SOAY_RESPONSE.search(text)
    if match is None:
        return None
    solution = [step.strip() for step in match["solution"].split("->") if step.strip()]
    return solution, match["program"].strip()
