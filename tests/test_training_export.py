"""The GGUF export end to end: LoRA run -> merged folder -> llama.cpp converter -> registry.

The converter (llama.cpp's convert_hf_to_gguf.py) is not a PyPI package; it is found in uv's cache
of the llama-cpp-python sdist. Where it is absent the end-to-end test is skipped and the missing-
converter message is still checked.
"""

from pathlib import Path

import numpy as np
import pytest
import torch

from scholar_tui.models.registry import resolve_llm
from scholar_tui.training import export_gguf, selector_sft
from scholar_tui.training.errors import TrainingError
from scholar_tui.training.tiny_model import build_tiny_model

FIXTURES = Path(__file__).parent / "fixtures" / "training"


def _converter_or_skip():
    try:
        return export_gguf.find_converter()
    except TrainingError as error:
        pytest.skip(str(error))


def test_export_merges_converts_registers_and_llama_cpp_agrees_with_torch(tmp_path, where):
    _converter_or_skip()
    model = build_tiny_model(tmp_path / "tiny", seed=2)
    run = selector_sft.main(
        [
            "--model",
            str(model),
            "--train-file",
            str(FIXTURES / "selector.jsonl"),
            "--output-dir",
            str(tmp_path / "run"),
            "--lora",
            "--lora-r",
            "2",
            "--learning-rate",
            "5e-2",
            "--max-steps",
            "1",
            "--device",
            "cpu",
            "--quiet",
        ]
    )
    summary = export_gguf.main(
        ["--model", run["final"], "--outtype", "f32", "--quantize", "none", "--output-dir", str(tmp_path / "gguf")]
    )
    assert summary["name"] == "run" and summary["registered"]
    entry = resolve_llm("run", where)  # what `scholar-tui models use run` resolves
    assert entry.location == summary["gguf"] and entry.kind == "gguf"

    from llama_cpp import Llama
    from transformers import AutoModelForCausalLM

    merged = AutoModelForCausalLM.from_pretrained(summary["hf_folder"]).eval()
    base = AutoModelForCausalLM.from_pretrained(str(model)).eval()
    ids = [1, 60, 61, 62, 63, 64, 65]
    with torch.no_grad():
        expected = merged(torch.tensor([ids])).logits[0, -1].numpy()
        unmerged = base(torch.tensor([ids])).logits[0, -1].numpy()
    assert not np.allclose(expected, unmerged, atol=1e-4)  # the LoRA step is in the merged weights
    llama = Llama(model_path=summary["gguf"], n_ctx=64, logits_all=True, verbose=False)
    assert llama.n_vocab() == merged.config.vocab_size == summary["vocabulary"]
    llama.eval(ids)
    got = np.asarray(llama.scores[len(ids) - 1])
    llama.close()
    assert np.allclose(got, expected, atol=1e-3), float(np.abs(got - expected).max())

    quantized = export_gguf.quantize(tmp_path / "gguf" / "run-f32.gguf", tmp_path / "gguf" / "run-Q8_0.gguf", "Q8_0")
    assert 0 < quantized.stat().st_size < (tmp_path / "gguf" / "run-f32.gguf").stat().st_size
    with pytest.raises(TrainingError, match="unknown quantization 'Q9_X'"):
        export_gguf.quantize(quantized, tmp_path / "gguf" / "x.gguf", "Q9_X")


def test_a_missing_converter_is_one_clear_line(tmp_path, monkeypatch):
    monkeypatch.delenv("LLAMA_CPP_DIR", raising=False)
    monkeypatch.setenv("UV_CACHE_DIR", str(tmp_path / "empty-cache"))
    with pytest.raises(TrainingError) as error:
        export_gguf.find_converter()
    message = str(error.value)
    assert "convert_hf_to_gguf.py" in message and "--convert-script" in message and "\n" not in message
    with pytest.raises(TrainingError, match="no such file"):
        export_gguf.find_converter(str(tmp_path / "nope.py"))


def test_lora_from_a_gguf_base_exports_as_a_llama_cpp_adapter(tmp_path, where):
    """PaSa's route at our scale: train from a GGUF (dequantized), export the adapter, and llama.cpp
    running base + adapter agrees with the trained model in torch."""
    _converter_or_skip()
    from llama_cpp import Llama

    from scholar_tui.config.settings import Settings
    from scholar_tui.models import load_llm
    from scholar_tui.training import export_lora
    from scholar_tui.training.runtime import load_model

    base = export_gguf.main(
        [
            "--model",
            str(build_tiny_model(tmp_path / "tiny", seed=3)),
            "--outtype",
            "f32",
            "--quantize",
            "none",
            "--output-dir",
            str(tmp_path / "base"),
            "--name",
            "tiny-base",
            "--no-register",
        ]
    )["gguf"]
    run = selector_sft.main(
        [
            "--model",
            base,
            "--train-file",
            str(FIXTURES / "selector.jsonl"),
            "--output-dir",
            str(tmp_path / "run"),
            "--lora",
            "--lora-r",
            "2",
            "--lora-dropout",
            "0",
            "--learning-rate",
            "5e-2",
            "--max-steps",
            "1",
            "--device",
            "cpu",
            "--quiet",
        ]
    )
    summary = export_lora.main(
        [
            "--model",
            run["final"],
            "--outtype",
            "f32",
            "--name",
            "tiny-selector",
            "--output-dir",
            str(tmp_path / "adapter"),
        ]
    )
    entry = resolve_llm("tiny-selector", where)
    assert entry.location == str(Path(base).resolve()) and entry.adapter == summary["gguf"] and entry.available

    trained, _ = load_model(run["final"])  # the base GGUF dequantized, the adapter merged
    untrained, _ = load_model(base)
    ids = [1, 60, 61, 62, 63, 64, 65]
    with torch.no_grad():
        expected = trained.eval()(torch.tensor([ids])).logits[0, -1].numpy()
        before = untrained.eval()(torch.tensor([ids])).logits[0, -1].numpy()
    assert not np.allclose(expected, before, atol=1e-4)  # the step moved the model
    llama = Llama(model_path=base, lora_path=summary["gguf"], n_ctx=64, logits_all=True, verbose=False)
    llama.eval(ids)
    got = np.asarray(llama.scores[len(ids) - 1])
    llama.close()
    assert np.allclose(got, expected, atol=1e-3), float(np.abs(got - expected).max())
    settings = Settings()
    settings.llm.model = "tiny-selector"
    assert load_llm(settings, where).model_name == "tiny-selector"  # `models use` runs base + adapter
