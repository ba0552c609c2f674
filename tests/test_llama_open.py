"""Loading a llama.cpp model must leave the terminal alone: the TUI draws on fd 2 while a worker
loads the model, and llama-cpp-python's ``verbose=False`` pointed fds 1 and 2 at /dev/null for the
whole load (the first screen came up without its header, tab bar and footer). Quiet all the same."""

from __future__ import annotations

import os
import sys
import threading

import pytest

from scholar_tui.models import load_embedder
from scholar_tui.models.llamacpp import LlamaCppLLM


@pytest.fixture
def redirected(monkeypatch) -> list[int]:
    """The file descriptors llama-cpp-python pointed elsewhere with os.dup2 during the test
    (pytest's own fd capture uses dup2 too: only calls from llama_cpp count)."""
    targets: list[int] = []
    real_dup2 = os.dup2

    def recording_dup2(fd: int, fd2: int, *args, **kwargs):
        if "llama_cpp" in sys._getframe(1).f_code.co_filename:
            targets.append(fd2)
        return real_dup2(fd, fd2, *args, **kwargs)

    monkeypatch.setattr(os, "dup2", recording_dup2)
    return targets


def test_the_llm_loads_and_generates_without_touching_stdout_or_stderr(default_gguf, redirected, capfd):
    llm = LlamaCppLLM(default_gguf, name="smollm2-135m", n_ctx=256)
    try:
        completion = llm.complete("Say hi.", max_tokens=4)
    finally:
        llm.close()
    assert not {1, 2} & set(redirected), f"file descriptors redirected: {redirected}"
    out, err = capfd.readouterr()
    assert out == "" and err == "", (out, err)  # as quiet as verbose=False was
    assert completion.text  # it still generates


def test_the_embedder_loads_without_touching_stdout_or_stderr(settings, where, redirected, capfd):
    embedder = load_embedder(settings, where)
    try:
        assert embedder.embed_one("superfluid helium in nanopores").shape == (embedder.dimension,)
    finally:
        embedder.close()
    assert not {1, 2} & set(redirected), f"file descriptors redirected: {redirected}"
    out, err = capfd.readouterr()
    assert out == "" and err == "", (out, err)


def test_two_loads_at_once_leave_stderr_as_it_was(default_gguf):
    """The TUI loads the model and the embedder in two workers: their redirects must not cross."""
    before = sys.stderr
    errors: list[BaseException] = []

    def load() -> None:
        try:
            LlamaCppLLM(default_gguf, name="smollm2-135m", n_ctx=128).close()
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=load) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors and sys.stderr is before
