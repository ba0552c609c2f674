"""The stand-in embedder for Conference QA tests: the one hashing fake of ``library_support``."""

from __future__ import annotations

from .library_support import HashingEmbedder

__all__ = ["HashingEmbedder"]
