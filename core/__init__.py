"""The core layer: the UI-free engines and what they share.

Owns the four methods (``pasa/``, ``soay/``, ``conference/``, ``autofeedback/``), the library's
importers, online sources and academic APIs (``library/``), the sandbox for model-written code,
the engine contract (``events``: one factory, one sync generator of typed events), the prompt-
logged LLM (``llm``), JSON-lines records (``jsonl``) and ``doctor``. May import indexes, models
and config; never training or app, never Textual.
"""
