"""Any OpenAI-compatible HTTP endpoint (llama-server, Ollama, vLLM, …), streamed over httpx.

Constraints are sent the way llama-server takes them: a JSON schema as ``response_format``
(``json_schema``), a GBNF grammar as ``grammar``. Endpoints that lack one of these answer with an
HTTP error, which is reported in one line.

An endpoint is untrusted: every reply is validated against the shape we expect
(``openai_schema``), and anything else — an HTML page, a redirect, a stream cut before its end, an
event of the wrong shape — is an ``LLMError`` naming the endpoint, never an empty "success". Each
call has a wall-clock deadline (``openai.deadline_s``) and a token cap (the request's
``max_tokens``, which a server may ignore), so an endless or trickling stream stops.
"""

from __future__ import annotations

import json
import time
from collections.abc import Generator, Iterator
from typing import Any

import httpx

from scholar_tui.models.base import LLM, Chunk, LLMError, Request, TokenLogprob
from scholar_tui.models.openai_schema import (
    ChatLogprobs,
    CompletionBody,
    LegacyLogprobs,
    ModelList,
    StreamEvent,
    ValidationError,
    shape_problem,
)

TOKEN_SLACK = 8
"""Pieces tolerated past ``max_tokens`` (a server may split a token's bytes over two events)."""
MAX_CHARS_PER_TOKEN = 64
"""The text a call may bring back is capped at this many characters per token asked for."""
MAX_EVENT_BYTES = 1 << 20
"""One event (one line of the stream) or one whole-body reply larger than this is refused."""
MAX_DETAIL_CHARS = 200


def split_endpoint(spec: str) -> tuple[str, str | None]:
    """``http://host:8080/v1#qwen2.5`` → (``http://host:8080/v1``, ``qwen2.5``)."""
    base, _, model = spec.partition("#")
    return base.rstrip("/"), (model or None)


def pieces(count: int) -> str:
    return f"{count} piece" + ("" if count == 1 else "s")


class CallLimits:
    """One call's deadline and token cap, checked as each piece of the reply arrives."""

    def __init__(self, where: str, deadline_s: float, max_tokens: int) -> None:
        self.where = where
        self.deadline_s = deadline_s
        self.ends = time.monotonic() + deadline_s
        self.max_pieces = max(max_tokens, 1) + TOKEN_SLACK
        self.max_chars = self.max_pieces * MAX_CHARS_PER_TOKEN
        self.pieces = self.chars = 0

    def check_time(self) -> None:
        if time.monotonic() > self.ends:
            raise LLMError(
                f"{self.where} did not finish within {self.deadline_s:g} s (openai.deadline_s); "
                f"stopped after {pieces(self.pieces)} of reply"
            )

    def count(self, text: str) -> None:
        self.pieces += 1
        self.chars += len(text)
        if self.pieces > self.max_pieces or self.chars > self.max_chars:
            raise LLMError(
                f"{self.where} kept sending past the {self.max_pieces - TOKEN_SLACK} tokens asked for "
                f"(max_tokens); stopped after {pieces(self.pieces)}, {self.chars} characters"
            )


