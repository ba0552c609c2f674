"""Helpers for the Pilot tests of the tabs."""

from __future__ import annotations


async def wait_for(pilot, condition, timeout: float = 60.0, step: float = 0.05) -> None:
    """Let the app run until ``condition()`` holds (workers post their events meanwhile)."""
    clock = 0.0
    while not condition():
        await pilot.pause(step)
        clock += step
        assert clock < timeout, "timed out waiting for the pane"
