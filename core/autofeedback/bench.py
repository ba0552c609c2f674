"""``scholar-tui bench feedback``: AutoFeedback's accuracy in the shape of the paper's Tables 3–4.

Cases are single-API instructions over this installation's library, each with a gold request
(§4.1.3: a request is accurate when it "meets user requirements" — here, when it names the gold
API and its response equals the gold request's response on the local backend). Two kinds:

* seeded — the first request carries an error of one sub-type (E1 … E4.other), made from the gold
  request by a rule over the specs; the model rewrites it after feedback;
* model — the default model writes the first request itself (under the request grammar).

Every case runs under four methods: no feedback (limits 0/0), static only (3/0), dynamic only
(0/2) and both (3/2). The model is greedy, so a generation for the same prompt is computed once
and reused across methods (its tokens still count for each method that uses it).

What is reported: accuracy per method (Table 3); the error-type distribution of the first requests
and of each method's final requests (Table 4: E1–E4 by comparison with the gold request, in the
paper's order E1 → E2 → E3 → E4); how often SSC/DAC name the seeded sub-type; tokens and time.
"""

from __future__ import annotations

import json
import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from scholar_tui.core.autofeedback.dynamic import is_empty, send_request
from scholar_tui.core.autofeedback.loop import FeedbackLimits, FeedbackLoop, Generation
from scholar_tui.core.autofeedback.request_parser import RequestSyntaxError, format_request, parse_request
from scholar_tui.core.autofeedback.retriever import name_words
from scholar_tui.core.library.apis import SPECS

METHODS: dict[str, FeedbackLimits] = {
    "no feedback": FeedbackLimits(0, 0),
    "static": FeedbackLimits(3, 0),
    "dynamic": FeedbackLimits(0, 2),
    "static+dynamic": FeedbackLimits(3, 2),
}

TEMPLATES: dict[str, tuple[str, tuple[str, ...]]] = {
    "searchPerson": ("name", ("Find the scholar named {value}.", "Search for researchers called {value}.")),
    "searchPublication": (
        "publication_info",
        ('Find the paper titled "{value}".', 'Search for the publication "{value}".'),
    ),
    "getCoauthors": (
        "person_id",
        ("Who are the coauthors of the scholar {value}?", "List the collaborators of scholar {value}."),
    ),
    "getPersonInterest": (
        "person_id",
        (
            "What are the research interests of the scholar {value}?",
            "Which research fields does scholar {value} work on?",
        ),
    ),
    "getPublication": (
        "pub_id",
        ("Give the abstract, venue and authors of the publication {value}.", "Show the details of paper {value}."),
    ),
    "getPersonBasicInfo": (
        "person_id",
        (
            "Show the profile (organization, position, email) of scholar {value}.",
            "Give basic information about the scholar {value}.",
        ),
    ),
    "getPersonPubs": (
        "person_id",
        ("List the publications of scholar {value}.", "Which papers did scholar {value} write?"),
    ),
}

# E2.3 / E3.3 seeds: made-up names that mean what a documented one means.
SYNONYM_APIS = {
    "searchPerson": ("searchAuthor", "findScholar"),
    "searchPublication": ("searchPaper", "findPublication"),
    "getCoauthors": ("fetch_coauthors", "getCollaborators"),
    "getPersonInterest": ("getResearchInterests", "getAuthorInterests"),
    "getPublication": ("getPaperDetails", "fetchPublication"),
    "getPersonBasicInfo": ("getAuthorInfo", "getScholarProfile"),
    "getPersonPubs": ("getPersonPapers", "getAuthorPublications"),
}
SYNONYM_PARAMETERS = {
    "person_id": ("author_id", "scholar_id"),
    "pub_id": ("paper_id", "publication_id"),
    "publication_info": ("publication", "paper_title"),
    "name": ("full_name", "author_name"),
}
OTHER_PARAMETER = {"person_id": "pub_id", "pub_id": "person_id", "publication_info": "name", "name": "publication_info"}
UNRELATED_APIS = ("weatherForecast", "translateText", "sendEmail")
UNRELATED_PARAMETERS = ("color", "xyz", "foo")
EMPTY_VALUES = {
    "person_id": "person:99999",
    "pub_id": "paper:99999",
    "name": "Zyxw Qwertyuiop",
    "publication_info": "Qwertyuiop zyxw flux capacitor kumquat",
}


