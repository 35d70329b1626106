"""serving/start.py (``perudo-coach serve``, ``make serve``): which address it shows, its
terminal QR code, the streamlit command; a real server on a loopback address other than
127.0.0.1 answering its health check, static icons and manifest; and requirements.txt
agreeing with pyproject.toml.

Nothing leaves the machine: the only server is bound to 127.0.0.2, and the addresses of the
other tests are only printed, never contacted.
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time
import tomllib
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
import zxingcpp

from serving import start as serve
from serving.lan import lan_address
from tests.servers import free_port, running_server

ROOT = Path(__file__).resolve().parents[1]
SERVE = ["-m", "serving.start"]
TEST_HOST = "127.0.0.2"
"""In the loopback range but not 127.0.0.1: shows that the chosen address is the one served."""


HALF_BLOCKS = {" ": (0, 0), "\u2580": (1, 0), "\u2584": (0, 1), "\u2588": (1, 1)}


def qr_block(output: str) -> list[str]:
    """The lines of the terminal output made of half blocks only (the QR code)."""
    ansi = re.compile(r"\x1b\[[0-9;]*m")
    lines = [ansi.sub("", line) for line in output.splitlines()]
    return [line for line in lines
            if line.strip() and set(line) <= set(HALF_BLOCKS) and len(line) >= 21]


def decode_block(lines: list[str], scale: int = 8) -> list[str]:
    """Turn half-block lines back into modules (two rows a line) and decode the QR code."""
    rows: list[list[int]] = []
    for line in lines:
        rows.append([HALF_BLOCKS[char][0] for char in line])
        rows.append([HALF_BLOCKS[char][1] for char in line])
    dark = np.pad(np.array(rows, dtype=bool), 4, constant_values=False)
    image = np.kron(np.where(dark, 0, 255).astype(np.uint8), np.ones((scale, scale), np.uint8))
    return [result.text for result in zxingcpp.read_barcodes(image)]


# --- Which address -------------------------------------------------------------------------


def no_discovery() -> str:
    pytest.fail("the LAN address was looked up although it was not needed")


def test_a_wildcard_host_shows_the_address_found() -> None:
    serving = serve.plan("0.0.0.0", 8501, discover=lambda: "192.168.1.23")
    assert serving.public_url == "http://192.168.1.23:8501"
    assert serving.local_url == "http://127.0.0.1:8501"
    assert serving.browser_address == "192.168.1.23"


def test_the_address_override_wins() -> None:
    serving = serve.plan("0.0.0.0", 8502, address="mybox.local", discover=no_discovery)
    assert serving.public_url == "http://mybox.local:8502"
    serving = serve.plan(TEST_HOST, 8503, address=TEST_HOST, discover=no_discovery)
    assert serving.public_url == f"http://{TEST_HOST}:8503"


def test_loopback_serves_this_computer_only() -> None:
    serving = serve.plan("127.0.0.1", 8501, discover=no_discovery)
    assert serving.public_url is None
    assert serving.local_url == "http://127.0.0.1:8501"
    assert serving.browser_address == "127.0.0.1"
    text = serve.banner(serving)
    assert "http://127.0.0.1:8501" in text
    assert "`perudo-coach serve`" in text and "`make serve` in a checkout" in text
    assert qr_block(text) == []


def test_a_specific_host_is_the_address() -> None:
    serving = serve.plan("192.168.1.23", 8501, discover=no_discovery)
    assert serving.public_url == "http://192.168.1.23:8501"


def test_no_network_found() -> None:
    serving = serve.plan("0.0.0.0", 8501, discover=lambda: None)
    assert serving.public_url is None
    assert serving.browser_address == "127.0.0.1"
    assert "--address" in serve.banner(serving) and "ADDRESS=" in serve.banner(serving)


@pytest.mark.parametrize(("host", "address"), [("0.0.0.0", "a b"), ("bad host!", None),
                                               ("0.0.0.0", "http://x/")])
def test_bad_addresses_are_refused(host: str, address: str | None) -> None:
    with pytest.raises(ValueError):
        serve.plan(host, 8501, address=address, discover=lambda: "192.168.1.23")


def test_streamlit_never_looks_its_addresses_up() -> None:
    """Without browser.serverAddress, Streamlit's banner would 'connect' a UDP socket towards
    a public address and ask a web service for the public IP; serving.start always sets it."""
    for serving in (serve.plan("0.0.0.0", 8501, discover=lambda: "192.168.1.23"),
                    serve.plan("0.0.0.0", 8501, discover=lambda: None),
                    serve.plan("127.0.0.1", 8501)):
        command = serve.streamlit_command(serving, ["--server.fileWatcherType", "none"])
        assert command[command.index("--browser.serverAddress") + 1] == serving.browser_address
        assert command[command.index("--server.address") + 1] == serving.host
        assert command[-2:] == ["--server.fileWatcherType", "none"]
        assert command[1:5] == ["-m", "serving.streamlit_cli", "run",
                               str(ROOT / "streamlit_app.py")]


# --- The terminal --------------------------------------------------------------------------


@pytest.mark.parametrize("color", [False, True])
def test_the_terminal_qr_code_decodes_to_the_address(color: bool) -> None:
    url = "http://192.168.1.23:8501"
    block = qr_block(serve.qr_text(url, color=color))
    assert block and decode_block(block) == [url]


def test_the_script_prints_the_address_and_a_qr_code() -> None:
    """The real script, as `make serve ADDRESS=192.168.1.23` runs it (dry run: no server)."""
    result = subprocess.run(
        [sys.executable, *SERVE, "--host", "0.0.0.0", "--port", "8501",
         "--address", "192.168.1.23", "--dry-run"],
        capture_output=True, text=True, timeout=60, check=True, cwd=ROOT,
    )
    assert "http://192.168.1.23:8501" in result.stdout
    assert "\x1b[" not in result.stdout  # not a terminal: no colour codes
    block = qr_block(result.stdout)
    assert len(block) >= 10
    assert decode_block(block) == ["http://192.168.1.23:8501"]
    assert "--browser.serverAddress 192.168.1.23" in result.stdout


def test_the_script_prints_the_address_it_finds() -> None:
    """The real script as plain `make serve` runs it: the address comes from this machine's
    interfaces (serving.lan, through psutil), and its QR code decodes to it."""
    found = lan_address()
    if found is None:
        pytest.skip("this machine has no address a phone could reach")
    url = f"http://{found}:8501"
    result = subprocess.run(
        [sys.executable, *SERVE, "--host", "0.0.0.0", "--port", "8501", "--dry-run"],
        capture_output=True, text=True, timeout=60, check=True, cwd=ROOT,
    )
    assert f"Perudo Coach on your network: {url}" in result.stdout
    assert decode_block(qr_block(result.stdout)) == [url]
    assert f"--browser.serverAddress {found}" in result.stdout


def test_a_bad_address_exits_with_status_2() -> None:
    result = subprocess.run(
        [sys.executable, *SERVE, "--address", "not an address", "--dry-run"],
        capture_output=True, text=True, timeout=60, check=False, cwd=ROOT,
    )
    assert result.returncode == 2
    assert "ADDRESS" in result.stderr


# --- A real server -------------------------------------------------------------------------



def _get(url: str) -> tuple[int, str, bytes]:
    with urllib.request.urlopen(url, timeout=5) as response:
        return response.status, response.headers.get("Content-Type", ""), response.read()


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """`make serve HOST=127.0.0.2 ADDRESS=127.0.0.2 PORT=<free>`: the URL and the log."""
    port = free_port(TEST_HOST)
    log_path = tmp_path_factory.mktemp("serve") / "serve.log"
    env = {**os.environ, "NO_COLOR": "1"}
    env.pop("PERUDO_COACH_PUBLIC_URL", None)
    command = [sys.executable, *SERVE, "--host", TEST_HOST, "--port", str(port),
               "--address", TEST_HOST, "--", "--server.fileWatcherType", "none"]
    url = f"http://{TEST_HOST}:{port}"
    with running_server(command, url, log_path, env):
        yield url, log_path


def test_the_served_app_answers_on_the_chosen_address(served: tuple[str, Path]) -> None:
    url, log_path = served
    status, _, body = _get(f"{url}/_stcore/health")
    assert (status, body) == (200, b"ok")
    output = log_path.read_text(encoding="utf-8")
    assert f"Perudo Coach on your network: {url}" in output
    assert decode_block(qr_block(output)) == [url]


def test_it_listens_on_the_chosen_host_only(served: tuple[str, Path]) -> None:
    port = int(served[0].rsplit(":", 1)[1])
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.settimeout(2)
        assert sock.connect_ex(("127.0.0.1", port)) != 0


def test_the_warm_up_leaves_no_zombie_under_the_server(served: tuple[str, Path]) -> None:
    """Issue 31, point 7: the warm-up child ended as a zombie of the server (the process
    execs Streamlit, which never waits for it). Now init adopts it."""
    import psutil

    url, _ = served
    port = url.rsplit(":", 1)[1]
    server = next(child for child in psutil.Process().children()
                  if port in " ".join(child.cmdline()))
    for _ in range(600):  # the warm-up asks the script health check once, then ends
        warming = [process for process in psutil.process_iter(["cmdline"])
                   if "serving.warm" in (process.info["cmdline"] or ())
                   and url in (process.info["cmdline"] or ())]
        if not any(p.is_running() and p.status() != psutil.STATUS_ZOMBIE for p in warming):
            break
        time.sleep(0.1)  # polling a process's end, not timing it
    zombies = [child.pid for child in server.children()
               if child.status() == psutil.STATUS_ZOMBIE]
    assert zombies == []


def test_a_detached_command_has_no_parent_to_wait_for_it(tmp_path: Path) -> None:
    written = tmp_path / "pid"
    script = ("import os, sys; open(sys.argv[1] + '.tmp', 'w').write(str(os.getpid())); "
              "os.replace(sys.argv[1] + '.tmp', sys.argv[1])")
    serve.start_detached([sys.executable, "-c", script, str(written)], dict(os.environ))
    for _ in range(600):
        if written.exists():
            break
        time.sleep(0.05)  # polling for the file, not timing the command
    pid = int(written.read_text())
    with pytest.raises(ChildProcessError):  # not this process's child: init reaps it
        os.waitpid(pid, os.WNOHANG)


def test_the_home_screen_files_are_served(served: tuple[str, Path]) -> None:
    url, _ = served
    status, kind, body = _get(f"{url}/app/static/manifest.webmanifest")
    assert status == 200 and kind.startswith("application/manifest+json")
    manifest = json.loads(body)
    assert manifest["name"] == "Perudo Coach" and manifest["display"] == "standalone"
    for icon in manifest["icons"]:
        status, kind, png = _get(f"{url}/app/static/{icon['src']}")
        assert (status, kind) == (200, "image/png") and png.startswith(b"\x89PNG")
    status, kind, _ = _get(f"{url}/app/static/apple-touch-icon.png")
    assert (status, kind) == (200, "image/png")


HEAD_PROBE = """
import json, sys
from playwright.sync_api import sync_playwright

