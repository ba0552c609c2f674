"""The scholarly library: importers, online sources and the academic API library.

Modules: ``records`` (what importers produce); ``unarxive``, ``openalex``, ``arxiv``, ``bibtex``
(parsers); ``importer`` (files into the library, with progress events); ``online`` (OpenAlex and
arXiv over HTTP); ``apis`` (the seven academic APIs: specs, validation, errors); ``api_backends``
(the local and OpenAlex backends); ``fuzzy`` (name and title matching); ``taxonomy`` (arXiv
category names). Kept import-light: nothing is loaded until a module is used.
"""
