"""Files of ours and of the user's, looked at before they are opened.

``refuse_special_file`` is the one check every reader makes first: a FIFO, a device or a socket in
place of a file (``config.toml`` as a FIFO, a link to ``/dev/zero``, ``import`` of ``/dev/null``)
is refused by its kind, from ``stat`` alone, since opening one can block forever or never end.

``StateError`` is the one kind of error for stored state that cannot be used (the home folder, a
config file, the database): its message is one line naming the file and what to do.
"""

from __future__ import annotations

import os
import stat


class StateError(Exception):
    """Stored state cannot be used; the message is one line naming the file and what to do."""


class NotAFileError(StateError):
    """A path names something that is not a regular file (a FIFO, a device, a folder…)."""


KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def file_kind(mode: int) -> str:
    """What a stat mode names, in words ('a FIFO'); 'a file' for a regular file."""
    for test, name in KINDS:
        if test(mode):
            return name
    return "a file" if stat.S_ISREG(mode) else "not a regular file"


def refuse_special_file(path: str | os.PathLike, what: str = "") -> bool:
    """True when ``path`` is a regular file (links followed), False when nothing is there;
    NotAFileError, without opening it, when it is anything else.

    ``what`` says what the file is for ('the config file'), to start the message."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return False
    except NotADirectoryError:  # a parent is a file: nothing can be there
        return False
    except OSError as error:
        raise StateError(f"{_named(path, what)}: cannot be read ({error.strerror})") from error
    if stat.S_ISREG(mode):
        return True
    raise NotAFileError(f"{_named(path, what)} is {file_kind(mode)}, not a file")


def shown_path(path: str | os.PathLike) -> str:
    """A path for a one-line message: a newline or another control character in a folder's name
    is written as its escape, so the message stays one line and cannot drive the terminal."""
    return "".join(char if char.isprintable() or char == " " else repr(char)[1:-1] for char in str(path))


def _named(path: str | os.PathLike, what: str) -> str:
    return f"{what} {shown_path(path)}" if what else shown_path(path)
