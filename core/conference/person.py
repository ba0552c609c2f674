"""A person's attendee questions with the values they expect: right, wrong or abstained.

The ConferenceQA question files are generated from templates; what an attendee types is not. A
person-written set (JSON lines ``{"question", "expect", "held_out"}``) says what a right answer
holds: ``expect`` lists the values an answer must contain (each may give spellings separated by
"|", "Jul 23|July 23"), or is null when the site data does not hold the answer, where the right
answer is the plain abstain sentence (``core.answer_kind.is_abstain``). A quarter of each set is
held out (``held_out``) and run once, at the end. Matching ignores case, spaces and punctuation.
Other fields are notes for people (``by``: who wrote the row; ``note``: why an expectation reads so).
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path

from scholar_tui.core.answer_kind import is_abstain
from scholar_tui.core.conference.tree import ConferenceError

PARTS = ("dev", "held-out", "all")


@dataclass
class PersonQuestion:
    question: str
    expect: list[str] | None  # None: the data does not hold it, the abstain sentence is right
    held_out: bool


@dataclass
class PersonVerdict:
    question: str
    expect: list[str] | None
    held_out: bool
    answer: str
    verdict: str  # "right" | "wrong" | "abstained"
    cited: list[str] = field(default_factory=list)


@dataclass
class PersonScores:
    part: str
    right: int
    wrong: int
    abstained: int
    verdicts: list[PersonVerdict]

    @property
    def total(self) -> int:
        return self.right + self.wrong + self.abstained

    def line(self) -> str:
        share = (lambda n: f"{100 * n / self.total:.0f} %") if self.total else (lambda n: "-")
        return (
            f"person-written ({self.part}, {self.total} questions): right {self.right} ({share(self.right)}) · "
            f"wrong {self.wrong} ({share(self.wrong)}) · abstained {self.abstained} ({share(self.abstained)})"
        )

    def as_dict(self) -> dict:
        return {**asdict(self), "total": self.total}


def read_person_set(path: Path, part: str = "dev") -> list[PersonQuestion]:
    """The questions of ``part`` (dev, held-out or all) in a person-written set; a bad line is one error."""
    if part not in PARTS:
        raise ConferenceError(f"part must be one of {', '.join(PARTS)}")
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except OSError as error:
        raise ConferenceError(f"{path}: cannot read ({error.strerror})") from error
    questions = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
            item = PersonQuestion(
                str(record["question"]),
                None if record["expect"] is None else [str(value) for value in record["expect"]],
                bool(record.get("held_out")),
            )
        except (ValueError, KeyError, TypeError) as error:
            raise ConferenceError(
                f"{Path(path).name} line {number}: not a person-written question ({error})"
            ) from error
        if part == "all" or item.held_out == (part == "held-out"):
            questions.append(item)
    return questions


def _plain(text: str) -> str:
    return re.sub(r"[^0-9a-z$@]+", "", text.lower())


def holds(answer: str, expected: str) -> bool:
    """Whether ``answer`` contains one of the spellings of ``expected`` ("Jul 23|July 23")."""
    plain = _plain(answer)
    return any(_plain(option) and _plain(option) in plain for option in expected.split("|"))


VERDICTS = frozenset({"yes", "no"})
LEADING_VERDICT = re.compile(r"\s*(yes|no)\b", re.IGNORECASE)


def _verdict_only(expect: list[str]) -> bool:
    """Whether the expected values are a bare Yes or No (each spelling of each value)."""
    return all({option.strip().lower() for option in value.split("|")} <= VERDICTS for value in expect)


def verdict(item: PersonQuestion, answer: str) -> str:
    """right: holds every expected value (or abstains when nothing is expected); abstained: the plain
    sentence although the data holds the answer; wrong: anything else (a value of the wrong thing).

    A Yes or No is read from the answer's first word: "Yes, overnight parking is not allowed." does not
    hold "No" because its "not" does."""
    if is_abstain(answer):
        return "right" if item.expect is None else "abstained"
    if item.expect is None:
        return "wrong"
    if _verdict_only(item.expect):
        said = LEADING_VERDICT.match(answer)
        wanted = {option.strip().lower() for value in item.expect for option in value.split("|")}
        return "right" if said and said.group(1).lower() in wanted else "wrong"
    said = LEADING_VERDICT.match(answer)
    verdicts = [value for value in item.expect if _verdict_only([value])]
    if verdicts and not (said and all(said.group(1).lower() in value.lower().split("|") for value in verdicts)):
        return "wrong"  # ["No", "not anonymous"]: the verdict first, then the sentence that decides it
    return "right" if all(holds(answer, value) for value in item.expect if value not in verdicts) else "wrong"


def score(part: str, verdicts: list[PersonVerdict]) -> PersonScores:
    counts = {name: sum(item.verdict == name for item in verdicts) for name in ("right", "wrong", "abstained")}
    return PersonScores(part, counts["right"], counts["wrong"], counts["abstained"], verdicts)
