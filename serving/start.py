"""Serve Perudo Coach, and show the address (and its QR code) a phone should open.

``perudo-coach serve`` (``make serve``, ``python -m serving.start``) listens on every
interface: the app listens on every interface,
this script finds the computer's address on the local network (read from the interfaces,
nothing is sent: see ``serving/lan.py``), prints it with a QR code, and starts
``streamlit run streamlit_app.py`` (through ``serving/streamlit_cli.py``, whose server answers
without Nagle's delay) with ``$PERUDO_COACH_PUBLIC_URL`` set to it, so the app's
"Open on your phone" spot shows the same code. ``perudo-coach run`` (``make run``) uses it
too, on 127.0.0.1: it then prints the local address only.

Which address is shown: ``--address`` when given (an IP or a host name, e.g. when the
guess picks the wrong interface); else the one found on the network when ``--host`` is a
wildcard (``0.0.0.0``, ``::``); else ``--host`` itself unless it is a loopback address, in
which case no phone can reach the app and no QR code is shown.

Streamlit's own start-up banner would look up the "Network URL" by sending a UDP packet
towards a public address and the "External URL" by asking a web service; both are skipped
because this script always sets ``browser.serverAddress``. Arguments after ``--`` go to
``streamlit run``.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from serving import streamlit_cli
from serving.lan import (
    DEFAULT_PORT,
    PUBLIC_URL_ENV,
    build_url,
    is_loopback,
    is_wildcard,
    lan_address,
    valid_host,
)

ENTRY_SCRIPT = "streamlit_app.py"
INSTALLED_APP = Path(__file__).resolve().parent / "app"
"""Where a wheel keeps the app's files: ``serving/app/`` (copied there when it is built)."""


def app_root() -> Path:
    """The folder holding ``streamlit_app.py``, ``app_pages/``, ``static/`` and
    ``.streamlit/config.toml``: the checkout this package runs from, else the copy an
    installed wheel keeps in ``serving/app/``."""
    checkout = Path(__file__).resolve().parents[1]
    if (checkout / ENTRY_SCRIPT).is_file():
        return checkout
    installed = INSTALLED_APP
    if (installed / ENTRY_SCRIPT).is_file():
        return installed
    raise FileNotFoundError(f"{ENTRY_SCRIPT} is neither in {checkout} nor in {installed}")

_BLOCKS = {(False, False): " ", (True, False): "\u2580", (False, True): "\u2584",
           (True, True): "\u2588"}
"""Half blocks: two QR rows per text line, the upper and lower module of each column."""


@dataclass(frozen=True)
class Plan:
    """Where the server listens and which address a phone opens (``None``: none can)."""

    host: str
    port: int
    public_url: str | None
    local_url: str
    browser_address: str
    """``browser.serverAddress`` for Streamlit: the address it prints (and allows for CORS)."""


def plan(host: str, port: int, address: str | None = None,
         discover: Callable[[], str | None] = lan_address) -> Plan:
    """Decide the phone's address from the bind ``host`` and an optional ``address``."""
    if not valid_host(host):
        raise ValueError(f"--host is not an IP address or host name: {host!r}")
    if address is not None and not valid_host(address):
        raise ValueError(f"ADDRESS is not an IP address or host name: {address!r}")
    local_host = "127.0.0.1" if is_wildcard(host) else host
    if address:
        public_host: str | None = address
    elif is_wildcard(host):
        public_host = discover()
    elif is_loopback(host):
        public_host = None
    else:
        public_host = host
    public_url = build_url(public_host, port) if public_host else None
    return Plan(
        host=host,
        port=port,
        public_url=public_url,
        local_url=build_url(local_host, port),
        browser_address=(public_host or local_host).strip("[]"),
    )


def qr_rows(url: str, border: int = 2) -> list[list[bool]]:
    """The QR code of ``url`` (error correction M) as rows of modules, True for dark."""
    import segno

    code = segno.make_qr(url, error="m")
    size = len(code.matrix) + 2 * border
    rows = [[False] * size for _ in range(border)]
    for row in code.matrix:
        rows.append([False] * border + [bool(module) for module in row] + [False] * border)
    rows += [[False] * size for _ in range(border)]
    return rows


def qr_text(url: str, color: bool = False, border: int = 2) -> str:
    """The QR code of ``url`` for a terminal: half blocks, two module rows per line.

    Dark modules are drawn as blocks, which reads right on a light background. With
    ``color``, each line also sets black ink on a bright white background (ANSI), so a dark
    terminal shows the same code instead of its negative.
    """
    rows = qr_rows(url, border)
    if len(rows) % 2:
        rows.append([False] * len(rows[0]))
    start, end = ("\x1b[30;107m", "\x1b[0m") if color else ("", "")
    lines = []
    for top, bottom in zip(rows[::2], rows[1::2], strict=True):
        lines.append(start + "".join(_BLOCKS[pair] for pair in zip(top, bottom, strict=True))
                     + end)
    return "\n".join(lines)


