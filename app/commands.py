"""Command palette (ctrl+p): jump to a tab, switch model, run the doctor."""

from __future__ import annotations

from functools import partial

from rich.text import Text
from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.fuzzy import Matcher

from scholar_tui.app.widgets.markup import plain
from scholar_tui.core.model_choice import listed_models


def highlighted(matcher: Matcher, name: str) -> Text:
    """``name`` with the letters the query matched in reverse video, never read as markup:
    ``Matcher.highlight`` parses its candidate as markup, and a model's name is a file's name."""
    text = plain(name)
    score, offsets = matcher.fuzzy_search.match(matcher.query, name)
    if score and text.plain == name:  # offsets index the name as written (no control character made visible)
        for offset in offsets:
            if not name[offset].isspace():
                text.stylize("reverse", offset, offset + 1)
    return text


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
        for entry in listed_models(app.services.where, app.services.settings):
            if entry.kind == "gguf" and entry.available:
                # the help line is read as markup by the palette: it names no file
                commands.append(
                    (f"Use model {entry.name}", partial(app.use_model, entry.name), "Make it the active LLM")
                )
        return commands

    async def discover(self) -> Hits:
        for name, callback, help_text in self._commands():
            yield DiscoveryHit(plain(name), callback, text=name, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for name, callback, help_text in self._commands():
            score = matcher.match(name)
            if score > 0:
                yield Hit(score, highlighted(matcher, name), callback, text=name, help=help_text)
