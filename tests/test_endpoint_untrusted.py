"""Issue #29 (5–7): an OpenAI-compatible endpoint is untrusted.

A reply of the wrong shape, a page that is not a stream, a redirect, a stream cut half-way, one
that never ends or trickles in: each is one ``LLMError`` line naming the endpoint, never a
traceback and never an empty "success". Against ``httpx.MockTransport`` and, for the trickle, a
tiny real server on 127.0.0.1 (no network).
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator

import httpx
import pytest

from scholar_tui.models.base import LLMError
from scholar_tui.models.openai_http import OpenAICompatibleLLM

from .test_openai_http import chat_chunk, make_llm, sse

URL = "http://llama-server.test/v1"
CHAT = [{"role": "user", "content": "Is it true?"}]


def events_body(*events) -> bytes:
    """``data:`` lines of raw JSON texts (any value, not only objects), then ``[DONE]``."""
    return b"".join(f"data: {event}\n\n".encode() for event in events) + b"data: [DONE]\n\n"


def answering(body: bytes, status: int = 200, **headers):
    return lambda request: httpx.Response(status, content=body, headers=headers)


# -- 5: valid JSON of the wrong shape ----------------------------------------------------------------
WRONG_SHAPES = {
    "a number": "5",
    "a list": "[1, 2]",
    "choices not a list": '{"choices": 5}',
    "a choice not an object": '{"choices": [5]}',
    "usage a string": '{"choices": [], "usage": "many"}',
    "integer content": '{"choices": [{"delta": {"content": 5}}]}',
    "object content": '{"choices": [{"delta": {"content": {"a": 1}}}]}',
    "logprobs a number": '{"choices": [{"delta": {"content": "T"}, "logprobs": 7}]}',
    "logprob token a number": '{"choices": [{"delta": {"content": "T"}, "logprobs": {"content": [{"token": 5}]}}]}',
    "top_logprobs of strings": (
        '{"choices": [{"delta": {"content": "T"}, "logprobs": {"content": '
        '[{"token": "T", "logprob": -0.1, "top_logprobs": ["T"]}]}}]}'
    ),
}


@pytest.mark.parametrize("event", WRONG_SHAPES.values(), ids=WRONG_SHAPES.keys())
def test_an_event_of_the_wrong_shape_is_one_line_naming_the_endpoint(event):
    llm, _ = make_llm(answering(events_body(event)), model="m")
    with pytest.raises(LLMError, match=rf"^{URL}/chat/completions sent an event of the wrong shape: ") as caught:
        llm.chat(CHAT, logprobs=2)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize("body", ['{"data": 5}', "[1]", '{"data": [{"id": 5}]}', '{"data": [{}]}', '"models"'])
def test_a_bad_model_list_is_one_line(body):
    llm, _ = make_llm(answering(body.encode()))
    with pytest.raises(LLMError, match=rf"^{URL}/models did not answer with a model list: "):
        llm.complete("x")


def test_a_model_list_that_is_an_html_page_is_one_line():
    llm, _ = make_llm(answering(b"<html>login</html>", **{"content-type": "text/html"}))
    with pytest.raises(LLMError, match="did not answer with a model list"):
        llm.complete("x")


# -- 7: empty or foreign replies are errors, not "0 generated tokens … stop" ---------------------------
def test_an_html_page_is_not_an_empty_reply():
    page = b"<!doctype html><html><body><h1>Welcome to nginx!</h1></body></html>"
    llm, _ = make_llm(answering(page, **{"content-type": "text/html"}), model="m")
    with pytest.raises(
        LLMError,
        match=rf"{URL}/chat/completions answered text/html, not an event stream: "
        r"<!doctype html>.*Welcome to nginx",
    ):
        llm.chat(CHAT)


def test_a_foreign_body_reaches_the_error_line_without_control_characters():
    page = b"\x1b[2J\x1b]52;c;ZXZpbA==\x07 <html>hi</html>"
    llm, _ = make_llm(answering(page, **{"content-type": "text/html"}), model="m")
    with pytest.raises(LLMError) as caught:
        llm.complete("x")
    assert "\\x1b[2J" in str(caught.value) and not any(ord(char) < 0x20 for char in str(caught.value))


def test_an_error_event_in_the_stream_is_reported():
    body = events_body(json.dumps(chat_chunk("Tr")), '{"error": {"code": 500, "message": "out of memory"}}')
    llm, _ = make_llm(answering(body), model="m")
    with pytest.raises(LLMError, match="reported an error in its stream: .*out of memory"):
        llm.chat(CHAT)


def test_an_empty_body_is_an_error():
    llm, _ = make_llm(answering(b""), model="m")
    with pytest.raises(LLMError, match="not an event stream: an empty body"):
        llm.complete("x")


def test_a_stream_without_any_choice_is_an_error():
    llm, _ = make_llm(answering(events_body("{}", '{"usage": {"prompt_tokens": 3}}')), model="m")
    with pytest.raises(LLMError, match="sent 2 events but no completion"):
        llm.complete("x")


def test_a_redirect_to_itself_is_an_error():
    def redirect(request):
        return httpx.Response(302, headers={"location": str(request.url)})

    llm, recorder = make_llm(redirect, model="m")
    with pytest.raises(
        LLMError,
        match=rf"{URL}/chat/completions answered HTTP 302, a redirect to "
        rf"{URL}/chat/completions: check the endpoint's URL",
    ):
        llm.chat(CHAT)
    assert len(recorder.requests) == 1  # not followed, let alone in a loop


def test_a_stream_cut_before_its_end_is_an_error():
    cut = b"data: " + json.dumps(chat_chunk("Tr")).encode() + b"\n\n"  # no finish reason, no [DONE]
    llm, _ = make_llm(answering(cut), model="m")
    with pytest.raises(LLMError, match=r"cut the stream before its end \(no \[DONE\]\) after 1 piece$"):
        llm.chat(CHAT)


def test_a_stream_that_finished_but_dropped_done_is_accepted():
    body = b"".join(
        f"data: {json.dumps(event)}\n\n".encode() for event in (chat_chunk("True"), chat_chunk("", finish="stop"))
    )
    llm, _ = make_llm(answering(body), model="m")
    assert llm.chat(CHAT).text == "True"


def test_a_whole_json_reply_is_accepted_when_it_is_a_completion():
    reply = {
        "choices": [
            {
                "message": {"role": "assistant", "content": "True"},
                "finish_reason": "stop",
                "logprobs": {
                    "content": [
                        {
                            "token": "True",
                            "logprob": -0.2,
                            "top_logprobs": [{"token": "True", "logprob": -0.2}, {"token": "False", "logprob": -1.7}],
                        }
                    ]
                },
            }
        ],
        "usage": {"prompt_tokens": 9, "completion_tokens": 1},
    }
    llm, _ = make_llm(lambda request: httpx.Response(200, json=reply), model="m")
    completion = llm.chat(CHAT, logprobs=2)
    assert completion.text == "True" and completion.tokens[0].top["False"] == -1.7
    assert (completion.prompt_tokens, completion.completion_tokens) == (9, 1)
    assert llm.choose(None, ["True", "False"], messages=CHAT)["True"] > 0.7


@pytest.mark.parametrize(
    "reply",
    [
        {"error": "model not loaded"},
        {"choices": []},
        {"choices": [{"message": {}}]},
        {"choices": [{"message": {"content": 5}}]},
    ],
)
def test_a_whole_json_reply_that_is_not_a_completion_is_an_error(reply):
    llm, _ = make_llm(lambda request: httpx.Response(200, json=reply), model="m")
    with pytest.raises(LLMError, match=rf"^{URL}/chat/completions answered JSON"):
        llm.chat(CHAT)


def test_an_http_error_body_is_read_only_in_part():
    def endless_error(request):
        return httpx.Response(500, content=(b"[/nope] " * 1000 for _ in iter(int, 1)))  # never ends

    llm, _ = make_llm(endless_error, model="m")
    with pytest.raises(LLMError, match=r"HTTP 500: \[/nope\] ") as caught:
        llm.complete("x")
    assert len(str(caught.value)) < 400


def test_a_failed_call_is_not_logged_as_a_completion():
    logged = []
    llm, _ = make_llm(answering(b"<html></html>", **{"content-type": "text/html"}), model="m")
    llm.add_sink(logged.append)
    with pytest.raises(LLMError):
        llm.complete("x")
    assert logged == []


def test_choose_without_an_answer_among_the_choices_says_so():
    """An endpoint that ignores grammars and logprobs: no P(True) to read, so no 0.0 for every choice."""
    llm, _ = make_llm(answering(sse(chat_chunk("Hello! How can I help?"), chat_chunk("", finish="stop"))), model="m")
    with pytest.raises(LLMError, match=r"answered 'Hello! How can I help\?', none of True, False"):
        llm.choose(None, ["True", "False"], messages=CHAT)


# -- 6: endpoints that never finish ------------------------------------------------------------------
def endless_stream() -> Iterator[bytes]:
    while True:
        yield b"data: " + json.dumps(chat_chunk("a")).encode() + b"\n\n"


def test_an_endless_stream_stops_at_the_token_cap():
    llm, _ = make_llm(lambda request: httpx.Response(200, content=endless_stream()), model="m")
    started = time.monotonic()
    with pytest.raises(LLMError, match=r"kept sending past the 16 tokens asked for \(max_tokens\)"):
        llm.chat(CHAT, max_tokens=16)
    assert time.monotonic() - started < 5


def test_one_endless_piece_stops_at_the_character_cap():
    huge = b"data: " + json.dumps(chat_chunk("x" * 200_000)).encode() + b"\n\n"
    llm, _ = make_llm(lambda request: httpx.Response(200, content=iter([huge] * 10**6)), model="m")
    with pytest.raises(LLMError, match="kept sending past the 16 tokens"):
        llm.chat(CHAT, max_tokens=16)


def test_a_line_without_end_is_refused():
    llm, _ = make_llm(lambda request: httpx.Response(200, content=(b"d" * 65536 for _ in iter(int, 1))), model="m")
    with pytest.raises(LLMError, match="sent a line longer than 1024 KiB"):
        llm.complete("x")


class TrickleServer:
    """A real HTTP server on 127.0.0.1 that answers a stream's headers, then one byte every ``every_s``.

    It stops itself after ``lifetime_s`` so that a test that fails cannot leave it running.
    """

    def __init__(self, every_s: float, lifetime_s: float = 20.0) -> None:
        self.every_s, self.lifetime_s = every_s, lifetime_s
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.listener.settimeout(lifetime_s)
        self.port = self.listener.getsockname()[1]
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        ends = time.monotonic() + self.lifetime_s
        try:
            connection, _ = self.listener.accept()
        except OSError:
            return
        with connection:
            connection.recv(65536)
            connection.sendall(b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n\r\n")
            try:
                while time.monotonic() < ends:
                    connection.sendall(b":")  # an SSE comment: valid, and never a line
                    time.sleep(self.every_s)
            except OSError:
                pass  # the client gave up: what the test wants

    def close(self) -> None:
        self.listener.close()


def test_a_trickling_endpoint_stops_at_the_deadline():
    server = TrickleServer(every_s=0.2)
    try:
        llm = OpenAICompatibleLLM(f"http://127.0.0.1:{server.port}/v1", model="m", timeout_s=10, deadline_s=1.0)
        started = time.monotonic()
        with pytest.raises(LLMError, match=r"did not finish within 1 s \(openai.deadline_s\); stopped after 0 pieces"):
            llm.complete("x")
        assert time.monotonic() - started < 3  # the read timeout (10 s) alone would never fire
        llm.close()
    finally:
        server.close()


def test_the_deadline_is_a_setting_with_a_range(where, monkeypatch):
    from scholar_tui.config.settings import ConfigError, load_settings
    from scholar_tui.models import load_llm

    monkeypatch.setenv("SCHOLAR_TUI_LLM__MODEL", "http://127.0.0.1:9/v1#tiny")
    assert load_settings(where).openai.deadline_s == 300.0  # the documented default
    monkeypatch.setenv("SCHOLAR_TUI_OPENAI__DEADLINE_S", "42")
    assert load_llm(load_settings(where), where).deadline_s == 42.0
    monkeypatch.setenv("SCHOLAR_TUI_OPENAI__DEADLINE_S", "0")
    with pytest.raises(ConfigError, match="openai.deadline_s.*allowed: a number more than 0 and at most 86400"):
        load_settings(where)
