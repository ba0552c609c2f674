"""SoAy: solution-based API use for scholar questions (solution library, programs, SoAyEval).

``open_soay(services, …)`` builds the engine over this installation's library; the CLI, the TUI
and the benchmarks share it and read its one stream of events, ``engine.run(question, cancel=…)``
(the shape of ``core.events``). Modules: solutions (API graph, solution library), plans (the combinations
generated from it: every output field within three hops, with descriptions and programs), narrowing
(the program lines that narrow a person's papers, added or turned round), reading (a question read
into its asked kind, start, relations and conditions), choose (the plans scored against that
reading), entities (a scholar named by a span of the question), titles (a paper named by one),
shapes (two questions in one, a comparison, yes or no about a pair, "name three"), phrasing (the
sentences: the answer of the kind asked, or what the library lacks), judge (a program's value
turned into the answer a person reads, checked against ``core.answer_kind`` and cited), refusals (what
is said instead of running a program), compound (two questions in one), events (the stream's events
and the answer), engine (the pipeline: the stages in order, the program written and run), intents
(hand-written phrasings: SoAyBench and training data), prompts (SoAyBench records, the fine-tuning
prompt, the engine's prompts to choose a plan and write a program), bench (SoAyBench and scoring),
person_bench (person-written questions: right / wrong / abstained), baseline (the step-by-step
agent), evaluate (SoAyEval).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the engine (and numpy with it) is imported when one is opened
    from scholar_tui.core.services import Services
    from scholar_tui.core.soay.engine import ChoiceMode, CodeMode, SoAyEngine


class NothingToAsk(ValueError):
    """The library has nobody to ask about; the message is ``core.readiness``'s line (what is missing
    and the next step), said before any model or sandbox starts."""


def open_soay(
    services: Services,
    *,
    backend: str = "local",
    choice_mode: ChoiceMode = "auto",
    code_mode: CodeMode = "template",
    feedback: bool | None = None,
    feedback_source: str = "soay",
) -> SoAyEngine:
    """The engine over this installation's library (``backend`` "local") or OpenAlex, with the services'
    LLM (loaded only when a stage asks for it). ``feedback``: run programs through AutoFeedback
    (default: the ``autofeedback.soay`` setting). As a context manager it closes its sandbox, its
    library connection and its feedback log. Over an empty local library it raises ``NothingToAsk``:
    the one readiness check of `ask` and the Scholar Q&A tab.
    """
    from scholar_tui.core.library.apis import APIError, local_api, openalex_api
    from scholar_tui.core.readiness import people_missing
    from scholar_tui.core.soay.engine import SoAyEngine, program_sandbox

    if backend not in ("local", "openalex"):
        raise APIError("E_BAD_ARGUMENT", f"unknown backend {backend!r}: local or openalex", parameter="backend")
    sandbox = program_sandbox(backend)
    sandbox.prestart()  # the worker starts while this process opens the library and links the question
    try:
        library = services.library()
        missing = people_missing(library) if backend == "local" else None
        if missing is not None:
            library.close()
            raise NothingToAsk(missing.summary())
        api = local_api(library) if backend == "local" else openalex_api(services.settings.network, library)
        loop = None
        if services.settings.autofeedback.soay if feedback is None else feedback:
            from scholar_tui.core.autofeedback import open_autofeedback

            loop = open_autofeedback(services, source=feedback_source)
    except BaseException:
        sandbox.close()  # a prestarted worker is never left behind
        raise
    engine = SoAyEngine(
        api,
        llm_provider=services.llm,
        sandbox=sandbox,
        backend=backend,
        choice_mode=choice_mode,
        code_mode=code_mode,
        feedback=loop,
    )
    engine.owns(library.close)
    if loop is not None:
        engine.owns(loop.close)
    return engine
