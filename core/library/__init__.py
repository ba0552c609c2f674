"""The scholarly library: importers, online sources and the academic API library.

Modules: ``unarxive``, ``openalex``, ``arxiv``, ``bibtex`` (parsers into ``indexes.records``);
``importer`` (files into the library, with progress events); ``online`` (OpenAlex and arXiv over
HTTP); ``apis`` (the seven academic APIs: specs, validation, errors); ``api_backends`` (the local
and OpenAlex backends, matching names with ``indexes.fuzzy``); ``sandbox_apis`` (the APIs as a
program in the sandbox sees them); ``taxonomy`` (arXiv category names). Kept import-light:
nothing is loaded until a module is used.
"""
