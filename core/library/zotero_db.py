"""Reading a Zotero data folder's ``zotero.sqlite`` while Zotero may be running.

Zotero holds its database open (and locked) while it runs, and a change it made a moment ago may
still sit in ``zotero.sqlite-wal`` (or be undone by a hot ``-journal``). An ``immutable=1`` open
would read the main file alone and silently miss those changes, and a read-only connection cannot
open a database another process holds in exclusive locking mode. So we copy the database *with*
its ``-wal`` / ``-journal`` into a private temporary folder and open the copy: SQLite replays the
write-ahead log (or rolls back the interrupted transaction) on the copy, exactly as it would for
Zotero, and the user's files are never written. A copy taken while Zotero was writing is taken
again (the files' sizes and times must not change during the copy).

``read_zotero(folder)`` returns a ``ZoteroSnapshot``: every library (the user's and each group),
every regular item with its fields, creators in order, tags, collections and attachments, and the
stand-alone PDFs. Anything wrong with the database is a ``ZoteroError`` with one line.
"""

from __future__ import annotations

import os
import re
import shutil
import sqlite3
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

# Zotero 5.0 (2017) wrote userdata 80-something; Zotero 6 writes 120-121, Zotero 7 a little more.
# Outside this range the tables we read may have other shapes: we say so rather than guess.
KNOWN_USERDATA = range(80, 200)
REQUIRED_COLUMNS = {
    "items": {"itemID", "itemTypeID", "libraryID", "key", "version", "dateModified"},
    "itemTypes": {"itemTypeID", "typeName"},
    "itemData": {"itemID", "fieldID", "valueID"},
    "itemDataValues": {"valueID", "value"},
    "creators": {"creatorID", "firstName", "lastName", "fieldMode"},
    "itemCreators": {"itemID", "creatorID", "creatorTypeID", "orderIndex"},
    "creatorTypes": {"creatorTypeID", "creatorType"},
    "itemAttachments": {"itemID", "parentItemID", "linkMode", "contentType", "path"},
    "collections": {"collectionID", "collectionName", "parentCollectionID", "libraryID", "key"},
    "collectionItems": {"collectionID", "itemID"},
    "tags": {"tagID", "name"},
    "itemTags": {"itemID", "tagID"},
    "libraries": {"libraryID", "type"},
    "deletedItems": {"itemID"},
}
NOT_WORKS = {"attachment", "note", "annotation"}  # item types that are parts of an item, not works
# Creator types that write the work; editors and translators only when no one else is named.
WRITERS = {
    "author",
    "artist",
    "programmer",
    "presenter",
    "inventor",
    "director",
    "podcaster",
    "performer",
    "composer",
    "cartographer",
    "interviewee",
    "sponsor",
    "wordsBy",
    "scriptwriter",
}
VENUE_FIELDS = (
    "publicationTitle",
    "proceedingsTitle",
    "bookTitle",
    "conferenceName",
    "websiteTitle",
    "blogTitle",
    "forumTitle",
    "encyclopediaTitle",
    "dictionaryTitle",
    "programTitle",
    "university",
    "institution",
    "repository",
    "publisher",
)
COPY_TRIES = 5


class ZoteroError(Exception):
    """A Zotero folder or database we cannot read; the message is one line for the user."""


@dataclass
class Attachment:
    key: str
    title: str | None
    content_type: str | None
    file: Path | None  # where the file should be (it may be missing, as in real backups)
    full_text: Path  # Zotero's own extracted text (.zotero-ft-cache), which may be missing too


@dataclass
class ZoteroItem:
    library: str  # "My Library" or the group's name
    library_key: str  # 'user' or 'group:<groupID>': stable across renames
    key: str  # Zotero's item key, e.g. 'YDQMNNXT'
    item_type: str
    version: int
    date_modified: str
    fields: dict[str, str]
    creators: list[tuple[str, str]]  # (creator type, name as 'First Last') in Zotero's order
    tags: list[str] = field(default_factory=list)
    collections: list[str] = field(default_factory=list)  # paths: 'Computer Science/Distributed Systems'
    attachments: list[Attachment] = field(default_factory=list)
    trashed: bool = False

    @property
    def stamp(self) -> str:
        """What changes when the item does: Zotero bumps dateModified (and, once synced, version)."""
        return f"{self.version}|{self.date_modified}"

    @property
    def title(self) -> str | None:
        return self.fields.get("title")


@dataclass
class ZoteroSnapshot:
    folder: Path
    database_id: str  # Zotero's local user key: tells two Zotero installations apart
    schema_version: int
    libraries: dict[int, tuple[str, str]]  # libraryID -> (library key, name)
    items: list[ZoteroItem]  # regular items, trashed ones included (marked)
    standalone: list[ZoteroItem]  # attachments without a parent item (a PDF dropped into Zotero)
    collections: list[tuple[str, str, str]]  # (library key, collection key, path)
    tags: set[str]


def default_folder() -> Path:
    """Zotero's data folder where Zotero puts it by default on every platform: ~/Zotero."""
    home = (
        Path(os.environ.get("USERPROFILE", ""))
        if sys.platform == "win32" and os.environ.get("USERPROFILE")
        else Path.home()
    )
    return home / "Zotero"