class OpenAICompatibleLLM(LLM):
    backend_name = "openai-compatible"

    def __init__(
        self,
        base_url: str,
        *,
        model: str | None = None,
        api_key: str | None = None,
        timeout_s: float = 120.0,
        deadline_s: float = 300.0,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        super().__init__()
        self.base_url = base_url.rstrip("/")
        self.deadline_s = deadline_s
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        # A silent endpoint is stopped by the read timeout, never later than the call's deadline.
        wait = min(timeout_s, deadline_s)
        self._client = httpx.Client(
            base_url=self.base_url,
            headers=headers,
            timeout=httpx.Timeout(wait, connect=min(wait, 10.0)),
            transport=transport,
        )
        self._model = model

    @property
    def model_name(self) -> str:  # type: ignore[override]
        if self._model is None:
            self._model = self._first_served_model()
        return self._model

    def _first_served_model(self) -> str:
        where = f"{self.base_url}/models"
        limits = CallLimits(where, self.deadline_s, 0)
        try:
            with self._client.stream("GET", "/models") as response:
                _check_status(response, where, limits)
                body = _bounded_body(response, where, limits)
        except httpx.TimeoutException as error:
            raise LLMError(f"{where} did not answer in time ({error})") from error
        except httpx.HTTPError as error:
            raise LLMError(f"cannot list models at {self.base_url}: {error}") from error
        try:
            served = ModelList.model_validate_json(body).data
        except ValidationError as error:
            raise LLMError(f"{where} did not answer with a model list: {shape_problem(error)}") from error
        if not served:
            raise LLMError(f"{self.base_url} serves no model; name one as {self.base_url}#MODEL")
        return served[0].id

    def _body(self, request: Request) -> tuple[str, dict[str, Any]]:
        body: dict[str, Any] = {
            "model": self.model_name,
            "max_tokens": request.max_tokens,
            "temperature": request.temperature,
            "stream": True,
            "stream_options": {"include_usage": True},
        }
        if request.stop:
            body["stop"] = list(request.stop)
        if request.schema is not None:
            body["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": "reply", "schema": request.schema, "strict": True},
            }
        if request.grammar is not None:
            body["grammar"] = request.grammar
        if request.messages is not None:
            body["messages"] = request.messages
            if request.logprobs:
                body["logprobs"] = True
                body["top_logprobs"] = request.logprobs
            return "/chat/completions", body
        body["prompt"] = request.prompt
        if request.logprobs:
            body["logprobs"] = request.logprobs
        return "/completions", body

    def _generate(self, request: Request) -> Generator[Chunk, None, None]:
        path, body = self._body(request)
        where = f"{self.base_url}{path}"
        limits = CallLimits(where, self.deadline_s, request.max_tokens)
        chat = request.messages is not None
        try:
            with self._client.stream("POST", path, json=body) as response:
                _check_status(response, where, limits)
                kind = response.headers.get("content-type", "").split(";")[0].strip().lower()
                if kind == "application/json":  # the server ignored stream: a whole reply is fine if it is one
                    yield from _whole_reply(_bounded_body(response, where, limits), where, chat=chat, limits=limits)
                else:
                    yield from _parse_events(
                        _lines(response, limits), where, chat=chat, limits=limits, kind=kind or "no content type"
                    )
        except httpx.TimeoutException as error:
            raise LLMError(f"{self.base_url} did not answer in time ({error})") from error
        except httpx.HTTPError as error:
            raise LLMError(f"cannot reach {self.base_url}: {error}") from error

    def describe(self) -> dict[str, Any]:
        return {"backend": self.backend_name, "model": self._model or "(first served)", "url": self.base_url}

    def label(self) -> str:
        return f"{self._model or '(first served)'} at {self.base_url}"

    def close(self) -> None:
        self._client.close()


# -- reading a reply, within the call's limits ------------------------------------------------------
def _bounded_bytes(response: httpx.Response, limits: CallLimits, cap: int) -> tuple[bytes, bool]:
    """Up to ``cap`` bytes of the body, and whether there was more; the deadline holds while reading."""
    data = bytearray()
    for piece in response.iter_bytes():
        limits.check_time()
        data += piece
        if len(data) > cap:
            return bytes(data[:cap]), True
    return bytes(data), False


def _bounded_body(response: httpx.Response, where: str, limits: CallLimits) -> bytes:
    data, more = _bounded_bytes(response, limits, MAX_EVENT_BYTES)
    if more:
        raise LLMError(f"{where} sent a reply larger than {MAX_EVENT_BYTES // 1024} KiB; refused")
    return data


def _detail(data: bytes | str) -> str:
    """The start of a body we did not expect, as one line (an HTML page, an error text), with
    every control character written as its escape: it goes into an error line on a terminal."""
    text = data.decode("utf-8", errors="replace") if isinstance(data, bytes) else data
    text = " ".join(text.split())[: MAX_DETAIL_CHARS + 1]
    shown = "".join(char if char.isprintable() else char.encode("unicode_escape").decode("ascii") for char in text)
    return shown[:MAX_DETAIL_CHARS] + ("…" if len(text) > MAX_DETAIL_CHARS else "")


def _check_status(response: httpx.Response, where: str, limits: CallLimits) -> None:
    """An error or a redirect is one line: the status, where it points, the start of the body."""
    status = response.status_code
    if 200 <= status < 300:
        return
    if 300 <= status < 400:
        target = response.headers.get("location", "nowhere")
        raise LLMError(
            f"{where} answered HTTP {status}, a redirect to {_detail(target)}: "
            "check the endpoint's URL in llm.model (it should end in /v1)"
        )
    data, _ = _bounded_bytes(response, limits, 4 * MAX_DETAIL_CHARS)
    raise LLMError(f"{where} answered HTTP {status}: {_detail(data)}")


def _lines(response: httpx.Response, limits: CallLimits) -> Iterator[str]:
    """The stream's lines as bytes arrive: the deadline is checked on every arrival (one byte every
    few seconds included), and a line longer than ``MAX_EVENT_BYTES`` is refused."""
    buffer = bytearray()
    for piece in response.iter_bytes():
        limits.check_time()
        buffer += piece
        while (end := buffer.find(b"\n")) >= 0:
            line = bytes(buffer[:end])
            del buffer[: end + 1]
            yield line.decode("utf-8", errors="replace").rstrip("\r")
        if len(buffer) > MAX_EVENT_BYTES:
            raise LLMError(f"{limits.where} sent a line longer than {MAX_EVENT_BYTES // 1024} KiB; refused")
    if buffer:
        yield buffer.decode("utf-8", errors="replace").rstrip("\r")


