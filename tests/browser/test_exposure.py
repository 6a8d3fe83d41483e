"""The real server says who may frame the app and keeps its metrics to this computer (issue 40,
item 4), over HTTP: every response carries the frame headers, and /_stcore/metrics answers a
local request only."""

import socket
from urllib.parse import urlparse

import pytest


def response_head(base_url: str, path: str, host: str, *headers: str) -> tuple[int, dict[str, str]]:
    """Status and headers (lower-case names) of a GET sent with this Host header."""
    port = urlparse(base_url).port
    request = "\r\n".join([f"GET {path} HTTP/1.1", f"Host: {host}", *headers, "Connection: close", "", ""])
    with socket.create_connection(("127.0.0.1", port), timeout=30) as connection:
        connection.sendall(request.encode())
        data = b""
        while b"\r\n\r\n" not in data and (chunk := connection.recv(4096)):
            data += chunk
    lines = data.split(b"\r\n\r\n")[0].decode("latin-1").split("\r\n")
    fields = dict(line.split(": ", 1) for line in lines[1:])
    return int(lines[0].split()[1]), {name.lower(): value for name, value in fields.items()}


@pytest.mark.parametrize("path", ["/", "/Triage", "/_stcore/health", "/_stcore/host-config"])
def test_every_response_lets_only_the_app_frame_itself(streamlit_server, path):
    port = urlparse(streamlit_server).port
    status, headers = response_head(streamlit_server, path, f"localhost:{port}")
    assert status == 200
    assert headers["content-security-policy"] == "frame-ancestors 'self'"
    assert headers["x-frame-options"] == "SAMEORIGIN"


def test_the_metrics_answer_this_computer_only(streamlit_server):
    port = urlparse(streamlit_server).port
    local, _ = response_head(streamlit_server, "/_stcore/metrics", f"localhost:{port}")
    assert local == 200
    for host, extra in [("psl.hospital.example", ()), (f"localhost:{port}", ("X-Forwarded-For: 10.0.0.7",)),
                        (f"127.0.0.1:{port}", ("Forwarded: for=10.0.0.7",))]:
        status, headers = response_head(streamlit_server, "/_stcore/metrics", host, *extra)
        assert status == 404, (host, extra)
        assert headers["x-frame-options"] == "SAMEORIGIN"
