"""The default GGUF really generates through llama.cpp: text, JSON under a schema, logprobs."""

import json
import math

import pytest

from scholar_tui.models.base import CancelToken, LLMError

pytestmark = pytest.mark.llm


def test_generates_real_tokens(real_llm):
    completion = real_llm.complete("The capital of France is", max_tokens=8)
    assert completion.completion_tokens > 0
    assert completion.text.strip()
    assert completion.prompt_tokens >= 5
    assert completion.backend == "llama.cpp"


def test_chat_uses_the_models_template(real_llm):
    prompt, stops = real_llm.format_chat([{"role": "user", "content": "Hi"}])
    assert "<|im_start|>user" in prompt and prompt.rstrip().endswith("<|im_start|>assistant")
    completion = real_llm.chat([{"role": "user", "content": "Say hello."}], max_tokens=12)
    assert completion.text.strip()
    assert "<|im_end|>" not in completion.text


def test_json_schema_constrained_reply_parses(real_llm):
    schema = {
        "type": "object",
        "properties": {
            "title": {"type": "string", "maxLength": 40},
            "year": {"type": "integer"},
            "relevant": {"type": "boolean"},
        },
        "required": ["title", "year", "relevant"],
    }
    completion = real_llm.chat(
        [{"role": "user", "content": "Give the title and year of the paper 'Attention Is All You Need' as JSON."}],
        schema=schema,
        max_tokens=80,
    )
    reply = completion.json()
    assert set(reply) == {"title", "year", "relevant"}
    assert isinstance(reply["title"], str) and isinstance(reply["year"], int) and isinstance(reply["relevant"], bool)


def test_logprob_of_the_chosen_token(real_llm):
    completion = real_llm.complete("Is Paris in France? Answer True or False:", choices=["True", "False"], logprobs=5)
    assert completion.text in ("True", "False")
    first = completion.tokens[0]
    assert first.logprob <= 0.0 and 0.0 < first.probability <= 1.0
    assert len(first.top) >= 3
    # the top alternatives are a real distribution: descending and summing to at most 1
    values = list(first.top.values())
    assert values == sorted(values, reverse=True)
    assert sum(math.exp(value) for value in values) <= 1.0 + 1e-6


def test_choose_ranks_by_decision_token_probability(real_llm):
    scores = real_llm.choose(
        "Question: Is the sky blue on a clear day? Answer with True or False.\nAnswer:", ["True", "False"]
    )
    assert set(scores) == {"True", "False"}
    assert abs(sum(scores.values()) - 1.0) < 1e-6
    assert all(0.0 <= value <= 1.0 for value in scores.values())


def test_grammar_keeps_the_model_inside_the_users_words(real_llm):
    # An argument constrained to spans of the user's text cannot be invented.
    grammar = 'root ::= "Yoshua Bengio" | "Geoffrey Hinton"'
    completion = real_llm.chat(
        [{"role": "user", "content": "Who won the Turing award with Yoshua Bengio and Geoffrey Hinton? Name one."}],
        grammar=grammar,
        max_tokens=10,
    )
    assert completion.text in ("Yoshua Bengio", "Geoffrey Hinton")


def test_streaming_and_cancellation(real_llm):
    stream = real_llm.stream("Count: 1, 2, 3,", max_tokens=40)
    pieces = list(stream)
    assert len(pieces) > 3 and "".join(pieces) == stream.completion.text

    cancel = CancelToken()
    stream = real_llm.stream("Count: 1, 2, 3,", max_tokens=200, cancel=cancel)
    received = []
    for piece in stream:
        received.append(piece)
        if len(received) == 3:
            cancel.cancel()
    assert stream.completion.finish_reason == "cancelled"
    assert stream.completion.completion_tokens < 10


def test_stop_strings_end_the_reply(real_llm):
    completion = real_llm.complete("Count: 1, 2, 3,", max_tokens=40, stop=["6"])
    assert "6" not in completion.text and completion.finish_reason == "stop"
    assert "5" in completion.text


def test_prompt_too_long_is_a_clear_error(real_llm):
    with pytest.raises(LLMError, match="context holds"):
        real_llm.complete("word " * 5000, max_tokens=4)


def test_bad_grammar_is_a_clear_error(real_llm):
    with pytest.raises(LLMError, match="GBNF"):
        real_llm.complete("x", grammar="root ::= (", max_tokens=2)


def test_every_call_is_logged_to_sqlite(where, settings):
    from scholar_tui.core.llm import open_llm
    from scholar_tui.indexes.db import open_database

    llm = open_llm(settings, where)
    try:
        llm.complete("Hello", max_tokens=3)
        llm.complete("True or False?", choices=["True", "False"], logprobs=3)
    finally:
        llm.close()
    rows = list(open_database(where).query("select * from llm_calls order by id"))
    assert [row["prompt"] for row in rows] == ["Hello", "True or False?"]
    assert rows[1]["response"] in ("True", "False") and 'root ::= "True"' in rows[1]["grammar"]
    assert json.loads(rows[1]["logprobs_json"])[0]["top"]
    assert all(row["completion_tokens"] > 0 and row["duration_ms"] > 0 for row in rows)
