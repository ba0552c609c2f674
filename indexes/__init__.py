"""The indexes layer: every SQL table and LanceDB table, and the records they store.

Owns the SQLite database (``db``: WAL, named ``migrations``), the library (``library``,
``records``, name and title matching in ``fuzzy``), its search index (``library_search``: a LanceDB
table, searched through a numpy ``library_snapshot`` of it with ``text_rank``'s BM25), the prompt
log, AutoFeedback's loop log and documentation index, PaSa's cited works, and the conference
trees (``conference_store``) and vectors. May import config only; models sits beside it and is
not imported.
"""