def _companions(database: Path) -> list[Path]:
    return [database.with_name(database.name + suffix) for suffix in ("-wal", "-journal")]


def _signature(paths: list[Path]) -> list[tuple[str, int, int] | None]:
    out: list[tuple[str, int, int] | None] = []
    for path in paths:
        try:
            stat = path.stat()
            out.append((path.name, stat.st_size, stat.st_mtime_ns))
        except FileNotFoundError:
            out.append(None)
    return out


def private_copy(database: Path, into: Path) -> Path:
    """Copy the database with its -wal / -journal into ``into``; retried while Zotero writes."""
    files = [database, *_companions(database)]
    for _ in range(COPY_TRIES):
        before = _signature(files)
        for path in files:
            if path.exists():
                shutil.copyfile(path, into / path.name)
            elif (into / path.name).exists():
                (into / path.name).unlink()
        if _signature(files) == before:
            return into / database.name
    raise ZoteroError(f"{database}: Zotero kept writing while we copied it ({COPY_TRIES} tries); try again in a moment")


def _check_schema(conn: sqlite3.Connection, database: Path) -> int:
    tables = {row[0] for row in conn.execute("select name from sqlite_master where type = 'table'")}
    if "version" not in tables or "items" not in tables:
        raise ZoteroError(f"{database}: not a Zotero database (it has no 'version' and 'items' tables)")
    row = conn.execute("select version from version where schema = 'userdata'").fetchone()
    version = int(row[0]) if row and str(row[0]).isdigit() else -1
    if version not in KNOWN_USERDATA:
        raise ZoteroError(
            f"{database}: Zotero schema version {version} is not one this reader knows "
            f"({KNOWN_USERDATA.start}–{KNOWN_USERDATA.stop - 1}); nothing was imported"
        )
    for table, wanted in REQUIRED_COLUMNS.items():
        have = {column[1] for column in conn.execute(f"pragma table_info({table})")}
        missing = sorted(wanted - have)
        if missing:
            raise ZoteroError(
                f"{database}: Zotero schema version {version} lacks {table}.{missing[0]}; "
                "this reader does not know that layout, nothing was imported"
            )
    return version


def read_zotero(folder: str | Path) -> ZoteroSnapshot:
    """Everything we import from a Zotero data folder (see the module docstring)."""
    folder = Path(folder).expanduser()
    database = folder / "zotero.sqlite" if folder.is_dir() else folder
    if not database.is_file():
        raise ZoteroError(
            f"{folder}: no zotero.sqlite there (Zotero's data folder is usually ~/Zotero; "
            "Zotero shows it under Settings → Advanced → Files and Folders)"
        )
    if database.stat().st_size == 0:
        raise ZoteroError(f"{database}: the file is empty, not a Zotero database")
    with tempfile.TemporaryDirectory(prefix="scholar-tui-zotero-") as scratch:
        try:
            copy = private_copy(database, Path(scratch))
        except OSError as error:
            raise ZoteroError(
                f"{database}: cannot read it ({error.strerror or error}); is another program holding it exclusively?"
            ) from error
        conn = sqlite3.connect(copy)
        try:
            version = _check_schema(conn, database)
            return _read(conn, database.parent, version)
        except sqlite3.DatabaseError as error:  # 'file is not a database', 'malformed', 'locked'
            raise ZoteroError(f"{database}: cannot read the database ({error}); nothing was imported") from error
        finally:
            conn.close()


def _rows(conn: sqlite3.Connection, sql: str, params: tuple = ()) -> list[tuple]:
    return conn.execute(sql, params).fetchall()


def _libraries(conn: sqlite3.Connection) -> dict[int, tuple[str, str]]:
    groups = {}
    if "groups" in {row[0] for row in conn.execute("select name from sqlite_master where type = 'table'")}:
        groups = {
            library: (group, name)
            for group, library, name in _rows(conn, "select groupID, libraryID, name from groups")
        }
    libraries = {}
    for library_id, kind in _rows(conn, "select libraryID, type from libraries"):
        if kind == "user":
            libraries[library_id] = ("user", "My Library")
        elif kind == "group" and library_id in groups:
            group_id, name = groups[library_id]
            libraries[library_id] = (f"group:{group_id}", name)
        # feeds (RSS items Zotero fetched, not the user's papers) are not read
    return libraries


def _field_table(conn: sqlite3.Connection) -> str:
    names = {row[0] for row in conn.execute("select name from sqlite_master where type in ('table', 'view')")}
    return "fieldsCombined" if "fieldsCombined" in names else "fields"


def _collection_paths(conn: sqlite3.Connection, libraries: dict) -> dict[int, tuple[str, str, str]]:
    rows = {
        cid: (name, parent, library, key)
        for cid, name, parent, library, key in _rows(
            conn, "select collectionID, collectionName, parentCollectionID, libraryID, key from collections"
        )
    }
    paths: dict[int, tuple[str, str, str]] = {}
    for cid, (name, parent, library, key) in rows.items():
        if library not in libraries:
            continue
        parts, seen, at = [name], {cid}, parent
        while at in rows and at not in seen:  # a cycle in a damaged table stops here
            seen.add(at)
            parts.insert(0, rows[at][0])
            at = rows[at][1]
        paths[cid] = (libraries[library][0], key, "/".join(part.replace("/", "∕") for part in parts))
    return paths


