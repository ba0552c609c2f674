"""Pulling GGUF files from the Hugging Face Hub into the models folder."""

from __future__ import annotations

import os
from pathlib import Path

from scholar_tui.config.locations import Locations
from .registry import ModelEntry, register


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
) -> ModelEntry:
    """Download ``filename`` from ``repo_id`` (resumable) and register it under ``name``."""
    if not filename.endswith(".gguf"):
        raise PullError(f"{filename} is not a .gguf file; llama.cpp runs GGUF models")
    if offline:
        raise PullError("offline mode is on (network.offline = true): nothing can be pulled")
    if os.environ.get("HF_HUB_OFFLINE", "").lower() in ("1", "true", "yes", "on"):
        raise PullError("offline: HF_HUB_OFFLINE is set, so the Hugging Face Hub is not contacted")
    from huggingface_hub import hf_hub_download
    from huggingface_hub import errors as hub_errors

    target = where.models_dir
    target.mkdir(parents=True, exist_ok=True)
    try:
        path = hf_hub_download(repo_id=repo_id, filename=filename, local_dir=target, endpoint=endpoint)
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
