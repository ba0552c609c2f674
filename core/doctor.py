"""`scholar-tui doctor`: what is installed and found, as a stream of checks.

Nothing here raises: every problem becomes a check with a one-line detail, so the report is
complete even on a broken or offline machine.
"""

from __future__ import annotations

import importlib.metadata
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from scholar_tui.config.files import StateError
from scholar_tui.config.locations import Locations
from scholar_tui.config.settings import ConfigError, Settings, load_settings

Status = Literal["ok", "warn", "fail"]


@dataclass
class Check:
    name: str
    status: Status
    detail: str


def _version(package: str) -> str | None:
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return None


def probe_url(url: str, timeout_s: float) -> Check:
    import httpx

    started = time.perf_counter()
    try:
        response = httpx.head(url, timeout=timeout_s, follow_redirects=True)
        elapsed = (time.perf_counter() - started) * 1000
        return Check(f"network {url}", "ok", f"reachable (HTTP {response.status_code}, {elapsed:.0f} ms)")
    except httpx.HTTPError as error:
        reason = type(error).__name__
        return Check(f"network {url}", "warn", f"unreachable ({reason}): online sources are off, local work goes on")


def state_problem(where: Locations) -> str | None:
    """One line when the stored state cannot be used (the home, the config file, the database),
    else None: what the app checks before it opens, so it shows the line instead of failing in a tab."""
    from scholar_tui.indexes.db import check_tables, open_database

    try:
        where.check()
        load_settings(where)
        db = open_database(where)
        try:
            check_tables(db, where)
        finally:
            db.conn.close()
    except StateError as error:
        return str(error)
    return None


def run_checks(where: Locations, *, deep: bool = False) -> Iterator[Check]:
    """Yield each check as it completes; ``deep`` also loads the LLM and generates a token."""
    try:
        where.check()
    except StateError as error:
        yield Check("home", "fail", str(error))
        return
    try:
        settings = load_settings(where)
        state = "found" if where.config_file.exists() else "not written yet, defaults in force"
        yield Check("config", "ok", f"{where.config_file} ({state})")
    except ConfigError as error:
        yield Check("config", "fail", str(error))
        settings = Settings()

    try:
        where.ensure()
        probe = where.data_dir / ".write-test"
        probe.write_text("ok")
        probe.unlink()
        yield Check("data dir", "ok", f"{where.data_dir} (writable)")
    except OSError as error:
        yield Check("data dir", "fail", f"{where.data_dir}: {error}")

    yield from _storage_checks(where)
    yield from _model_checks(settings, where, deep=deep)
    yield from _network_checks(settings)


def _storage_checks(where: Locations) -> Iterator[Check]:
    from scholar_tui.indexes.db import check_tables, open_database, open_vectors
    from scholar_tui.indexes.migrations import MIGRATIONS, applied

    try:
        db = open_database(where)
        check_tables(db, where)
        done = applied(db)
        calls = db["llm_calls"].count
        db.conn.close()
        yield Check(
            "sqlite",
            "ok",
            f"{where.database_file} (schema {len(done)}/{len(MIGRATIONS)} migrations, {calls} logged LLM calls)",
        )
    except StateError as error:  # names the file and what to do
        yield Check("sqlite", "fail", str(error))
    except Exception as error:
        yield Check("sqlite", "fail", f"{where.database_file}: {error}")
    try:
        tables = open_vectors(where).list_tables().tables
        yield Check("lancedb", "ok", f"{where.lancedb_dir} (lancedb {_version('lancedb')}, {len(tables)} tables)")
    except Exception as error:
        yield Check("lancedb", "fail", f"{where.lancedb_dir}: {error}")


def _model_checks(settings: Settings, where: Locations, *, deep: bool) -> Iterator[Check]:
    from scholar_tui.models.registry import ModelNotFound, resolve_embedding, resolve_llm

    llama_version = _version("llama-cpp-python")
    if llama_version is None:
        yield Check("llama-cpp-python", "fail", "not installed")
    else:
        try:
            import llama_cpp

            info = llama_cpp.llama_print_system_info().decode("utf-8", errors="replace").strip()
            yield Check("llama-cpp-python", "ok", f"{llama_version}; {info[:160]}")
        except Exception as error:
            yield Check("llama-cpp-python", "fail", f"{llama_version} installed but not importable: {error}")

    try:
        entry = resolve_llm(settings.llm.model, where)
        if entry.kind == "endpoint":
            yield Check("llm", "ok", f"{settings.llm.model} (OpenAI-compatible endpoint)")
        else:
            size = Path(entry.location).stat().st_size / 2**20
            yield Check("llm", "ok", f"{entry.name}: {entry.location} ({size:.0f} MiB, {entry.source})")
        if deep:
            yield _generation_check(settings, where)
    except ModelNotFound as error:
        yield Check("llm", "fail", str(error))

    try:
        entry = resolve_embedding(settings.embeddings.model, where)
        location = Path(entry.location)
        weights = location.is_file() or any(location.glob("*.safetensors")) or any(location.glob("*.bin"))
        status: Status = "ok" if weights else "fail"
        yield Check("embeddings", status, f"{entry.name}: {entry.location}" + ("" if weights else " (no weights)"))
    except ModelNotFound as error:
        yield Check("embeddings", "fail", str(error))


