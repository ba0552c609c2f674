"""Whole processes measured as a person waits for them: wall seconds, the moments chosen lines of
their output appear, and their own peak memory (for `bench scale`)."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path


def cli_command(*args: str) -> list[str]:
    """``scholar-tui ARGS`` as the console script runs it, with this interpreter: the code this
    bench was started from (a worktree's venv may hold a script that runs another checkout)."""
    return [sys.executable, "-c", "from scholar_tui.app.cli import main; main()", *args]


@dataclass
class Measured:
    """One cold process: wall seconds, its own peak memory, how it ended, and the moments chosen
    lines of its output appeared (seconds from the start)."""

    seconds: float
    peak_mb: float
    returncode: int | None
    stopped: bool = False  # stopped by the bench (budget reached, or what was measured was seen)
    marks: dict[str, float] = field(default_factory=dict)
    last_line: str = ""
    stdout: str = ""


class _PeakWatch(threading.Thread):
    """The child's peak resident memory (VmHWM), read from /proc while it runs.

    Not ``wait4``'s ru_maxrss: a child started by vfork or fork inherits the bench's own peak as a
    floor (the kernel keeps the larger of the old and new images' high-water marks across exec),
    so every command would read at least the bench's size. VmHWM belongs to the image after exec;
    the last 50 ms of a process may be missed."""

    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        self.status = Path(f"/proc/{pid}/status")
        self.finished = threading.Event()
        self.kilobytes = 0

    def run(self) -> None:
        while not self.finished.is_set():
            try:
                text = self.status.read_text()
            except OSError:  # not Linux, or gone
                return
            match = re.search(r"^VmHWM:\s+(\d+) kB", text, re.M)
            if match is None:  # a zombie has no memory left to read
                return
            self.kilobytes = max(self.kilobytes, int(match.group(1)))
            self.finished.wait(0.05)


def run_measured(
    command: list[str],
    env: dict[str, str],
    *,
    budget_s: float | None = None,
    marks: dict[str, re.Pattern] | None = None,
    stop_after: set[str] | None = None,
) -> Measured:
    """Run ``command`` to its end (or until ``budget_s``, or until every mark in ``stop_after``
    was seen) and measure it. Its output is read line by line so each mark is timed as it comes."""
    marks = marks or {}
    started = time.perf_counter()
    process = subprocess.Popen(
        command,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,  # PaSa's progress lines go to stderr: both are read, in order
        start_new_session=True,  # its own group: stopping it stops what it started too
    )
    stopped = threading.Event()

    def stop() -> None:
        stopped.set()
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)

    timer = threading.Timer(budget_s, stop) if budget_s else None
    if timer:
        timer.start()
    peak = _PeakWatch(process.pid)
    peak.start()
    seen: dict[str, float] = {}
    lines: list[str] = []
    assert process.stdout is not None
    try:
        for raw in process.stdout:
            line = raw.decode("utf-8", "replace").rstrip("\n")
            lines.append(line)
            for name, pattern in marks.items():
                if name not in seen and pattern.search(line):
                    seen[name] = time.perf_counter() - started
            if stop_after and stop_after <= seen.keys() and not stopped.is_set():
                stop()
    except BaseException:  # Ctrl-C does not reach a child in its own session: it is stopped here
        stop()
        raise
    peak.finished.set()
    peak.join()
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - started
    process.returncode = os.waitstatus_to_exitcode(status)  # reaped here, not by Popen
    process.stdout.close()
    if timer:
        timer.cancel()
    said = [line for line in lines if line.strip() and not line.startswith("timings")]  # ask's last line
    tail = (said or [""])[-1]
    return Measured(
        seconds=seconds,
        peak_mb=(peak.kilobytes or usage.ru_maxrss) / 1024,
        returncode=process.returncode,
        stopped=stopped.is_set(),
        marks=seen,
        last_line=tail.strip()[:200],
        stdout="\n".join(lines),
    )
