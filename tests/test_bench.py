"""`bench llm` measures both paths on the real model (figures are reported, not asserted)."""

import json

import pytest

from scholar_tui.models.bench import bench_llm

pytestmark = pytest.mark.llm


def test_bench_measures_ours_and_bare(real_llm):
    result = bench_llm(real_llm, n_prompt=32, n_gen=8, repetitions=1)
    assert result.ours_prompt_tps > 0 and result.ours_gen_tps > 0
    assert result.bare_prompt_tps > 0 and result.bare_gen_tps > 0
    assert result.threads == real_llm.n_threads
    # the model still generates correctly after the bare run cleared its KV cache
    assert real_llm.complete("The capital of France is", max_tokens=4).text.strip()


def test_bench_cli_json():
    from click.testing import CliRunner

    from scholar_tui.app.cli import cli

    result = CliRunner().invoke(
        cli, ["bench", "llm", "--n-prompt", "32", "--n-gen", "8", "--repetitions", "1", "--json"]
    )
    assert result.exit_code == 0, result.output
    figures = json.loads(result.output)
    assert figures["model"] == "smollm2-135m" and figures["bare_gen_tps"] > 0