def _generation_check(settings: Settings, where: Locations) -> Check:
    from scholar_tui.core.llm import open_llm
    from scholar_tui.models import LLMError

    try:
        llm = open_llm(settings, where)
        completion = llm.complete("The capital of France is", max_tokens=4)
        llm.close()
        return Check("llm generation", "ok", f"{completion.text!r} ({completion.duration_s:.2f} s)")
    except LLMError as error:
        return Check("llm generation", "fail", str(error))


def _network_checks(settings: Settings) -> Iterator[Check]:
    if settings.network.offline:
        yield Check("network", "ok", "offline mode: online sources are not contacted")
        return
    timeout = min(settings.network.timeout_s, 5.0)
    with ThreadPoolExecutor(max_workers=max(1, len(settings.network.probe_urls))) as pool:
        yield from pool.map(lambda url: probe_url(url, timeout), settings.network.probe_urls)


# -- doctor --repair --------------------------------------------------------------------------
def repair(where: Locations) -> Iterator[Check]:
    """Rebuild what is derived from SQLite and say what cannot be fixed.

    The search index (LanceDB table and snapshot) is dropped and embedded again from the papers in
    SQLite; conference vector tables that cannot be read are dropped (their re-import is named).
    SQLite itself is the record: damage there is reported with what to do, never "repaired" by
    losing rows."""
    try:
        where.check().ensure()
    except StateError as error:
        yield Check("home", "fail", f"not fixed: {error}")
        return
    try:
        settings = load_settings(where)
    except ConfigError as error:
        yield Check("config", "fail", f"not fixed: {error}")
        settings = Settings()
    library = yield from _repairable_database(where)
    if library is None:
        return
    try:
        yield _rebuild_search_index(where, library, settings)
        yield from _conference_vector_checks(where)
    finally:
        library.close()


def _repairable_database(where: Locations):
    from scholar_tui.indexes.db import check_tables, database_problem
    from scholar_tui.indexes.library import Library

    library = None
    try:
        library = Library.open(where)
        check_tables(library.db, where)
        verdict = library.conn.execute("pragma quick_check").fetchone()[0]
    except Exception as error:
        if library is not None:
            library.close()
        problem = str(error) if isinstance(error, StateError) else database_problem(where, error)
        yield Check("sqlite", "fail", f"not fixed: {problem}")
        return None
    if verdict != "ok":
        library.close()
        yield Check(
            "sqlite",
            "fail",
            f"not fixed: {where.database_file} fails SQLite's check ({verdict}): "
            "restore a backup copy, or move it aside and re-import your files",
        )
        return None
    yield Check("sqlite", "ok", f"{where.database_file} passes SQLite's check")
    return library


def _rebuild_search_index(where: Locations, library, settings: Settings) -> Check:
    from scholar_tui.indexes.library_search import LibraryIndex, rebuild_index
    from scholar_tui.models import LLMError, load_embedder

    try:
        finished = rebuild_index(LibraryIndex(where, load_embedder(settings, where)), library)
    except (LLMError, StateError) as error:
        return Check("search index", "fail", f"not fixed: {error}")
    return Check(
        "search index",
        "ok",
        f"rebuilt from SQLite: {finished.indexed} papers ({finished.embedded} embedded in {finished.seconds:.1f} s)",
    )


def _conference_vector_checks(where: Locations) -> Iterator[Check]:
    from scholar_tui.indexes.conference_vectors import drop_unreadable_tables

    for conference, problem in drop_unreadable_tables(where):
        yield Check(
            f"conference {conference}",
            "warn",
            f"vectors could not be read ({problem}) and were dropped: not fixed until "
            f"`scholar-tui conf import SOURCE --name {conference}`",
        )
