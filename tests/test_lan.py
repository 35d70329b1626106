"""serving/lan.py: the LAN address from faked psutil readings and from this machine, sending
nothing; URL building; and the QR codes, decoded back with zxing-cpp."""

from __future__ import annotations

import io
import shutil
import socket
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import NamedTuple, NoReturn

import numpy as np
import psutil
import pytest
import segno
import zxingcpp
from PIL import Image

from serving import lan
from serving.lan import Interface, build_url, is_loopback, is_wildcard
from views.phone_link import qr_png

ROOT = Path(__file__).resolve().parents[1]

# --- Choosing among interfaces, from faked psutil readings ------------------------------------


class Snic(NamedTuple):
    """The fields of psutil's ``snicaddr`` (one address of one interface)."""

    family: int
    address: str
    netmask: str | None = None
    broadcast: str | None = None
    ptp: str | None = None


class Stats(NamedTuple):
    """The field of psutil's ``snicstats`` that is read: whether the interface is up."""

    isup: bool


def v4(address: str) -> Snic:
    return Snic(socket.AF_INET, address)


def fake_psutil(monkeypatch: pytest.MonkeyPatch, addresses: dict[str, list[Snic]],
                down: Iterable[str] = ()) -> None:
    """``psutil.net_if_addrs`` gives ``addresses``; ``net_if_stats`` says every one is up but
    ``down``."""
    stats = {name: Stats(isup=name not in set(down)) for name in addresses}
    monkeypatch.setattr(psutil, "net_if_addrs", lambda: addresses)
    monkeypatch.setattr(psutil, "net_if_stats", lambda: stats)


@pytest.mark.parametrize(
    ("interfaces", "expected"),
    [
        ({"lo": ["127.0.0.1"], "wlan0": ["192.168.1.23"]}, "192.168.1.23"),
        ({"lo": ["127.0.0.1"], "docker0": ["172.17.0.1"], "wlp2s0": ["192.168.1.23"]},
         "192.168.1.23"),
        ({"docker0": ["172.17.0.1"], "eth0": ["172.20.4.9"]}, "172.20.4.9"),
        ({"eth0": ["10.0.0.5"], "wlan0": ["192.168.0.7"]}, "192.168.0.7"),
        ({"eth0": ["172.16.3.3"], "eth1": ["10.1.1.1"]}, "10.1.1.1"),
        ({"tailscale0": ["100.101.2.3"], "en0": ["10.2.0.40"]}, "10.2.0.40"),
        ({"en0": ["100.101.2.3"]}, "100.101.2.3"),
        ({"br-1a2b": ["192.168.49.1"], "enp3s0": ["10.0.0.2"]}, "10.0.0.2"),
        ({"utun3": ["100.90.1.2"], "en0": ["192.168.1.31"]}, "192.168.1.31"),
        ({"veth12ab": ["172.18.0.1"], "enp0s31f6": ["10.0.0.12"]}, "10.0.0.12"),
        ({"eth0": ["203.0.113.8"], "wlan0": ["192.168.1.50"]}, "192.168.1.50"),
        ({"eth0": ["203.0.113.8"]}, "203.0.113.8"),
        ({"lo": ["127.0.0.1"], "eth0": ["169.254.10.20"]}, None),
        ({"lo": ["127.0.0.1", "127.0.1.1"]}, None),
        ({"x": ["0.0.0.0"], "y": ["224.0.0.251"], "z": ["255.255.255.255"]}, None),
        ({"eth0": ["192.168.1.4", "192.168.1.9"]}, "192.168.1.4"),
        ({"eth0": ["192.168.1.9"], "eth0:1": ["192.168.1.4"]}, "192.168.1.9"),
        ({}, None),
    ],
)
def test_the_ranking(monkeypatch: pytest.MonkeyPatch, interfaces: dict[str, list[str]],
                     expected: str | None) -> None:
    fake_psutil(monkeypatch, {name: [v4(a) for a in found] for name, found in interfaces.items()})
    assert lan.lan_address() == expected


