"""Embeddings: the bundled model converted to GGUF and run by llama.cpp, offline; the backends."""

import json
import shutil

import numpy as np
import pytest

from scholar_tui.models import LLMError, load_embedder
from scholar_tui.models.cpu import Threads
from scholar_tui.models.embeddings import LlamaCppEmbedder, SentenceTransformerEmbedder
from scholar_tui.models.gguf_bert import ConversionError, read_bert_folder
from scholar_tui.models.registry import ModelEntry, builtin_models, register

pytestmark = pytest.mark.embeddings

QUESTIONS = [
    "When does the rebuttal period end?",
    "Deadline for author responses",
    "Registration fee for ACM members",
]
LONG_TEXT = " ".join(["Zeros of random polynomials with independent roots and their derivatives."] * 60)


def bundled_folder():
    return builtin_models()[1].location


def test_default_embedder_is_llama_cpp_and_embeds_meaningfully(settings, where):
    embedder = load_embedder(settings, where)
    assert isinstance(embedder, LlamaCppEmbedder)
    vectors = embedder.embed(QUESTIONS)
    assert vectors.shape == (3, 384) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-4)
    similar, unrelated = vectors[0] @ vectors[1], vectors[0] @ vectors[2]
    assert similar > unrelated
    assert embedder.embed([]).shape == (0, 384)
    # converted once into the models folder (its own subfolder, which `models list` does not show)
    converted = list((where.models_dir / "converted").glob("*.gguf"))
    assert len(converted) == 1 and converted[0].stat().st_size > 40e6
    again = load_embedder(settings, where)
    assert np.allclose(again.embed(QUESTIONS), vectors, atol=1e-6)
    assert list((where.models_dir / "converted").glob("*.gguf")) == converted


def test_long_texts_are_cut_like_sentence_transformers(settings, where):
    embedder = load_embedder(settings, where)
    tokens = embedder.tokens(LONG_TEXT)
    assert len(tokens) == 256 == embedder.max_tokens  # sentence_bert_config.json's max_seq_length
    assert tokens[0] == 101 and tokens[-1] == 102  # [CLS] … [SEP], as the tokenizer truncates
    # a batch packs many texts into one decode: each row is what the text gets alone
    batch = embedder.embed([LONG_TEXT, *QUESTIONS] * 3)
    for row, text in enumerate([LONG_TEXT, *QUESTIONS] * 3):
        assert batch[row] @ embedder.embed_one(text) > 0.99999  # F16 sums differ by batch shape only


def test_llama_cpp_matches_sentence_transformers(settings, where):
    pytest.importorskip("sentence_transformers")
    texts = [*QUESTIONS, LONG_TEXT, "Café naïve résumé — Übermensch 東京!!", ""]
    ours = load_embedder(settings, where).embed(texts)
    settings.embeddings.backend = "sentence-transformers"
    reference_embedder = load_embedder(settings, where)
    assert isinstance(reference_embedder, SentenceTransformerEmbedder)
    reference = reference_embedder.embed(texts)
    assert (ours * reference).sum(axis=1).min() >= 0.999


def test_a_registered_gguf_is_chosen_by_name(settings, where, tmp_path):
    converted = load_embedder(settings, where)
    converted.embed(QUESTIONS[:1])
    copy = tmp_path / "mini-embed.gguf"
    shutil.copy(converted.model_path, copy)
    register(where, ModelEntry("mini-embed", "gguf", str(copy), "test"))
    settings.embeddings.model = "mini-embed"
    chosen = load_embedder(settings, where)
    assert chosen.model_path == copy and chosen.name == "mini-embed"
    assert np.allclose(chosen.embed(QUESTIONS), converted.embed(QUESTIONS), atol=1e-6)
    settings.embeddings.model = str(copy)  # a path works as well
    assert load_embedder(settings, where).model_path == copy.resolve()