def _parse_events(lines: Iterator[str], where: str, *, chat: bool, limits: CallLimits, kind: str) -> Iterator[Chunk]:
    """Server-sent events → chunks. The stream must hold events and end with ``[DONE]`` (or after a
    finish reason): a page with no event, or a stream cut half-way, is an error, not an empty reply."""
    usage_prompt = usage_completion = None
    finish: str | None = None
    events = choices = 0
    ended = False
    skipped: list[str] = []
    for line in lines:
        if not line.startswith("data:"):
            if line.strip() and not line.startswith(":") and len(skipped) < 3:
                skipped.append(line)  # not SSE: kept to show what the endpoint sent instead
            continue
        data = line[len("data:") :].strip()
        if data == "[DONE]":
            ended = True
            break
        try:
            event = StreamEvent.model_validate_json(data)
        except ValidationError as error:
            if error.errors()[0]["type"] == "json_invalid":
                raise LLMError(f"{where} sent a malformed event: {data[:80]!r}") from error
            raise LLMError(f"{where} sent an event of the wrong shape: {shape_problem(error)}") from error
        events += 1
        if event.error is not None:
            raise LLMError(f"{where} reported an error in its stream: {_detail(json.dumps(event.error))}")
        if event.usage is not None:
            usage_prompt = event.usage.prompt_tokens if event.usage.prompt_tokens is not None else usage_prompt
            usage_completion = (
                event.usage.completion_tokens if event.usage.completion_tokens is not None else usage_completion
            )
        choices += len(event.choices)
        for choice in event.choices:
            if choice.finish_reason:
                finish = choice.finish_reason
            text = (choice.delta.content if choice.delta else None) if chat else choice.text
            yield from _pieces(text, choice.logprobs, limits)
    if events == 0:
        sample = _detail(" ".join(skipped)) or "an empty body"
        raise LLMError(f"{where} answered {kind}, not an event stream: {sample}")
    if choices == 0:
        raise LLMError(f"{where} sent {events} events but no completion in them (no choice)")
    if not ended and finish is None:
        raise LLMError(f"{where} cut the stream before its end (no [DONE]) after {pieces(limits.pieces)}")
    yield Chunk(
        prompt_tokens=usage_prompt,
        completion_tokens=usage_completion,
        finish_reason="length" if finish == "length" else "stop",
    )


def _whole_reply(data: bytes, where: str, *, chat: bool, limits: CallLimits) -> Iterator[Chunk]:
    """A non-streamed JSON reply: accepted when it is a valid completion, an error otherwise."""
    try:
        body = CompletionBody.model_validate_json(data)
    except ValidationError as error:
        raise LLMError(f"{where} answered JSON that is not a completion: {shape_problem(error)}") from error
    choice = body.choices[0]
    message = choice.message.content if choice.message else None
    preferred = (message, choice.text) if chat else (choice.text, message)
    text = next((item for item in preferred if item is not None), None)
    if text is None:
        raise LLMError(f"{where} answered JSON with no text in its choice: {_detail(data)}")
    yield from _pieces(text, choice.logprobs, limits)
    usage = body.usage
    yield Chunk(
        prompt_tokens=usage.prompt_tokens if usage else None,
        completion_tokens=usage.completion_tokens if usage else None,
        finish_reason="length" if choice.finish_reason == "length" else "stop",
    )


def _pieces(text: str | None, logprobs: ChatLogprobs | LegacyLogprobs | None, limits: CallLimits) -> Iterator[Chunk]:
    """One choice's text as chunks: token by token when it came with log-probabilities."""
    tokens = _token_logprobs(logprobs)
    for token in tokens:
        limits.count(token.token)
        yield Chunk(text=token.token, logprob=token)
    if text and not tokens:  # else the text came with its tokens
        limits.count(text)
        yield Chunk(text=text)


def _token_logprobs(payload: ChatLogprobs | LegacyLogprobs | None) -> list[TokenLogprob]:
    if payload is None:
        return []
    if isinstance(payload, ChatLogprobs):
        return [
            TokenLogprob(
                token=item.token, logprob=item.logprob, top={alt.token: alt.logprob for alt in item.top_logprobs or []}
            )
            for item in payload.content or []
        ]
    tops = payload.top_logprobs or [None] * len(payload.tokens)
    return [
        TokenLogprob(token=token, logprob=value, top=dict(top or {}))
        for token, value, top in zip(payload.tokens, payload.token_logprobs, tops, strict=False)
        if value is not None
    ]
