"""Training data formats shared by the engines that produce them and the scripts that train on them.

No torch here: the SoAy and PaSa engines import this module to write their JSONL, and the training
scripts import it to read it back. Each record type has ``from_dict``/``to_dict`` and the file
helpers ``read_jsonl``/``write_jsonl``. The prompt and response texts a model is trained on are built
here too, so that an engine prompts a fine-tuned model exactly as it was trained (as one user turn
of the model's chat template, see ``training.sft.encode_example``).

- SoAy (SoAyBench, one line per question): ``SoAyRecord``. SoAyLLaMA (SoAy Appendix B) takes the API
  description and the query as input and answers with the solution, then the program.
- PaSa Selector: ``SelectorRecord``. The prompt is Table 15 of the PaSa paper; the target starts with
  the decision token ``True``/``False`` and then gives the rationale (PaSa §4.3: decision first, so
  the Selector is a single-token reward model for the Crawler, Eq. 2).
- PaSa Crawler: ``CrawlerSession``, one session in the form of Table 8: a search session starts from
  the query alone (S_q), an expand session from the query and one paper (S_{q+p}); the response is
  ``[Search] q1 [Search] q2 [Stop]`` or ``[Expand] 2 Related Work [Stop]``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal, TypeVar

from .errors import FormatError

SPLITS = ("train", "test")
SESSION_KINDS = ("search", "expand")
ACTION_KINDS = ("Search", "Expand", "Stop")


def _require(data: dict[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if key not in data:
        raise FormatError(f"{where}: missing field {key!r}")
    value = data[key]
    # bool is an int subclass: a "hops": true must not pass as an int.
    if isinstance(value, bool) and bool not in (kind if isinstance(kind, tuple) else (kind,)):
        raise FormatError(f"{where}: field {key!r} must be {_kind_name(kind)}, not a boolean")
    if not isinstance(value, kind):
        raise FormatError(f"{where}: field {key!r} must be {_kind_name(kind)}, got {type(value).__name__}")
    return value


def _kind_name(kind: type | tuple[type, ...]) -> str:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return " or ".join(k.__name__ for k in kinds)


# -- records -----------------------------------------------------------------------------------
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
        solution = _require(data, "solution", list, where)
        if not solution or not all(isinstance(step, str) and step for step in solution):
            raise FormatError(f"{where}: field 'solution' must be a non-empty list of API names")
        split = _require(data, "split", str, where)
        if split not in SPLITS:
            raise FormatError(f"{where}: field 'split' must be one of {SPLITS}, got {split!r}")
        if "answer" not in data:
            raise FormatError(f"{where}: missing field 'answer'")
        return cls(
            id=str(_require(data, "id", (str, int), where)),
            question=_require(data, "question", str, where),
            solution=list(solution),
            program=_require(data, "program", str, where),
            answer=data["answer"],
            hops=_require(data, "hops", int, where),
            split=split,  # type: ignore[arg-type]
        )

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class SelectorRecord:
    """One <user query, paper> pair with the Selector's decision and rationale (PaSa Appendix B)."""

    query: str
    title: str
    abstract: str
    decision: bool
    rationale: str

    @classmethod
    def from_dict(cls, data: dict[str, Any], where: str = "record") -> "SelectorRecord":
        return cls(
            query=_require(data, "query", str, where),
            title=_require(data, "title", str, where),
            abstract=_require(data, "abstract", str, where),
            decision=_require(data, "decision", bool, where),
            rationale=_require(data, "rationale", str, where),
        )

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Paper:
    """What an expand session sees of a paper: title, abstract and its section names."""

    title: str
    abstract: str
    sections: list[str] = field(default_factory=list)

    @classmethod
    def from_dict(cls, data: dict[str, Any], where: str = "paper") -> "Paper":
        sections = data.get("sections", [])
        if not isinstance(sections, list) or not all(isinstance(name, str) for name in sections):
            raise FormatError(f"{where}: field 'sections' must be a list of strings")
        return cls(
            title=_require(data, "title", str, where),
            abstract=_require(data, "abstract", str, where),
            sections=list(sections),
        )

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class CrawlerAction:
    """One Crawler action parsed from text, with its character span in that text."""

    kind: Literal["Search", "Expand", "Stop"]
    argument: str
    start: int = 0
    end: int = 0

    def render(self) -> str:
        return f"[{self.kind}]" if self.kind == "Stop" else f"[{self.kind}] {self.argument}"


