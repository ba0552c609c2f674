"""Collections and tags as filters: the papers a `--collection NAME` / `--tag NAME` allows.

Shared by `library search` and PaSa's `search` (and their tabs): a name that matches nothing is one
line naming what there is, never an empty result that looks like "no paper matched the query".
"""

from __future__ import annotations

from scholar_tui.indexes.library import Library


class LabelError(ValueError):
    """A collection or tag that selects no paper; the message is one line for the user.

    The names asked for are quoted as ``repr`` does, control characters escaped; the collections
    listed come from the library as they are, so a front end shows the message as outside text."""


def labelled_papers(library: Library, collection: str | None = None, tag: str | None = None) -> set[int] | None:
    """The paper ids in ``collection`` (a name or path, sub-collections included) with ``tag``; None
    when neither is given."""
    if collection is None and tag is None:
        return None
    if collection is not None and not library.has_collection(collection):
        known = ", ".join(row["path"] for row in library.collections()[:8]) or "none yet (`import zotero` brings them)"
        raise LabelError(f"no collection {collection!r}; collections: {known}")
    within = library.papers_labelled(collection=collection, tag=tag)
    if not within:
        if collection is not None and tag is not None:
            raise LabelError(f"no paper of {collection!r} has the tag {tag!r}")
        if tag is not None:
            raise LabelError(f"no paper has the tag {tag!r}")
        raise LabelError(f"the collection {(collection or '')!r} holds no paper")
    return within