def test_a_virtual_interface_is_used_when_it_is_the_only_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fake_psutil(monkeypatch, {"lo": [v4("127.0.0.1")], "docker0": [v4("172.17.0.1")]})
    assert lan.lan_address() == "172.17.0.1"


def test_only_ipv4_addresses_are_read(monkeypatch: pytest.MonkeyPatch) -> None:
    fake_psutil(monkeypatch, {
        "eth0": [Snic(socket.AF_INET6, "fe80::1%eth0"), Snic(socket.AF_INET6, "fd00::2"),
                 Snic(getattr(socket, "AF_PACKET", -1), "02:fc:00:00:00:01")],
        "wlan0": [Snic(socket.AF_INET6, "2001:db8::5"), v4("192.168.1.23")],
    })
    assert lan.interface_addresses() == [Interface("wlan0", "192.168.1.23")]
    assert lan.lan_address() == "192.168.1.23"


def test_an_interface_that_is_down_is_skipped(monkeypatch: pytest.MonkeyPatch) -> None:
    fake_psutil(monkeypatch, {"wlan0": [v4("192.168.1.23")], "eth0": [v4("10.0.0.2")]},
                down={"wlan0"})
    assert lan.lan_address() == "10.0.0.2"
    fake_psutil(monkeypatch, {"wlan0": [v4("192.168.1.23")]}, down={"wlan0"})
    assert lan.lan_address() is None


def test_an_interface_without_stats_counts_as_up() -> None:
    """psutil gives no stats for aliases such as ``eth0:1`` or interfaces it cannot query."""
    found = lan.ipv4_interfaces({"eth0": [v4("10.0.0.2")], "eth0:1": [v4("192.168.1.4")]},
                                {"eth0": Stats(isup=False)})
    assert found == [Interface("eth0:1", "192.168.1.4")]


