"""The top-level conftest blocks the network in every test not marked as needing it."""

from __future__ import annotations

import socket
import threading

import pytest
from pytest_socket import SocketConnectBlockedError

TEST_NET = ("192.0.2.1", 443)  # RFC 5737 TEST-NET-1: never routed; the block must fire before any packet


def test_a_connection_to_another_host_is_blocked() -> None:
    with pytest.raises(SocketConnectBlockedError):
        socket.create_connection(TEST_NET, timeout=0.2)


def test_a_name_lookup_then_connect_is_blocked_too() -> None:
    import urllib.request

    with pytest.raises(SocketConnectBlockedError):
        urllib.request.urlopen("http://192.0.2.1/simple/amd-quark/", timeout=0.2)  # noqa: S310


def test_loopback_still_works() -> None:
    """The fake GitHub and other in-process servers listen on 127.0.0.1."""
    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]
    accepted: list[bytes] = []

    def serve() -> None:
        conn, _ = server.accept()
        accepted.append(conn.recv(4))
        conn.close()

    thread = threading.Thread(target=serve)
    thread.start()
    with socket.create_connection(("127.0.0.1", port), timeout=2) as client:
        client.sendall(b"ping")
    thread.join(2)
    server.close()
    assert accepted == [b"ping"]


def test_hub_is_offline() -> None:
    import os

    assert os.environ["HF_HUB_OFFLINE"] == "1"


@pytest.mark.real
def test_real_tests_get_the_socket_back(request: pytest.FixtureRequest) -> None:
    """Negative control of the blocking: a ``real`` test is given ``enable_socket`` (no connection made)."""
    assert request.node.get_closest_marker("enable_socket") is not None