def banner(serving: Plan, color: bool = False) -> str:
    """What the terminal shows before Streamlit starts."""
    if serving.public_url is None:
        lines = [f"Perudo Coach on this computer only: {serving.local_url}"]
        if is_wildcard(serving.host):
            lines.append("No network address found: is this computer on a Wi-Fi or a cable?"
                         " Give one with `perudo-coach serve --address 192.168.1.23`"
                         " (`make serve ADDRESS=192.168.1.23` in a checkout).")
        else:
            lines.append("To open it on a phone on the same Wi-Fi: `perudo-coach serve`"
                         " (`make serve` in a checkout).")
        return "\n".join(lines) + "\n"
    return "\n".join([
        f"Perudo Coach on your network: {serving.public_url}",
        "Scan this with the phone's camera (same Wi-Fi as this computer):",
        "",
        qr_text(serving.public_url, color=color),
        "",
        f"On this computer: {serving.local_url}",
        "Anyone on this network can open it: there is no login. Ctrl+C stops it.",
        "",
    ])


def streamlit_command(serving: Plan, extra: list[str]) -> list[str]:
    """``streamlit run`` (through ``serving.streamlit_cli``: no Nagle's delay) with the bind
    address and the address Streamlit should print."""
    return [
        sys.executable, "-m", streamlit_cli.MODULE, "run", str(app_root() / ENTRY_SCRIPT),
        "--server.address", serving.host,
        "--server.port", str(serving.port),
        "--browser.serverAddress", serving.browser_address,
        "--browser.serverPort", str(serving.port),
        "--server.scriptHealthCheckEnabled", "true",  # serving.warm runs the script once
        *extra,
    ]


def port_number(text: str) -> int:
    """``--port`` as typed, in ASCII digits only (``int`` alone also reads other scripts'
    digits: "٨٥٠١" is 8501); :func:`plan` checks its range."""
    if not (text.isascii() and text.isdigit()) or len(text) > 5:
        raise argparse.ArgumentTypeError(f"expected a TCP port number, not {text[:20]!r}")
    return int(text)


def start_detached(command: list[str], env: Mapping[str, str]) -> None:
    """Start ``command`` (its output dropped) with no parent left to wait for it.

    This process is about to become Streamlit (``os.execve``), which never waits for the
    children it did not start itself: a child started here would stay a zombie from the
    moment it ends until the server stops. So on POSIX a short-lived child starts
    ``command`` and exits at once, and is waited for here (a double fork): ``command`` is
    then adopted by init, which reaps it. It stays in this process group: Ctrl+C reaches it.
    """
    def launch() -> None:
        subprocess.Popen(command, env=env, stdin=subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    if os.name != "posix":  # pragma: no cover - Windows has no zombies
        launch()
        return
    child = os.fork()
    if child == 0:  # the go-between: start the command, then leave at once
        code = 1
        try:
            launch()
            code = 0
        finally:
            os._exit(code)
    os.waitpid(child, 0)


EVERY_INTERFACE = "0.0.0.0"
THIS_COMPUTER = "127.0.0.1"


def build_parser(prog: str = "python -m serving.start",
                 default_host: str = EVERY_INTERFACE) -> argparse.ArgumentParser:
    where = "every interface" if is_wildcard(default_host) else "this computer only"
    parser = argparse.ArgumentParser(prog=prog, description=__doc__.splitlines()[0],
                                     epilog="Arguments after -- go to streamlit run.")
    parser.add_argument("--host", default=default_host,
                        help=f"address to listen on (default {default_host}: {where})")
    parser.add_argument("--port", type=port_number, default=DEFAULT_PORT,
                        help="TCP port (default 8501)")
    parser.add_argument("--address", default=None,
                        help="the address phones should open, instead of the one found")
    parser.add_argument("--dry-run", action="store_true",
                        help="print the banner and the streamlit command, start nothing")
    return parser


def _parse(parser: argparse.ArgumentParser,
           argv: list[str]) -> tuple[argparse.Namespace, list[str]]:
    extra: list[str] = []
    if "--" in argv:
        cut = argv.index("--")
        argv, extra = argv[:cut], argv[cut + 1:]
    args = parser.parse_args(argv)
    if args.address == "":
        args.address = None
    return args, extra


def main(argv: list[str] | None = None, out: TextIO | None = None, *,
         prog: str = "python -m serving.start", default_host: str = EVERY_INTERFACE) -> int:
    """Print the banner and hand the process over to Streamlit; 2 after one line on stderr
    for bad input."""
    out = out or sys.stdout
    parser = build_parser(prog, default_host)
    args, extra = _parse(parser, sys.argv[1:] if argv is None else argv)
    try:
        serving = plan(args.host, args.port, args.address)
        root = app_root()
    except (ValueError, FileNotFoundError) as error:
        print(f"{prog}: {error}", file=sys.stderr)
        return 2
    color = out.isatty() and "NO_COLOR" not in os.environ
    out.write(banner(serving, color=color))
    out.flush()
    command = streamlit_command(serving, extra)
    env = dict(os.environ)
    if serving.public_url is not None:
        env[PUBLIC_URL_ENV] = serving.public_url
    if args.dry_run:
        out.write(" ".join(command) + "\n")
        return 0
    os.chdir(root)  # Streamlit reads .streamlit/config.toml from the working directory
    # Import the heavy modules as soon as the server is up, before the first visitor.
    start_detached([sys.executable, "-m", "serving.warm", serving.local_url], env)
    if os.name == "posix":
        os.execve(sys.executable, command, env)  # Ctrl+C and signals reach Streamlit itself
    return subprocess.call(command, env=env)  # pragma: no cover - Windows


if __name__ == "__main__":
    sys.exit(main())
