"""The configured LLM as the app, the CLI and the engines use it: the backend with its prompt log.

``models.load_llm`` picks and loads the backend; writing every completion to SQLite is storage
(``indexes.prompt_log``), so the two meet here, above both layers.
"""

from __future__ import annotations

from scholar_tui import models
from scholar_tui.config.locations import Locations, locations
from scholar_tui.config.settings import Settings


def open_llm(settings: Settings, where: Locations | None = None) -> models.LLM:
    """The LLM that ``settings.llm.model`` names, logging its prompts when ``llm.log_prompts`` is on."""
    where = where or locations()
    llm = models.load_llm(settings, where)  # looked up here so tests can swap the backend
    if settings.llm.log_prompts:
        from scholar_tui.indexes.prompt_log import PromptLog

        llm.add_sink(PromptLog(where).record)
    return llm
