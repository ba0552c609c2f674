"""The bigger-model path of Scholar Q&A: with ``llm.model`` set to an OpenAI-compatible endpoint (the one
setting of README *Models*), the same flow runs with the model choosing the plan among the top three
and writing the program. The endpoint is faked with httpx's MockTransport: no network."""

from __future__ import annotations

import json
import re

import httpx

import scholar_tui.models.openai_http as openai_http
from scholar_tui.config.settings import load_settings
from scholar_tui.core.services import Services
from scholar_tui.core.soay.engine import SoAyEngine, SolutionChosen, final_answer

from .soay_support import FakeAPI, InlineSandbox
from .test_openai_http import Recorder, sse

URL = "http://big-model.test/v1"
PROGRAM = (
    "paper = searchPublication(publication_info='OpenCat: Improving Interoperability of ADS Testing')[0]\n"
    "result = getPublication(pub_id=paper['pub_id'])['venue']"
)


def bigger_model(request: httpx.Request) -> httpx.Response:
    """What a capable model replies: the request whose description is about the venue, then a program."""
    prompt = json.loads(request.content).get("prompt", "")
    if "Reply with the letter" in prompt:
        options = dict(re.findall(r"^([ABC])\) (.*)$", prompt, re.M))
        reply = next(letter for letter, text in options.items() if text.startswith("venue:"))
    else:
        reply = PROGRAM
    return httpx.Response(200, content=sse({"choices": [{"text": reply, "finish_reason": "stop"}]}))


def test_an_endpoint_set_by_one_setting_chooses_the_plan_and_writes_the_program(where, monkeypatch):
    recorder = Recorder(bigger_model)

    class FakeEndpoint(openai_http.OpenAICompatibleLLM):  # the real client, its HTTP answered here
        def __init__(self, base_url, **options):
            super().__init__(base_url, transport=httpx.MockTransport(recorder), **options)

    monkeypatch.setattr(openai_http, "OpenAICompatibleLLM", FakeEndpoint)
    monkeypatch.setenv("SCHOLAR_TUI_LLM__MODEL", f"{URL}#big")
    services = Services(where, load_settings(where))
    api = FakeAPI()
    engine = SoAyEngine(
        api, llm_provider=services.llm, sandbox=InlineSandbox(api), choice_mode="llm", code_mode="model"
    )
    try:
        events = list(engine.run("Which venue did OpenCat appear in?"))
    finally:
        engine.close()
        services.close()
    answer = final_answer(events)
    chosen = next(event for event in events if isinstance(event, SolutionChosen))
    assert chosen.mode == "llm" and answer.choice_mode == "llm" and answer.code_mode == "model"
    assert answer.program == PROGRAM and answer.value == "arXiv"
    assert answer.answer == "Venue of OpenCat: Improving Interoperability of ADS Testing: arXiv."
    assert [r.url.path for r in recorder.requests] == ["/v1/completions", "/v1/completions"]
