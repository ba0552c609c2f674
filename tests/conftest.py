"""Shared fixtures: every test gets its own SCHOLAR_TUI_HOME, and nothing reaches a hub."""

from __future__ import annotations

import os
import struct
from collections.abc import Iterator
from pathlib import Path

import pytest

from scholar_tui.config.locations import Locations, locations
from scholar_tui.config.settings import Settings, load_settings
from scholar_tui.models.base import LLM, Chunk, Request

# The fixtures of the support modules, for every test module: a test takes them by name and its
# module imports only the helpers it calls (an imported fixture reads as an unused import).
pytest_plugins = ["tests.library_support", "tests.pasa_support", "tests.autofeedback_support", "tests.pilot_support"]

REPO_ROOT = Path(__file__).resolve().parent.parent
SHARED_DATA = REPO_ROOT.parent / "shared" / "data"


# A GGUF file's header and nothing more: what `models use` checks (magic, version, two counts).
GGUF_HEADER = b"GGUF" + struct.pack("<IQQ", 3, 0, 0)


def fake_gguf(path: Path) -> Path:
    """A file that passes for a GGUF model until llama.cpp loads it."""
    path.write_bytes(GGUF_HEADER)
    return path


@pytest.fixture(autouse=True)
def isolated_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for key in list(os.environ):
        if key.startswith("SCHOLAR_TUI_"):
            monkeypatch.delenv(key)
    home = tmp_path / "home"
    monkeypatch.setenv("SCHOLAR_TUI_HOME", str(home))
    # No test may load weights or data from a hub.
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("TRANSFORMERS_OFFLINE", "1")
    # doctor's network probes go to a closed loopback port: fast and deterministic offline.
    monkeypatch.setenv("SCHOLAR_TUI_NETWORK__PROBE_URLS", "http://127.0.0.1:9/")
    return home


@pytest.fixture
def where(isolated_home: Path) -> Locations:
    return locations().ensure()


@pytest.fixture
def settings(where: Locations) -> Settings:
    return load_settings(where)


@pytest.fixture
def shared_data() -> Path:
    if not SHARED_DATA.is_dir():
        pytest.skip(f"real data not found at {SHARED_DATA} (the shared/ folder beside the repository)")
    return SHARED_DATA


class ScriptedLLM(LLM):
    """A fake model: replies come from a queue, word by word; requests are kept for asserts."""

    backend_name = "scripted"
    model_name = "scripted"

    def __init__(self, *replies: str) -> None:
        super().__init__()
        self.replies = list(replies)
        self.history: list[Request] = []

    def enqueue(self, *replies: str) -> None:
        self.replies.extend(replies)

    def _generate(self, request: Request) -> Iterator[Chunk]:
        self.history.append(request)
        reply = self.replies.pop(0) if self.replies else "ok"
        words = reply.split(" ")
        for index, word in enumerate(words):
            yield Chunk(text=word if index == 0 else " " + word)
        yield Chunk(prompt_tokens=len((request.prompt or str(request.messages)).split()), completion_tokens=len(words))


@pytest.fixture
def scripted_llm() -> ScriptedLLM:
    return ScriptedLLM()


@pytest.fixture(scope="session")
def default_gguf() -> Path:
    from scholar_tui.models.registry import DEFAULT_LLM, builtin_models

    entry = next(entry for entry in builtin_models() if entry.name == DEFAULT_LLM)
    assert entry.available, f"the default model is missing: {entry.location}"
    return Path(entry.location)


@pytest.fixture(scope="session")
def real_llm(default_gguf: Path):
    """The default GGUF through llama.cpp, loaded once for the whole session (no prompt log)."""
    from scholar_tui.models.llamacpp import LlamaCppLLM

    llm = LlamaCppLLM(default_gguf, name="smollm2-135m", n_ctx=2048)
    yield llm
    llm.close()


def pytest_collection_modifyitems(config, items) -> None:
    """Benchmarks (``@pytest.mark.benchmark``: timings at scale, minutes each) run only when asked for,
    with RUN_BENCHMARKS=1 or ``-m benchmark``; never in .ci/run's default selection."""
    if os.environ.get("RUN_BENCHMARKS") == "1" or "benchmark" in (config.getoption("-m") or ""):
        return
    skip = pytest.mark.skip(reason="a benchmark: run with RUN_BENCHMARKS=1 (or -m benchmark)")
    for item in items:
        if "benchmark" in item.keywords:
            item.add_marker(skip)
