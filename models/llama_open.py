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
import logging
import os

LLAMA_LOGGER = "llama-cpp-python"  # the logger llama-cpp-python's log callback consults


def open_llama(**kwargs):
    """``llama_cpp.Llama(**kwargs)``, loaded with no output and no file-descriptor juggling."""
    from llama_cpp import Llama

    try:
        with open(os.devnull, "w") as sink, contextlib.redirect_stderr(sink):
            llama = Llama(verbose=True, **kwargs)
    finally:
        logging.getLogger(LLAMA_LOGGER).setLevel(logging.ERROR)  # what verbose=False sets
    llama.verbose = False  # its per-call prints (timings) stay off
    return llama
