"""This computer's address on the local network, and the URLs built from it. No Streamlit here.

``make serve`` binds the app to every interface and must tell a phone where to find it: the
address of this computer on the Wi-Fi, such as ``192.168.1.23``. Finding it sends nothing on
the network (no UDP "connect" to a public address, no DNS query): :func:`psutil.net_if_addrs`
lists each interface's addresses as the system holds them (``getifaddrs`` on Linux, macOS and
the BSDs, ``GetAdaptersAddresses`` on Windows) and :func:`psutil.net_if_stats` says which
interfaces are up.

Interfaces that are down are skipped. Loopback, link-local (169.254/16), multicast and
unspecified addresses are dropped. Private ranges come first (192.168/16, then 10/8, then
172.16/12, then 100.64/10 as used by VPN meshes), and virtual interfaces (Docker bridges, VPN
tunnels, VM host networks) come after physical ones. ``make serve ADDRESS=…`` overrides the
choice.
"""

from __future__ import annotations

import ipaddress
import os
import re
import socket
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Protocol
from urllib.parse import urlsplit

PUBLIC_URL_ENV = "PERUDO_COACH_PUBLIC_URL"
"""The environment variable that tells the app the address a phone should open."""
DEFAULT_PORT = 8501

_PRIVATE_RANGES: tuple[ipaddress.IPv4Network, ...] = tuple(
    ipaddress.IPv4Network(net)
    for net in ("192.168.0.0/16", "10.0.0.0/8", "172.16.0.0/12", "100.64.0.0/10")
)
"""Preferred ranges, best first: home Wi-Fi, then larger private networks, then CGNAT/VPN."""
_LINK_LOCAL = ipaddress.IPv4Network("169.254.0.0/16")
_VIRTUAL_PREFIXES: tuple[str, ...] = (
    "docker", "br-", "veth", "virbr", "vnet", "lxc", "lxd", "cni", "flannel", "cali", "podman",
    "vmnet", "vboxnet", "tailscale", "zt", "wg", "tun", "tap", "utun", "ifb", "dummy",
)
"""Interface name prefixes of bridges, tunnels and VM networks a phone cannot reach directly."""
_HOSTNAME = re.compile(r"^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
                       r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?$")


@dataclass(frozen=True)
class Interface:
    """One IPv4 address of one network interface."""

    name: str
    address: str


# --- Reading the interfaces ------------------------------------------------------------------


class InterfaceAddress(Protocol):
    """What is read of one entry of :func:`psutil.net_if_addrs` (a ``snicaddr``)."""

    @property
    def family(self) -> int: ...

    @property
    def address(self) -> str: ...


class InterfaceStats(Protocol):
    """What is read of one entry of :func:`psutil.net_if_stats` (a ``snicstats``)."""

    @property
    def isup(self) -> bool: ...


def ipv4_interfaces(
    addresses: Mapping[str, Iterable[InterfaceAddress]],
    stats: Mapping[str, InterfaceStats],
) -> list[Interface]:
    """The IPv4 addresses of the interfaces that are up, in the order the system lists them.

    ``addresses`` and ``stats`` are shaped like :func:`psutil.net_if_addrs` and
    :func:`psutil.net_if_stats`. An interface missing from ``stats`` counts as up: psutil
    leaves out the ones it cannot query, and aliases such as ``eth0:1`` have no stats of their
    own.
    """
    return [
        Interface(name, entry.address)
        for name, entries in addresses.items()
        if name not in stats or stats[name].isup
        for entry in entries
        if entry.family == socket.AF_INET
    ]


def interface_addresses() -> list[Interface]:
    """This computer's IPv4 addresses on the interfaces that are up; empty if unreadable."""
    import psutil  # only when looking: the app imports this module on every page, never looks

    try:
        addresses = psutil.net_if_addrs()
    except OSError:
        return []
    try:
        stats = psutil.net_if_stats()
    except OSError:  # then every interface counts as up
        stats = {}
    return ipv4_interfaces(addresses, stats)


# --- Choosing one ----------------------------------------------------------------------------


def _ipv4(address: str) -> ipaddress.IPv4Address | None:
    try:
        return ipaddress.IPv4Address(address)
    except ValueError:
        return None


def is_virtual(name: str) -> bool:
    """Whether an interface name looks like a bridge, tunnel or VM network."""
    return name.lower().startswith(_VIRTUAL_PREFIXES)


def rank(interface: Interface) -> tuple[int, int] | None:
    """Sort key (lower is better) of an address a phone may reach, ``None`` for one it cannot."""
    address = _ipv4(interface.address)
    if (
        address is None
        or address.is_loopback
        or address in _LINK_LOCAL
        or address.is_multicast
        or address.is_unspecified
        or address.is_reserved
        or address == ipaddress.IPv4Address("255.255.255.255")
    ):
        return None
    preference = next(
        (index for index, net in enumerate(_PRIVATE_RANGES) if address in net),
        len(_PRIVATE_RANGES),
    )
    return (1 if is_virtual(interface.name) else 0, preference)


def choose_lan_address(interfaces: Iterable[Interface]) -> str | None:
    """The best address for a phone on the same network, or ``None`` when there is none.

    Physical interfaces before virtual ones, private ranges before others (see the module
    docstring); ties keep the order the system listed them in.
    """
    ranked = [
        (key, order, interface.address)
        for order, interface in enumerate(interfaces)
        if (key := rank(interface)) is not None
    ]
    return min(ranked)[2] if ranked else None


def lan_address() -> str | None:
    """This computer's address on the local network, read locally; ``None`` when offline."""
    return choose_lan_address(interface_addresses())


# --- Addresses and URLs ----------------------------------------------------------------------


def is_loopback(host: str) -> bool:
    """``localhost``, ``127.x.y.z`` or ``::1``: reachable from this computer only."""
    if host.lower() in {"localhost", "localhost."}:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def is_wildcard(host: str) -> bool:
    """``0.0.0.0`` or ``::``: bound to every interface."""
    try:
        return ipaddress.ip_address(host.strip("[]")).is_unspecified
    except ValueError:
        return False


def valid_host(text: str) -> bool:
    """An IP address (v4 or v6) or a host name such as ``mybox.local``."""
    try:
        ipaddress.ip_address(text.strip("[]"))
    except ValueError:
        return bool(_HOSTNAME.match(text))
    return True


def build_url(host: str, port: int = DEFAULT_PORT, scheme: str = "http") -> str:
    """``http://192.168.1.23:8501``; IPv6 hosts in brackets; the scheme's default port left out."""
    if not valid_host(host):
        raise ValueError(f"not an IP address or host name: {host!r}")
    if not 0 < port < 65536:
        raise ValueError(f"not a TCP port: {port}")
    bare = host.strip("[]")
    shown = f"[{bare}]" if ":" in bare else bare
    default = {"http": 80, "https": 443}.get(scheme)
    return f"{scheme}://{shown}" if port == default else f"{scheme}://{shown}:{port}"


def valid_public_url(text: str) -> bool:
    """An ``http(s)://host[:port][/path]`` URL a phone can open."""
    try:
        parts = urlsplit(text)
        _ = parts.port  # raises ValueError on a bad port
    except ValueError:
        return False
    return (
        parts.scheme in {"http", "https"}
        and bool(parts.hostname)
        and valid_host(parts.hostname or "")
        and not any(char.isspace() for char in text)
    )


def public_url_from_env(environ: Mapping[str, str] | None = None) -> str | None:
    """The address for phones given by ``$PERUDO_COACH_PUBLIC_URL``, if set and valid."""
    value = (os.environ if environ is None else environ).get(PUBLIC_URL_ENV, "").strip()
    return value if value and valid_public_url(value) else None
