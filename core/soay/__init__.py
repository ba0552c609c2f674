"""SoAy: solution-based API use for scholar questions (solution library, programs, SoAyEval).

``open_soay`` builds the engine over this installation's library; the CLI, the TUI and the
benchmarks share it and read its one stream of events, ``engine.run(question)`` (the shape of
``core.events``). Modules: solutions (API graph, solution library), plans (the combinations
generated from it: every output field within three hops, with descriptions and programs), choose
(a question's asked kind, start and relations pick a plan), entities (linking the question's
spans), engine (the pipeline as events; answers checked against ``core.answer_kind``), intents
(hand-written phrasings: SoAyBench and training data), prompts (SoAyBench records, the fine-tuning prompt), bench (SoAyBench and scoring),
person_bench (person-written questions: right / wrong / abstained), baseline (the step-by-step
agent), evaluate (SoAyEval).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the engine (and numpy with it) is imported when one is opened
    from scholar_tui.core.soay.engine import ChoiceMode, CodeMode


def open_soay(
    where,
    settings,
    *,
    embedder,
    llm_provider: Callable[[], Any] | None = None,
    backend: str = "local",
    choice_mode: ChoiceMode = "auto",
    code_mode: CodeMode = "template",
    feedback: bool | None = None,
    feedback_source: str = "soay",
):
    """``feedback``: run programs through AutoFeedback (default: the ``autofeedback.soay`` setting)."""
    from scholar_tui.core.library.apis import open_api
    from scholar_tui.core.soay.engine import SoAyEngine

    loop = None
    if settings.autofeedback.soay if feedback is None else feedback:
        from scholar_tui.core.autofeedback import open_autofeedback

        loop = open_autofeedback(where, settings, embedder, source=feedback_source)
    return SoAyEngine(
        open_api(where, settings, backend),
        llm_provider=llm_provider,
        backend=backend,
        choice_mode=choice_mode,
        code_mode=code_mode,
        feedback=loop,
    )
