"""What every command module of the CLI shares: the context, one-line errors, JSON output.

``cli.py`` builds the command tree from the command modules (``cli_soay``, ``cli_pasa``, …); they
import this module and never ``cli.py``, so there is no import cycle.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import click

from scholar_tui.app.terminal_safety import show_controls
from scholar_tui.config.files import StateError
from scholar_tui.config.locations import Locations, locations

# Settings, models and engines are imported where a command uses them: `--help` and `paths`
# load neither pydantic nor numpy (tests/test_lean_runtime.py).
if TYPE_CHECKING:
    from scholar_tui.config.settings import Settings
    from scholar_tui.core.services import Services


class Context:
    """What every command needs: where state lives, and the ``Services`` every engine is opened with
    (the settings in force and the models, loaded once, on first use), as the TUI holds them."""

    def __init__(self) -> None:
        self.where: Locations = locations()
        self._settings: Settings | None = None
        self._services: Services | None = None

    @property
    def settings(self) -> Settings:
        if self._services is not None:  # reloaded with the services (`models use` in the same process)
            return self._services.settings
        if self._settings is None:
            from scholar_tui.config.settings import ConfigError, load_settings

            try:  # a bad config.toml is one line for every command, not a traceback
                self._settings = load_settings(self.where)
            except ConfigError as error:
                raise click.ClickException(str(error)) from error
        return self._settings

    @property
    def services(self) -> Services:
        """Built on first use: `--help`, `paths` and `config` load no model code."""
        if self._services is None:
            from scholar_tui.core.services import Services

            self._services = Services(self.where, self.settings)
        return self._services

    def close(self) -> None:
        """The models the command loaded (the root command calls it when the command ends)."""
        if self._services is not None:
            self._services.close()


# Numeric options take only values that mean something (`--limit -5` returned all hits but five):
# click says which range in one line.
def whole(minimum: int = 1, maximum: int | None = None) -> click.IntRange:
    """A whole-number option's type, from ``minimum`` to ``maximum`` (no upper bound by default:
    a limit larger than what there is simply means all of it)."""
    return click.IntRange(minimum, maximum)


SEED = click.IntRange(0, 2**32 - 1)

# Which part of a benchmark's person-written set runs: the held-out quarter is run once, at the end.
person_part_option = click.option(
    "--person-part",
    type=click.Choice(["dev", "held-out", "all"]),
    default="dev",
    show_default=True,
    help="Which part of --person-set to run (held-out: once, at the end).",
)


class OneLineGroup(click.Group):
    """The root command: stored state that cannot be used (a broken home, config file or
    database) is one line from every command, whichever layer found it, never a traceback."""

    # They report a broken home themselves (the app on its own screen), so they run with one.
    REPORTS_STATE = ("paths", "doctor", "tui", None)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except StateError as error:
            raise click.ClickException(str(error)) from error
        except sqlite3.DatabaseError as error:  # damage found by a query after the database opened
            from scholar_tui.indexes.db import database_problem

            raise click.ClickException(database_problem(locations(), error)) from error


def one_line_errors(function: Callable) -> Callable:
    """Known failures become a one-line message and exit 1, never a traceback."""
    from functools import wraps

    @wraps(function)
    def wrapper(*args, **kwargs):
        from scholar_tui.config.settings import ConfigError
        from scholar_tui.models.base import LLMError
        from scholar_tui.models.pull import PullError

        try:
            return function(*args, **kwargs)
        except (StateError, ConfigError, LLMError, PullError) as error:
            raise click.ClickException(str(error)) from error

    return wrapper


def printable(text: str) -> str:
    """``text`` that any UTF-8 terminal or pipe accepts: a lone surrogate (from a result, or an
    argument that was not UTF-8) is written as its escape instead of crashing the write."""
    return text if text.isascii() else text.encode("utf-8", "backslashreplace").decode("utf-8")


def terminal_text(text: str) -> str:
    """``text`` that came from outside (a request, a program's value or output, an API's error) made
    safe to show: encodable, and each control character (ESC, BEL, C1's CSI) shown as its escape,
    so it cannot retitle the window, clear the screen or move the cursor."""
    return show_controls(printable(text))


# json escapes C0 controls itself but, with ensure_ascii off, leaves C1 ones (\x9b is a terminal's
# CSI) and the bidi overrides raw: those are escaped the JSON way too.
RAW_IN_JSON = re.compile("[\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def terminal_json(value: Any) -> str:
    """``value`` as indented JSON that is still valid JSON and safe on a terminal."""
    text = printable(json.dumps(value, indent=2, ensure_ascii=False, default=str))
    return RAW_IN_JSON.sub(lambda match: f"\\u{ord(match.group(0)):04x}", text)


def emit_json(value: Any) -> None:
    click.echo(terminal_json(value))
