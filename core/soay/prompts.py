"""What SoAy writes for training, how a fine-tuned SoAy model is prompted (SoAy Appendix B), and how the
engine asks a model to choose a plan or write a program.

``SoAyRecord`` is one SoAyBench question (one JSONL line, ``core.jsonl``). SoAyLLaMA takes the API
description and the query as input and answers with the solution, then the program; the texts
are built here so that the engine prompts a fine-tuned model exactly as ``training.soay_sft``
trained it (one user turn of the model's chat template, see ``training.sft.encode_example``).
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any, Literal

from scholar_tui.core.jsonl import FormatError, require
from scholar_tui.core.soay.plans import Plan, default_plans

if TYPE_CHECKING:  # AutoFeedback is imported only when it is switched on (open_soay)
    from scholar_tui.core.autofeedback import FeedbackRecord

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


# -- the engine: a plan chosen by letter, a program written from the plan ----------------------------
LETTERS = "ABC"

CHOICE_PREFIX = (
    "You map a user's question about scholars or papers to the request it makes.\n"
    "Reply with the letter of the matching request only.\n\n"
)


def choice_prompt(question: str, options: list[Plan]) -> str:
    lines = [f"{LETTERS[i]}) {plan.description}" for i, plan in enumerate(options)]
    return CHOICE_PREFIX + "Requests:\n" + "\n".join(lines) + f"\n\nQuestion: {question}\nRequest:"


MODEL_CODE_PREFIX = (
    "Write a short Python program that answers the question by calling these APIs. "
    "Assign the answer to `result`. No imports.\n"
)


def model_code_prompt(
    question: str, plan: Plan, api_signatures: str, entity: str, previous: "FeedbackRecord | None" = None
) -> str:
    examples = [other for other in default_plans() if other.solution == plan.solution and other.narrow == ""][:2]

    def example(other: Plan) -> str:
        entity = "Ada Lovelace" if other.start != "paper" else "On Computable Numbers"
        return (
            f"Task: {other.description}\nSolution: {' -> '.join(other.solution)}\n```python\n"
            f"{other.program_for(entity, 'Alan Turing')}\n```"
        )

    shots = "\n\n".join(example(other) for other in examples)
    retry = ""
    if previous is not None:  # AutoFeedback: the failed program and what was wrong with it
        retry = (
            f"This program failed:\n```python\n{previous.request}\n```\nFeedback: {previous.feedback}\n"
            "Corrected program:\n"
        )
    return (
        f"{MODEL_CODE_PREFIX}{api_signatures}\n\n{shots}\n\n"
        f"Question: {question}\nTask: {plan.description}\nSolution: {' -> '.join(plan.solution)}\n"
        f"# the entity to search for is {entity!r}\n{retry}```python\n"
    )
