"""This computer's address on the local network, and the URLs built from it. No Streamlit here.

``make serve`` binds the app to every interface and must tell a phone where to find it: the
address of this computer on the Wi-Fi, such as ``192.168.1.23``. Finding it sends nothing on
the network (no UDP "connect" to a public address, no DNS query): the addresses are read from
the local interfaces, in this order of sources, the first that answers wins:

1. Linux: each interface of :func:`socket.if_nameindex` asked for its IPv4 address with the
   ``SIOCGIFADDR`` ioctl (a local system call on an unconnected socket);
2. the output of ``ip -4 -o addr show`` (Linux without the ioctl);
3. the output of ``ifconfig`` (macOS, the BSDs);
4. last resort, :func:`socket.gethostbyname_ex` of the host name, which may consult the
   system resolver (``/etc/hosts``, mDNS): only reached where none of the above works.

Loopback, link-local (169.254/16), multicast and unspecified addresses are dropped. Private
ranges come first (192.168/16, then 10/8, then 172.16/12, then 100.64/10 as used by VPN
meshes), and virtual interfaces (Docker bridges, VPN tunnels, VM host networks) come after
physical ones. ``make serve ADDRESS=…`` overrides the choice.
"""

from __future__ import annotations

import ipaddress
import os
import re
import shutil
import socket
import struct
import subprocess
import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit

PUBLIC_URL_ENV = "PERUDO_COACH_PUBLIC_URL"
"""The environment variable that tells the app the address a phone should open."""
DEFAULT_PORT = 8501

SIOCGIFADDR = 0x8915
"""Linux ioctl: get the IPv4 address of an interface (``<linux/sockios.h>``)."""

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
    """One IPv4 address of one network interface (``name`` may be empty when unknown)."""

    name: str
    address: str


# --- Reading the interfaces ------------------------------------------------------------------


def ioctl_interfaces() -> list[Interface]:
    """Linux: the IPv4 address of each interface, by ``SIOCGIFADDR``; empty elsewhere.

    The socket is only a handle for the ioctl: it is never bound, connected or written to.
    """
    if not sys.platform.startswith("linux"):
        return []
    try:
        import fcntl  # POSIX only
    except ImportError:  # pragma: no cover - not on Linux
        return []
    found: list[Interface] = []
    try:
        names = [name for _, name in socket.if_nameindex()]
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as handle:
            for name in names:
                request = struct.pack("256s", name.encode()[:15])
                try:
                    reply = fcntl.ioctl(handle.fileno(), SIOCGIFADDR, request)
                except OSError:  # no IPv4 address on this interface
                    continue
                found.append(Interface(name, socket.inet_ntoa(reply[20:24])))
    except OSError:
        return []
    return found


def parse_ip_addr(text: str) -> list[Interface]:
    """The addresses in the output of ``ip -4 -o addr show`` (one line per address)."""
    found = []
    for line in text.splitlines():
        match = re.match(r"^\d+:\s+(\S+?)(?:@\S+)?\s+inet\s+(\d+\.\d+\.\d+\.\d+)", line)
        if match:
            found.append(Interface(match.group(1), match.group(2)))
    return found


def parse_ifconfig(text: str) -> list[Interface]:
    """The IPv4 addresses in the output of ``ifconfig`` (BSD/macOS and Linux net-tools)."""
    found = []
    name = ""
    for line in text.splitlines():
        header = re.match(r"^([^\s:]+):?\s", line)
        if header and not line[0].isspace():
            name = header.group(1)
        match = re.search(r"\binet (?:addr:)?(\d+\.\d+\.\d+\.\d+)", line)
        if match:
            found.append(Interface(name, match.group(1)))
    return found


def _command_output(command: list[str]) -> str:
    if shutil.which(command[0]) is None:
        return ""
    try:
        result = subprocess.run(command, capture_output=True, text=True, timeout=5, check=False)
    except (OSError, subprocess.SubprocessError):
        return ""
    return result.stdout if result.returncode == 0 else ""


def hostname_interfaces() -> list[Interface]:
    """The addresses the system resolver gives for this host's name (may read /etc/hosts, mDNS)."""
    try:
        _, _, addresses = socket.gethostbyname_ex(socket.gethostname())
    except OSError:
        return []
    return [Interface("", address) for address in addresses]


def interface_addresses() -> list[Interface]:
    """This computer's IPv4 addresses, from the first local source that gives any."""
    sources: list[Callable[[], list[Interface]]] = [
        ioctl_interfaces,
        lambda: parse_ip_addr(_command_output(["ip", "-4", "-o", "addr", "show"])),
        lambda: parse_ifconfig(_command_output(["ifconfig"])),
        hostname_interfaces,
    ]
    for source in sources:
        found = source()
        if found:
            return found
    return []


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