class BenchError(Exception):
    """The benchmark cannot run (an empty library); one line for the user."""


@dataclass
class Task:
    api: str
    parameter: str
    value: str
    instruction: str

    @property
    def gold(self) -> str:
        return format_request(self.api, {self.parameter: self.value})


@dataclass
class Case:
    id: str
    task: Task
    origin: str  # "seeded" | "model"
    seeded: str | None = None
    seeded_type: str | None = None


# -- cases -------------------------------------------------------------------------------------------
def make_tasks(api, library, per_api: int = 2, seed: int = 0) -> list[Task]:
    """Instructions over the library whose gold request answers (no error, not empty)."""
    rng = random.Random(seed)
    people = sorted({row["person_id"]: row["name"] for row in library.people_names()}.items())
    papers = [(paper["id"], paper["title"]) for paper in library.all_papers()]
    if not people or not papers:
        raise BenchError("the library is empty: import papers first (scholar-tui import unarxive FILE)")
    rng.shuffle(people)
    rng.shuffle(papers)
    values = {
        "name": [name for _, name in people],
        "person_id": [f"person:{pid}" for pid, _ in people],
        "publication_info": [title for _, title in papers],
        "pub_id": [f"paper:{pid}" for pid, _ in papers],
    }
    tasks: list[Task] = []
    for api_name, (parameter, templates) in TEMPLATES.items():
        chosen = 0
        for value in values[parameter]:
            if chosen >= per_api:
                break
            call = send_request(api, format_request(api_name, {parameter: value}))
            if not call.ok or is_empty(call.result):
                continue
            tasks.append(Task(api_name, parameter, value, templates[chosen % len(templates)].format(value=value)))
            chosen += 1
    return tasks


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.title() for part in rest)


def seed_error(sub_type: str, task: Task, variant: int) -> str:
    """The gold request of ``task`` with an error of ``sub_type`` put in (variant picks among rules)."""
    api, parameter, value = task.api, task.parameter, task.value
    names = list(SPECS)
    if sub_type == "E1":
        call = format_request(api, {parameter: value}, tags=False)
        return [call, f"<<API>>{api}({parameter}={value})<</API>>", f"I would use {api} for this."][variant % 3]
    if sub_type == "E2.1":
        return format_request(names[(names.index(api) + 1 + variant) % len(names)], {parameter: value})
    if sub_type == "E2.2":
        words = name_words(api).split()
        styles = ["_".join(words), "".join(word.title() for word in words), api.lower()]
        return format_request(styles[variant % 3], {parameter: value})
    if sub_type == "E2.3":
        return format_request(SYNONYM_APIS[api][variant % 2], {parameter: value})
    if sub_type == "E2.other":
        return format_request(UNRELATED_APIS[variant % 3], {parameter: value})
    if sub_type == "E3.1":
        return format_request(api, {OTHER_PARAMETER[parameter]: value})
    if sub_type == "E3.2":
        styles = [_camel(parameter), parameter.upper(), _camel(parameter)[0].upper() + _camel(parameter)[1:]]
        return format_request(api, {styles[variant % 3]: value})
    if sub_type == "E3.3":
        return format_request(api, {SYNONYM_PARAMETERS[parameter][variant % 2]: value})
    if sub_type == "E3.other":
        return format_request(api, {UNRELATED_PARAMETERS[variant % 3]: value})
    if sub_type == "E4.1":
        digits = "".join(ch for ch in value if ch.isdigit())
        wrong: Any = int(digits) if digits and variant % 2 == 0 else [value]
        return format_request(api, {parameter: wrong})
    if sub_type == "E4.other":
        return format_request(api, {parameter: EMPTY_VALUES[parameter]})
    raise ValueError(sub_type)


SEEDED_TYPES = ("E1", "E2.1", "E2.2", "E2.3", "E2.other", "E3.1", "E3.2", "E3.3", "E3.other", "E4.1", "E4.other")


def make_cases(
    tasks: list[Task], per_type: int = 2, per_api_model: int | None = None, sub_types: tuple[str, ...] = SEEDED_TYPES
) -> list[Case]:
    cases: list[Case] = []
    cursor = 0
    for sub_type in sub_types:
        for variant in range(per_type):
            task = tasks[cursor % len(tasks)]
            cursor += 1
            cases.append(
                Case(f"{sub_type}#{variant + 1}", task, "seeded", seed_error(sub_type, task, variant), sub_type)
            )
    by_api: Counter = Counter()
    for task in tasks:
        if per_api_model is not None and by_api[task.api] >= per_api_model:
            continue
        by_api[task.api] += 1
        cases.append(Case(f"model:{task.api}#{by_api[task.api]}", task, "model"))
    return cases


