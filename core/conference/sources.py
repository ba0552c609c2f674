"""Where a conference comes from: a ConferenceQA JSON file, HTML pages, or a URL."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from scholar_tui.core.conference.html_tree import tree_from_html, tree_from_html_files
from scholar_tui.core.conference.questions import QUESTION_TYPES
from scholar_tui.core.conference.tree import ConferenceError, Tree, check_readable, read_json, tree_from_data

HTML_SUFFIXES = {".html", ".htm"}
BINARY_CONTROLS = re.compile(rb"[\x00-\x08\x0b\x0e-\x1f]")
MAX_BINARY_SHARE = 0.01  # text pages have next to no control bytes; random bytes have ~12 %


def _json_tree(path: Path, name: str | None) -> Tree:
    """A ConferenceQA tree: a JSON object of pages and headings; anything else is refused here,
    before an embedder is loaded for it."""
    try:
        data: Any = read_json(path)
        if not isinstance(data, dict):
            kind = {str: "a string", list: "a list", int: "a number", float: "a number", bool: "true/false"}.get(
                type(data), "null"
            )
            raise ConferenceError(
                f"{path}: not a conference tree: expected a JSON object of pages and headings, found {kind}"
            )
        return tree_from_data(data, name)
    except RecursionError:
        raise ConferenceError(f"{path}: not a conference tree: the JSON is nested too deeply") from None


def _html_page(path: Path) -> str:
    """The page's text; a file of bytes that is not text (a binary named .html) is refused."""
    check_readable(path)
    try:
        data = path.read_bytes()
    except OSError as error:
        raise ConferenceError(f"{path}: cannot read ({error.strerror})") from error
    controls = len(BINARY_CONTROLS.findall(data[:65536]))
    if b"\x00" in data or controls > MAX_BINARY_SHARE * min(len(data), 65536) or not re.search(rb"<[A-Za-z!]", data):
        raise ConferenceError(f"{path}: not an HTML page (binary data or no tags)")
    return data.decode("utf-8-sig", errors="replace")


def is_url(source: str) -> bool:
    return source.startswith(("http://", "https://"))


def fetch_page(url: str, *, offline: bool, timeout_s: float) -> str:
    """The page's HTML, or a one-line ConferenceError saying why not (offline, unreachable, HTTP error)."""
    if offline:
        raise ConferenceError(
            f"cannot fetch {url}: network.offline is set; save the page and run `scholar-tui conf import PAGE.html`"
        )
    import httpx

    try:
        response = httpx.get(
            url, timeout=timeout_s, follow_redirects=True, headers={"User-Agent": "scholar-tui (conference import)"}
        )
        response.raise_for_status()
    except httpx.HTTPStatusError as error:
        raise ConferenceError(f"cannot fetch {url}: HTTP {error.response.status_code}") from error
    except httpx.HTTPError as error:
        raise ConferenceError(
            f"cannot fetch {url}: {error.__class__.__name__} ({error or 'no answer'}) — offline? "
            "Save the page and import the .html file instead"
        ) from error
    return response.text


def load_source(source: str, *, name: str | None = None, offline: bool = False, timeout_s: float = 10.0) -> Tree:
    """A tree from a JSON file, an HTML file, a folder (its one tree JSON, or its HTML pages), or a URL."""
    if is_url(source):
        return tree_from_html(fetch_page(source, offline=offline, timeout_s=timeout_s), name)
    path = Path(source).expanduser()
    if path.is_dir():
        trees = [item for item in path.glob("*.json") if item.stem not in QUESTION_TYPES]
        pages = [item for item in path.iterdir() if item.suffix.lower() in HTML_SUFFIXES]
        if len(trees) == 1:
            return _json_tree(trees[0], name)
        if pages:
            return tree_from_html_files(pages, name or path.name)
        raise ConferenceError(f"{path}: expected one tree JSON or some .html pages in the folder")
    if not path.exists():
        raise ConferenceError(f"{path}: no such file")
    if path.suffix.lower() in HTML_SUFFIXES:
        return tree_from_html(_html_page(path), name)
    return _json_tree(path, name)
