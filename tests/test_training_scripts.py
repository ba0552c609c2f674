"""One optimizer step of every training script on the CPU, with a tiny random Llama built here.

Nothing is downloaded (HF_HUB_OFFLINE=1): the model and its byte-fallback tokenizer are written by
``training.tiny_model``. Each run must give a finite loss, a checkpoint that reloads, and a resumed
run that continues where the first stopped.
"""

import json
import math
from pathlib import Path

import pytest
import torch
from click.testing import CliRunner

from scholar_tui.app.cli import cli
from scholar_tui.training import crawler_il, crawler_ppo, selector_sft, soay_sft
from scholar_tui.training.crawler_env import TOY_QUERIES, ToyCrawlerEnvironment
from scholar_tui.training.errors import TrainingError
from scholar_tui.training.runtime import read_losses
from scholar_tui.training.tiny_model import build_tiny_model, tiny_tokenizer

FIXTURES = Path(__file__).parent / "fixtures" / "training"
SIGN_QUERY = next(query for query in TOY_QUERIES if "sign videos" in query)
CPU = ["--device", "cpu", "--quiet"]


@pytest.fixture(scope="module")
def tiny(tmp_path_factory) -> Path:
    return build_tiny_model(tmp_path_factory.mktemp("tiny") / "model")


def _adapter(folder: Path) -> dict:
    return torch.load(folder / "final" / "adapter.pt")


def test_soay_sft_one_step_then_resume_matches_an_uninterrupted_run(tiny, tmp_path):
    common = [
        "--model",
        str(tiny),
        "--train-file",
        str(FIXTURES / "soaybench.jsonl"),
        "--api-description",
        str(FIXTURES / "api_description.txt"),
        "--batch-size",
        "2",
        "--learning-rate",
        "1e-2",
        "--lora",
        "--lora-r",
        "2",
        "--lora-dropout",
        "0",
        *CPU,
    ]
    first = soay_sft.main(common + ["--output-dir", str(tmp_path / "a"), "--max-steps", "1"])
    assert first["steps"] == 1 and first["examples"] == 4  # the train split only
    assert math.isfinite(first["loss"]) and 4.0 < first["loss"] < 7.0  # about ln(vocabulary) at random
    assert (tmp_path / "a" / "checkpoint.pt").is_file()
    resumed = soay_sft.main(common + ["--output-dir", str(tmp_path / "a"), "--max-steps", "2"])
    straight = soay_sft.main(common + ["--output-dir", str(tmp_path / "b"), "--max-steps", "2"])
    assert resumed["steps"] == straight["steps"] == 2
    assert [row["step"] for row in read_losses(tmp_path / "a")] == [1, 2]
    assert resumed["loss"] == pytest.approx(straight["loss"], rel=1e-5)
    for name, tensor in _adapter(tmp_path / "b").items():
        assert torch.allclose(_adapter(tmp_path / "a")[name], tensor, atol=1e-6), name
    assert any(tensor.abs().sum() > 0 for name, tensor in _adapter(tmp_path / "a").items() if "lora_B" in name)


def test_selector_sft_full_fine_tuning_step_and_checkpoint(tiny, tmp_path):
    out = tmp_path / "selector"
    summary = selector_sft.main(
        [
            "--model",
            str(tiny),
            "--train-file",
            str(FIXTURES / "selector.jsonl"),
            "--output-dir",
            str(out),
            "--batch-size",
            "4",
            "--max-steps",
            "1",
            *CPU,
        ]
    )
    assert summary["steps"] == 1 and math.isfinite(summary["loss"])
    saved = torch.load(out / "checkpoint.pt", weights_only=False)
    assert saved["progress"]["step"] == 1 and saved["optimizer"]["state"]  # AdamW moments were saved
    assert "lm_head.weight" in saved["models"]["model"]  # full fine-tuning saves every weight
    from transformers import AutoModelForCausalLM

    before = AutoModelForCausalLM.from_pretrained(str(tiny)).lm_head.weight
    after = AutoModelForCausalLM.from_pretrained(str(out / "final")).lm_head.weight
    assert not torch.allclose(before, after)  # the step changed the weights that final/ holds


