"""The usage record written out (``compiler/runtime/usage-sinks.ts``, docs/usage.md#recording-usage): one JSON line per
record — the same bytes the JavaScript runtime writes — for ``prompt-build usage`` to read."""
import json
import os
import re
import stat
from typing import Any, Callable, Dict, Union

from .errors import ArgumentError

UsageSink = Callable[[Dict[str, Any]], None]


# A surrogate in a Python str is a code point of its own (a character past U+FFFF is one code point, not a pair):
# UTF-8 cannot encode it, and JSON.stringify writes such a lone one as its escape.
_SURROGATE = re.compile("[\ud800-\udfff]")


def usage_line(record: Dict[str, Any]) -> str:
    """A record as one line of JSON, keys in the record's order, as ``JSON.stringify`` writes it: a lone surrogate
    as its escape (``\\ud800``), so the line can be written as UTF-8."""
    text = json.dumps(record, ensure_ascii=False, separators=(",", ":"))
    return _SURROGATE.sub(lambda match: f"\\u{ord(match.group()):04x}", text)


def jsonl_usage_sink(out: Union[str, "os.PathLike[str]", Any]) -> UsageSink:
    """A sink writing each record as a line to ``out``: a text stream (anything with ``write``), or a file path,
    opened to append for each record (so several processes may share one log)."""
    if isinstance(out, (str, os.PathLike)):
        path = os.fspath(out)

        def append(record: Dict[str, Any]) -> None:
            _append_line(path, (usage_line(record) + "\n").encode("utf-8"))

        return append
    write = getattr(out, "write", None)
    if not callable(write):
        raise ArgumentError("jsonl_usage_sink", "out", "a text stream, an object with write(text), or a file path", out)

    def sink(record: Dict[str, Any]) -> None:
        write(usage_line(record) + "\n")

    return sink


# Non-blocking: a path that has become a FIFO with no reader would otherwise block the request's thread for good.
_APPEND_FLAGS = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)


def _append_line(path: str, data: bytes) -> None:
    """``data`` appended to the regular file at ``path`` (created if absent); anything else is refused with an error
    (the recorder's ``on_error`` hears it), never written to or waited on."""
    fd = os.open(path, _APPEND_FLAGS, 0o666)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(f"{path} is not a regular file")
        while data:
            data = data[os.write(fd, data) :]
    finally:
        os.close(fd)
