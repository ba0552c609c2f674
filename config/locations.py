"""Where scholar-tui keeps its state.

Every path the project writes lives under one of these folders. ``SCHOLAR_TUI_HOME`` puts all of
them in one directory (tests, benchmarks and portable installs use it); otherwise the platform's
conventional folders are used (platformdirs).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import platformdirs

from scholar_tui.config.files import StateError, shown_path

APP_NAME = "scholar-tui"
HOME_ENV = "SCHOLAR_TUI_HOME"


@dataclass(frozen=True)
class Locations:
    config_dir: Path
    data_dir: Path
    cache_dir: Path
    log_dir: Path

    @property
    def config_file(self) -> Path:
        return self.config_dir / "config.toml"

    @property
    def database_file(self) -> Path:
        return self.data_dir / "scholar.db"

    @property
    def lancedb_dir(self) -> Path:
        return self.data_dir / "lancedb"

    @property
    def models_dir(self) -> Path:
        """GGUF files pulled with ``scholar-tui models pull``."""
        return self.data_dir / "models"

    @property
    def models_registry_file(self) -> Path:
        return self.models_dir / "registry.json"

    def as_dict(self) -> dict[str, str]:
        return {
            "config_file": str(self.config_file),
            "data_dir": str(self.data_dir),
            "database": str(self.database_file),
            "lancedb": str(self.lancedb_dir),
            "models_dir": str(self.models_dir),
            "cache_dir": str(self.cache_dir),
            "log_dir": str(self.log_dir),
        }

    def ensure(self) -> "Locations":
        for folder in (self.config_dir, self.data_dir, self.cache_dir, self.log_dir, self.models_dir):
            make_folder(folder)
        return self

    def check(self) -> "Locations":
        """StateError, in one line, when these folders cannot be ours: a name holding a newline or
        another control character (LanceDB refuses such paths, and a message would break), or a
        file where a folder has to be. Nothing is created; a folder that cannot be created for
        another reason (read-only, /proc) is found by ``make_folder`` when it is needed."""
        for folder in (self.config_dir, self.data_dir, self.cache_dir, self.log_dir):
            if any(not char.isprintable() and char != " " for char in str(folder)):
                raise StateError(
                    f"the folder {shown_path(folder)} has a control character (a newline?) in its "
                    f"name: set {HOME_ENV} (or --home) to a folder without one"
                )
            _no_file_in_the_way(folder)
        return self


def _no_file_in_the_way(folder: Path) -> None:
    for ancestor in (folder, *folder.parents):
        if ancestor.exists() or ancestor.is_symlink():
            if not ancestor.is_dir():
                blocked = "" if ancestor == folder else f", so {shown_path(folder)} cannot be created"
                raise StateError(
                    f"{shown_path(ancestor)} is a file, not a folder{blocked}: set {HOME_ENV} (or --home) to a folder"
                )
            return


def make_folder(folder: Path) -> Path:
    """``folder``, created with its parents when missing; StateError (one line) when it cannot be."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        _no_file_in_the_way(folder)
        raise StateError(
            f"{shown_path(folder)} is not a folder: move it aside or set {HOME_ENV} (or --home) to another folder"
        ) from None
    except OSError as error:
        raise StateError(
            f"cannot create the folder {shown_path(folder)} ({error.strerror}): set {HOME_ENV} "
            "(or --home) to a folder you can write"
        ) from error
    return folder


def locations(environ: os._Environ | dict | None = None) -> Locations:
    """The folders in force now: ``SCHOLAR_TUI_HOME`` when set, else the platform's own."""
    env = os.environ if environ is None else environ
    home = env.get(HOME_ENV)
    if home:
        root = Path(home).expanduser().resolve()
        return Locations(config_dir=root, data_dir=root / "data", cache_dir=root / "cache", log_dir=root / "logs")
    return Locations(
        config_dir=platformdirs.user_config_path(APP_NAME),
        data_dir=platformdirs.user_data_path(APP_NAME),
        cache_dir=platformdirs.user_cache_path(APP_NAME),
        log_dir=platformdirs.user_log_path(APP_NAME),
    )