@dataclass(frozen=True)
class CrawlerSession:
    """One Crawler session trajectory (PaSa Table 8): an initial state and the actions taken."""

    query: str
    kind: Literal["search", "expand"]
    paper: Paper | None
    actions: list[str]

    @classmethod
    def from_dict(cls, data: dict[str, Any], where: str = "record") -> "CrawlerSession":
        kind = _require(data, "kind", str, where)
        if kind not in SESSION_KINDS:
            raise FormatError(f"{where}: field 'kind' must be one of {SESSION_KINDS}, got {kind!r}")
        paper_data = data.get("paper")
        if kind == "expand" and not isinstance(paper_data, dict):
            raise FormatError(f"{where}: an expand session needs a 'paper' object")
        if kind == "search" and paper_data is not None:
            raise FormatError(f"{where}: a search session starts from the query alone ('paper' must be null)")
        actions = _require(data, "actions", list, where)
        parsed = [parse_actions(action) for action in actions if isinstance(action, str)]
        if len(parsed) != len(actions) or any(len(found) != 1 for found in parsed):
            raise FormatError(f"{where}: each action must be one '[Search] …', '[Expand] …' or '[Stop]'")
        if any(found[0].kind != "Stop" and not found[0].argument for found in parsed):
            raise FormatError(f"{where}: a [Search] or [Expand] action needs its query or section name")
        kinds = [found[0].kind for found in parsed]
        allowed = "Search" if kind == "search" else "Expand"
        if not kinds or kinds[-1] != "Stop" or any(k not in (allowed, "Stop") for k in kinds) or kinds.count("Stop") != 1:
            raise FormatError(f"{where}: a {kind} session is [{allowed}] actions ending with one [Stop]")
        return cls(
            query=_require(data, "query", str, where),
            kind=kind,  # type: ignore[arg-type]
            paper=Paper.from_dict(paper_data, f"{where} paper") if paper_data is not None else None,
            actions=[found[0].render() for found in parsed],
        )

    def to_dict(self) -> dict[str, Any]:
        return {"query": self.query, "kind": self.kind,
                "paper": self.paper.to_dict() if self.paper else None, "actions": list(self.actions)}


Record = TypeVar("Record", SoAyRecord, SelectorRecord, CrawlerSession)


# -- files -------------------------------------------------------------------------------------
def iter_jsonl(path: str | Path, record_type: type[Record]) -> Iterator[Record]:
    """Records from a JSONL file, one per non-blank line; FormatError names the bad line."""
    path = Path(path)
    if not path.is_file():
        raise FormatError(f"{path}: no such file")
    with path.open(encoding="utf-8-sig") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            where = f"{path}:{number}"
            try:
                data = json.loads(line)
            except json.JSONDecodeError as error:
                raise FormatError(f"{where}: not JSON ({error.msg})") from error
            if not isinstance(data, dict):
                raise FormatError(f"{where}: each line must be a JSON object")
            yield record_type.from_dict(data, where)


def read_jsonl(path: str | Path, record_type: type[Record]) -> list[Record]:
    return list(iter_jsonl(path, record_type))


