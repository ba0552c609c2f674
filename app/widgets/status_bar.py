"""The bar under the tabs: which model and embedder answer, and where the data lives."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

from scholar_tui.app.widgets.markup import visible


class StatusBar(Static):
    model_state: reactive[str] = reactive("idle")
    model_detail: reactive[str] = reactive("")
    network_note: reactive[str] = reactive("")  # set once the online sources were probed

    def __init__(self, services, **kwargs) -> None:
        super().__init__(**kwargs)
        self.services = services

    def render(self) -> Text:
        settings = self.services.settings
        backend = "endpoint" if settings.llm.model.startswith(("http://", "https://")) else "llama.cpp"
        styles = {"ready": "green", "loading": "yellow", "error": "red", "idle": "dim"}
        text = Text()
        text.append(" Model ", style="bold")
        # the config's values, a model's error and the data path are outside text: control characters shown
        text.append(f"{visible(settings.llm.model)} ({backend}) ")
        text.append(f"[{self.model_state}]", style=styles.get(self.model_state, ""))
        if self.model_state == "error" and self.model_detail:
            text.append(f" {visible(self.model_detail)}", style="red")
        text.append("  │  Embeddings ", style="bold")
        text.append(visible(settings.embeddings.model))
        text.append("  │  ", style="bold")
        if settings.network.offline:
            text.append("offline")
        elif self.network_note:
            text.append(self.network_note, style="yellow")
        else:
            text.append("online sources on")
        text.append("  │  Data ", style="bold")
        text.append(visible(self.services.where.data_dir), style="dim")
        return text
