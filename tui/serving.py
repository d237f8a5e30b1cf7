"""Serving the app to browsers (``genplan-tui --serve``), on textual-serve.

The page's URLs (its script, style sheet and websocket) are made from the address the browser used, the request's
Host header: textual-serve makes them from the address it listens on, so with ``--host 0.0.0.0`` (a classroom) a
student's browser was sent to 0.0.0.0, refused it and stayed on "starting the app…" forever.
"""

from __future__ import annotations

import ipaddress
import socket
from pathlib import Path
from typing import Any

import psutil
from textual_serve.server import Server

# every address of the machine (a class opens one of the machine's own addresses)
ANY_ADDRESS = ("0.0.0.0", "::", "")


class BrowserAddressedServer(Server):
    """textual-serve's server, with the page's URLs pointing where the browser came from."""

    async def handle_index(self, request: Any) -> Any:
        # textual-serve builds every URL of the page from public_url; the answer is made before anything else
        # is awaited, so this request's address holds while its page is rendered
        self.public_url = f"{request.scheme}://{request.host}"
        return await super().handle_index(request)


def serve_forever(command: str, host: str, port: int, templates: Path) -> None:
    BrowserAddressedServer(command, host=host, port=port, title="genplan", templates_path=templates).serve()


def addresses_to_open(host: str, port: int) -> list[str]:
    """The URLs a browser can open: the one address served, or for every address each of the machine's own (its
    networks first, this machine itself last)."""
    if host not in ANY_ADDRESS:
        return [url_of(host, port)]
    found: list[tuple[bool, str]] = []
    wanted = {socket.AF_INET} if host == "0.0.0.0" else {socket.AF_INET, socket.AF_INET6}
    for entries in psutil.net_if_addrs().values():
        for entry in entries:
            if entry.family not in wanted:
                continue
            address = ipaddress.ip_address(entry.address.split("%")[0])
            if address.is_link_local:
                continue
            found.append((address.is_loopback, url_of(str(address), port)))
    return [url for _, url in sorted(set(found))]


def url_of(host: str, port: int) -> str:
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"
