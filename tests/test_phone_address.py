"""views.phone_link.app_address: the app's root address from the browser's, keeping only its
scheme, host and port, then the server's base path (issue 31, point 4)."""

from __future__ import annotations

import pytest

from views.phone_link import app_address


@pytest.mark.parametrize(("url", "expected"), [
    ("http://192.168.1.23:8501", "http://192.168.1.23:8501"),
    ("http://192.168.1.23:8501/game", "http://192.168.1.23:8501"),
    ("https://perudo-coach.streamlit.app/~/+", "https://perudo-coach.streamlit.app"),
    ("https://perudo.example.org:443/odds", "https://perudo.example.org"),
    ("http://[fe80::1]:8501/", "http://[fe80::1]:8501"),
    ("https://perudo.example.org/x)](http:evil.example)", "https://perudo.example.org"),
    ("https://x)(http:evil.example)@perudo.example.org/", "https://perudo.example.org"),
])
def test_only_the_scheme_host_and_port_are_kept(url: str, expected: str) -> None:
    assert app_address(url, base_path="") == expected


def test_the_base_path_is_the_servers() -> None:
    assert (app_address("https://example.org/any/path", base_path="/perudo/")
            == "https://example.org/perudo")
    assert (app_address("https://example.org/", base_path="a b)](x")
            == "https://example.org/a%20b%29%5D%28x")


@pytest.mark.parametrize("url", [None, "", "javascript:alert(1)", "ftp://example.org",
                                 "http://exa mple.org", "http://example.org:99999",
                                 "http://:8501/", "http://example.org:0"])
def test_no_address_from_a_bad_url(url: str | None) -> None:
    assert app_address(url, base_path="") is None
