"""What PaSa writes for training and how its Crawler and Selector are prompted (PaSa Tables 8, 15).

- Selector: ``SelectorRecord``, one <user query, paper> pair. The prompt is Table 15 of the PaSa
  paper; the target starts with the decision token ``True``/``False`` and then gives the
  rationale (PaSa §4.3: decision first, so the Selector is a single-token reward model for the
  Crawler, Eq. 2).
- Crawler: ``CrawlerSession``, one session in the form of Table 8: a search session starts from
  the query alone (S_q), an expand session from the query and one paper (S_{q+p}); the response
  is ``[Search] q1 [Search] q2 [Stop]`` or ``[Expand] 2 Related Work [Stop]``.

The engine prompts with these texts and the training scripts (``training.selector_sft``,
``training.crawler_il``, ``training.crawler_ppo``) train on them, so a fine-tuned model is asked
exactly as it was trained. Records are JSON lines (``core.jsonl``).
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from scholar_tui.core.jsonl import FormatError, require

SESSION_KINDS = ("search", "expand")
ACTION_KINDS = ("Search", "Expand", "Stop")


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
            query=require(data, "query", str, where),
            title=require(data, "title", str, where),
            abstract=require(data, "abstract", str, where),
            decision=require(data, "decision", bool, where),
            rationale=require(data, "rationale", str, where),
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
            title=require(data, "title", str, where),
            abstract=require(data, "abstract", str, where),
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
        kind = require(data, "kind", str, where)
        if kind not in SESSION_KINDS:
            raise FormatError(f"{where}: field 'kind' must be one of {SESSION_KINDS}, got {kind!r}")
        paper_data = data.get("paper")
        if kind == "expand" and not isinstance(paper_data, dict):
            raise FormatError(f"{where}: an expand session needs a 'paper' object")
        if kind == "search" and paper_data is not None:
            raise FormatError(f"{where}: a search session starts from the query alone ('paper' must be null)")
        actions = require(data, "actions", list, where)
        parsed = [parse_actions(action) for action in actions if isinstance(action, str)]
        if len(parsed) != len(actions) or any(len(found) != 1 for found in parsed):
            raise FormatError(f"{where}: each action must be one '[Search] …', '[Expand] …' or '[Stop]'")
        if any(found[0].kind != "Stop" and not found[0].argument for found in parsed):
            raise FormatError(f"{where}: a [Search] or [Expand] action needs its query or section name")
        kinds = [found[0].kind for found in parsed]
        allowed = "Search" if kind == "search" else "Expand"
        if (
            not kinds
            or kinds[-1] != "Stop"
            or any(k not in (allowed, "Stop") for k in kinds)
            or kinds.count("Stop") != 1
        ):
            raise FormatError(f"{where}: a {kind} session is [{allowed}] actions ending with one [Stop]")
        return cls(
            query=require(data, "query", str, where),
            kind=kind,
            paper=Paper.from_dict(paper_data, f"{where} paper") if paper_data is not None else None,
            actions=[found[0].render() for found in parsed],
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "query": self.query,
            "kind": self.kind,
            "paper": self.paper.to_dict() if self.paper else None,
            "actions": list(self.actions),
        }


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
        raw = text[marker.end() : stop]
        argument = raw.strip()
        end = marker.end() + len(raw.rstrip())
        actions.append(CrawlerAction(kind, argument, marker.start(), end))  # type: ignore[arg-type]
    return actions
