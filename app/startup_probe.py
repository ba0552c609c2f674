"""Open the TUI headless and exit as soon as its status bar says the model is ready.

`scholar-tui bench startup` runs ``python -m scholar_tui.app.startup_probe`` as a whole process:
imports, compose, the model loaded by the app's own worker, the bar's state — what a person waits
for before the app answers — with Textual's ``run_test`` instead of a terminal. Exit 1 when the
model fails to load or is not ready within the time limit.
"""

from __future__ import annotations

import asyncio
import sys
import time

LIMIT_S = 120.0


async def wait_until_ready(limit_s: float = LIMIT_S) -> str:
    from scholar_tui.app.services import Services
    from scholar_tui.app.tui import ScholarApp
    from scholar_tui.app.widgets.status_bar import StatusBar
    from scholar_tui.config.locations import locations
    from scholar_tui.config.settings import load_settings

    where = locations()
    app = ScholarApp(Services(where, load_settings(where)))
    async with app.run_test(size=(160, 45)) as pilot:
        bar = app.query_one(StatusBar)
        deadline = time.monotonic() + limit_s
        while bar.model_state not in ("ready", "error") and time.monotonic() < deadline:
            await pilot.pause(0.01)
        state = bar.model_state
        await pilot.press("ctrl+q")
    return state


def main() -> None:
    state = asyncio.run(wait_until_ready())
    print(state)
    sys.exit(0 if state == "ready" else 1)


if __name__ == "__main__":
    main()
