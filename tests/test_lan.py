"""serving/lan.py: the LAN address from faked interface lists and from this machine, sending
nothing; URL building; and the QR codes, decoded back with zxing-cpp."""

from __future__ import annotations

import io
import socket
import sys

import numpy as np
import pytest
import segno
import zxingcpp
from PIL import Image

from serving import lan
from serving.lan import Interface, build_url, choose_lan_address, is_loopback, is_wildcard
from views.phone_link import qr_png

# --- Choosing among interfaces ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("interfaces", "expected"),
    [
        ([("lo", "127.0.0.1"), ("wlan0", "192.168.1.23")], "192.168.1.23"),
        ([("lo", "127.0.0.1"), ("docker0", "172.17.0.1"), ("wlp2s0", "192.168.1.23")],
         "192.168.1.23"),
        ([("docker0", "172.17.0.1"), ("eth0", "172.20.4.9")], "172.20.4.9"),
        ([("eth0", "10.0.0.5"), ("wlan0", "192.168.0.7")], "192.168.0.7"),
        ([("eth0", "172.16.3.3"), ("eth1", "10.1.1.1")], "10.1.1.1"),
        ([("tailscale0", "100.101.2.3"), ("en0", "10.2.0.40")], "10.2.0.40"),
        ([("en0", "100.101.2.3")], "100.101.2.3"),
        ([("br-1a2b", "192.168.49.1"), ("enp3s0", "10.0.0.2")], "10.0.0.2"),
        ([("eth0", "203.0.113.8"), ("wlan0", "192.168.1.50")], "192.168.1.50"),
        ([("eth0", "203.0.113.8")], "203.0.113.8"),
        ([("lo", "127.0.0.1"), ("eth0", "169.254.10.20")], None),
        ([("lo", "127.0.0.1"), ("lo", "127.0.1.1")], None),
        ([("x", "0.0.0.0"), ("y", "224.0.0.251"), ("z", "255.255.255.255")], None),
        ([("eth0", "not-an-address"), ("eth1", "fe80::1")], None),
        ([], None),
        ([("", "192.168.1.4"), ("", "192.168.1.9")], "192.168.1.4"),
    ],
)
def test_choose_lan_address(interfaces: list[tuple[str, str]], expected: str | None) -> None:
    assert choose_lan_address(Interface(name, address) for name, address in interfaces) \
        == expected


def test_a_virtual_interface_is_used_when_it_is_the_only_one() -> None:
    assert choose_lan_address([Interface("lo", "127.0.0.1"), Interface("docker0", "172.17.0.1")]) \
        == "172.17.0.1"


IP_ADDR_OUTPUT = """\
1: lo    inet 127.0.0.1/8 scope host lo\\       valid_lft forever preferred_lft forever
2: enp0s31f6    inet 10.0.0.12/24 brd 10.0.0.255 scope global dynamic enp0s31f6\\  valid_lft 1
3: wlp2s0    inet 192.168.1.23/24 brd 192.168.1.255 scope global dynamic noprefixroute wlp2s0
5: veth12ab@if4    inet 172.18.0.1/16 brd 172.18.255.255 scope global veth12ab
"""

IFCONFIG_MACOS = """\
lo0: flags=8049<UP,LOOPBACK,RUNNING,MULTICAST> mtu 16384
\toptions=1203<RXCSUM,TXCSUM,TXSTATUS,SW_TIMESTAMP>
\tinet 127.0.0.1 netmask 0xff000000
\tinet6 ::1 prefixlen 128
en0: flags=8863<UP,BROADCAST,SMART,RUNNING,SIMPLEX,MULTICAST> mtu 1500
\tether 3c:22:fb:00:00:01
\tinet6 fe80::1c2a:abcd:1234:5678%en0 prefixlen 64 secured scopeid 0x6
\tinet 192.168.1.31 netmask 0xffffff00 broadcast 192.168.1.255
utun3: flags=8051<UP,POINTOPOINT,RUNNING,MULTICAST> mtu 1380
\tinet 100.90.1.2 --> 100.90.1.2 netmask 0xffffffff
"""

