"""Which models there are, which are active, and making one the active LLM: one flow for
`models list` / `models use`, the Settings tab's table and the command palette.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING

from scholar_tui.config.locations import Locations
from scholar_tui.config.settings import Settings, save_setting
from scholar_tui.models.registry import ModelEntry, ModelNotFound, all_models, is_endpoint, resolve_llm

if TYPE_CHECKING:
    from scholar_tui.core.services import Services


@dataclass(frozen=True)
class ListedModel:
    """A model a person may choose, and the role it has now ("llm", "embeddings" or "")."""

    name: str
    kind: str
    location: str
    source: str
    available: bool
    active_as: str = ""
    adapter: str = ""

    @property
    def is_llm(self) -> bool:
        return self.kind in ("gguf", "endpoint")

    def as_dict(self) -> dict:
        return {**asdict(self), "active": bool(self.active_as)}


def _role(entry: ModelEntry, settings: Settings) -> str:
    names = (entry.name, entry.location)
    if settings.llm.model in names:
        return "llm"
    if settings.embeddings.model in names:
        return "embeddings"
    return ""


def listed_models(where: Locations, settings: Settings) -> list[ListedModel]:
    """Bundled, pulled and registered models, and the endpoint when ``llm.model`` is one."""
    rows = [
        ListedModel(
            entry.name, entry.kind, entry.location, entry.source, entry.available, _role(entry, settings), entry.adapter
        )
        for entry in all_models(where)
    ]
    if is_endpoint(settings.llm.model):
        url = settings.llm.model
        rows.append(ListedModel(url, "endpoint", url, "setting", True, "llm"))
    return rows


def active_llm(where: Locations, settings: Settings) -> ListedModel | None:
    return next((row for row in listed_models(where, settings) if row.active_as == "llm"), None)


def use_model(services: Services, name: str) -> ModelEntry:
    """Make ``name`` (a listed name, a .gguf path or an endpoint URL) the active LLM: resolved, written
    to the config, and the services reloaded (the next ``llm()`` loads it).

    ``ModelNotFound`` says in one line what does not exist or is not an LLM.
    """
    listed = next((entry for entry in all_models(services.where) if entry.name == name), None)
    if listed is not None and listed.kind not in ("gguf", "endpoint"):
        raise ModelNotFound(f"{name} is an embedding model; choose an LLM")
    entry = resolve_llm(name, services.where)
    save_setting(services.where, "llm.model", entry.location if entry.source == "path" else name)
    services.reload_settings()
    return entry
