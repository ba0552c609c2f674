"""The CLI as a person uses it: one-line errors, JSON output, state under SCHOLAR_TUI_HOME."""

import json

import pytest
from click.testing import CliRunner

from scholar_tui.app.cli import cli

from .conftest import fake_gguf


def run(*args, **kwargs):
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False, **kwargs)
    return result


def test_paths_live_under_home(isolated_home):
    result = run("paths", "--json")
    assert result.exit_code == 0
    for value in json.loads(result.output).values():
        assert value.startswith(str(isolated_home.resolve()))


def test_home_option_overrides(tmp_path):
    result = run("--home", str(tmp_path / "elsewhere"), "paths", "--json")
    assert json.loads(result.output)["data_dir"] == str((tmp_path / "elsewhere" / "data").resolve())


def test_config_set_and_show(where):
    assert run("config", "set", "llm.n_ctx", "8192").exit_code == 0
    shown = json.loads(run("config", "show").output)
    assert shown["llm"]["n_ctx"] == 8192
    result = run("config", "set", "llm.n_ctx", "12")
    assert result.exit_code == 1 and "setting llm.n_ctx: Input should be greater than or equal to 256" in result.output


def test_models_list_marks_the_default():
    rows = json.loads(run("models", "list", "--json").output)
    default = next(row for row in rows if row["name"] == "smollm2-135m")
    assert default["active"] and default["available"] and default["kind"] == "gguf"
    assert any(row["kind"] == "sentence-transformers" and row["active"] for row in rows)
    assert "smollm2-135m" in run("models", "list").output


def test_models_use_a_path_and_refuse_nonsense(where, tmp_path):
    gguf = fake_gguf(tmp_path / "other.gguf")
    result = run("models", "use", str(gguf))
    assert result.exit_code == 0
    assert json.loads(run("config", "show").output)["llm"]["model"] == str(gguf.resolve())
    result = run("models", "use", "Ghinn")
    assert result.exit_code == 1 and "unknown model 'Ghinn'" in result.output
    assert "Traceback" not in result.output


def test_pull_when_offline_says_so_in_one_line(monkeypatch):
    result = run("models", "pull", "HuggingFaceTB/SmolLM2-360M-Instruct-GGUF", "smollm2-360m-instruct-q8_0.gguf")
    assert result.exit_code == 1
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and "offline" in lines[0].lower()


def test_pull_with_no_network_says_offline(monkeypatch):
    from .test_pull import allow_hub

    allow_hub(monkeypatch)
    # a closed loopback port stands in for a machine without internet
    result = run("models", "pull", "--endpoint", "http://127.0.0.1:9", "someone/repo", "model.gguf")
    assert result.exit_code == 1
    assert "offline: cannot reach the Hugging Face Hub" in result.output
    assert "Traceback" not in result.output


def test_pull_refuses_offline_setting(monkeypatch):
    monkeypatch.setenv("SCHOLAR_TUI_NETWORK__OFFLINE", "true")
    result = run("models", "pull", "someone/repo", "model.gguf")
    assert result.exit_code == 1 and "offline mode is on" in result.output


def test_doctor_reports_everything_offline_without_a_traceback():
    result = run("doctor", "--json")
    checks = {check["name"]: check for check in json.loads(result.output)}
    assert result.exit_code == 0, result.output
    for name in ("config", "data dir", "sqlite", "lancedb", "llama-cpp-python", "llm", "embeddings"):
        assert checks[name]["status"] == "ok", checks[name]
    network = checks["network http://127.0.0.1:9/"]
    assert network["status"] == "warn" and "unreachable" in network["detail"]


def test_doctor_fails_clearly_on_a_missing_model(monkeypatch):
    monkeypatch.setenv("SCHOLAR_TUI_LLM__MODEL", "/nowhere/model.gguf")
    result = run("doctor")
    assert result.exit_code == 1
    assert "no GGUF file at /nowhere/model.gguf" in result.output


@pytest.mark.llm
def test_prompt_streams_and_logs(where):
    result = run(
        "prompt", "Is water wet? Answer True or False.", "--choices", "True,False", "--logprobs", "3", "--json"
    )
    assert result.exit_code == 0, result.output
    record = json.loads(result.output)
    assert record["response"] in ("True", "False")
    assert record["tokens"][0]["top"]
    from scholar_tui.indexes.db import open_database

    assert open_database(where)["llm_calls"].count == 1


def test_prompt_with_a_broken_schema_is_one_line():
    result = run("prompt", "x", "--schema", "{nope")
    assert result.exit_code == 1 and "--schema is not valid JSON" in result.output
