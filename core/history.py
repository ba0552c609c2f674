"""History that lasts: each run of Paper search, Scholar Q&A and Conference QA is kept, and a kept
run is shown again as it was, without running anything.

Both front ends wrap an engine's event stream in ``remembered``: every event passes through
unchanged, and when the run's last event arrives the run is stored (``indexes/history.py``) with
its one-line summary and its result as JSON. ``*_replay`` turn a stored result back into the
engine's own events, so a pane re-renders a past run through the same code that rendered it live.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator
from dataclasses import fields
from typing import Any

from scholar_tui.config.locations import Locations
from scholar_tui.core.events import Event, FeedbackFinished, FeedbackRound
from scholar_tui.indexes.history import TABS, HistoryStore


class _Keeper:
    """Watches one run's events and says, at its end, what to store."""

    final_kind = "finished"

    def __init__(self) -> None:
        self.seen: dict[str, dict] = {}

    def watch(self, event: Event) -> str:
        """Keeps the event's JSON; returns its kind (every event's JSON names it)."""
        data = event.to_json()
        self.seen[data["kind"]] = data
        return data["kind"]

    def kept(self, event: Any) -> tuple[str, Any, bool]:
        """(summary, result, ok) of the run whose last event is ``event`` (the tab's own final event:
        PaSa's CrawlFinished, SoAy's Finished, the conference's Answered, each with its own fields)."""
        raise NotImplementedError


class _PaperSearchKeeper(_Keeper):
    def kept(self, event: Any) -> tuple[str, Any, bool]:
        return event.summary(), {"finished": event.to_json()}, bool(event.results)


class _ScholarKeeper(_Keeper):
    def kept(self, event: Any) -> tuple[str, Any, bool]:
        answer = event.answer
        summary = answer.answer if answer.ok and answer.answer else f"no answer: {answer.error or 'unknown'}"
        return summary, {"answer": answer.as_dict(), "solution": self.seen.get("solution_chosen")}, answer.ok


class _ConferenceKeeper(_Keeper):
    final_kind = "answered"

    def kept(self, event: Any) -> tuple[str, Any, bool]:
        return event.summary(), {"answered": event.to_json()}, bool(event.answer)


KEEPERS = {"paper-search": _PaperSearchKeeper, "scholar-qa": _ScholarKeeper, "conference-qa": _ConferenceKeeper}


def record(
    where: Locations, tab: str, text: str, summary: str, result: Any, context: dict | None = None, ok: bool = True
) -> int | None:
    """Keep one run; None when the database would not take it (locked, read-only): the run itself
    is not lost for that, only its place in the history."""
    try:
        store = HistoryStore(where)
    except sqlite3.Error:
        return None
    try:
        return store.add(tab, text, summary, result, context, ok)
    except sqlite3.Error:
        return None
    finally:
        store.close()


def remembered(
    where: Locations, tab: str, text: str, events: Iterable[Event], context: dict | None = None
) -> Iterator[Event]:
    """``events`` unchanged; the run is kept in the history just before its last event is handed on."""
    if tab not in TABS:
        raise ValueError(f"history is kept for {', '.join(TABS)}, not {tab!r}")
    keeper = KEEPERS[tab]()
    for event in events:
        if keeper.watch(event) == keeper.final_kind:  # kept first: whoever shows the last event finds it listed
            summary, result, ok = keeper.kept(event)
            record(where, tab, text, summary, result, context, ok)
        yield event


def entries(where: Locations, tab: str | None = None, limit: int = 100) -> list[dict]:
    store = HistoryStore(where)
    try:
        return store.entries(tab, limit)
    finally:
        store.close()


def entry(where: Locations, entry_id: int) -> dict | None:
    store = HistoryStore(where)
    try:
        return store.entry(entry_id)
    finally:
        store.close()


def inputs(where: Locations, tab: str, limit: int = 200) -> list[str]:
    """Past inputs of ``tab``, newest first (recall and suggestions); [] when the database is busy."""
    try:
        store = HistoryStore(where)
    except sqlite3.Error:
        return []
    try:
        return store.inputs(tab, limit)
    finally:
        store.close()


# -- stored results back into the engines' events ------------------------------------------------
def _build(cls, data: dict):
    """A dataclass from its ``asdict`` form, ignoring keys it does not have (a later version's)."""
    names = {field.name for field in fields(cls)}
    return cls(**{key: value for key, value in data.items() if key in names})


def paper_search_replay(result: dict):
    """The stored run's ``CrawlFinished``, its ranked papers rebuilt."""
    from scholar_tui.core.pasa.events import CrawlFinished, RankedPaper, ScoreParts

    finished = dict(result["finished"])
    finished["results"] = [
        _build(RankedPaper, {**paper, "parts": _build(ScoreParts, paper["parts"])})
        for paper in finished.get("results", [])
    ]
    return _build(CrawlFinished, finished)


def _feedback(data: dict) -> FeedbackFinished:
    rounds = [_build(FeedbackRound, item) for item in data.get("rounds", [])]
    return _build(FeedbackFinished, {**data, "rounds": rounds})


def scholar_replay(result: dict) -> list[Event]:
    """The events of a stored Scholar Q&A run, in the order the engine sent them, ending in ``Finished``."""
    from scholar_tui.core.sandbox import APICall, SandboxResult
    from scholar_tui.core.soay.engine import (
        AnswerPhrased,
        Failed,
        Finished,
        ProgramRan,
        ProgramWritten,
        SoAyAnswer,
        SolutionChosen,
    )

    answer = _build(SoAyAnswer, result["answer"])
    events: list[Event] = []
    solution = result.get("solution")
    if solution:
        solution = {**solution, "candidates": [tuple(pair) for pair in solution.get("candidates", [])]}
        events.append(_build(SolutionChosen, solution))
    if answer.program:
        events.append(ProgramWritten(answer.program, answer.code_mode or "template"))
    if answer.feedback:
        feedback = _feedback(answer.feedback)
        events += [*feedback.rounds, feedback]
    if answer.result:
        ran = dict(answer.result)
        ran["calls"] = [_build(APICall, call) for call in ran.get("calls", [])]
        events.append(ProgramRan(_build(SandboxResult, ran)))
    if answer.ok and answer.answer:
        events.append(AnswerPhrased(answer.answer, answer.value))
    else:
        events.append(Failed(answer.error_stage or "answer", answer.error or "no answer"))
    events.append(Finished(answer))
    return events


def conference_replay(result: dict):
    from scholar_tui.core.conference.events import Answered, EvidencePath

    answered = dict(result["answered"])
    answered["evidence"] = [_build(EvidencePath, item) for item in answered.get("evidence", [])]
    return _build(Answered, answered)