# -- judging -----------------------------------------------------------------------------------------
def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=str)


class Judge:
    """Runs requests once each on the local backend and compares them with the gold request."""

    def __init__(self, api) -> None:
        self.api = api
        self._calls: dict[str, Any] = {}

    def execute(self, text: str):
        if text not in self._calls:
            self._calls[text] = send_request(self.api, text)
        return self._calls[text]

    def error_class(self, text: str | None, task: Task) -> str | None:
        """E1–E4 against the gold request, in the paper's order (§2.2); None when it is accurate."""
        if not text:
            return "E1"
        try:
            request = parse_request(text)
        except RequestSyntaxError:
            return "E1"
        if request.api != task.api:
            return "E2"
        documented = {p.name for p in SPECS[task.api].parameters}
        if any(name not in documented for name in request.keywords):
            return "E3"
        got, gold = self.execute(text), self.execute(task.gold)
        if not got.ok or _canonical(got.result) != _canonical(gold.result):
            return "E4"
        return None


# -- running -------------------------------------------------------------------------------------------
@dataclass
class Outcome:
    case: Case
    method: str
    status: str
    first_request: str
    final_request: str
    correct: bool
    first_class: str | None
    final_class: str | None
    first_detected: str | None
    final_detected: str | None
    rounds: int
    generations: int
    tokens: int
    seconds: float


@dataclass
class BenchReport:
    model: str
    embedder: str
    cases: int
    seeded: int
    from_model: int
    outcomes: list[Outcome] = field(default_factory=list)
    retriever_hits: int = 0
    """Instructions whose relevant set R (the retriever's top-1) holds the gold API."""
    instructions: int = 0
    generations_run: int = 0
    generation_s: float = 0.0
    total_s: float = 0.0

    def method_rows(self) -> list[dict]:
        rows = []
        for method in METHODS:
            chosen = [o for o in self.outcomes if o.method == method]
            n = len(chosen) or 1
            classes = Counter(o.final_class for o in chosen)
            rows.append(
                {
                    "method": method,
                    "accuracy": 100 * sum(o.correct for o in chosen) / n,
                    "accuracy_seeded": _rate([o.correct for o in chosen if o.case.origin == "seeded"]),
                    "accuracy_model": _rate([o.correct for o in chosen if o.case.origin == "model"]),
                    **{kind: 100 * classes[kind] / n for kind in ("E1", "E2", "E3", "E4")},
                    "avg_tokens": sum(o.tokens for o in chosen) / n,
                    "avg_generations": sum(o.generations for o in chosen) / n,
                    "limit_hit": sum(o.status == "limit_hit" for o in chosen),
                    "seconds": sum(o.seconds for o in chosen),
                }
            )
        return rows

    def before_row(self) -> dict:
        chosen = [o for o in self.outcomes if o.method == "no feedback"]
        n = len(chosen) or 1
        classes = Counter(o.first_class for o in chosen)
        return {
            "accuracy": 100 * classes[None] / n,
            **{kind: 100 * classes[kind] / n for kind in ("E1", "E2", "E3", "E4")},
        }

    def detection_rows(self) -> list[dict]:
        """For seeded cases: the sub-type SSC (or DAC, for E4.other) named for the seeded request."""
        rows = []
        seeded = [o for o in self.outcomes if o.method == "static+dynamic" and o.case.origin == "seeded"]
        for sub_type in SEEDED_TYPES:
            chosen = [o for o in seeded if o.case.seeded_type == sub_type]
            if chosen:
                named = Counter(o.first_detected or "none" for o in chosen)
                rows.append(
                    {
                        "seeded": sub_type,
                        "n": len(chosen),
                        "detected": named[sub_type],
                        "named": dict(named),
                        "fixed": sum(o.correct for o in chosen),
                    }
                )
        return rows

    def sub_type_distribution(self, method: str = "static+dynamic") -> dict[str, dict[str, int]]:
        chosen = [o for o in self.outcomes if o.method == method]
        return {
            "before": dict(Counter(o.first_detected or "none" for o in chosen)),
            "after": dict(Counter(o.final_detected or "none" for o in chosen)),
        }

    def as_dict(self) -> dict:
        return {
            "model": self.model,
            "embedder": self.embedder,
            "cases": self.cases,
            "seeded": self.seeded,
            "from_model": self.from_model,
            "methods": self.method_rows(),
            "before": self.before_row(),
            "detection": self.detection_rows(),
            "sub_types": self.sub_type_distribution(),
            "retriever_top1": {"hits": self.retriever_hits, "instructions": self.instructions},
            "generations_run": self.generations_run,
            "generation_s": round(self.generation_s, 2),
            "total_s": round(self.total_s, 2),
            "outcomes": [
                {
                    "case": o.case.id,
                    "origin": o.case.origin,
                    "method": o.method,
                    "status": o.status,
                    "instruction": o.case.task.instruction,
                    "gold": o.case.task.gold,
                    "first": o.first_request,
                    "final": o.final_request,
                    "correct": o.correct,
                    "first_class": o.first_class,
                    "final_class": o.final_class,
                    "first_detected": o.first_detected,
                    "final_detected": o.final_detected,
                    "generations": o.generations,
                    "tokens": o.tokens,
                }
                for o in self.outcomes
            ],
        }


