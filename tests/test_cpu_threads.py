"""llama.cpp runs on the cores other programs leave free (its threads spin at a barrier)."""

from __future__ import annotations

import pytest

from scholar_tui.models import cpu


class Clock:
    """Scripted readings: (wall, machine busy seconds, own CPU seconds) per ``_now`` call."""

    def __init__(self, monkeypatch, *readings) -> None:
        self.readings, self.slept = list(readings), []
        monkeypatch.setattr(cpu.FreeCores, "_now", staticmethod(lambda: self.readings.pop(0)))
        monkeypatch.setattr(cpu.time, "sleep", self.slept.append)


@pytest.mark.parametrize(("others", "free"), [(0.0, 2), (0.2, 2), (1.0, 1), (1.4, 1), (2.0, 1)])
def test_a_first_call_samples_what_the_rest_of_the_machine_kept_busy(monkeypatch, others, free):
    clock = Clock(monkeypatch, (10.0, 100.0, 5.0), (11.0, 100.0 + others, 5.0))  # 1 s: others' busy cores
    assert cpu.FreeCores(2).free() == free and clock.slept == [cpu.WINDOW_S]


def test_between_calls_it_measures_without_waiting_and_leaves_out_its_own_work(monkeypatch):
    clock = Clock(
        monkeypatch,
        (0.0, 0.0, 0.0),
        (0.05, 0.0, 0.0),  # the first call samples: all idle
        (1.05, 3.0, 2.0),
    )  # 1 s later: 3 busy core-seconds, 2 of them our own threads'
    meter = cpu.FreeCores(4)
    assert meter.free() == 4
    assert meter.free() == 3 and clock.slept == [cpu.WINDOW_S]  # one busy core is someone else's


def test_after_a_pause_it_samples_afresh(monkeypatch):
    clock = Clock(
        monkeypatch, (0.0, 0.0, 0.0), (0.05, 0.0, 0.0), (60.0, 60.0, 0.0), (60.05, 60.1, 0.0)
    )  # an old average (1 core) vs now (2 cores)
    meter = cpu.FreeCores(2)
    assert meter.free() == 2
    assert meter.free() == 1 and len(clock.slept) == 2


def test_without_proc_stat_every_core_is_used(monkeypatch, tmp_path):
    monkeypatch.setattr(cpu, "PROC_STAT", tmp_path / "missing")
    assert cpu.FreeCores(8).free() == 8


def test_a_pinned_count_is_kept_and_unset_follows_the_free_cores(monkeypatch):
    assert cpu.Threads(3).now() == 3 and cpu.Threads(3).cores == 3
    unset = cpu.Threads(None)
    monkeypatch.setattr(unset.free_cores, "free", lambda: 1)
    assert unset.now() == 1


def test_this_machine_reads():
    meter = cpu.FreeCores(2)
    assert 1 <= meter.free() <= 2 and 1 <= meter.free() <= 2


@pytest.mark.llm
def test_a_generation_sets_llama_cpp_threads_to_the_free_cores(real_llm, monkeypatch):
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
    monkeypatch.setattr(real_llm, "threads", cpu.Threads(None))
    monkeypatch.setattr(real_llm.threads.free_cores, "free", lambda: 1)
    assert real_llm.complete("Count: 1, 2,", max_tokens=3).completion_tokens > 0
    assert bindings.calls == [(1, 1)]
    monkeypatch.setattr(real_llm, "threads", cpu.Threads(2))  # `llm.n_threads` set: left as configured
    real_llm.complete("Count: 1, 2,", max_tokens=3)
    assert bindings.calls == [(1, 1)]
