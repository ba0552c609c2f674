"""The academic API functions a model-written program sees inside the sandbox's worker process."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

FACTORY = "scholar_tui.core.library.sandbox_apis:academic_functions"
"""The sandbox factory spec (``Sandbox(FACTORY, kwargs)``) for SoAy's programs and programs sent by hand."""


def sandbox_kwargs(where, backend: str = "local") -> dict[str, str]:
    """The factory's arguments for this installation's folders (a worker then reads ``where``, whatever its env)."""
    return {
        "config_dir": str(where.config_dir),
        "data_dir": str(where.data_dir),
        "cache_dir": str(where.cache_dir),
        "log_dir": str(where.log_dir),
        "backend": backend,
    }


@contextmanager
def _numpy_kept_out() -> Iterator[None]:
    """Imports in which ``import numpy`` fails, when this process has not imported it yet: the
    library's SQLite layer (sqlite_utils) imports numpy only to map its types to columns, which the
    APIs never write, and numpy is most of the worker's start (0.15 s of CPU on an idle machine).
    A later import of numpy, by anything, works as usual."""
    if "numpy" in sys.modules:
        yield
        return
    sys.modules["numpy"] = None  # type: ignore[assignment]  # how Python marks a module as not importable
    try:
        yield
    finally:
        if sys.modules.get("numpy") is None:
            del sys.modules["numpy"]


def academic_functions(
    backend: str = "local",
    config_dir: str | None = None,
    data_dir: str | None = None,
    cache_dir: str | None = None,
    log_dir: str | None = None,
) -> dict[str, Any]:
    """Sandbox API factory: the seven APIs over this installation's library (or OpenAlex).

    Runs in the worker process: it opens its own library connection there. Without folders it
    reads the installation the worker inherits through SCHOLAR_TUI_HOME, as the app that started it.
    """
    from pathlib import Path

    from scholar_tui.config.locations import Locations, locations
    from scholar_tui.core.library.apis import local_api, open_api

    with _numpy_kept_out():
        from scholar_tui.indexes.library import Library

    if config_dir is None or data_dir is None or cache_dir is None or log_dir is None:
        where = locations()  # the folders come all four together, or not at all
    else:
        where = Locations(Path(config_dir), Path(data_dir), Path(cache_dir), Path(log_dir))
    if backend == "local":  # needs no settings: the worker skips reading them (pydantic, ~0.15 s of its start)
        return local_api(Library.open(where)).functions()
    from scholar_tui.config.settings import load_settings

    return open_api(where, load_settings(where), backend).functions()
