"""How many CPU cores other programs leave free right now.

llama.cpp's threads meet at a barrier after every operation and spin while they wait, so a thread
whose core another program holds stalls all the others. On the 2-core machine with one core kept
busy by another program: PaSa's five Selector calls took 11.4 s on two threads against 9.7 s on one
(45 s under a test suite's load against 5 s quiet), and embedding 160 abstracts ran at 4.8 texts/s
on two threads against 6.3 on one. So llama.cpp runs on the cores that are free when it starts.

``FreeCores`` measures between its calls without waiting: the machine's busy time (``/proc/stat``)
minus this process's own CPU time, over the wall time since the last call. After a pause (or on
the first call) that would be an old average, so it samples ``WINDOW_S`` instead.
"""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

PROC_STAT = Path("/proc/stat")
WINDOW_S = 0.05  # a fresh sample: 5 clock ticks per core at USER_HZ = 100, short beside a generation
MAX_GAP_S = 2.0  # a longer gap since the last call is sampled afresh, not averaged


def _busy_seconds() -> float | None:
    """CPU seconds all cores have spent busy since boot, or None without /proc/stat (not Linux)."""
    try:
        fields = PROC_STAT.read_text().split("\n", 1)[0].split()[1:]
    except OSError:
        return None
    values = [int(value) for value in fields[:8]]  # user nice system idle iowait irq softirq steal
    return (sum(values) - values[3] - values[4]) / os.sysconf("SC_CLK_TCK")


class FreeCores:
    """``free()``: of ``cores``, how many the rest of the machine left idle lately (at least 1)."""

    def __init__(self, cores: int) -> None:
        self.cores = max(cores, 1)
        self._last: tuple[float, float, float] | None = None  # (wall, machine busy, own CPU) at the last call
        self._lock = threading.Lock()

    @staticmethod
    def _now() -> tuple[float, float, float] | None:
        busy = _busy_seconds()
        return None if busy is None else (time.monotonic(), busy, time.process_time())

    def free(self) -> int:
        if self.cores == 1:
            return 1
        with self._lock:
            last, now = self._last, self._now()
            if now is None:
                return self.cores
            if last is None or now[0] - last[0] > MAX_GAP_S:
                last = now
                time.sleep(WINDOW_S)
                now = self._now()
                if now is None:  # the counters could be read a moment ago and no longer can
                    return self.cores
            self._last = now
        wall = now[0] - last[0]
        if wall <= 0:
            return self.cores
        others = max((now[1] - last[1]) - (now[2] - last[2]), 0.0) / wall  # cores kept busy by others
        return max(1, min(self.cores, self.cores - round(others)))


class Threads:
    """llama.cpp's thread count: the one a setting pins, else the cores free when work starts."""

    def __init__(self, pinned: int | None) -> None:
        self.pinned = pinned
        self.cores = pinned or os.cpu_count() or 1
        self.free_cores = FreeCores(self.cores)

    def now(self) -> int:
        return self.pinned or self.free_cores.free()
