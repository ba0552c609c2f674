"""A small Zotero database the tests build themselves: the tables and columns the reader uses, as
Zotero 6 lays them out (userdata schema 121), with a few items, a group library, collections and
tags. Tests on the real backups in ../shared/data/zotero use the same import code."""

from __future__ import annotations

import sqlite3
from pathlib import Path

SCHEMA = """
create table version (schema text primary key, version int not null);
create table settings (setting text, key text, value, primary key (setting, key));
create table libraries (libraryID integer primary key, type text not null, editable int not null default 1,
    filesEditable int not null default 1, version int not null default 0);
create table groups (groupID integer primary key, libraryID int not null, name text not null,
    description text not null default '', version int not null default 0);
create table itemTypes (itemTypeID integer primary key, typeName text);
create table fields (fieldID integer primary key, fieldName text);
create table items (itemID integer primary key, itemTypeID int not null, dateAdded timestamp not null default current_timestamp,
    dateModified timestamp not null default current_timestamp, libraryID int not null, key text not null,
    version int not null default 0);
create table itemData (itemID int, fieldID int, valueID, primary key (itemID, fieldID));
create table itemDataValues (valueID integer primary key, value unique);
create table creators (creatorID integer primary key, firstName text, lastName text, fieldMode int);
create table creatorTypes (creatorTypeID integer primary key, creatorType text);
create table itemCreators (itemID int not null, creatorID int not null, creatorTypeID int not null default 1,
    orderIndex int not null default 0, primary key (itemID, creatorID, creatorTypeID, orderIndex));
create table itemAttachments (itemID integer primary key, parentItemID int, linkMode int, contentType text,
    path text);
create table collections (collectionID integer primary key, collectionName text not null, parentCollectionID int,
    libraryID int not null, key text not null);
create table collectionItems (collectionID int not null, itemID int not null, orderIndex int not null default 0,
    primary key (collectionID, itemID));
create table tags (tagID integer primary key, name text not null unique);
create table itemTags (itemID int not null, tagID int not null, type int not null default 0, primary key (itemID, tagID));
create table deletedItems (itemID integer primary key, dateDeleted default current_timestamp not null);
insert into version values ('userdata', 121), ('globalSchema', 28);
insert into settings values ('account', 'localUserKey', 'TESTKEY1');
insert into libraries (libraryID, type) values (1, 'user'), (2, 'group');
insert into groups (groupID, libraryID, name) values (4711, 2, 'Lab group');
insert into itemTypes values (2, 'attachment'), (22, 'journalArticle'), (31, 'preprint');
insert into fields values (1, 'title'), (2, 'abstractNote'), (6, 'date'), (13, 'url'), (16, 'extra'),
    (38, 'publicationTitle'), (59, 'DOI');
insert into creatorTypes values (8, 'author'), (10, 'editor');
insert into collections values (1, 'Computer Science', null, 1, 'COLLCS00'), (2, 'Distributed Systems', 1, 1, 'COLLDS00'),
    (3, 'Reading group', null, 2, 'COLLRG00');
"""
FIELD_IDS = {"title": 1, "abstractNote": 2, "date": 6, "url": 13, "extra": 16, "publicationTitle": 38, "DOI": 59}


class ZoteroWriter:
    """Adds items to a test database through one connection (which a test may keep open)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def item(
        self,
        item_id: int,
        key: str,
        fields: dict[str, str],
        *,
        authors: tuple[str, ...] = (),
        library: int = 1,
        kind: int = 22,
        collections: tuple[int, ...] = (),
        tags: tuple[str, ...] = (),
        modified: str = "2024-06-16 21:57:04",
    ) -> None:
        self.conn.execute(
            "insert into items (itemID, itemTypeID, dateModified, libraryID, key) values (?, ?, ?, ?, ?)",
            (item_id, kind, modified, library, key),
        )
        for name, value in fields.items():
            self.conn.execute("insert or ignore into itemDataValues (value) values (?)", (value,))
            value_id = self.conn.execute("select valueID from itemDataValues where value = ?", (value,)).fetchone()[0]
            self.conn.execute("insert into itemData values (?, ?, ?)", (item_id, FIELD_IDS[name], value_id))
        for index, name in enumerate(authors):
            first, _, last = name.rpartition(" ")
            creator = self.conn.execute(
                "insert into creators (firstName, lastName, fieldMode) values (?, ?, 0)", (first, last)
            ).lastrowid
            self.conn.execute("insert into itemCreators values (?, ?, 8, ?)", (item_id, creator, index))
        for collection in collections:
            self.conn.execute("insert into collectionItems (collectionID, itemID) values (?, ?)", (collection, item_id))
        for tag in tags:
            self.conn.execute("insert or ignore into tags (name) values (?)", (tag,))
            tag_id = self.conn.execute("select tagID from tags where name = ?", (tag,)).fetchone()[0]
            self.conn.execute("insert into itemTags (itemID, tagID) values (?, ?)", (item_id, tag_id))

    def attachment(
        self, item_id: int, key: str, parent: int | None, path: str, content_type: str = "application/pdf"
    ) -> None:
        self.conn.execute("insert into items (itemID, itemTypeID, libraryID, key) values (?, 2, 1, ?)", (item_id, key))
        self.conn.execute("insert into itemAttachments values (?, ?, 1, ?, ?)", (item_id, parent, content_type, path))


def make_zotero(folder: Path, *, journal_mode: str = "delete") -> Path:
    """A Zotero data folder with three items in 'My Library' and one in the group 'Lab group'."""
    folder.mkdir(parents=True, exist_ok=True)
    database = folder / "zotero.sqlite"
    conn = sqlite3.connect(database)
    conn.execute(f"pragma journal_mode = {journal_mode}")
    conn.executescript(SCHEMA)
    writer = ZoteroWriter(conn)
    writer.item(
        1,
        "AAAA1111",
        {
            "title": "MapReduce: simplified data processing on large clusters",
            "date": "2008-01-01 January 1, 2008",
            "DOI": "10.1145/1327452.1327492",
            "publicationTitle": "Communications of the ACM",
            "abstractNote": "MapReduce is a model.",
        },
        authors=("Jeffrey Dean", "Sanjay Ghemawat"),
        collections=(2,),
        tags=("systems", "classic"),
    )
    writer.item(
        2,
        "BBBB2222",
        {
            "title": "Zeros of a growing number of derivatives of random polynomials",
            "date": "2022-12-00 12/2022",
            "extra": "arXiv: 2212.11867",
        },
        authors=("Marcus Michelen", "Xuan-Truong Vu"),
        kind=31,
        tags=("math",),
    )
    writer.item(
        3,
        "CCCC3333",
        {"title": "Editor's introduction to this special issue", "date": "2020-00-00 2020"},
        authors=("Ann Smith",),
        collections=(1,),
    )
    writer.item(
        4,
        "DDDD4444",
        {
            "title": "Paxos made simple, a group reading",
            "date": "2001-00-00 2001",
            "url": "https://lamport.azurewebsites.net/pubs/paxos-simple.pdf",
        },
        authors=("Leslie Lamport",),
        library=2,
        collections=(3,),
    )
    writer.attachment(10, "PDF00001", 1, "storage:mapreduce.pdf")
    storage = folder / "storage" / "PDF00001"
    storage.mkdir(parents=True)
    (storage / ".zotero-ft-cache").write_text("MapReduce is a programming model and an associated implementation.")
    conn.commit()
    conn.close()
    return folder
