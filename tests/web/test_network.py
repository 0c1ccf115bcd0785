"""Where the phones reach the table (companion/web/network.py): the address the links name by
default ("auto") and a player's link."""

from __future__ import annotations

import ipaddress
import socket

from companion.web.network import local_address, page_link


def test_a_players_link_names_the_address_the_port_and_the_token():
    assert page_link("192.168.1.20", 8081, "Tok_en-22") == "http://192.168.1.20:8081/p/Tok_en-22"


def test_the_address_found_is_this_machines_on_a_network_never_loopback():
    found = local_address()
    if found is not None:  # (a machine without a network finds none: the next test)
        address = ipaddress.ip_address(found)
        assert address.version == 4 and not address.is_loopback and not address.is_unspecified


def test_without_a_network_no_address_is_found(monkeypatch):
    def no_route(self, where):
        raise OSError(101, "Network is unreachable")

    monkeypatch.setattr(socket.socket, "connect", no_route)
    assert local_address() is None
