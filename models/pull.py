"""Pulling GGUF files from the Hugging Face Hub into the models folder."""

from __future__ import annotations

import os
import threading
from pathlib import Path
from urllib.parse import urlparse

from scholar_tui.config.locations import Locations
from scholar_tui.models.registry import ModelEntry, register


class PullError(Exception):
    """A pull failed; the message is one line and says whether the network was the cause."""


def pull(
    repo_id: str,
    filename: str,
    where: Locations,
    *,
    offline: bool = False,
    endpoint: str | None = None,
    name: str | None = None,
    timeout_s: float = 10.0,
) -> ModelEntry:
    """Download ``filename`` from ``repo_id`` (resumable) and register it under ``name``.

    ``timeout_s`` (``network.timeout_s``) bounds how long an unreachable or silent hub can keep
    us waiting: the hub is asked once, within it, before the download (with its own retries) starts.
    """
    if not filename.endswith(".gguf"):
        raise PullError(f"{filename} is not a .gguf file; llama.cpp runs GGUF models")
    if offline:
        raise PullError("offline mode is on (network.offline = true): nothing can be pulled")
    if os.environ.get("HF_HUB_OFFLINE", "").lower() in ("1", "true", "yes", "on"):
        raise PullError("offline: HF_HUB_OFFLINE is set, so the Hugging Face Hub is not contacted")
    from huggingface_hub import constants, hf_hub_download
    from huggingface_hub import errors as hub_errors

    _answers_within(endpoint or constants.ENDPOINT, timeout_s)
    target = where.models_dir
    target.mkdir(parents=True, exist_ok=True)
    try:
        path = hf_hub_download(
            repo_id=repo_id, filename=filename, local_dir=target, endpoint=endpoint, etag_timeout=timeout_s
        )
    except hub_errors.OfflineModeIsEnabled as error:
        raise PullError("offline: HF_HUB_OFFLINE is set, so the Hugging Face Hub is not contacted") from error
    except hub_errors.RepositoryNotFoundError as error:
        raise PullError(f"no repository {repo_id!r} on the Hugging Face Hub (or it is private)") from error
    except hub_errors.LocalEntryNotFoundError as error:
        raise PullError(
            f"offline: cannot reach the Hugging Face Hub to pull {repo_id}/{filename}; check the network"
        ) from error
    except hub_errors.EntryNotFoundError as error:
        raise PullError(f"repository {repo_id!r} has no file {filename!r}") from error
    except hub_errors.HfHubHTTPError as error:
        raise PullError(f"the Hugging Face Hub refused {repo_id}/{filename}: {str(error).splitlines()[0]}") from error
    except OSError as error:  # DNS failures, refused connections, a full disk
        raise PullError(f"pull of {repo_id}/{filename} failed: {error}") from error
    entry = ModelEntry(
        name=name or Path(filename).stem,
        kind="gguf",
        location=str(Path(path).resolve()),
        source=f"hf:{repo_id}",
    )
    register(where, entry)
    return entry


def _answers_within(endpoint: str, timeout_s: float) -> None:
    """PullError unless the hub answers (any HTTP status) within ``timeout_s``.

    huggingface_hub retries with back-off on its own, several minutes against a server that never
    answers; DNS lookups ignore socket timeouts. So one probe runs in a thread that we stop waiting
    for when the time is up.
    """
    import httpx

    outcome: list[BaseException | None] = []  # None: the hub answered (any HTTP status)

    def probe() -> None:
        try:
            httpx.head(endpoint, timeout=timeout_s)
            outcome.append(None)
        except httpx.HTTPError as error:
            outcome.append(error)

    thread = threading.Thread(target=probe, name="hub-probe", daemon=True)
    thread.start()
    thread.join(timeout_s + 0.5)
    host = urlparse(endpoint).netloc or endpoint
    if outcome and outcome[0] is None:
        return
    if outcome and not isinstance(outcome[0], httpx.TimeoutException):
        raise PullError(
            f"offline: cannot reach the Hugging Face Hub at {host} ({type(outcome[0]).__name__}); check the network"
        )
    raise PullError(f"offline: {host} did not answer within {timeout_s:g} s (network.timeout_s); nothing was pulled")