def _rate(values: list[bool]) -> float | None:
    return 100 * sum(values) / len(values) if values else None


class MemoGenerator:
    """The model's request for (instruction, feedback so far), generated once (greedy decoding)."""

    def __init__(self, generator) -> None:
        self.generator = generator
        self.memo: dict[tuple, Generation] = {}
        self.runs = 0
        self.seconds = 0.0

    def for_case(self, case: Case, counter: list[int]):
        def generate(history):
            if not history and case.seeded is not None:
                return Generation(text=case.seeded, prompt_tokens=0, completion_tokens=0)
            key = (case.task.instruction, case.seeded, tuple((r.kind, r.request, r.feedback) for r in history))
            if key not in self.memo:
                started = time.perf_counter()
                self.memo[key] = self.generator.generate(case.task.instruction, history)
                self.seconds += time.perf_counter() - started
                self.runs += 1
            counter[0] += 1
            return self.memo[key]

        return generate


def run_bench(
    feedback,
    generator,
    api,
    cases: list[Case],
    *,
    log=None,
    progress: Callable[[int, int, str], None] | None = None,
    model_name: str = "",
    embedder_name: str = "",
) -> BenchReport:
    started = time.perf_counter()
    judge = Judge(api)
    memo = MemoGenerator(generator)
    report = BenchReport(
        model_name,
        embedder_name,
        len(cases),
        sum(c.origin == "seeded" for c in cases),
        sum(c.origin == "model" for c in cases),
    )
    total = len(cases) * len(METHODS)
    done = 0
    for case in cases:
        for method, limits in METHODS.items():
            counter = [0]
            loop = FeedbackLoop(feedback, limits, log=log, source="bench")
            case_started = time.perf_counter()
            result = loop.run(case.task.instruction, memo.for_case(case, counter), judge.execute)
            first, final = result.rounds[0], result.rounds[-1]
            final_class = judge.error_class(final.request, case.task)
            correct = final.kind == "dynamic" and final_class is None  # an E1 never reached the server
            report.outcomes.append(
                Outcome(
                    case,
                    method,
                    result.status,
                    first.request,
                    final.request,
                    correct,
                    judge.error_class(first.request, case.task),
                    None if correct else (final_class or "E1"),
                    _detected(first),
                    _detected(final),
                    len(result.rounds),
                    counter[0],
                    result.tokens,
                    time.perf_counter() - case_started,
                )
            )
            done += 1
            if progress is not None:
                progress(done, total, f"{case.id} / {method}: {'ok' if correct else final_class}")
    tasks = {case.task.instruction: case.task for case in cases}
    report.instructions = len(tasks)
    report.retriever_hits = sum(feedback.retriever.relevant(text)[0] == task.api for text, task in tasks.items())
    report.generations_run = memo.runs
    report.generation_s = memo.seconds
    report.total_s = time.perf_counter() - started
    return report


def _detected(round_) -> str | None:
    """What AutoFeedback named for a round: SSC's sub-type, else E4.other for a bad response."""
    if round_.finding is not None:
        return round_.finding.sub_type
    if round_.observation is not None and not round_.observation.satisfied:
        return "E4.other"
    return None
