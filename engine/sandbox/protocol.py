"""Length-prefixed JSON frames between the parent and a fork server.

JSON, not pickle: the parent treats everything coming out of the sandbox as untrusted data, and
unpickling untrusted bytes would run code in the parent.
"""

from __future__ import annotations

import json
import os
import struct
from typing import Any

_HEADER = struct.Struct(">I")
MAX_FRAME = 1 << 30  # 1 GiB; far above any legitimate message


class ProtocolError(Exception):
    pass


def encode(message: dict[str, Any]) -> bytes:
    data = json.dumps(message, ensure_ascii=True, separators=(",", ":")).encode("ascii")
    return _HEADER.pack(len(data)) + data


_F_SETPIPE_SZ = 1031  # Linux fcntl: set the capacity of a pipe


def enlarge_pipe(fd: int, size: int = 1 << 20) -> None:
    """Give a pipe room for a whole task or plan (default capacity is 64 KiB), so writers rarely block
    waiting for the reader to be scheduled. Best effort: the system maximum may be lower."""
    try:
        import fcntl

        fcntl.fcntl(fd, _F_SETPIPE_SZ, size)
    except (ImportError, OSError):
        pass


def write_frame(fd: int, message: dict[str, Any]) -> None:
    write_all(fd, encode(message))


def encode_raw(data: bytes) -> bytes:
    return _HEADER.pack(len(data)) + data


def write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def read_exact(fd: int, size: int) -> bytes | None:
    """Blocking read of exactly ``size`` bytes; None at end of file."""
    chunks = []
    remaining = size
    while remaining:
        chunk = os.read(fd, min(remaining, 1 << 20))
        if not chunk:
            return None
        chunks.append(chunk)
        remaining -= len(chunk)
    return b"".join(chunks)


def read_frame(fd: int) -> dict[str, Any] | None:
    """Blocking read of one frame; None at end of file."""
    header = read_exact(fd, _HEADER.size)
    if header is None:
        return None
    (size,) = _HEADER.unpack(header)
    if size > MAX_FRAME:
        raise ProtocolError(f"frame of {size} bytes is too large")
    body = read_exact(fd, size)
    if body is None:
        return None
    return _decode(body)


def _decode(body: bytes) -> dict[str, Any]:
    try:
        message = json.loads(body)
    except (ValueError, UnicodeDecodeError) as exc:
        raise ProtocolError(f"malformed frame: {exc}") from exc
    if not isinstance(message, dict):
        raise ProtocolError("a frame must hold a JSON object")
    return message


class FrameBuffer:
    """Incremental decoder for a non-blocking reader."""

    def __init__(self) -> None:
        self._buffer = bytearray()

    def feed(self, data: bytes) -> list[dict[str, Any]]:
        return [_decode(body) for body in self.feed_raw(data)]

    def feed_raw(self, data: bytes) -> list[bytes]:
        """The bodies of the frames completed by ``data``, undecoded."""
        self._buffer += data
        messages = []
        while len(self._buffer) >= _HEADER.size:
            (size,) = _HEADER.unpack_from(self._buffer)
            if size > MAX_FRAME:
                raise ProtocolError(f"frame of {size} bytes is too large")
            end = _HEADER.size + size
            if len(self._buffer) < end:
                break
            body = bytes(self._buffer[_HEADER.size : end])
            del self._buffer[:end]
            messages.append(body)
        return messages


def decode(body: bytes) -> dict[str, Any]:
    return _decode(body)
