"""The real server accepts the app's WebSocket only under this computer's host names (issue 31).

A web page on another domain that its owner points at 127.0.0.1 (DNS rebinding) would reach
the app with a foreign Host header; Streamlit's ``server.allowedHosts`` (set in
``.streamlit/config.toml``) refuses the connection that drives the app.
"""

import base64
import os
import socket
from urllib.parse import urlparse

import pytest


def upgrade_status(base_url: str, host: str) -> str:
    """The status line of a WebSocket upgrade to the app's stream sent with this Host header."""
    port = urlparse(base_url).port
    request = (
        f"GET /_stcore/stream HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: {base64.b64encode(os.urandom(16)).decode()}\r\nSec-WebSocket-Version: 13\r\n"
        "Sec-WebSocket-Protocol: streamlit\r\n\r\n"
    )
    with socket.create_connection(("127.0.0.1", port), timeout=30) as connection:
        connection.sendall(request.encode())
        return connection.recv(200).split(b"\r\n")[0].decode()


@pytest.mark.parametrize("host", ["localhost", "127.0.0.1", "[::1]"])
def test_this_computers_names_reach_the_app(streamlit_server, host):
    port = urlparse(streamlit_server).port
    assert " 101 " in upgrade_status(streamlit_server, f"{host}:{port}")


@pytest.mark.parametrize("host", ["rebind.attacker.example", "evil.example:8501", "127.0.0.1.nip.io"])
def test_a_foreign_host_name_is_refused(streamlit_server, host):
    assert " 403 " in upgrade_status(streamlit_server, host)
