"""Opening a llama.cpp model quietly without blanking the terminal the app draws on.

llama-cpp-python's ``verbose=False`` quiets a model load by pointing file descriptors 1 and 2 at
/dev/null for the whole load (``suppress_stdout_stderr``), for the whole process. Textual draws on
fd 2, and the TUI loads its model (and the embedder) in worker threads while it paints, so every
frame written during a load was lost: on a fresh start the header, the tab bar and the footer
stayed blank until something redrew them. Here the model opens with ``verbose=True`` (no
descriptor is touched) while its log lines fall into a sink: llama.cpp's own go through
llama-cpp-python's callback to ``sys.stderr``, the binding's through ``print``. Afterwards the
model is as quiet as ``verbose=False`` leaves it (errors only), and no later call (generation,
tokenizing, grammars) redirects descriptors.
"""

from __future__ import annotations

import contextlib
import io
import logging
import threading

LLAMA_LOGGER = "llama-cpp-python"  # the logger llama-cpp-python's log callback consults
# sys.stderr is one for the process: two loads at once (the model and the embedder, each in its
# worker) must not restore each other's redirect out of order, so loads take turns.
_LOADING = threading.Lock()


class _Discard(io.TextIOBase):
    """Where a load's log lines go; never closed, so a stray late write is harmless."""

    def write(self, text: str) -> int:
        return len(text)


def open_llama(**kwargs):
    """``llama_cpp.Llama(**kwargs)``, loaded with no output and no file-descriptor juggling."""
    from llama_cpp import Llama

    with _LOADING:
        try:
            with contextlib.redirect_stderr(_Discard()):
                llama = Llama(verbose=True, **kwargs)
        finally:
            logging.getLogger(LLAMA_LOGGER).setLevel(logging.ERROR)  # what verbose=False sets
    llama.verbose = False  # its per-call prints (timings) stay off
    return llama
