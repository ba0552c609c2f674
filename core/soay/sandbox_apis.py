"""The API functions a SoAy program sees inside the sandbox's worker process."""

from __future__ import annotations

from typing import Any


def academic_functions(backend: str = "local") -> dict[str, Any]:
    """Sandbox API factory: the seven APIs over this installation's library (or OpenAlex).

    Runs in the worker process: it opens its own library connection there. The worker inherits
    SCHOLAR_TUI_HOME, so it reads the same library as the app that started it.
    """
    from scholar_tui.config.settings import load_settings
    from ..library.apis import open_api
    from scholar_tui.config.locations import locations

    where = locations()
    return open_api(where, load_settings(where), backend).functions()
