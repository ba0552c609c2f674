"""What an OpenAI-compatible endpoint may send us, as pydantic models: anything else is an error.

An endpoint is a program we do not control (a misconfigured proxy, a different API behind the same
port, a buggy server). Every event of a stream, every whole-body reply and the ``/models`` list is
validated here before a field is read, so a reply of the wrong shape (``data: 5``, ``choices`` that
is not a list, integer ``content``, a string ``usage``) becomes one line naming the field, never an
``AttributeError`` deep in the parser.

Only the fields we read are declared; extra fields (``id``, ``created``, llama-server's ``timings``)
are ignored. Validation is strict (JSON types as they are: an integer is not text), with two
leniencies every real server needs: ``null`` wherever a field may be absent, and an integer
where a float (a log-probability) is expected.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, ValidationError

__all__ = [
    "ChatLogprobs",
    "CompletionBody",
    "LegacyLogprobs",
    "ModelList",
    "StreamEvent",
    "ValidationError",
    "shape_problem",
]


class _Reply(BaseModel):
    model_config = ConfigDict(extra="ignore", strict=True, frozen=True)


class TopLogprob(_Reply):
    token: str
    logprob: float = Field(allow_inf_nan=False)


class TokenLogprobItem(_Reply):
    token: str
    logprob: float = Field(allow_inf_nan=False)
    top_logprobs: list[TopLogprob] | None = None


class ChatLogprobs(_Reply):
    """The chat form (llama-server uses it for completions too): one item per generated token."""

    content: list[TokenLogprobItem] | None = None


class LegacyLogprobs(_Reply):
    """OpenAI's completions form: parallel lists of tokens, their log-probabilities and top-k maps."""

    tokens: list[str]
    token_logprobs: list[float | None]
    top_logprobs: list[dict[str, float] | None] | None = None


class Delta(_Reply):
    content: str | None = None


class Message(_Reply):
    content: str | None = None


class Choice(_Reply):
    delta: Delta | None = None  # a chat stream's piece
    message: Message | None = None  # a whole chat reply (no stream)
    text: str | None = None  # a completion's piece, or its whole text
    finish_reason: str | None = None
    logprobs: ChatLogprobs | LegacyLogprobs | None = None


class Usage(_Reply):
    prompt_tokens: int | None = Field(None, ge=0)
    completion_tokens: int | None = Field(None, ge=0)


class StreamEvent(_Reply):
    """One ``data:`` event of a stream (``stream: true``)."""

    choices: list[Choice] = []
    usage: Usage | None = None
    error: dict | str | None = None
    """What a server reports instead of a piece when generation fails half-way (llama-server, vLLM)."""


class CompletionBody(_Reply):
    """A whole reply (``stream: false``, or a server that ignored ``stream: true``): one choice at least."""

    choices: list[Choice] = Field(min_length=1)
    usage: Usage | None = None


class ServedModel(_Reply):
    id: str = Field(min_length=1)


class ModelList(_Reply):
    """``GET /models``: the models the endpoint serves."""

    data: list[ServedModel]


def shape_problem(error: ValidationError) -> str:
    """The first thing wrong, in one line: 'choices.0.delta.content: Input should be a valid string (got 5)'."""
    first = error.errors(include_url=False)[0]
    place = ".".join(str(part) for part in first["loc"] if not str(part).startswith(("function-", "union[")))
    got = repr(first.get("input"))
    got = got if len(got) <= 40 else got[:39] + "…"
    return f"{place or 'the reply'}: {first['msg']} (got {got})"
