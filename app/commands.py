"""Command palette (ctrl+p): jump to a tab, switch model, run the doctor."""

from __future__ import annotations

from functools import partial

from textual.command import DiscoveryHit, Hit, Hits, Provider

from scholar_tui.models.registry import all_models


class ScholarCommands(Provider):
    def _commands(self) -> list[tuple[str, object, str]]:
        app = self.app
        commands: list[tuple[str, object, str]] = [
            (f"Go to {title}", partial(app.action_show_tab, tab_id), f"Open the {title} tab")
            for tab_id, title in app.TAB_TITLES.items()
        ]
        commands.append(("Help", app.action_help, "What each tab does, an example for each, and the keys (F7)"))
        commands.append(("Run doctor", app.action_run_doctor, "Check models, storage and network"))
        commands.append(("Reload settings", app.action_reload_settings, "Re-read config.toml and reload the model"))
        for entry in all_models(app.services.where):
            if entry.kind == "gguf" and entry.available:
                commands.append(
                    (f"Use model {entry.name}", partial(app.use_model, entry.name), f"Make {entry.name} the active LLM")
                )
        return commands

    async def discover(self) -> Hits:
        for name, callback, help_text in self._commands():
            yield DiscoveryHit(name, callback, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for name, callback, help_text in self._commands():
            score = matcher.match(name)
            if score > 0:
                yield Hit(score, matcher.highlight(name), callback, help=help_text)
