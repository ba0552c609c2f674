"""Issue #29 (5, 7): what `prompt`, `search` and `ask --code model` do when the endpoint gives no real answer.

Each says so in one line naming the endpoint and exits 1: no traceback, no "0 generated tokens …
stop", and no PaSa ranking on P(True) 0.00 for every paper after a model that never answered.
"""

from __future__ import annotations

import json

import httpx
import pytest
from click.testing import CliRunner

import scholar_tui.models as models
from scholar_tui.app.cli import cli
from scholar_tui.models.openai_http import OpenAICompatibleLLM

from .library_support import HashingEmbedder
from .test_endpoint_untrusted import events_body
from .test_openai_http import Recorder, chat_chunk, sse

URL = "http://llama-server.test/v1"
HTML = b"<!doctype html><html><body>It works!</body></html>"


def html_page(request):
    return httpx.Response(200, content=HTML, headers={"content-type": "text/html"})


def wrong_shape(request):
    return httpx.Response(200, content=events_body('{"choices": [{"delta": {"content": 5}}]}'))


def chatty(request):
    """A model behind an endpoint that ignores grammars and logprobs: always the same friendly words."""
    return httpx.Response(200, content=sse(chat_chunk("Hello! How can I help?"), chat_chunk("", finish="stop")))


def cut_stream(request):
    return httpx.Response(200, content=b"data: " + json.dumps(chat_chunk("Tr")).encode() + b"\n\n")


@pytest.fixture
def endpoint(monkeypatch):
    """``llm.model`` as an endpoint answering with ``responder``; returns the request recorder."""

    def use(responder) -> Recorder:
        recorder = Recorder(responder)
        monkeypatch.setattr(
            models,
            "load_llm",
            lambda settings, where=None: OpenAICompatibleLLM(URL, model="x", transport=httpx.MockTransport(recorder)),
        )
        return recorder

    return use


def one_error_line(result, *, says: str) -> None:
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit), result.exception  # a ClickException, not a crash
    errors = [line for line in result.output.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1 and URL in errors[0] and says in errors[0], result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    ("responder", "says"),
    [
        (html_page, "answered text/html, not an event stream: <!doctype html>"),
        (wrong_shape, "sent an event of the wrong shape: choices.0.delta.content"),
    ],
)
def test_prompt_says_what_the_endpoint_did_wrong(endpoint, responder, says):
    endpoint(responder)
    result = CliRunner().invoke(cli, ["prompt", "Is attention all you need?"])
    one_error_line(result, says=says)
    assert "generated tokens" not in result.output


def test_prompt_shows_a_cut_stream_on_a_line_of_its_own(endpoint):
    endpoint(cut_stream)
    result = CliRunner().invoke(cli, ["prompt", "Is it true?"])
    one_error_line(result, says="cut the stream before its end")
    assert result.output.splitlines()[0] == "Tr"


@pytest.mark.parametrize(
    ("responder", "says", "calls"),
    [
        (html_page, "answered text/html", 1),  # the Crawler's first session: nothing else is asked
        (chatty, "none of True, False", None),  # the Crawler read no action; the first P(True) has no answer
    ],
)
def test_search_stops_at_the_first_call_without_an_answer(mini_library, endpoint, monkeypatch, responder, says, calls):
    monkeypatch.setattr(models, "load_embedder", lambda settings: HashingEmbedder())
    recorder = endpoint(responder)
    result = CliRunner().invoke(cli, ["search", "graph neural networks", "--offline", "--plain-depth", "3"])
    one_error_line(result, says=says)
    assert "P(True) 0.00" not in result.output and "selected" not in result.stdout
    judged = [request for request in recorder.requests if b"Searched Paper" in request.content]
    assert len(judged) <= 1  # not 16 calls ranked on zeros
    if calls is not None:
        assert len(recorder.requests) == calls


@pytest.mark.embeddings
def test_ask_with_a_model_program_says_the_endpoint_failed(imported, real_embedder, endpoint, monkeypatch):
    monkeypatch.setattr(models, "load_embedder", lambda settings: real_embedder)
    endpoint(wrong_shape)
    result = CliRunner().invoke(
        cli, ["ask", "Who are the coauthors of Marcus Michelen?", "--choice", "retrieval", "--code", "model"]
    )
    one_error_line(result, says="sent an event of the wrong shape")


async def test_the_paper_search_tab_says_the_endpoint_gave_no_answer(where, mini_library, make_app):
    from textual.widgets import Button, Input, Static

    from .pilot_support import wait_for

    recorder = Recorder(html_page)
    llm = OpenAICompatibleLLM(URL, model="x", transport=httpx.MockTransport(recorder))
    app = make_app(llm)
    async with app.run_test(size=(160, 48)) as pilot:
        app.query_one("#pasa-query", Input).value = "graph neural networks"
        await pilot.click("#pasa-search")
        status = app.query_one("#pasa-status", Static)
        await wait_for(pilot, lambda: "answered text/html" in str(status.render()))
        assert URL in str(status.render()) and app.query_one("#pasa-cancel", Button).disabled
    assert len(recorder.requests) == 1  # the crawl stopped at the first call without an answer
