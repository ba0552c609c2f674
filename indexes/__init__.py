"""The indexes layer: every SQL table and LanceDB table, and the records they store.

Owns the SQLite database (``db``: WAL, named ``migrations``), the library (``library``,
``records``, name and title matching in ``fuzzy``), its search index (``library_search``), the
prompt log, AutoFeedback's loop log and documentation index, PaSa's cited works and the
conference vectors. May import config only; models sits beside it and is not imported.
"""
