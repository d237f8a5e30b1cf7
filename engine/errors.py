"""The root of the errors a user can act on.

Every problem caused by what the user gave genplan (a file it cannot read or parse, a setting out of range, a
directory that is no domain, a log in an unknown format) is a :class:`GenplanError`. Its text is one line that
names the file or place it concerns, and the command-line entry points print it as ``genplan: <text>`` with
exit status 2 instead of a traceback. Internal failures stay ordinary exceptions.
"""

from __future__ import annotations


class GenplanError(Exception):
    """A problem the user can fix; ``str(error)`` is one line naming the file or place it concerns."""
