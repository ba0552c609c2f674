"""Conference QA with STAR (structure-aware retrieval), after Huang et al., ConferenceQA.

A conference's site data is a tree (``tree``, ``html_tree``, ``sources``); every root-to-leaf path
(``paths``) gets a description generated top-down from its path, siblings and parent's description
(``describe``, cached in SQLite by content); descriptions and raw paths are embedded into one
LanceDB table per conference, incrementally (``engine.ConferenceEngine.build``). A question is
matched by hybrid retrieval — dense vectors and BM25 with general query expansion, fused by
reciprocal rank, then re-scored with the tree (``retrieval``, ``lexical``) — and answered by its
form over the evidence: a span or value, yes/no, a count, a sum, the earliest/latest date, a
comparison or a list, citing its paths (``answer``, ``values``). ``engine.evaluate`` scores a
ConferenceQA directory (token F1, EM, evidence hit@k; ``metrics``, ``evidence``) for STAR and the
path baseline in one run.

``open_conference(services, …)`` opens the engine; its requests are generators of ``events`` that
take ``cancel``. Storage lives
behind ``indexes`` (``conference_store`` for SQLite, ``conference_vectors`` for LanceDB).
Importing this package stays cheap: the heavy modules (numpy, LanceDB) load with ``engine``.
"""

from scholar_tui.core.conference.tree import ConferenceError

__all__ = ["ConferenceError"]