def _name(first: str | None, last: str | None, mode: int | None) -> str:
    if mode == 1 or not first:  # a single-field name ('World Health Organization')
        return " ".join((last or first or "").split())
    return " ".join(f"{first} {last or ''}".split())


def _attachment_file(folder: Path, key: str, link_mode: int | None, path: str | None) -> Path | None:
    """Imported files live in storage/<KEY>/<name>; linked files (mode 2) at their own path."""
    if not path:
        return None
    if path.startswith("storage:"):
        return folder / "storage" / key / path[len("storage:") :]
    if link_mode == 2 and not path.startswith("attachments:"):
        return Path(path)
    return None  # a path relative to a base folder only Zotero's preferences know


def _read(conn: sqlite3.Connection, folder: Path, version: int) -> ZoteroSnapshot:
    libraries = _libraries(conn)
    fields_table = _field_table(conn)
    trashed = {row[0] for row in _rows(conn, "select itemID from deletedItems")}
    items: dict[int, ZoteroItem] = {}
    kinds: dict[int, str] = {}
    for item_id, type_name, library_id, key, item_version, modified in _rows(
        conn,
        """select items.itemID, itemTypes.typeName, items.libraryID, items.key, items.version,
                     items.dateModified from items join itemTypes using (itemTypeID) order by items.itemID""",
    ):
        if library_id not in libraries:
            continue
        kinds[item_id] = type_name
        library_key, library_name = libraries[library_id]
        items[item_id] = ZoteroItem(
            library_name,
            library_key,
            key,
            type_name,
            int(item_version or 0),
            str(modified),
            {},
            [],
            trashed=item_id in trashed,
        )
    for item_id, name, value in _rows(
        conn,
        f"""select itemData.itemID, f.fieldName, itemDataValues.value from itemData
                      join {fields_table} as f using (fieldID) join itemDataValues using (valueID)""",
    ):
        if item_id in items and value is not None:
            items[item_id].fields[name] = str(value)
    for item_id, kind, first, last, mode in _rows(
        conn,
        """select itemCreators.itemID, creatorTypes.creatorType, creators.firstName, creators.lastName,
                     creators.fieldMode from itemCreators join creators using (creatorID)
                     join creatorTypes using (creatorTypeID) order by itemCreators.itemID, itemCreators.orderIndex""",
    ):
        if item_id in items and _name(first, last, mode):
            items[item_id].creators.append((kind, _name(first, last, mode)))
    for item_id, name in _rows(conn, "select itemTags.itemID, tags.name from itemTags join tags using (tagID)"):
        if item_id in items:
            items[item_id].tags.append(name)
    collections = _collection_paths(conn, libraries)
    for collection_id, item_id in _rows(conn, "select collectionID, itemID from collectionItems"):
        if item_id in items and collection_id in collections:
            items[item_id].collections.append(collections[collection_id][2])
    standalone = _attach(conn, folder, items, trashed)
    regular = [item for item_id, item in items.items() if kinds[item_id] not in NOT_WORKS]
    database_id = _database_id(conn)
    tags = {tag for item in regular for tag in item.tags}
    return ZoteroSnapshot(
        folder, database_id, version, libraries, regular, standalone, sorted(collections.values()), tags
    )


def _attach(
    conn: sqlite3.Connection, folder: Path, items: dict[int, ZoteroItem], trashed: set[int]
) -> list[ZoteroItem]:
    """Hang each file attachment on its parent; return the stand-alone PDFs (no parent)."""
    standalone = []
    for item_id, parent, link_mode, content_type, path in _rows(
        conn, "select itemID, parentItemID, linkMode, contentType, path from itemAttachments"
    ):
        if item_id not in items or item_id in trashed:
            continue
        own = items[item_id]
        attachment = Attachment(
            own.key,
            own.fields.get("title"),
            content_type,
            _attachment_file(folder, own.key, link_mode, path),
            folder / "storage" / own.key / ".zotero-ft-cache",
        )
        if parent in items:
            items[parent].attachments.append(attachment)
        elif parent is None and is_pdf(attachment):
            own.attachments.append(attachment)
            standalone.append(own)
    return standalone


def is_pdf(attachment: Attachment) -> bool:
    name = attachment.file.name.lower() if attachment.file else ""
    return attachment.content_type == "application/pdf" or name.endswith(".pdf")


def _database_id(conn: sqlite3.Connection) -> str:
    """Zotero's local user key identifies one Zotero installation (two data folders never share it)."""
    try:
        row = conn.execute("select value from settings where setting = 'account' and key = 'localUserKey'").fetchone()
    except sqlite3.DatabaseError:
        row = None
    value = str(row[0]) if row and row[0] else "local"
    return re.sub(r"[^A-Za-z0-9_-]", "", value) or "local"
