"""The Crawler agent: one constrained generation per session (PaSa §4.2, Table 8).

The prompt is the session's initial state exactly as the Crawler is trained on it
(``core.pasa.prompts.crawler_prompt``: S_q or S_q+p, sent as one user turn of the model's chat
template), so a Crawler fine-tuned with ``scholar-tui train crawler-il``/``crawler-ppo`` and
exported to GGUF runs here unchanged. The response is generated greedily under the session's
grammar (``actions``), then validated once more.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

from scholar_tui.core.pasa.actions import CheckedActions, expand_grammar, search_grammar, validate
from scholar_tui.core.pasa.prompts import CrawlerSession, Paper, crawler_prompt
from scholar_tui.models.base import LLM

MAX_SECTIONS_SHOWN = 40
MAX_ABSTRACT_WORDS = 120
# Small bundled models pick [Search] queries from a list; bigger ones write them.
TINY_MODEL_MARKERS = ("smollm2-135m", "135m", "360m")


def resolve_query_mode(requested: str, model_name: str) -> str:
    """'candidates' or 'free'; 'auto' picks candidates for a tiny model."""
    if requested in ("candidates", "free"):
        return requested
    if requested != "auto":
        raise ValueError(f"query mode must be auto, candidates or free, not {requested!r}")
    name = model_name.lower()
    return "candidates" if any(marker in name for marker in TINY_MODEL_MARKERS) else "free"


def short_abstract(abstract: str | None) -> str:
    words = (abstract or "").split()
    return " ".join(words[:MAX_ABSTRACT_WORDS]) + (" …" if len(words) > MAX_ABSTRACT_WORDS else "")


def expand_prompt(query: str, paper: Paper) -> str:
    """S_q+p as the Crawler reads it: the abstract and the outline cut to what a prompt can hold.

    The session and its retries send it alike, so llama.cpp can reuse the cached prefix.
    """
    shown = Paper(paper.title, short_abstract(paper.abstract), paper.sections[:MAX_SECTIONS_SHOWN])
    return crawler_prompt(query, shown)


@dataclass
class SessionResult:
    text: str
    checked: CheckedActions
    seconds: float
    prompt_tokens: int
    called_model: bool

    @property
    def actions(self) -> list[str]:
        return [action.argument for action in self.checked.kept]


class Crawler:
    def __init__(
        self,
        llm: LLM,
        *,
        query_mode: str = "auto",
        actions_per_session: int = 3,
        expand_at_least_one: bool = True,
        max_tokens: int = 96,
    ) -> None:
        self.llm = llm
        # An expand session opens only for a paper whose sections cite something. An untrained
        # tiny model answers "[Stop]" first almost always, so by default it must name one section
        # (which one is its choice); a trained Crawler can be allowed to stop at once.
        self.expand_at_least_one = expand_at_least_one
        self.query_mode = resolve_query_mode(query_mode, llm.model_name)
        self.actions_per_session = actions_per_session
        self.max_tokens = max_tokens
        self.calls = 0

    def _generate(
        self, prompt: str, grammar: str, cancel: threading.Event | None, follow_up: tuple[dict, ...] = ()
    ) -> tuple[str, float, int]:
        clock = time.perf_counter()
        completion = self.llm.chat(
            [{"role": "user", "content": prompt}, *follow_up],
            grammar=grammar,
            max_tokens=self.max_tokens,
            temperature=0.0,
            cancel=cancel,
        )
        self.calls += 1
        return completion.text.strip(), time.perf_counter() - clock, completion.prompt_tokens

    def search_session(self, query: str, candidates: list[str], cancel: threading.Event | None = None) -> SessionResult:
        """S_q: which searches to run. ``candidates`` constrain them in 'candidates' mode."""
        allowed = candidates if self.query_mode == "candidates" else None
        grammar = search_grammar(allowed, self.actions_per_session)
        text, seconds, tokens = self._generate(crawler_prompt(query), grammar, cancel)
        return SessionResult(text, validate(text, "Search", allowed, self.actions_per_session), seconds, tokens, True)

    def expand_session(
        self, query: str, paper: Paper, expandable: list[str], cancel: threading.Event | None = None
    ) -> SessionResult:
        """S_q+p: which of the paper's sections to expand; only ``expandable`` ones can be named."""
        if not expandable:  # the grammar's only sentence would be "[Stop]": no need to ask
            return SessionResult("[Stop]", CheckedActions([], []), 0.0, 0, False)
        grammar = expand_grammar(expandable, self.actions_per_session, at_least_one=self.expand_at_least_one)
        text, seconds, tokens = self._generate(expand_prompt(query, paper), grammar, cancel)
        return SessionResult(
            text, validate(text, "Expand", expandable, self.actions_per_session), seconds, tokens, True
        )

    def retry(
        self,
        query: str,
        paper: Paper | None,
        kind: str,
        options: list[str] | None,
        session_text: str,
        feedback: str,
        cancel: threading.Event | None = None,
    ) -> SessionResult:
        """One replacement action after AutoFeedback found the session's last one wanting.

        The session's prompt and response are sent again as they were (llama.cpp reuses their
        cached prefix), then the feedback as the next user turn; ``options`` are the arguments
        not tried yet (None: a free query). The grammar asks for exactly one action.
        """
        if options is not None and not options:
            return SessionResult("[Stop]", CheckedActions([], []), 0.0, 0, False)
        if kind == "Search":
            grammar = search_grammar(options, 1)
            prompt = crawler_prompt(query)
        else:
            assert paper is not None and options is not None
            grammar = expand_grammar(options, 1)
            prompt = expand_prompt(query, paper)
        follow_up = (
            {"role": "assistant", "content": session_text},
            {"role": "user", "content": retry_prompt(feedback, kind)},
        )
        text, seconds, tokens = self._generate(prompt, grammar, cancel, follow_up)
        return SessionResult(text, validate(text, kind, options, 1), seconds, tokens, True)


def retry_prompt(feedback: str, kind: str) -> str:
    """The follow-up turn after AutoFeedback: its feedback, then the one action wanted."""
    return f"{feedback}\nAnswer with one new [{kind}] action, then [Stop]."


def session_record(query: str, kind: str, paper: Paper | None, result: SessionResult) -> CrawlerSession:
    """The session as Table 8 training data: the kept actions and the final [Stop]."""
    actions = [action.render() for action in result.checked.kept] + ["[Stop]"]
    return CrawlerSession(query=query, kind=kind, paper=paper, actions=actions)  # type: ignore[arg-type]
