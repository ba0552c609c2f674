"""`scholar-tui bench startup`: its pieces on small inputs (the whole bench runs minutes)."""

from click.testing import CliRunner

from scholar_tui.app.cli import cli
from scholar_tui.core.startup_bench import bench_texts, measure_throughput

from .library_support import HashingEmbedder


class BrokenEmbedder(HashingEmbedder):
    backend_name = "sentence-transformers"

    def embed(self, texts):
        raise RuntimeError("the sentence-transformers backend needs the `train` extra\nmore")


def test_missing_data_is_one_line(tmp_path):
    result = CliRunner().invoke(cli, ["bench", "startup", "--data", str(tmp_path)])
    assert result.exit_code == 1 and "the bench needs" in result.output and "Traceback" not in result.output


def test_throughput_and_an_unavailable_backend():
    working = HashingEmbedder()
    working.backend_name = "llama.cpp"
    fast, broken = measure_throughput(["a b", "c d", "e"], [working, BrokenEmbedder()])
    assert fast.per_second > 0 and fast.vectors.shape == (3, working.dimension) and "vectors" not in fast.as_dict()
    assert broken.per_second is None and broken.error == "the sentence-transformers backend needs the `train` extra"


def test_bench_texts_mix_papers_paragraphs_and_paths(shared_data):
    texts = bench_texts(shared_data, 400)
    assert len(texts) == 400 and len(set(texts)) > 350
    assert any("»" in text for text in texts) and any(len(text) > 1500 for text in texts)


def test_the_encoder_work_and_the_rates():
    from scholar_tui.core.startup_bench import Throughput, encoder_flops

    # one layer, width 2, feed-forward 4, a text of 3 tokens: 2·3·(4·4 + 2·2·4) + 4·9·2 = 192 + 72
    assert encoder_flops([3], layers=1, width=2, feed_forward=4) == 264.0
    assert encoder_flops([3, 3], layers=2, width=2, feed_forward=4) == 4 * 264.0
    rates = Throughput("llama.cpp", 10, seconds=2.0, tokens=500, flops=3e9).as_dict()
    assert (rates["texts_per_s"], rates["tokens_per_s"], rates["gflop_per_s"]) == (5.0, 250, 1.5)
    assert Throughput("x", 10, error="unavailable").as_dict()["gflop_per_s"] is None
