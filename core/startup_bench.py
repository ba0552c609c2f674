"""`scholar-tui bench startup`: how long whole commands take from a shell, and embedding speed.

Every figure but the embedding throughput is a whole process, timed from fork to exit with the
median of ``runs``: what a person waits for. The processes run against a scratch home that the
bench fills first from the real data (the unarXive sample into the library, the ICML tree as a
STAR conference), so ``library search``, ``ask`` and ``conf ask`` answer real questions; the
STAR index build of that preparation is reported too (cold: ``--rebuild``).

The TUI is timed headless by the probe module the caller names (``python -m PROBE``; the app's
``startup_probe``): the app runs under Textual's ``run_test`` until its status bar says the model
is ready, then the process ends at once. The app names it, so that core knows nothing of the app.

The processes may write bytecode caches, as a person's do (the preparation commands run first,
untimed, and leave them).

Embedding throughput embeds the same texts with both backends in this process (load excluded,
reported apart) and compares the vectors (cosine per text), so the ratio comes from one run.
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

ASK_QUESTION = "How many papers has Vahid Partovi Nia published?"
LIBRARY_QUERY = "roots of derivatives of random polynomials"
CONF_QUESTION = "When is the abstract submission deadline?"
UNARXIVE_FILE = Path("unarxive") / "arXiv_src_2212_086.jsonl"
ICML_TREE = Path("conferenceqa") / "ICML" / "ICML2023.json"


class BenchError(Exception):
    """The bench cannot run (missing data, a command that fails); one line for the user."""


@dataclass
class ProcessTiming:
    label: str
    command: list[str]
    seconds: list[float]
    target_s: float | None = None
    cpu_seconds: list[float] = field(default_factory=list)

    @property
    def median_s(self) -> float:
        return statistics.median(self.seconds)

    @property
    def median_cpu_s(self) -> float | None:
        return statistics.median(self.cpu_seconds) if self.cpu_seconds else None

    def as_dict(self) -> dict:
        return {
            "label": self.label,
            "command": self.command,
            "median_s": round(self.median_s, 3),
            "runs_s": [round(value, 3) for value in self.seconds],
            "target_s": self.target_s,
            "median_cpu_s": None if self.median_cpu_s is None else round(self.median_cpu_s, 3),
        }


@dataclass
class Throughput:
    backend: str
    texts: int
    load_s: float | None = None
    seconds: float | None = None
    error: str | None = None
    vectors: Any = field(default=None, repr=False)  # kept for the cosine between the backends
    tokens: int | None = None  # the texts' tokens as the model reads them (truncated)
    flops: float | None = None  # the encoder's arithmetic on them (``encoder_flops``)

    @property
    def per_second(self) -> float | None:
        return self.texts / self.seconds if self.seconds else None

    def rate(self, amount: float | None) -> float | None:
        return amount / self.seconds if self.seconds and amount else None

    def as_dict(self) -> dict:
        row = {key: value for key, value in asdict(self).items() if key != "vectors"}
        tokens_per_s, flops_per_s = self.rate(self.tokens), self.rate(self.flops)
        return {
            **row,
            "texts_per_s": None if self.per_second is None else round(self.per_second, 1),
            "tokens_per_s": None if tokens_per_s is None else round(tokens_per_s),
            "gflop_per_s": None if flops_per_s is None else round(flops_per_s / 1e9, 1),
        }


def encoder_flops(lengths: list[int], *, layers: int, width: int, feed_forward: int) -> float:
    """The floating-point operations (a multiply-add is two) a BERT encoder needs for texts of
    these token counts, each text attended on its own: per layer, the four attention projections
    and the two feed-forward matrices (2·T·(4d² + 2d·ff)) and the scores and their mix (4·T²·d).
    A padded batch (sentence-transformers) or a packed one (llama.cpp) does more; this is the
    work itself, to set a measured rate beside what the cores can do."""
    return float(
        sum(
            layers * (2 * count * (4 * width * width + 2 * width * feed_forward) + 4 * count * count * width)
            for count in lengths
        )
    )


def corpus_work(embedder, texts: list[str]) -> tuple[int, float]:
    """(tokens, FLOPs) of ``texts`` for a llama.cpp BERT embedder (its tokenizer and its shape)."""
    metadata = embedder.metadata
    arch = metadata["general.architecture"]
    lengths = [len(embedder.tokens(text)) for text in texts]
    return sum(lengths), encoder_flops(
        lengths,
        layers=int(metadata[f"{arch}.block_count"]),
        width=int(metadata[f"{arch}.embedding_length"]),
        feed_forward=int(metadata[f"{arch}.feed_forward_length"]),
    )


@dataclass
class StartupReport:
    home: str
    preparation: list[ProcessTiming] = field(default_factory=list)
    star_build_s: float | None = None
    processes: list[ProcessTiming] = field(default_factory=list)
    throughput: list[Throughput] = field(default_factory=list)
    cosine_min: float | None = None
    cosine_mean: float | None = None

    def as_dict(self) -> dict:
        return {
            "home": self.home,
            "preparation": [item.as_dict() for item in self.preparation],
            "star_build_s": self.star_build_s,
            "processes": [item.as_dict() for item in self.processes],
            "throughput": [item.as_dict() for item in self.throughput],
            "cosine_min": self.cosine_min,
            "cosine_mean": self.cosine_mean,
        }


def cli_command(*args: str) -> list[str]:
    """``scholar-tui ARGS``: the console script installed beside this interpreter, what a person
    runs from a shell (``uv run`` would add its own check of the environment)."""
    script = Path(sys.executable).parent / "scholar-tui"
    if not script.is_file():
        raise BenchError(f"no scholar-tui script beside {sys.executable}: install the project first")
    return [str(script), *args]


def _children_cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def time_process(command: list[str], env: dict[str, str]) -> tuple[float, float, subprocess.CompletedProcess]:
    """Wall seconds, CPU seconds (user + system: on a loaded machine the wall time waits for the
    CPU, the CPU time does not) and the finished process."""
    cpu_before, started = _children_cpu_s(), time.perf_counter()
    result = subprocess.run(command, env=env, capture_output=True, text=True, stdin=subprocess.DEVNULL)
    seconds, cpu_s = time.perf_counter() - started, _children_cpu_s() - cpu_before
    if result.returncode != 0:
        tail = (result.stderr or result.stdout).strip().splitlines()[-1:] or ["(no output)"]
        raise BenchError(f"{' '.join(command[1:])} failed (exit {result.returncode}): {tail[0]}")
    return seconds, cpu_s, result


def bench_texts(data_dir: Path, count: int) -> list[str]:
    """``count`` real texts, the kinds the app embeds: unarXive titles + abstracts and paragraphs
    (some longer than MiniLM reads, so truncation is exercised) and ICML conference paths."""
    from scholar_tui.core.conference.paths import leaf_paths
    from scholar_tui.core.conference.tree import load_json_tree

    papers, paragraphs = [], []
    with open(data_dir / UNARXIVE_FILE, encoding="utf-8") as lines:
        for line in lines:
            record = json.loads(line)
            meta = record["metadata"]
            papers.append(f"{' '.join(meta['title'].split())}. {' '.join(meta['abstract'].split())}")
            paragraphs += [part["text"] for part in record.get("body_text", []) if len(part.get("text", "")) > 200]
    paths = [path.text for path in leaf_paths(load_json_tree(data_dir / ICML_TREE))]
    # the same texts every run: all papers, a quarter paragraphs, the rest conference paths
    return (papers + paragraphs[: count // 4] + paths)[:count]


def measure_throughput(texts: list[str], embedders) -> Iterator[Throughput]:
    for embedder in embedders:
        result = Throughput(embedder.backend_name, len(texts))
        try:
            started = time.perf_counter()
            embedder.embed(texts[:1])  # load (and, the first time, convert) outside the timing
            result.load_s = time.perf_counter() - started
            started = time.perf_counter()
            result.vectors = embedder.embed(texts)
            result.seconds = time.perf_counter() - started
        except Exception as error:
            result.error = str(error).splitlines()[0]
        yield result


def run_startup_bench(
    data_dir: Path,
    *,
    tui_probe: str,
    runs: int = 5,
    texts: int = 2000,
    home: Path | None = None,
    progress=lambda line: None,
) -> StartupReport:
    """``tui_probe``: the module whose ``python -m`` run opens the TUI and exits once it is ready."""
    from scholar_tui.config.locations import HOME_ENV, locations
    from scholar_tui.config.settings import load_settings
    from scholar_tui.models import load_embedder

    data_dir = Path(data_dir)
    for needed in (UNARXIVE_FILE, ICML_TREE):
        if not (data_dir / needed).is_file():
            raise BenchError(f"the bench needs {data_dir / needed} (the shared data folder)")
    home = Path(home or tempfile.mkdtemp(prefix="scholar-tui-bench-"))
    env = {**os.environ, HOME_ENV: str(home), "SCHOLAR_TUI_NETWORK__OFFLINE": "1"}
    # A person's Python keeps the modules it compiled (__pycache__); with PYTHONDONTWRITEBYTECODE
    # set (as in some sandboxes) every process compiles ~400 modules again, +0.7 s each command.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    report = StartupReport(str(home))

    progress(f"preparing {home}: importing the unarXive sample and the ICML conference")
    steps = [
        ("import unarxive", cli_command("import", "unarxive", str(data_dir / UNARXIVE_FILE))),
        (
            "conf import ICML (STAR, cold)",
            cli_command("conf", "import", str(data_dir / ICML_TREE), "--rebuild", "--json"),
        ),
    ]
    for label, command in steps:
        seconds, cpu_s, result = time_process(command, env)
        report.preparation.append(ProcessTiming(label, ["scholar-tui", *command[1:]], [seconds], None, [cpu_s]))
        if label.startswith("conf import"):
            report.star_build_s = json.loads(result.stdout)["build_s"]

    commands = [
        ("--help", cli_command("--help"), 0.5),
        ("library search", cli_command("library", "search", LIBRARY_QUERY, "--json"), 1.5),
        ("ask", cli_command("ask", ASK_QUESTION, "--json"), 3.0),
        ("conf ask", cli_command("conf", "ask", "ICML2023", CONF_QUESTION, "--json"), None),
        ("TUI ready", [sys.executable, "-m", tui_probe], 3.0),
    ]
    for label, command, target in commands:
        timing = ProcessTiming(label, [Path(command[0]).name, *command[1:]], [], target)
        for run in range(runs):
            progress(f"{label}: run {run + 1}/{runs}")
            seconds, cpu_s, _ = time_process(command, env)
            timing.seconds.append(seconds)
            timing.cpu_seconds.append(cpu_s)
        report.processes.append(timing)

    progress(f"embedding {texts} texts with both backends")
    corpus = bench_texts(data_dir, texts)
    where = locations({HOME_ENV: str(home)})
    settings = load_settings(where, {HOME_ENV: str(home)})
    embedders = []
    for backend in ("llama.cpp", "sentence-transformers"):
        chosen = settings.model_copy(deep=True)
        chosen.embeddings.backend = backend
        embedders.append(load_embedder(chosen, where))
    report.throughput = list(measure_throughput(corpus, embedders))
    try:
        tokens, flops = corpus_work(embedders[0], corpus)
    except Exception:
        tokens, flops = None, None
    for item in report.throughput:
        item.tokens, item.flops = tokens, flops
    vectors = [item.vectors for item in report.throughput]
    if all(matrix is not None for matrix in vectors):
        cosines = (vectors[0] * vectors[1]).sum(axis=1)
        report.cosine_min, report.cosine_mean = float(cosines.min()), float(cosines.mean())
    return report
