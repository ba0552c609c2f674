"""Training data formats (the engines' records and prompts, JSONL), the options parser and the toy Crawler environment (no torch)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from scholar_tui.core.jsonl import FormatError, read_jsonl, write_jsonl
from scholar_tui.core.pasa.prompts import (
    CrawlerAction,
    CrawlerSession,
    Paper,
    SelectorRecord,
    crawler_prompt,
    crawler_response,
    parse_actions,
    selector_prompt,
    selector_response,
)
from scholar_tui.core.soay.prompts import SoAyRecord, parse_soay_response, soay_prompt, soay_response
from scholar_tui.training.crawler_env import TOY_QUERIES, StepPaper, ToyCrawlerEnvironment, count_relevant
from scholar_tui.training.options import parse_options
from scholar_tui.training.soay_sft import SoAySFTOptions

FIXTURES = Path(__file__).parent / "fixtures" / "training"
SIGN_QUERY = next(query for query in TOY_QUERIES if "sign videos" in query)


def test_fixture_files_read_and_round_trip(tmp_path):
    soay = read_jsonl(FIXTURES / "soaybench.jsonl", SoAyRecord)
    assert [record.split for record in soay].count("train") == 4
    assert soay[0].solution == ["searchPerson", "getPersonPubs"] and soay[0].hops == 2
    selector = read_jsonl(FIXTURES / "selector.jsonl", SelectorRecord)
    assert [record.decision for record in selector] == [True, False, True, False]
    sessions = read_jsonl(FIXTURES / "crawler_sessions.jsonl", CrawlerSession)
    assert sessions[2].kind == "expand" and sessions[2].paper.sections == ["3 Translation", "4 Recognition"]
    for records, kind in ((soay, SoAyRecord), (selector, SelectorRecord), (sessions, CrawlerSession)):
        path = tmp_path / f"{kind.__name__}.jsonl"
        assert write_jsonl(path, records) == len(records)
        assert read_jsonl(path, kind) == records


@pytest.mark.parametrize(
    "line, message",
    [
        ('{"query": "q", "kind": "search", "paper": null, "actions": ["[Search] a"]}', "ending with one [Stop]"),
        (
            '{"query": "q", "kind": "search", "paper": null, "actions": ["[Expand] 2 Related Work", "[Stop]"]}',
            "[Search] actions",
        ),
        ('{"query": "q", "kind": "expand", "paper": null, "actions": ["[Stop]"]}', "needs a 'paper'"),
        ('{"query": "q", "kind": "search", "paper": null, "actions": ["[Search]", "[Stop]"]}', "needs its query"),
        ('{"query": "q", "kind": "browse", "paper": null, "actions": ["[Stop]"]}', "'kind' must be one of"),
        ("not json", "not JSON"),
    ],
)
def test_bad_crawler_lines_are_named_by_file_and_line(tmp_path, line, message):
    path = tmp_path / "bad.jsonl"
    path.write_text(
        '{"query": "q", "kind": "search", "paper": null, "actions": ["[Search] a", "[Stop]"]}\n' + line + "\n"
    )
    with pytest.raises(FormatError) as error:
        read_jsonl(path, CrawlerSession)
    assert f"{path}:2" in str(error.value) and message in str(error.value)


def test_bad_soay_and_selector_records():
    good = json.loads((FIXTURES / "soaybench.jsonl").read_text().splitlines()[0])
    with pytest.raises(FormatError, match="'split' must be one of"):
        SoAyRecord.from_dict({**good, "split": "dev"})
    with pytest.raises(FormatError, match="'hops' must be int, not a boolean"):
        SoAyRecord.from_dict({**good, "hops": True})
    with pytest.raises(FormatError, match="missing field 'decision'"):
        SelectorRecord.from_dict({"query": "q", "title": "t", "abstract": "a", "rationale": "r"})


def test_prompts_follow_the_papers():
    paper = Paper("A Survey of Sign Language", "We survey.", ["1 Introduction", "2 Related Work"])
    search = crawler_prompt("sign videos", None)
    assert search.startswith("Please, generate some mutually exclusive queries") and search.endswith(
        "User Query: sign videos"
    )
    expand = crawler_prompt("sign videos", paper)
    assert "You are conducting research on 'sign videos'" in expand
    assert 'Sections: ["1 Introduction", "2 Related Work"]' in expand
    assert crawler_response(["[Search] a b", "[Stop]"]) == "[Search] a b [Stop]"  # Table 8's layout
    prompt = selector_prompt("sign videos", "TSPNet", "Hierarchical features.")
    assert "conducting research on sign videos" in prompt and prompt.endswith("Decision:")
    assert selector_response(False, "Off topic.").startswith("False\n")  # decision token first
    response = soay_response(["searchPerson", "getPersonPubs"], "result = 1")
    assert parse_soay_response(response) == (["searchPerson", "getPersonPubs"], "result = 1")
    assert soay_prompt("Who?", "searchPerson(name)").startswith("searchPerson(name)")


def test_parse_actions_gives_spans_that_end_where_the_tool_runs():
    text = "[Search] sign language  [Expand] 2 Related Work [Stop] tail"
    actions = parse_actions(text)
    assert [(a.kind, a.argument) for a in actions] == [
        ("Search", "sign language"),
        ("Expand", "2 Related Work"),
        ("Stop", ""),
    ]
    assert text[actions[0].start : actions[0].end] == "[Search] sign language"
    assert text[actions[2].start : actions[2].end] == "[Stop]"
    assert parse_actions("no actions here") == []


def test_options_precedence_defaults_config_file_flags(tmp_path):
    config = tmp_path / "run.toml"
    config.write_text(
        'model = "m"\ntrain-file = "t.jsonl"\noutput_dir = "out"\napi_description = "a.txt"\n'
        "learning_rate = 3e-4\nbatch_size = 2\nlora = true\n"
    )
    options = parse_options(SoAySFTOptions, ["--config", str(config), "--batch-size", "5"], "x", "y")
    assert (options.model, options.learning_rate, options.batch_size, options.lora) == ("m", 3e-4, 5, True)
    assert options.epochs == 1  # the default
    json_config = tmp_path / "run.json"
    json_config.write_text(json.dumps({"model": "m", "lr": 1}))
    with pytest.raises(SystemExit):
        parse_options(SoAySFTOptions, ["--config", str(json_config)], "x", "y")
    with pytest.raises(SystemExit):  # required keys missing
        parse_options(SoAySFTOptions, ["--model", "m"], "x", "y")


def test_toy_environment_search_expand_queue_and_relevance():
    env = ToyCrawlerEnvironment()
    env.reset(SIGN_QUERY)
    found = env.step(CrawlerAction("Search", "sign language translation"))
    # Word overlap 3 for four papers; ties break on the id, and the search returns three.
    assert [item.paper_id for item in found] == ["1803.00001", "1905.00003", "2010.05468"]
    assert count_relevant(env, SIGN_QUERY, found) == 1  # only TSPNet is in the answer set
    assert env.step(CrawlerAction("Search", "sign language translation")) == []  # all already queued
    paper = env.expand(SIGN_QUERY, "2010.05468")
    assert paper.sections == ["1 Introduction", "2 Related Work", "4 Experiments"]
    added = env.step(CrawlerAction("Expand", "2 related work"))
    assert [item.paper_id for item in added] == ["2111.07258"]  # the other two are in the queue
    assert env.step(CrawlerAction("Expand", "9 Nowhere")) == [] and env.step(CrawlerAction("Stop", "")) == []

    def everyone(query, paper):  # a Selector that says True to all
        return 0.9

    assert count_relevant(env, SIGN_QUERY, found, selector=everyone) == 3
    nobody = [StepPaper("1706.03762", env.paper("1706.03762"))]
    assert count_relevant(env, SIGN_QUERY, nobody, selector=lambda query, paper: 0.4) == 0


def test_formats_and_the_cli_module_import_without_torch():
    code = (
        "import sys, scholar_tui.core.jsonl, scholar_tui.core.pasa.prompts, scholar_tui.core.soay.prompts, "
        "scholar_tui.training.crawler_env, "
        "scholar_tui.training.options, scholar_tui.app.cli_train\n"
        "sys.exit(1 if 'torch' in sys.modules else 0)"
    )
    assert subprocess.run([sys.executable, "-c", code]).returncode == 0


def test_scripts_share_their_flags_through_options_not_the_sft_loop():
    """``option()``/``required()`` live in training/options.py: the export and PPO scripts declare
    their flags without loading the SFT loop (they did, through training/sft.py)."""
    code = (
        "import sys, scholar_tui.training.export_gguf, scholar_tui.training.export_lora, "
        "scholar_tui.training.crawler_ppo\n"
        "sys.exit(1 if 'scholar_tui.training.sft' in sys.modules else 0)"
    )
    assert subprocess.run([sys.executable, "-c", code]).returncode == 0
