"""The OpenAI-compatible backend, against recorded server-sent-event streams (no network)."""

import json

import httpx
import pytest

from scholar_tui.models.base import CancelToken, LLMError
from scholar_tui.models.openai_http import OpenAICompatibleLLM, split_endpoint


def sse(*events) -> bytes:
    return b"".join(f"data: {json.dumps(event)}\n\n".encode() for event in events) + b"data: [DONE]\n\n"


def chat_chunk(text, logprob=None, finish=None):
    choice = {"index": 0, "delta": {"content": text}, "finish_reason": finish}
    if logprob is not None:
        choice["logprobs"] = {
            "content": [
                {
                    "token": text,
                    "logprob": logprob,
                    "top_logprobs": [{"token": text, "logprob": logprob}, {"token": "False", "logprob": -2.5}],
                }
            ]
        }
    return {"choices": [choice]}


class Recorder:
    def __init__(self, responder):
        self.requests = []
        self.responder = responder

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        return self.responder(request)


def make_llm(responder, **kwargs):
    recorder = Recorder(responder)
    llm = OpenAICompatibleLLM("http://llama-server.test/v1", transport=httpx.MockTransport(recorder), **kwargs)
    return llm, recorder


def test_split_endpoint():
    assert split_endpoint("http://h:8080/v1/#qwen") == ("http://h:8080/v1", "qwen")
    assert split_endpoint("http://h:8080/v1") == ("http://h:8080/v1", None)


def test_chat_streams_with_schema_and_logprobs():
    body = sse(
        chat_chunk("True", -0.1),
        chat_chunk("", finish="stop"),
        {"choices": [], "usage": {"prompt_tokens": 12, "completion_tokens": 1}},
    )
    llm, recorder = make_llm(lambda request: httpx.Response(200, content=body), model="qwen", api_key="k")
    schema = {"type": "object", "properties": {"ok": {"type": "boolean"}}}
    completion = llm.chat([{"role": "user", "content": "ok?"}], schema=schema, logprobs=2)
    sent = json.loads(recorder.requests[0].content)
    assert recorder.requests[0].url.path == "/v1/chat/completions"
    assert recorder.requests[0].headers["authorization"] == "Bearer k"
    assert sent["response_format"]["json_schema"]["schema"] == schema
    assert sent["logprobs"] is True and sent["top_logprobs"] == 2 and sent["stream"] is True
    assert completion.text == "True"
    assert completion.tokens[0].logprob == -0.1 and "False" in completion.tokens[0].top
    assert (completion.prompt_tokens, completion.completion_tokens) == (12, 1)


def test_completion_endpoint_grammar_and_text_stream():
    events = [{"choices": [{"text": piece, "finish_reason": None}]} for piece in ("Yoshua", " Bengio")]
    events.append({"choices": [{"text": "", "finish_reason": "length"}]})
    llm, recorder = make_llm(lambda request: httpx.Response(200, content=sse(*events)), model="m")
    completion = llm.complete("Name:", choices=["Yoshua Bengio", "Geoffrey Hinton"], max_tokens=5)
    sent = json.loads(recorder.requests[0].content)
    assert recorder.requests[0].url.path == "/v1/completions"
    assert 'root ::= "Yoshua Bengio" | "Geoffrey Hinton"' in sent["grammar"]
    assert completion.text == "Yoshua Bengio" and completion.finish_reason == "length"
    assert completion.completion_tokens == 2


def test_model_is_discovered_from_the_endpoint():
    def responder(request):
        if request.url.path.endswith("/models"):
            return httpx.Response(200, json={"data": [{"id": "served-model"}]})
        return httpx.Response(200, content=sse({"choices": [{"text": "x"}]}))

    llm, recorder = make_llm(responder)
    llm.complete("hi")
    assert json.loads(recorder.requests[-1].content)["model"] == "served-model"


def test_http_error_is_one_line():
    llm, _ = make_llm(lambda request: httpx.Response(400, text="grammar not supported"), model="m")
    with pytest.raises(LLMError, match="HTTP 400: grammar not supported"):
        llm.complete("x", grammar='root ::= "a"')


def test_unreachable_endpoint_is_one_line():
    def refuse(request):
        raise httpx.ConnectError("connection refused")

    llm, _ = make_llm(refuse, model="m")
    with pytest.raises(LLMError, match="cannot reach http://llama-server.test/v1"):
        llm.complete("x")


def test_garbage_event_is_reported():
    llm, _ = make_llm(lambda request: httpx.Response(200, content=b"data: {not json\n\n"), model="m")
    with pytest.raises(LLMError, match="malformed event"):
        llm.complete("x")


def test_cancel_stops_reading_the_stream():
    events = [{"choices": [{"text": f" {n}"}]} for n in range(50)]
    llm, _ = make_llm(lambda request: httpx.Response(200, content=sse(*events)), model="m")
    cancel = CancelToken()
    stream = llm.stream("count", cancel=cancel)
    for index, _piece in enumerate(stream):
        if index == 4:
            cancel.cancel()
    assert stream.completion.finish_reason == "cancelled"
    assert stream.completion.text == " 0 1 2 3 4"


def test_load_llm_picks_the_endpoint_from_one_setting(where, monkeypatch):
    from scholar_tui.config.settings import load_settings
    from scholar_tui.models import load_llm

    monkeypatch.setenv("SCHOLAR_TUI_LLM__MODEL", "http://127.0.0.1:9/v1#tiny")
    llm = load_llm(load_settings(where), where)
    assert isinstance(llm, OpenAICompatibleLLM) and llm.model_name == "tiny"
    with pytest.raises(LLMError, match="cannot reach"):
        llm.complete("x")
