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
            folder.mkdir(parents=True, exist_ok=True)
        return self


def locations(environ: os._Environ | dict | None = None) -> Locations:
    """The folders in force now: ``SCHOLAR_TUI_HOME`` when set, else the platform's own."""
    env = os.environ if environ is None else environ
    home = env.get(HOME_ENV)
    if home:
        root = Path(home).expanduser().resolve()
        return Locations(
            config_dir=root, data_dir=root / "data", cache_dir=root / "cache", log_dir=root / "logs"
        )
    return Locations(
        config_dir=platformdirs.user_config_path(APP_NAME),
        data_dir=platformdirs.user_data_path(APP_NAME),
        cache_dir=platformdirs.user_cache_path(APP_NAME),
        log_dir=platformdirs.user_log_path(APP_NAME),
    )
