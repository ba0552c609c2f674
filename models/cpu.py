"""How many CPU cores other programs leave free right now.

llama.cpp's threads meet at a barrier after every operation and spin while they wait, so a thread
whose core another program holds stalls all the others: on the 2-core machine, with one core busy,
PaSa's five Selector calls took 12.9 s on two threads against 8.9 s on one (45 s under a test
suite's load against 5 s quiet). So a generation runs on the cores that are free when it starts.
"""

from __future__ import annotations

import time
from pathlib import Path

PROC_STAT = Path("/proc/stat")
WINDOW_S = 0.05  # long enough for 5 clock ticks per core (USER_HZ = 100), short beside a generation


def _cpu_times() -> tuple[int, int] | None:
    """(idle, total) jiffies of all cores together, or None where /proc/stat is not there (not Linux)."""
    try:
        fields = PROC_STAT.read_text().split("\n", 1)[0].split()[1:]
    except OSError:
        return None
    values = [int(value) for value in fields[:8]]  # user nice system idle iowait irq softirq steal
    return values[3] + values[4], sum(values)


def free_cores(cores: int, window_s: float = WINDOW_S) -> int:
    """Of ``cores``, how many were idle over the last ``window_s`` (at least 1; all when unknown)."""
    before = _cpu_times()
    if before is None or cores <= 1:
        return max(cores, 1)
    time.sleep(window_s)
    after = _cpu_times()
    idle, total = after[0] - before[0], after[1] - before[1]
    if total <= 0:
        return cores
    busy = (1 - idle / total) * cores  # cores the rest of the machine kept busy meanwhile
    return max(1, min(cores, cores - round(busy)))
