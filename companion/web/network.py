"""Where the phones reach the table: this machine's address on the local network, and the link
of each player's page."""

from __future__ import annotations

import socket

PROBE = ("192.0.2.1", 9)  # an address of TEST-NET-1: the route to it is asked, nothing is sent


def local_address() -> str | None:
    """This machine's IPv4 address on the local network (the one its default route leaves by);
    None while no network is up."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(PROBE)
            address = probe.getsockname()[0]
        except OSError:
            return None
    return None if address.startswith("127.") or address == "0.0.0.0" else address


def page_link(address: str, port: int, token: str) -> str:
    """The link of a player's page ("http://192.168.1.20:8080/p/TOKEN")."""
    return f"http://{address}:{port}/p/{token}"