def write_jsonl(path: str | Path, records: Iterable[SoAyRecord | SelectorRecord | CrawlerSession]) -> int:
    """Write records (atomically) and return how many were written."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(path.name + ".tmp")
    count = 0
    with temporary.open("w", encoding="utf-8") as handle:
        for record in records:
            handle.write(json.dumps(record.to_dict(), ensure_ascii=False) + "\n")
            count += 1
    temporary.replace(path)
    return count


# -- SoAy: API description + query -> solution + program (SoAy Appendix B) ------------------------
def soay_prompt(question: str, api_description: str) -> str:
    return (
        f"{api_description.strip()}\n\n"
        "Answer the query with a solution (the APIs to call, in order) and a Python program that calls them.\n"
        f"Query: {question.strip()}"
    )


def soay_response(solution: list[str], program: str) -> str:
    return f"Solution: {' -> '.join(solution)}\nProgram:\n```python\n{program.strip()}\n```"


_SOAY_RESPONSE = re.compile(r"Solution:\s*(?P<solution>[^\n]*)\nProgram:\s*\n```(?:python)?\n(?P<program>.*?)(?:\n```|$)", re.S)


def parse_soay_response(text: str) -> tuple[list[str], str] | None:
    """(solution, program) from a model's answer in ``soay_response`` form; None if it is not."""
    match = _SOAY_RESPONSE.search(text)
    if match is None:
        return None
    solution = [step.strip() for step in match["solution"].split("->") if step.strip()]
    return solution, match["program"].strip()


# -- PaSa Selector (Table 15; decision token first, §4.3) ---------------------------------------
def selector_prompt(query: str, title: str, abstract: str) -> str:
    return (
        f"You are an elite researcher in the field of AI, conducting research on {query}. "
        "Evaluate whether the following paper fully satisfies the detailed requirements of the user query "
        "and provide your reasoning. Ensure that your decision and reasoning are consistent.\n\n"
        f"Searched Paper:\nTitle: {title}\nAbstract: {abstract}\n\n"
        f"User Query: {query}\n\n"
        "Output format: Decision: True/False\nReason:...\nDecision:"
    )


def selector_response(decision: bool, rationale: str) -> str:
    """The decision token comes first so that its probability alone is the reward (PaSa Eq. 2)."""
    return f"{'True' if decision else 'False'}\nReason: {rationale.strip()}"


# -- PaSa Crawler (Table 8) ----------------------------------------------------------------------
def crawler_prompt(query: str, paper: Paper | None = None) -> str:
    """The session's initial state: S_q (query only) or S_{q+p} (query and a paper)."""
    if paper is None:
        return (
            "Please, generate some mutually exclusive queries in a list to search the relevant papers "
            "according to the User Query. Searching for survey papers would be better.\n"
            f"User Query: {query}"
        )
    return (
        f"You are conducting research on '{query}'. You need to predict which sections to look at "
        "to get more relevant papers.\n"
        f"Title: {paper.title}\nAbstract: {paper.abstract}\nSections: {json.dumps(paper.sections, ensure_ascii=False)}"
    )


def crawler_response(actions: list[str]) -> str:
    return " ".join(actions)


_ACTION = re.compile(r"\[(Search|Expand|Stop)\]")


def parse_actions(text: str) -> list[CrawlerAction]:
    """The actions in a Crawler response, each with the span of its text (marker and argument).

    An action's argument runs to the next marker; ``[Stop]`` takes none. The span's end is where the
    tool can run, which is where the PPO reward of that action lands (training.crawler_ppo).
    """
    markers = list(_ACTION.finditer(text))
    actions = []
    for index, marker in enumerate(markers):
        kind = marker.group(1)
        if kind == "Stop":
            actions.append(CrawlerAction("Stop", "", marker.start(), marker.end()))
            continue
        stop = markers[index + 1].start() if index + 1 < len(markers) else len(text)
        raw = text[marker.end():stop]
        argument = raw.strip()
        end = marker.end() + len(raw.rstrip())
        actions.append(CrawlerAction(kind, argument, marker.start(), end))  # type: ignore[arg-type]
    return actions
