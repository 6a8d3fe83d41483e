"""Who may frame the app and read its metrics (issue 40, item 4): the setting of the origins
that may frame it, the headers sent, and which requests count as local."""

import pytest

from tests.hostile_corpus import FRAME_ANCESTOR_SETTINGS
from ui.exposure import SettingError, frame_ancestors, frame_headers, is_local_request


def test_no_setting_lets_only_the_app_frame_itself():
    assert frame_ancestors(None) == frame_ancestors("  ") == ()
    assert dict(frame_headers(())) == {b"content-security-policy": b"frame-ancestors 'self'",
                                       b"x-frame-options": b"SAMEORIGIN"}


def test_configured_origins_are_allowed_and_nothing_else():
    origins = frame_ancestors("https://portal.hospital.example, http://intranet:8080 https://[::1]:9")
    assert origins == ("https://portal.hospital.example", "http://intranet:8080", "https://[::1]:9")
    assert dict(frame_headers(origins)) == {
        b"content-security-policy": b"frame-ancestors 'self' https://portal.hospital.example http://intranet:8080 https://[::1]:9"}


@pytest.mark.parametrize("value", ["*", "https://*.example.org", "portal.example.org", "https://a.example/path",
                                   "javascript:alert(1)", "https://a.example;script-src *", "'none' https://a.example"])
def test_anything_but_origins_stops_the_server_with_the_reason(value):
    with pytest.raises(SettingError, match="PSL_FRAME_ANCESTORS names .* which is not an origin"):
        frame_ancestors(value)


@pytest.mark.parametrize("value", list(FRAME_ANCESTOR_SETTINGS))
def test_each_re_probed_setting_allows_its_origins_or_stops_the_server(value):
    allowed = FRAME_ANCESTOR_SETTINGS[value]
    if allowed is None:  # a port beyond 65535 or 0 once passed: browsers drop such a source
        with pytest.raises(SettingError, match="PSL_FRAME_ANCESTORS names .* which is not an origin"):
            frame_ancestors(value)
    else:
        assert frame_ancestors(value) == allowed


def scope(client="127.0.0.1", host=b"localhost:8501", **headers):
    return {"type": "http", "client": (client, 5000),
            "headers": [(b"host", host), *((k.replace("_", "-").encode(), v) for k, v in headers.items())]}


def test_a_request_is_local_only_from_and_to_this_computer_without_a_proxy():
    assert is_local_request(scope())
    assert is_local_request(scope("::1", b"[::1]:8501"))
    assert not is_local_request(scope("10.0.0.7"))
    assert not is_local_request(scope(host=b"psl.hospital.example"))
    assert not is_local_request(scope(x_forwarded_for=b"10.0.0.7"))
    assert not is_local_request(scope(forwarded=b"for=10.0.0.7"))
    assert not is_local_request({"type": "http", "client": None, "headers": []})


@pytest.mark.parametrize("header", ["x_forwarded_host", "x_forwarded_proto", "x_forwarded_port", "via", "true_client_ip"])
def test_a_request_a_proxy_passed_on_is_not_local_whichever_header_it_added(header):
    """A proxy on this computer that adds only X-Forwarded-Proto (or Host, Port, Via...) once
    counted as local: the metrics reached every user of the proxy (issue 40, fourth probe)."""
    assert not is_local_request(scope(**{header: b"https"}))