url, chromium = sys.argv[1], sys.argv[2]
with sync_playwright() as playwright:
    browser = playwright.chromium.launch(
        executable_path=chromium,
        args=["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
    )
    try:
        context = browser.new_context(viewport={"width": 390, "height": 844},
                                      is_mobile=True, has_touch=True, locale="en-US")
        page = context.new_page()
        page.goto(url)
        page.wait_for_function(
            "document.querySelector('link[rel=manifest][id^=perudo-coach]') !== null",
            timeout=30_000,
        )
        head = page.evaluate('''() => ({
            title: document.title,
            icon: document.querySelector('link[rel=apple-touch-icon]').href,
            manifest: document.querySelector('link[rel=manifest]').href,
            color: document.querySelector('meta[name=theme-color]').content,
            name: document.querySelector('meta[name=apple-mobile-web-app-title]').content,
        })''')
        head["icon_status"] = page.evaluate("href => fetch(href).then(r => r.status)",
                                            head["icon"])
    finally:
        browser.close()
print(json.dumps(head))
"""
"""Run in its own process: the browser tests' session-wide Playwright owns this one's loop."""


@pytest.mark.browser
def test_a_phone_browser_finds_the_home_screen_tags(served: tuple[str, Path]) -> None:
    """Chromium at phone size: the page head gets the icon, manifest, colour and name."""
    chromium = Path("/usr/bin/chromium")
    if not chromium.exists():
        if os.environ.get("CI"):
            pytest.fail(f"{chromium} is missing (CI is set: browser tests must run)")
        pytest.skip(f"{chromium} is missing")
    url, _ = served
    result = subprocess.run([sys.executable, "-c", HEAD_PROBE, url, str(chromium)],
                            capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout.strip().splitlines()[-1]) == {
        "title": "Perudo Coach",
        "icon": f"{url}/app/static/apple-touch-icon.png",
        "manifest": f"{url}/app/static/manifest.webmanifest",
        "color": "#b3261e",
        "name": "Perudo Coach",
        "icon_status": 200,
    }


def test_the_icons_have_their_declared_sizes() -> None:
    from PIL import Image

    manifest = json.loads((ROOT / "static" / "manifest.webmanifest").read_text("utf-8"))
    sizes = {icon["src"]: icon["sizes"] for icon in manifest["icons"]}
    sizes["apple-touch-icon.png"] = "180x180"
    for name, size in sizes.items():
        with Image.open(ROOT / "static" / name) as image:
            assert f"{image.width}x{image.height}" == size, name
            assert image.mode == "RGB", f"{name}: iOS shows transparency as black"


# --- Deployment ----------------------------------------------------------------------------


def _pins(lines: list[str]) -> dict[str, str]:
    pins = {}
    for line in lines:
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        name, sep, version = line.partition("==")
        assert sep, f"not pinned with ==: {line!r}"
        pins[re.sub(r"[-_.]+", "-", name.strip().lower())] = version.strip()
    return pins


def test_requirements_txt_matches_pyproject() -> None:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    declared = _pins(pyproject["project"]["dependencies"])
    required = _pins((ROOT / "requirements.txt").read_text(encoding="utf-8").splitlines())
    assert required == declared
    assert "segno" in required
