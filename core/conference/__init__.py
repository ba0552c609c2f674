"""Conference QA with STAR (structure-aware retrieval), after Huang et al., ConferenceQA.

A conference's site data is a tree (``tree``, ``html_tree``, ``sources``); every root-to-leaf path
(``paths``) gets a description generated top-down from its path, siblings and parent's description
(``describe``, cached in SQLite by content); descriptions and raw paths are embedded into one
LanceDB table per conference (``engine.build_index``); a question retrieves the top-5 paths by
cosine and is answered from them (``engine.ask``, ``answer``); ``engine.evaluate`` scores a
ConferenceQA directory (token F1, EM, evidence hit@k; ``metrics``, ``evidence``).

Importing this package stays cheap: the heavy modules (numpy, LanceDB) load with ``engine``.
"""

from .tree import ConferenceError

__all__ = ["ConferenceError"]
