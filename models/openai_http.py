"""Any OpenAI-compatible HTTP endpoint (llama-server, Ollama, vLLM, …), streamed over httpx.

Constraints are sent the way llama-server takes them: a JSON schema as ``response_format``
(``json_schema``), a GBNF grammar as ``grammar``. Endpoints that lack one of these answer with an
HTTP error, which is reported in one line.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx

from scholar_tui.models.base import LLM, Chunk, LLMError, Request, TokenLogprob


def split_endpoint(spec: str) -> tuple[str, str | None]:
    """``http://host:8080/v1#qwen2.5`` → (``http://host:8080/v1``, ``qwen2.5``)."""
    base, _, model = spec.partition("#")
    return base.rstrip("/"), (model or None)


class OpenAICompatibleLLM(LLM):
    backend_name = "openai-compatible"

    def __init__(
        self,
        base_url: str,
        *,
        model: str | None = None,
        api_key: str | None = None,
        timeout_s: float = 120.0,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        super().__init__()
        self.base_url = base_url.rstrip("/")
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._client = httpx.Client(
            base_url=self.base_url,
            headers=headers,
            timeout=httpx.Timeout(timeout_s, connect=min(timeout_s, 10.0)),
            transport=transport,
        )
        self._model = model

    @property
    def model_name(self) -> str:  # type: ignore[override]
        if self._model is None:
            self._model = self._first_served_model()
        return self._model

    def _first_served_model(self) -> str:
        try:
            response = self._client.get("/models")
            response.raise_for_status()
            served = response.json().get("data") or []
        except (httpx.HTTPError, ValueError) as error:
            raise LLMError(f"cannot list models at {self.base_url}: {error}") from error
        if not served:
            raise LLMError(f"{self.base_url} serves no model; name one as {self.base_url}#MODEL")
        return served[0]["id"]

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

    def _generate(self, request: Request) -> Iterator[Chunk]:
        path, body = self._body(request)
        try:
            with self._client.stream("POST", path, json=body) as response:
                if response.status_code >= 400:
                    detail = response.read().decode("utf-8", errors="replace")[:200]
                    raise LLMError(
                        f"{self.base_url}{path} answered HTTP {response.status_code}: {detail}"
                    )
                yield from self._parse_events(response.iter_lines(), chat=request.messages is not None)
        except httpx.TimeoutException as error:
            raise LLMError(f"{self.base_url} did not answer in time ({error})") from error
        except httpx.HTTPError as error:
            raise LLMError(f"cannot reach {self.base_url}: {error}") from error

    @staticmethod
    def _parse_events(lines: Iterator[str], *, chat: bool) -> Iterator[Chunk]:
        usage: dict[str, int] = {}
        finish = "stop"
        for line in lines:
            if not line.startswith("data:"):
                continue
            data = line[len("data:") :].strip()
            if data == "[DONE]":
                break
            try:
                event = json.loads(data)
            except json.JSONDecodeError as error:
                raise LLMError(f"the endpoint sent a malformed event: {data[:80]!r}") from error
            usage = event.get("usage") or usage
            for choice in event.get("choices") or []:
                if choice.get("finish_reason"):
                    finish = "length" if choice["finish_reason"] == "length" else "stop"
                text = (choice.get("delta") or {}).get("content") if chat else choice.get("text")
                for logprob in _logprobs(choice.get("logprobs"), chat=chat):
                    yield Chunk(text=logprob.token, logprob=logprob)
                    text = None  # the text came with its tokens
                if text:
                    yield Chunk(text=text)
        yield Chunk(
            prompt_tokens=usage.get("prompt_tokens"),
            completion_tokens=usage.get("completion_tokens"),
            finish_reason=finish,  # type: ignore[arg-type]
        )

    def describe(self) -> dict[str, Any]:
        return {"backend": self.backend_name, "model": self._model or "(first served)", "url": self.base_url}

    def close(self) -> None:
        self._client.close()


def _logprobs(payload: dict[str, Any] | None, *, chat: bool) -> list[TokenLogprob]:
    if not payload:
        return []
    if chat:
        return [
            TokenLogprob(
                token=item["token"],
                logprob=item["logprob"],
                top={alt["token"]: alt["logprob"] for alt in item.get("top_logprobs") or []},
            )
            for item in payload.get("content") or []
        ]
    tokens = payload.get("tokens") or []
    values = payload.get("token_logprobs") or []
    tops = payload.get("top_logprobs") or [{}] * len(tokens)
    return [
        TokenLogprob(token=token, logprob=value, top=dict(top or {}))
        for token, value, top in zip(tokens, values, tops)
    ]
