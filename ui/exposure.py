"""What the server lets other sites do with the app: frame it, read its metrics.

Streamlit 1.67 has no setting for either, so :mod:`serve` wraps the app in
:class:`Exposure`, a small piece of ASGI middleware:

- Every HTTP response carries ``Content-Security-Policy: frame-ancestors 'self' ...`` with the
  origins of ``PSL_FRAME_ANCESTORS`` (a hospital portal that embeds the app), and
  ``X-Frame-Options: SAMEORIGIN`` when that names none (for browsers that predate CSP).
- ``/_stcore/metrics`` is answered only to a request from this computer (a loopback
  address), to one of this computer's names, and not forwarded by a proxy; 404 otherwise.

:func:`frame_ancestors` refuses a setting that is not a list of origins, so a typing error
cannot open the app to every site.
"""

from __future__ import annotations

import ipaddress
import os
import re

from psl_triage.words import settings as words

ENV_VAR = "PSL_FRAME_ANCESTORS"
LOCAL_NAMES = ("localhost", "127.0.0.1", "::1")
"""Host names of this computer (as ``server.allowedHosts`` in .streamlit/config.toml)."""
METRICS_PATH = "/_stcore/metrics"
_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"  # one part of a host name, between dots
_ORIGIN = re.compile(rf"^https?://(\[[0-9a-fA-F:.]+\]|(?=[^:]{{1,253}}(?::|$)){_LABEL}(?:\.{_LABEL})*)(:[0-9]{{1,5}})?$")
_FORWARDING = (b"forwarded", b"x-forwarded-for", b"x-real-ip", b"x-forwarded-host", b"x-forwarded-proto",
               b"x-forwarded-port", b"x-forwarded-server", b"via", b"x-client-ip", b"true-client-ip",
               b"cf-connecting-ip")
"""Headers a proxy adds to a request it passes on (any one of them: the request is not local)."""


class SettingError(ValueError):
    """A setting of the server is wrong; the message says which and what to write."""


def frame_ancestors(value: str | None) -> tuple[str, ...]:
    """The origins that may frame the app, from the value of ``PSL_FRAME_ANCESTORS``: origins
    (``https://portal.example.org``, ``http://intranet:8080``) separated by spaces or commas;
    none when unset or empty. Raises SettingError for anything else (a path, a wildcard, a
    scheme other than http and https, a port outside 1-65535, which a browser would ignore)."""
    origins = tuple(part for part in re.split(r"[\s,]+", value or "") if part)
    for origin in origins:
        match = _ORIGIN.match(origin)
        if not match or (match[2] and not 0 < int(match[2][1:]) <= 65535):  # a port browsers would drop
            raise SettingError(words.bad_frame_ancestor(ENV_VAR, origin))
    return origins


def frame_ancestors_from_environment() -> tuple[str, ...]:
    """:func:`frame_ancestors` of the environment's ``PSL_FRAME_ANCESTORS``."""
    return frame_ancestors(os.environ.get(ENV_VAR))


def frame_headers(ancestors: tuple[str, ...]) -> list[tuple[bytes, bytes]]:
    """The response headers that allow only the app itself and ``ancestors`` to frame it."""
    policy = " ".join(("frame-ancestors", "'self'", *ancestors)).encode("latin-1")
    headers = [(b"content-security-policy", policy)]
    if not ancestors:
        headers.append((b"x-frame-options", b"SAMEORIGIN"))
    return headers


def is_local_request(scope) -> bool:
    """Whether an ASGI HTTP request comes from this computer, to this computer's name, and not
    through a proxy."""
    client = scope.get("client") or ("", 0)
    try:
        loopback = ipaddress.ip_address(client[0]).is_loopback
    except ValueError:
        return False
    headers = dict(scope.get("headers") or [])
    host = _host_name(headers.get(b"host", b"").decode("latin-1").lower())
    return loopback and host in LOCAL_NAMES and not any(name in headers for name in _FORWARDING)


def _host_name(host):
    """The name of a Host header without its port: ``[::1]:8501`` -> ``::1``."""
    if host.startswith("["):
        return host[1:].split("]")[0]
    return host.split(":")[0] if host.count(":") <= 1 else host


class Exposure:
    """ASGI middleware: frame headers on every HTTP response, metrics for local requests only."""

    def __init__(self, app, ancestors: tuple[str, ...] = ()):
        self.app = app
        self.headers = frame_headers(tuple(ancestors))

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if scope.get("path", "").rstrip("/").endswith(METRICS_PATH) and not is_local_request(scope):
            await self._not_found(send)
            return

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *self.headers]}
            await send(message)

        await self.app(scope, receive, send_with_headers)

    async def _not_found(self, send):
        await send({"type": "http.response.start", "status": 404,
                    "headers": [(b"content-type", b"text/plain; charset=utf-8"), *self.headers]})
        await send({"type": "http.response.body", "body": b"Not Found"})