def test_backend_choice_and_its_errors(settings, where, tmp_path):
    settings.embeddings.backend = "sentence-transformers"
    assert isinstance(load_embedder(settings, where), SentenceTransformerEmbedder)
    # a folder llama.cpp cannot run (here: a cased vocabulary) goes to sentence-transformers under auto
    cased = tmp_path / "cased"
    shutil.copytree(bundled_folder(), cased)
    tokenizer = json.loads((cased / "tokenizer.json").read_text())
    tokenizer["normalizer"]["lowercase"] = False
    (cased / "tokenizer.json").write_text(json.dumps(tokenizer))
    with pytest.raises(ConversionError, match="uncased WordPiece"):
        read_bert_folder(cased)
    settings.embeddings.backend = "auto"
    settings.embeddings.model = str(cased)
    assert isinstance(load_embedder(settings, where), SentenceTransformerEmbedder)
    settings.embeddings.backend = "llama.cpp"
    with pytest.raises(LLMError, match="cannot convert cased .*uncased WordPiece"):
        load_embedder(settings, where).embed(["x"])
    # a damaged GGUF is one line, not a crash
    broken = tmp_path / "broken.gguf"
    broken.write_bytes(b"GGUF not really")
    settings.embeddings.model = str(broken)
    with pytest.raises(LLMError, match="could not load the embedding model broken"):
        load_embedder(settings, where).embed(["x"])
    settings.embeddings.backend = "sentence-transformers"
    with pytest.raises(LLMError, match="sentence-transformers cannot run it"):
        load_embedder(settings, where)


def test_missing_embedding_model_is_a_clear_error(where, monkeypatch):
    from scholar_tui.config.settings import load_settings

    monkeypatch.setenv("SCHOLAR_TUI_EMBEDDINGS__MODEL", "/nowhere/model")
    with pytest.raises(LLMError, match="embedding model '/nowhere/model' not found"):
        load_embedder(load_settings(where))


def test_a_query_runs_on_one_thread_and_a_long_batch_on_all(settings, where, monkeypatch):
    """llama.cpp's threads wait for each other after every operation: a short query on two
    threads took 1.6 s on a busy 2-core machine (10 ms on one), so short batches use one."""
    import llama_cpp

    embedder = load_embedder(settings, where)
    embedder.threads = Threads(2)  # a count pinned in the settings
    chosen = []
    real = llama_cpp.llama_set_n_threads
    monkeypatch.setattr(
        llama_cpp,
        "llama_set_n_threads",
        lambda ctx, threads, batch_threads: chosen.append(threads) or real(ctx, threads, batch_threads),
    )
    query = embedder.embed([QUESTIONS[0]])
    assert chosen == [1]
    embedder.embed([LONG_TEXT])
    assert chosen == [1, 2]
    embedder.threads = Threads(None)  # unset: a long batch takes the cores other programs leave free
    monkeypatch.setattr(embedder.threads.free_cores, "free", lambda: 1)
    embedder.embed([LONG_TEXT])
    assert chosen == [1, 2, 1]
    assert embedder.embed([QUESTIONS[0]])[0] @ query[0] > 0.99999  # the thread count changes no result


def test_n_gpu_layers_setting_reaches_the_llama_constructor(where, tmp_path, monkeypatch):
    """`embeddings.n_gpu_layers` is validated like every setting and handed to llama.cpp's Llama."""
    import llama_cpp

    from scholar_tui.config.settings import ConfigError, load_settings, save_setting

    opened = []

    class FakeLlama:  # records what the embedder asks for, then fails as a bad file would
        def __init__(self, **options):
            opened.append(options)
            raise ValueError("fake llama")

    monkeypatch.setattr(llama_cpp, "Llama", FakeLlama)
    model = tmp_path / "gpu-embed.gguf"
    model.write_bytes(b"GGUF")
    monkeypatch.setenv("SCHOLAR_TUI_EMBEDDINGS__MODEL", str(model))
    for written, expected in ((None, 0), (-1, -1), (12, 12)):
        if written is not None:
            save_setting(where, "embeddings.n_gpu_layers", written)
        with pytest.raises(LLMError, match="fake llama"):
            load_embedder(load_settings(where), where).embed(["x"])
        assert opened[-1]["n_gpu_layers"] == expected and opened[-1]["embedding"] is True
    with pytest.raises(ConfigError, match="greater than or equal to -1"):
        save_setting(where, "embeddings.n_gpu_layers", -2)
    assert load_settings(where).embeddings.n_gpu_layers == 12  # the refused write changed nothing
