"""One interface over every LLM backend.

A backend implements ``_generate``: a generator of ``Chunk``s for one ``Request``. Everything else
(complete, chat, streaming, cancellation, logging) lives here once, so that engines in
``core/`` never learn which backend runs.

Every engine decision is small and constrained: ``schema`` (JSON schema), ``grammar`` (GBNF) or
``choices`` (one of a few exact strings) restrict what the model may emit, and ``logprobs`` returns
the log-probability of each chosen token with its top alternatives (PaSa ranks by P(True)).
"""

from __future__ import annotations

import json
import math
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from scholar_tui.models.origin import Origin, current_origin

FinishReason = Literal["stop", "length", "cancelled"]


class LLMError(Exception):
    """A model could not be loaded or reached; the message is one line for the user."""


class CancelToken(threading.Event):
    """A ``threading.Event`` set from any thread (a UI button, a timeout) to stop a generation between
    tokens, or an engine's request between steps; any ``threading.Event`` does the same."""

    def cancel(self) -> None:
        self.set()

    @property
    def cancelled(self) -> bool:
        return self.is_set()


@dataclass
class TokenLogprob:
    token: str
    logprob: float
    top: dict[str, float] = field(default_factory=dict)
    """The most likely tokens at this position (the chosen one included), with log-probabilities,
    before any constraint was applied."""

    @property
    def probability(self) -> float:
        return math.exp(self.logprob)


@dataclass
class Request:
    prompt: str | None = None
    messages: list[dict[str, str]] | None = None
    max_tokens: int = 256
    temperature: float = 0.0
    stop: Sequence[str] = ()
    schema: dict[str, Any] | None = None
    grammar: str | None = None
    logprobs: int = 0
    """0: none; k > 0: each chosen token's log-probability and the top k alternatives."""

    @property
    def kind(self) -> str:
        return "chat" if self.messages is not None else "completion"


@dataclass
class Chunk:
    """A piece of generated text; a backend's last chunk also carries the usage counts."""

    text: str = ""
    logprob: TokenLogprob | None = None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    finish_reason: FinishReason | None = None


@dataclass
class Completion:
    text: str
    model: str
    backend: str
    request: Request
    prompt_tokens: int = 0
    completion_tokens: int = 0
    finish_reason: FinishReason = "stop"
    duration_s: float = 0.0
    first_token_s: float | None = None
    tokens: list[TokenLogprob] | None = None
    origin: Origin | None = None
    """What made the call (``models.origin``): the crawl, question or loop; None outside any."""

    def json(self) -> Any:
        """The reply parsed as JSON (for ``schema``-constrained requests)."""
        try:
            return json.loads(self.text)
        except json.JSONDecodeError as error:
            raise LLMError(f"model {self.model} did not return JSON: {self.text[:80]!r}") from error

    @property
    def tokens_per_second(self) -> float:
        generating = self.duration_s - (self.first_token_s or 0.0)
        if self.completion_tokens <= 1 or generating <= 0:
            return 0.0
        return (self.completion_tokens - 1) / generating

    def as_log_record(self) -> dict[str, Any]:
        request = self.request
        return {
            "backend": self.backend,
            "model": self.model,
            "kind": request.kind,
            "prompt": request.prompt,
            "messages_json": json.dumps(request.messages) if request.messages is not None else None,
            "options_json": json.dumps(
                {
                    "max_tokens": request.max_tokens,
                    "temperature": request.temperature,
                    "stop": list(request.stop),
                    "logprobs": request.logprobs,
                }
            ),
            "schema_json": json.dumps(request.schema) if request.schema is not None else None,
            "grammar": request.grammar,
            "response": self.text,
            "logprobs_json": (json.dumps([asdict(token) for token in self.tokens]) if self.tokens else None),
            "finish_reason": self.finish_reason,
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "duration_ms": round(self.duration_s * 1000, 1),
            **(self.origin.as_log_columns() if self.origin is not None else {}),
        }


CompletionSink = Callable[[Completion], None]


class Stream:
    """Iterate for text pieces as they are generated; ``completion`` is set once it is exhausted."""

    def __init__(self, llm: "LLM", request: Request, cancel: threading.Event | None) -> None:
        self._llm = llm
        self._request = request
        self._cancel = cancel
        self.completion: Completion | None = None
        # taken here, where the engine asked for the stream; it may be read later, elsewhere
        self.origin = current_origin()

    def __iter__(self) -> Iterator[str]:
        request, started = self._request, time.perf_counter()
        pieces: list[str] = []
        tokens: list[TokenLogprob] = []
        prompt_tokens = counted = 0
        reported: int | None = None
        finish: FinishReason = "stop"
        first_token_s: float | None = None
        generator = self._llm._generate(request)
        failed = False
        try:
            for chunk in generator:
                if self._cancel is not None and self._cancel.is_set():
                    finish = "cancelled"
                    break
                if chunk.text or chunk.logprob:
                    if first_token_s is None:
                        first_token_s = time.perf_counter() - started
                    counted += 1
                if chunk.logprob is not None:
                    tokens.append(chunk.logprob)
                if chunk.prompt_tokens is not None:
                    prompt_tokens = chunk.prompt_tokens
                if chunk.completion_tokens is not None:
                    reported = chunk.completion_tokens
                if chunk.finish_reason is not None:
                    finish = chunk.finish_reason
                if chunk.text:
                    pieces.append(chunk.text)
                    yield chunk.text
        except LLMError:
            failed = True
            raise
        finally:
            generator.close()  # stops decoding at once when the consumer leaves early
            if not failed:  # a call that failed is no completion: nothing is logged as if it had answered
                self._complete(
                    pieces,
                    tokens,
                    prompt_tokens,
                    counted if reported is None else reported,
                    finish,
                    started,
                    first_token_s,
                )

    def _complete(
        self,
        pieces: list[str],
        tokens: list[TokenLogprob],
        prompt_tokens: int,
        completion_tokens: int,
        finish: FinishReason,
        started: float,
        first_token_s: float | None,
    ) -> None:
        request = self._request
        self.completion = Completion(
            text="".join(pieces),
            model=self._llm.model_name,
            backend=self._llm.backend_name,
            request=request,
            prompt_tokens=prompt_tokens,
            completion_tokens=completion_tokens,
            finish_reason=finish,
            duration_s=time.perf_counter() - started,
            first_token_s=first_token_s,
            tokens=tokens if request.logprobs else None,
            origin=self.origin or current_origin(),
        )
        self._llm._record(self.completion)