IFCONFIG_NET_TOOLS = """\
eth0: flags=4163<UP,BROADCAST,RUNNING,MULTICAST>  mtu 1500
        inet 10.4.5.6  netmask 255.255.255.0  broadcast 10.4.5.255
        ether 02:42:ac:11:00:02  txqueuelen 0  (Ethernet)

lo        Link encap:Local Loopback
          inet addr:127.0.0.1  Mask:255.0.0.0
"""


def test_parse_ip_addr() -> None:
    assert lan.parse_ip_addr(IP_ADDR_OUTPUT) == [
        Interface("lo", "127.0.0.1"),
        Interface("enp0s31f6", "10.0.0.12"),
        Interface("wlp2s0", "192.168.1.23"),
        Interface("veth12ab", "172.18.0.1"),
    ]
    assert choose_lan_address(lan.parse_ip_addr(IP_ADDR_OUTPUT)) == "192.168.1.23"


def test_parse_ifconfig_macos_and_net_tools() -> None:
    assert lan.parse_ifconfig(IFCONFIG_MACOS) == [
        Interface("lo0", "127.0.0.1"),
        Interface("en0", "192.168.1.31"),
        Interface("utun3", "100.90.1.2"),
    ]
    assert choose_lan_address(lan.parse_ifconfig(IFCONFIG_MACOS)) == "192.168.1.31"
    assert lan.parse_ifconfig(IFCONFIG_NET_TOOLS) == [
        Interface("eth0", "10.4.5.6"), Interface("lo", "127.0.0.1")
    ]


def test_the_sources_are_tried_in_order(monkeypatch: pytest.MonkeyPatch) -> None:
    commands: list[list[str]] = []

    def fake_output(command: list[str]) -> str:
        commands.append(command)
        return IP_ADDR_OUTPUT if command[0] == "ip" else ""

    monkeypatch.setattr(lan, "ioctl_interfaces", list)
    monkeypatch.setattr(lan, "_command_output", fake_output)
    monkeypatch.setattr(lan, "hostname_interfaces", lambda: pytest.fail("resolver consulted"))
    assert lan.lan_address() == "192.168.1.23"
    assert commands == [["ip", "-4", "-o", "addr", "show"]]


def test_the_resolver_is_the_last_resort(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lan, "ioctl_interfaces", list)
    monkeypatch.setattr(lan, "_command_output", lambda command: "")
    monkeypatch.setattr(socket, "gethostname", lambda: "box")
    monkeypatch.setattr(socket, "gethostbyname_ex",
                        lambda name: (name, [], ["127.0.1.1", "192.168.5.5"]))
    assert lan.lan_address() == "192.168.5.5"
    monkeypatch.setattr(socket, "gethostbyname_ex", lambda name: (_ for _ in ()).throw(OSError))
    assert lan.lan_address() is None


# --- The real machine, with the network forbidden ---------------------------------------------


@pytest.fixture
def no_traffic(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any attempt to connect, send or resolve a name fails the test."""

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
        assert Interface("lo", "127.0.0.1") in lan.ioctl_interfaces()
    address = lan.lan_address()
    if address is not None:  # None on a machine with loopback only
        assert not is_loopback(address)
        assert address in {interface.address for interface in found}
        assert build_url(address, 8501) == f"http://{address}:8501"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux ioctl")
def test_the_ioctl_agrees_with_ip_addr() -> None:
    listed = lan.parse_ip_addr(lan._command_output(["ip", "-4", "-o", "addr", "show"]))
    if not listed:
        pytest.skip("no `ip` command")
    assert {i.address for i in lan.ioctl_interfaces()} <= {i.address for i in listed}
    assert choose_lan_address(lan.ioctl_interfaces()) == choose_lan_address(listed)


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