def test_crawler_il_chat_template_and_ppo_step_resume(tmp_path):
    model = build_tiny_model(tmp_path / "chat-model", chat_template=True, seed=1)
    il = crawler_il.main(
        [
            "--model",
            str(model),
            "--train-file",
            str(FIXTURES / "crawler_sessions.jsonl"),
            "--output-dir",
            str(tmp_path / "il"),
            "--batch-size",
            "4",
            "--max-steps",
            "1",
            "--lora",
            "--lora-r",
            "2",
            "--chat-template",
            "on",
            *CPU,
        ]
    )
    assert il["steps"] == 1 and math.isfinite(il["loss"])
    ppo_args = [
        "--model",
        il["final"],
        "--output-dir",
        str(tmp_path / "ppo"),
        "--lora",
        "--lora-r",
        "2",
        "--queries-per-step",
        "1",
        "--expand-sessions",
        "1",
        "--expand-rounds",
        "1",
        "--max-new-tokens",
        "6",
        "--policy-freezing-steps",
        "1",
        "--learning-rate",
        "1e-3",
        *CPU,
    ]
    first = crawler_ppo.main(ppo_args + ["--total-steps", "1"])
    row = first["last"]
    assert row["policy_frozen"] is True and row["policy_loss"] is None
    assert math.isfinite(row["value_loss"]) and row["value_loss"] > 0
    assert row["kl"] == pytest.approx(0.0, abs=1e-6)  # the policy starts as pi_sft
    second = crawler_ppo.main(ppo_args + ["--total-steps", "2"])
    assert second["steps"] == 2 and second["last"]["policy_frozen"] is False
    assert math.isfinite(second["last"]["policy_loss"])
    assert [row["step"] for row in read_losses(tmp_path / "ppo")] == [1, 2]
    adapter = _adapter(tmp_path / "ppo")
    assert any(tensor.abs().sum() > 0 for name, tensor in adapter.items() if "lora_B" in name)  # step 2 moved it


def test_ppo_scores_each_action_on_the_token_that_ends_it():
    tokenizer = tiny_tokenizer()
    env = ToyCrawlerEnvironment()
    env.reset(SIGN_QUERY)
    ids = tokenizer("[Search] sign language translation [Stop] and more", add_special_tokens=False)["input_ids"]
    costs = {"Search": 0.1, "Expand": 0.1, "Stop": 0.0}
    kept, rewards, found_at, actions, relevant = crawler_ppo.score_actions(
        env, tokenizer, SIGN_QUERY, ids, costs, alpha=1.5, selector=None
    )
    assert tokenizer.decode(kept).endswith("[Stop]")  # the session ends at [Stop]
    (index,) = [i for i, reward in enumerate(rewards) if reward != 0]
    assert tokenizer.decode(kept[: index + 1]).endswith("translation")
    assert rewards[index] == pytest.approx(1.5 * 1 - 0.1)  # Eq. 1: one relevant paper (TSPNet) among three
    assert [item.paper_id for item in found_at[index]] == ["1803.00001", "1905.00003", "2010.05468"]
    assert (actions, relevant) == (2, 1)
    env.reset(SIGN_QUERY)
    _, rewards, _, _, relevant = crawler_ppo.score_actions(
        env, tokenizer, SIGN_QUERY, ids, costs, alpha=1.5, selector=lambda query, paper: 0.8
    )
    assert relevant == 3 and max(rewards) == pytest.approx(1.5 * 3 - 0.1)  # Eq. 2: the Selector counts too


def test_cli_help_errors_and_json(tiny, tmp_path):
    runner = CliRunner()
    result = runner.invoke(cli, ["train", "crawler-ppo", "--help"])
    assert result.exit_code == 0 and "--gamma1" in result.output and "(Table 9)" in result.output
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"query": "q"}\n')
    result = runner.invoke(
        cli,
        [
            "train",
            "selector-sft",
            "--model",
            str(tiny),
            "--train-file",
            str(bad),
            "--output-dir",
            str(tmp_path / "o"),
            "--device",
            "cpu",
        ],
    )
    assert result.exit_code == 1 and f"{bad}:1: missing field 'title'" in result.output
    assert "Traceback" not in result.output
    result = runner.invoke(
        cli,
        [
            "train",
            "selector-sft",
            "--model",
            str(tmp_path / "nothing"),
            "--train-file",
            str(FIXTURES / "selector.jsonl"),
            "--output-dir",
            str(tmp_path / "o"),
        ],
    )
    assert result.exit_code == 1 and "cannot load model" in result.output
    result = runner.invoke(
        cli,
        [
            "train",
            "selector-sft",
            "--json",
            "--model",
            str(tiny),
            "--train-file",
            str(FIXTURES / "selector.jsonl"),
            "--output-dir",
            str(tmp_path / "j"),
            "--max-steps",
            "1",
            "--device",
            "cpu",
        ],
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["steps"] == 1


def test_a_checkpoint_from_another_model_is_refused(tiny, tmp_path):
    out = tmp_path / "run"
    args = ["--train-file", str(FIXTURES / "selector.jsonl"), "--output-dir", str(out), "--max-steps", "1", *CPU]
    selector_sft.main(["--model", str(tiny), "--lora", "--lora-r", "2", *args])
    with pytest.raises(TrainingError, match="does not match this model"):
        selector_sft.main(["--model", str(tiny), *args])  # full fine-tuning cannot resume a LoRA checkpoint