class LLM(ABC):
    """A text model. Subclasses set ``backend_name``/``model_name`` and implement ``_generate``."""

    backend_name: str = "abstract"
    model_name: str = "unknown"
    default_temperature: float = 0.0

    def __init__(self) -> None:
        self._sinks: list[CompletionSink] = []

    # -- what a backend provides -----------------------------------------------------------
    @abstractmethod
    def _generate(self, request: Request) -> Generator[Chunk, None, None]:
        """Yield the reply piece by piece; close() on the generator must stop the work."""

    def close(self) -> None:
        """Free the model's memory or connections."""

    def describe(self) -> dict[str, Any]:
        return {"backend": self.backend_name, "model": self.model_name}

    def label(self) -> str:
        """The model as an error line names it (an endpoint adds its URL)."""
        return self.model_name

    # -- logging -----------------------------------------------------------------------------
    def add_sink(self, sink: CompletionSink) -> None:
        """``sink`` receives every finished completion (the prompt log is one)."""
        self._sinks.append(sink)

    def _record(self, completion: Completion) -> None:
        for sink in self._sinks:
            sink(completion)

    # -- the public interface ---------------------------------------------------------------
    def request(
        self,
        prompt: str | None = None,
        *,
        messages: list[dict[str, str]] | None = None,
        max_tokens: int = 256,
        temperature: float | None = None,
        stop: Sequence[str] = (),
        schema: dict[str, Any] | None = None,
        grammar: str | None = None,
        choices: Sequence[str] | None = None,
        logprobs: int = 0,
    ) -> Request:
        if (prompt is None) == (messages is None):
            raise ValueError("give a prompt or messages, not both")
        constraints = sum(item is not None for item in (schema, grammar, choices))
        if constraints > 1:
            raise ValueError("give at most one of schema, grammar and choices")
        if choices is not None:
            from scholar_tui.models.grammars import choice_grammar

            grammar = choice_grammar(choices)
        return Request(
            prompt=prompt,
            messages=messages,
            max_tokens=max_tokens,
            temperature=self.default_temperature if temperature is None else temperature,
            stop=tuple(stop),
            schema=schema,
            grammar=grammar,
            logprobs=logprobs,
        )

    def stream(self, prompt: str | None = None, *, cancel: threading.Event | None = None, **options) -> Stream:
        return Stream(self, self.request(prompt, **options), cancel)

    def complete(self, prompt: str | None = None, *, cancel: threading.Event | None = None, **options) -> Completion:
        stream = self.stream(prompt, cancel=cancel, **options)
        for _ in stream:
            pass
        assert stream.completion is not None
        return stream.completion

    def chat(self, messages: list[dict[str, str]], *, cancel: threading.Event | None = None, **options) -> Completion:
        return self.complete(messages=messages, cancel=cancel, **options)

    def choose(self, prompt: str | None = None, choices: Sequence[str] = (), **options) -> dict[str, float]:
        """Probabilities of each of ``choices`` as the reply, from the first token's distribution.

        The choices must differ in their first token (``True``/``False``, ``A``/``B``…): the
        reply is constrained to them, and the first generated token's top log-probabilities,
        renormalised over the choices, give each one's probability.
        """
        completion = self.complete(prompt, choices=choices, logprobs=max(20, len(choices)), **options)
        first = completion.tokens[0] if completion.tokens else None
        scores: dict[str, float] = {}
        for choice in choices:
            best = None
            if first is not None:
                for token, logprob in first.top.items():
                    stripped = token.strip()
                    if stripped and choice.startswith(stripped) and (best is None or logprob > best):
                        best = logprob
            scores[choice] = math.exp(best) if best is not None else 0.0
        total = sum(scores.values())
        if total > 0:
            return {choice: value / total for choice, value in scores.items()}
        # The alternatives fell outside the top-k: trust the constrained reply, when it is one of them.
        reply = completion.text.strip()
        if reply not in choices:  # an endpoint that ignores grammars, or sent no token: no answer, not "0 for all"
            listed = ", ".join(choices)
            raise LLMError(
                f"model {self.label()} answered {reply[:60]!r}, none of {listed[:80]}, with no "
                f"log-probabilities to read them from: it gave no answer to choose from"
            )
        return {choice: float(choice == reply) for choice in choices}