def test_unreadable_interfaces_give_no_address(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse() -> NoReturn:
        raise PermissionError("not allowed here")

    fake_psutil(monkeypatch, {"wlan0": [v4("192.168.1.23")]})
    monkeypatch.setattr(psutil, "net_if_stats", refuse)
    assert lan.lan_address() == "192.168.1.23"
    monkeypatch.setattr(psutil, "net_if_addrs", refuse)
    assert lan.lan_address() is None


# --- The real machine, with the network forbidden ---------------------------------------------


@pytest.fixture
def no_traffic(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any attempt to connect, send or resolve a name from Python fails the test."""

    def forbidden(*args: object, **kwargs: object) -> None:
        pytest.fail(f"network use: {args!r}")

    for name in ("connect", "connect_ex", "send", "sendto", "sendall", "sendmsg"):
        monkeypatch.setattr(socket.socket, name, forbidden)
    for name in ("getaddrinfo", "gethostbyname", "gethostbyname_ex", "create_connection",
                 "gethostbyaddr"):
        monkeypatch.setattr(socket, name, forbidden)


@pytest.mark.usefixtures("no_traffic")
def test_this_machine_without_the_network() -> None:
    found = lan.interface_addresses()
    assert found, "no interface address found on this machine"
    assert all(lan._ipv4(interface.address) for interface in found)
    if sys.platform.startswith("linux"):
        assert Interface("lo", "127.0.0.1") in found
        system_names = {name for _, name in socket.if_nameindex()}
        assert {interface.name.split(":")[0] for interface in found} <= system_names
    address = lan.lan_address()
    if address is not None:  # None on a machine with loopback only
        assert not is_loopback(address)
        assert address in {interface.address for interface in found}
        assert build_url(address, 8501) == f"http://{address}:8501"


@pytest.mark.skipif(shutil.which("strace") is None, reason="needs strace")
def test_psutil_talks_to_the_kernel_only(tmp_path: Path) -> None:
    """Below Python (psutil is C): every socket the look-up connects, binds or sends on is a
    netlink socket, that is the kernel's own interface list."""
    trace = tmp_path / "trace.txt"
    result = subprocess.run(
        ["strace", "-f", "-qq", "-e", "trace=connect,bind,sendto,sendmsg,sendmmsg",
         "-o", str(trace), sys.executable, "-c",
         "from serving.lan import lan_address; print(lan_address())"],
        capture_output=True, text=True, timeout=60, check=False, cwd=ROOT,
    )
    if result.returncode != 0 and "ptrace" in result.stderr:
        pytest.skip(f"strace cannot trace here: {result.stderr.strip()}")
    assert result.returncode == 0, result.stderr
    calls = [line for line in trace.read_text().splitlines() if "(" in line]
    assert calls, "psutil read nothing through netlink: has its implementation changed?"
    assert [call for call in calls if "AF_NETLINK" not in call] == []


# --- URLs ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("host", "port", "scheme", "url"),
    [
        ("192.168.1.23", 8501, "http", "http://192.168.1.23:8501"),
        ("mybox.local", 8502, "http", "http://mybox.local:8502"),
        ("fe80::1", 8501, "http", "http://[fe80::1]:8501"),
        ("[::1]", 8501, "http", "http://[::1]:8501"),
        ("example.org", 443, "https", "https://example.org"),
        ("10.0.0.1", 80, "http", "http://10.0.0.1"),
    ],
)
def test_build_url(host: str, port: int, scheme: str, url: str) -> None:
    assert build_url(host, port, scheme) == url


@pytest.mark.parametrize(("host", "port"), [("", 8501), ("a b", 8501), ("x/y", 8501),
                                            ("1.2.3.4", 0), ("1.2.3.4", 70000)])
def test_build_url_refuses_bad_input(host: str, port: int) -> None:
    with pytest.raises(ValueError):
        build_url(host, port)


def test_loopback_and_wildcard() -> None:
    assert all(map(is_loopback, ["127.0.0.1", "127.0.0.2", "localhost", "::1", "[::1]"]))
    assert not any(map(is_loopback, ["0.0.0.0", "192.168.1.2", "example.org"]))
    assert is_wildcard("0.0.0.0") and is_wildcard("::")
    assert not is_wildcard("127.0.0.1") and not is_wildcard("localhost")


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("http://192.168.1.23:8501", "http://192.168.1.23:8501"),
        ("  https://perudo.example.org/  ", "https://perudo.example.org/"),
        ("", None),
        ("192.168.1.23:8501", None),
        ("ftp://192.168.1.23", None),
        ("http://", None),
        ("http://192.168.1.23:99999", None),
        ("javascript:alert(1)", None),
        ("http://a b", None),
    ],
)
def test_public_url_from_env(value: str, expected: str | None) -> None:
    assert lan.public_url_from_env({lan.PUBLIC_URL_ENV: value}) == expected
    assert lan.public_url_from_env({}) is None


# --- QR codes --------------------------------------------------------------------------------


def decode(image: np.ndarray) -> list[str]:
    """Texts of the QR codes in a grayscale image (0 black, 255 white)."""
    return [result.text for result in zxingcpp.read_barcodes(image)]


def matrix_image(matrix: object, scale: int = 8, border: int = 4) -> np.ndarray:
    """A segno matrix (1 dark) as a grayscale image with a white quiet zone."""
    dark = np.array(matrix, dtype=bool)
    dark = np.pad(dark, border, constant_values=False)
    return np.kron(np.where(dark, 0, 255).astype(np.uint8), np.ones((scale, scale), np.uint8))


@pytest.mark.parametrize(
    "url",
    ["http://192.168.1.23:8501", "http://10.0.0.2:8502", "https://perudo.example.org",
     "http://[fe80::1]:8501"],
)
def test_the_segno_matrix_decodes_to_the_address(url: str) -> None:
    assert decode(matrix_image(segno.make_qr(url, error="m").matrix)) == [url]


def test_the_png_the_app_shows_decodes_to_the_address() -> None:
    url = "http://192.168.1.23:8501"
    png = qr_png(url)
    assert png.startswith(b"\x89PNG")
    image = np.array(Image.open(io.BytesIO(png)).convert("L"))
    assert decode(image) == [url]
