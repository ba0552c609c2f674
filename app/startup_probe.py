"""Open the TUI headless and exit as soon as its status bar says the model is ready.

`scholar-tui bench startup` runs ``python -m scholar_tui.app.startup_probe`` as a whole process:
imports, compose, the model loaded by the app's own worker, the bar's state — what a person waits
for before the app answers — with Textual's ``run_test`` instead of a terminal. Exit 1 when the
model fails to load or is not ready within the time limit.

The process ends the moment the state is known (``os._exit``): closing the app, the model and the
interpreter (0.4–0.6 s on a 2-core machine) comes after the moment measured, the bar saying ready.
"""

from __future__ import annotations

import asyncio
import os
import time

LIMIT_S = 120.0


async def wait_until_ready(limit_s: float = LIMIT_S, *, known=None) -> str:
    """The bar's model state once it is ready or an error (or the limit passed); ``known(state)``
    is called at that moment, with the app still running."""
    from scholar_tui.app.tui import ScholarApp
    from scholar_tui.app.widgets.status_bar import StatusBar
    from scholar_tui.config.locations import locations
    from scholar_tui.config.settings import load_settings
    from scholar_tui.core.services import Services

    where = locations()
    app = ScholarApp(Services(where, load_settings(where)))
    async with app.run_test(size=(160, 45)) as pilot:
        bar = app.query_one(StatusBar)
        deadline = time.monotonic() + limit_s
        while bar.model_state not in ("ready", "error") and time.monotonic() < deadline:
            await pilot.pause(0.01)
        if known is not None:
            known(bar.model_state)
        state = bar.model_state
        await pilot.press("ctrl+q")
    return state


def _report_and_exit(state: str) -> None:
    print(state, flush=True)
    os._exit(0 if state == "ready" else 1)


def main() -> None:
    asyncio.run(wait_until_ready(known=_report_and_exit))


if __name__ == "__main__":
    main()
