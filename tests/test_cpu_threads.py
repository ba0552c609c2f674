"""A generation runs on the cores other programs leave free (llama.cpp's threads spin at a barrier)."""

from __future__ import annotations

import pytest

from scholar_tui.models import cpu


def _measured(monkeypatch, *readings) -> None:
    samples = iter(readings)
    monkeypatch.setattr(cpu, "_cpu_times", lambda: next(samples))
    monkeypatch.setattr(cpu.time, "sleep", lambda seconds: None)


@pytest.mark.parametrize(("idle", "free"), [(100, 2), (90, 2), (50, 1), (30, 1), (0, 1)])
def test_free_cores_counts_what_the_rest_of_the_machine_left_idle(monkeypatch, idle, free):
    _measured(monkeypatch, (1000, 5000), (1000 + idle, 5100))  # 100 jiffies over two cores
    assert cpu.free_cores(2) == free


def test_four_cores_with_one_busy_leave_three(monkeypatch):
    _measured(monkeypatch, (0, 0), (150, 200))
    assert cpu.free_cores(4) == 3


def test_without_proc_stat_every_core_is_used(monkeypatch, tmp_path):
    monkeypatch.setattr(cpu, "PROC_STAT", tmp_path / "missing")
    assert cpu.free_cores(8) == 8


def test_this_machine_reads(monkeypatch):
    assert 1 <= cpu.free_cores(2, window_s=0.02) <= 2


@pytest.mark.llm
def test_a_generation_sets_llama_cpp_threads_to_the_free_cores(real_llm, monkeypatch):
    import scholar_tui.models.llamacpp as llamacpp

    class Recording:  # the low-level bindings, recording llama_set_n_threads
        def __init__(self, module) -> None:
            self.module, self.calls = module, []

        def __getattr__(self, name):
            return getattr(self.module, name)

        def llama_set_n_threads(self, ctx, threads, batch_threads):
            self.calls.append((threads, batch_threads))
            return self.module.llama_set_n_threads(ctx, threads, batch_threads)

    bindings = Recording(real_llm._llama_cpp)
    monkeypatch.setattr(real_llm, "_llama_cpp", bindings)
    monkeypatch.setattr(real_llm, "auto_threads", True)
    monkeypatch.setattr(llamacpp, "free_cores", lambda cores: 1)
    assert real_llm.complete("Count: 1, 2,", max_tokens=3).completion_tokens > 0
    assert bindings.calls == [(1, 1)]
    monkeypatch.setattr(real_llm, "auto_threads", False)  # `llm.n_threads` set: left as configured
    real_llm.complete("Count: 1, 2,", max_tokens=3)
    assert bindings.calls == [(1, 1)]
