"""Questions written by a person, scored as a person reads the answers: right, wrong or abstained.

SoAyBench is generated from the same phrasings SoAy was built with, so it cannot see a question
answered with a value of another kind. A person-written set can: each line is
``{"id", "question", "expected": [values] | "abstain", "note"}``. An answer is

- right: it holds every expected value (in its text or its value; a text value may list accepted
  spellings separated by "|", as the conference and paper-search sets do), or it abstains where the
  library has nothing to say (``expected: "abstain"``);
- abstained: the plain sentence that the library lacks it (``core.answer_kind.is_abstain``), or the
  one line that the library names no such scholar or paper, where a value was expected;
- wrong: anything else — a value that is not the expected one, a failure, a value where the
  library has nothing.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from scholar_tui.core.answer_kind import is_abstain
from scholar_tui.core.jsonl import FormatError, require

ABSTAIN = "abstain"


@dataclass(frozen=True)
class PersonQuestion:
    id: str
    question: str
    expected: list[Any] | str  # the values a right answer holds, or "abstain"
    note: str = ""

    @classmethod
    def from_dict(cls, data: dict[str, Any], where: str = "record") -> "PersonQuestion":
        expected = data.get("expected")
        if expected != ABSTAIN and not (isinstance(expected, list) and expected):
            raise FormatError(f"{where}: 'expected' must be a non-empty list of values or \"abstain\"")
        return cls(
            str(require(data, "id", (str, int), where)),
            require(data, "question", str, where),
            expected,
            str(data.get("note", "")),
        )


def _fold(text: Any) -> str:
    text = unicodedata.normalize("NFKD", str(text))
    text = "".join(char for char in text if not unicodedata.combining(char)).lower()
    return re.sub(r"[\s\-‐–]+", " ", text).strip()


def _flatten(value: Any) -> list[Any]:
    if isinstance(value, (list, tuple, set)):
        return [leaf for item in value for leaf in _flatten(item)]
    return [value]


def holds(expected: Any, text: str | None, value: Any) -> bool:
    """Whether an answer holds one expected value: a number equal to the value (or a whole word of the
    text), a string inside the text or one of the value's items (case, accents and dashes folded)."""
    leaves = _flatten(value)
    if isinstance(expected, (int, float)) and not isinstance(expected, bool):
        if any(isinstance(v, (int, float)) and not isinstance(v, bool) and v == expected for v in leaves):
            return True
        return text is not None and re.search(rf"(?<![\d.]){re.escape(str(expected))}(?![\d])", text) is not None
    said = [_fold(v) for v in (text, *leaves) if v is not None]
    return any(wanted in where for wanted in map(_fold, str(expected).split("|")) if wanted for where in said)


@dataclass
class PersonOutcome:
    id: str
    question: str
    expected: Any
    verdict: str  # "right" | "wrong" | "abstained"
    answer: str

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "question": self.question,
            "expected": self.expected,
            "verdict": self.verdict,
            "answer": self.answer,
        }


@dataclass
class PersonReport:
    name: str
    outcomes: list[PersonOutcome] = field(default_factory=list)

    def count(self, verdict: str) -> int:
        return sum(outcome.verdict == verdict for outcome in self.outcomes)

    def percent(self, verdict: str) -> float:
        return 100.0 * self.count(verdict) / len(self.outcomes) if self.outcomes else 0.0

    def as_dict(self) -> dict[str, Any]:
        return {
            "set": self.name,
            "questions": len(self.outcomes),
            **{verdict: self.count(verdict) for verdict in ("right", "wrong", "abstained")},
            **{f"{verdict}_percent": round(self.percent(verdict), 1) for verdict in ("right", "wrong", "abstained")},
            "correct_abstentions": sum(o.verdict == "right" and o.expected == ABSTAIN for o in self.outcomes),
            "wrong_answers": [o.as_dict() for o in self.outcomes if o.verdict == "wrong"],
        }


def verdict(question: PersonQuestion, answer) -> tuple[str, str]:
    """(verdict, what the person saw) for one engine answer (a ``SoAyAnswer``)."""
    said_missing = answer.ok and (answer.abstained or is_abstain(answer.answer))
    not_in_library = not answer.ok and answer.error_stage == "entity"
    shown = answer.answer if answer.ok else f"[{answer.error_stage}] {answer.error}"
    if question.expected == ABSTAIN:
        return ("right" if said_missing or not_in_library else "wrong"), shown
    if said_missing or not_in_library:
        return "abstained", shown
    if answer.ok and all(holds(value, answer.answer, answer.value) for value in question.expected):
        return "right", shown
    return "wrong", shown


def run_person_set(
    name: str,
    questions: Iterable[PersonQuestion],
    ask: Callable[[str], Any],
    progress: Callable[[int], None] | None = None,
) -> PersonReport:
    report = PersonReport(name)
    for number, question in enumerate(questions, start=1):
        judged, shown = verdict(question, ask(question.question))
        report.outcomes.append(PersonOutcome(question.id, question.question, question.expected, judged, shown))
        if progress:
            progress(number)
    return report


def default_person_set() -> Path | None:
    """The development set shipped with the sources (tests/data), when they are there."""
    path = Path(__file__).resolve().parents[2] / "tests" / "data" / "soay-person-dev.jsonl"
    return path if path.is_file() else None
