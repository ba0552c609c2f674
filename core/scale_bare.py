"""`bench scale`'s bare baselines: what the same data costs with nothing of ours in the way.

Each runs as its own cold Python process (the interpreter with sqlite3, json or numpy)."""

from __future__ import annotations

import sys

BARE_IMPORT = r"""
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[2])
db.executescript('''
CREATE TABLE papers(id INTEGER PRIMARY KEY, arxiv TEXT, title TEXT, abstract TEXT);
CREATE TABLE authors(paper INTEGER, name TEXT);
CREATE VIRTUAL TABLE words USING fts5(title, abstract, content='papers', content_rowid='id');
''')
with open(sys.argv[1], encoding='utf-8') as lines, db:
    for number, line in enumerate(lines, start=1):
        record = json.loads(line)
        meta = record['metadata']
        db.execute('INSERT INTO papers VALUES (?, ?, ?, ?)', (number, record['paper_id'], meta['title'], meta['abstract']))
        db.executemany('INSERT INTO authors VALUES (?, ?)', [(number, f'{given} {family}') for family, given, _ in meta['authors_parsed']])
    db.execute("INSERT INTO words(words) VALUES ('rebuild')")
    db.execute('CREATE INDEX author_name ON authors(name)')
    db.execute('CREATE INDEX author_paper ON authors(paper)')
"""
BARE_WORDS = r"""
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
query = ' OR '.join('"' + word.replace('"', '') + '"' for word in sys.argv[2].split())
print(db.execute('SELECT p.title FROM words JOIN papers p ON p.id = words.rowid WHERE words MATCH ? ORDER BY rank LIMIT 10', (query,)).fetchall()[:1])
"""
BARE_SCAN = r"""
import sqlite3, sys
import numpy as np
vectors = np.load(sys.argv[1], mmap_mode=None)
query = vectors[len(vectors) // 2]
scores = vectors @ query
best = np.argpartition(-scores, 10)[:10]
db = sqlite3.connect(sys.argv[2])
print(db.execute('SELECT title FROM papers WHERE id = ?', (int(best[0]) + 1,)).fetchone())
"""
BARE_COAUTHORS = r"""
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
print(len(db.execute('SELECT DISTINCT b.name FROM authors a JOIN authors b ON a.paper = b.paper AND b.name <> a.name WHERE a.name = ?', (sys.argv[2],)).fetchall()))
"""
BARE_AUTHORS_OF = r"""
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
query = ' '.join('"' + word.replace('"', '') + '"' for word in sys.argv[2].split())
print(db.execute('SELECT name FROM authors WHERE paper = (SELECT rowid FROM words WHERE words MATCH ? ORDER BY rank LIMIT 1)', ('title: (' + query + ')',)).fetchall())
"""


def bare(script: str, *args: str) -> list[str]:
    return [sys.executable, "-c", script, *args]
