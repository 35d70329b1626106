"""Getting the app onto a phone: the "Open on your phone" spot and the home-screen tags.

:func:`phone_link` draws, in the sidebar, the address a phone should open and its QR code.
The address comes from ``$PERUDO_COACH_PUBLIC_URL`` (set by ``serving/start.py``, that is
``make serve``, or by whoever hosts the app); without it, from the browser's own address when
that is not this computer's loopback (a hosted instance, or a LAN address typed by hand);
otherwise the spot says how to start ``make serve``. Of the browser's address only the scheme,
host and port are kept, followed by the app's own base path (``server.baseUrlPath``): the
rest of its path is the visitor's to write (``/x)](http:evil.example)``), so it never reaches
the spot, and the address is drawn as text (``st.code``), never as Markdown.

:func:`home_screen_script` gives "Add to Home Screen" a proper icon, name and colour. Streamlit
1.67 has no API for ``<head>`` tags (``st.set_page_config`` sets only the tab title and the
favicon), so a small script run by ``st.html(..., unsafe_allow_javascript=True)`` adds them
to the document head once: ``apple-touch-icon`` (iOS), a web app manifest (Android), the
theme colour (:data:`views.palette.BRAND`) and the app's name. The files are served from
``static/`` by Streamlit's static file serving (``server.enableStaticServing`` in
``.streamlit/config.toml``) at ``app/static/``.

segno (pure Python, no network) draws the QR codes; it is imported only when one is drawn.
"""

from __future__ import annotations

import io
import json
from typing import TYPE_CHECKING
from urllib.parse import quote, urlsplit

import streamlit as st

from serving.lan import build_url, is_loopback, public_url_from_env, valid_public_url
from views import palette
from views.i18n import t

if TYPE_CHECKING:
    from streamlit.delta_generator import DeltaGenerator

STATIC_URL = "app/static/"
"""Where Streamlit serves ``static/``, relative to the app's root URL."""
MANIFEST = "manifest.webmanifest"
APPLE_TOUCH_ICON = "apple-touch-icon.png"
_TAG_ID_PREFIX = "perudo-coach-"


def qr_png(url: str, scale: int = 6) -> bytes:
    """The QR code of ``url`` as PNG bytes (error correction M, quiet zone of 4 modules)."""
    import segno

    buffer = io.BytesIO()
    # Dark modules on white: the contrast every camera app reads.
    segno.make_qr(url, error="m").save(buffer, kind="png", scale=scale, border=4, dark=palette.INK)
    return buffer.getvalue()


def browser_url() -> str | None:
    """The app's address as the browser sees it, unless it is this computer's loopback."""
    url = app_address(st.context.url)
    if url is None or is_loopback(urlsplit(url).hostname or ""):
        return None
    return url


def phone_url() -> str | None:
    """The address a phone should open: ``$PERUDO_COACH_PUBLIC_URL``, else the browser's own."""
    return public_url_from_env() or browser_url()


def link_base() -> str:
    """Where a link to this app starts: ``$PERUDO_COACH_PUBLIC_URL``, else the browser's own
    address (a loopback one included) as :func:`app_address` keeps it; empty (links relative
    to the page) when the browser gave none."""
    return public_url_from_env() or app_address(st.context.url) or ""


def app_address(url: str | None, base_path: str | None = None) -> str | None:
    """The app's root address from ``url``, the browser's address of one of its pages:
    ``url``'s scheme, host and port (rebuilt, so nothing else of ``url`` comes along), then
    ``base_path`` (default: the server's ``server.baseUrlPath``), percent-encoded. ``None``
    when ``url`` is not an ``http(s)`` address with a valid host and port.

    The rest of ``url``'s path is dropped: a page's own path under ``st.navigation``
    (``…/game``), the wrapper Streamlit Community Cloud adds (``…/~/+``), or whatever a
    visitor typed after the app's address."""
    if not url or not valid_public_url(url):
        return None
    parts = urlsplit(url)
    port = parts.port if parts.port is not None else (443 if parts.scheme == "https" else 80)
    try:
        root = build_url(parts.hostname or "", port, parts.scheme)
    except ValueError:
        return None
    if base_path is None:
        base_path = str(st.get_option("server.baseUrlPath") or "")
    base = quote(base_path.strip("/"), safe="/")
    return f"{root}/{base}" if base else root


def phone_link(container: DeltaGenerator | None = None) -> str | None:
    """The "Open on your phone" spot, in a closed expander; returns the address it shows."""
    target = container if container is not None else st.sidebar
    url = phone_url()
    with target.expander(t("phone.title"), icon=":material/smartphone:"):
        if url is None:
            st.caption(t("phone.hint"))
            return None
        st.caption(t("phone.scan"))
        st.image(qr_png(url), width=220, alt=t("phone.qr_alt", url=url))
        st.code(url, language=None, wrap_lines=True)  # text: never Markdown, never a link
        if urlsplit(url).scheme == "http":  # a server on the local network, not a hosted one
            st.caption(t("phone.open_network"))
    return url


def home_screen_script(app_name: str) -> str:
    """The ``<script>`` that adds the home-screen tags to the document head (idempotent).

    It writes to the top document when it may (Streamlit Community Cloud wraps the app in a
    same-site iframe), else to its own; links are made absolute against the app's address.
    """
    static = STATIC_URL
    tags = [
        ("link", {"rel": "apple-touch-icon", "sizes": "180x180",
                  "href": static + APPLE_TOUCH_ICON}),
        ("link", {"rel": "manifest", "href": static + MANIFEST}),
        ("meta", {"name": "theme-color", "content": palette.BRAND}),
        ("meta", {"name": "apple-mobile-web-app-title", "content": app_name}),
        ("meta", {"name": "application-name", "content": app_name}),
        ("meta", {"name": "apple-mobile-web-app-capable", "content": "yes"}),
        ("meta", {"name": "mobile-web-app-capable", "content": "yes"}),
        ("meta", {"name": "apple-mobile-web-app-status-bar-style", "content": "default"}),
    ]
    data = json.dumps(tags).replace("</", "<\\/")
    return f"""<script>
(() => {{
  let doc = document;
  try {{ if (window.top !== window && window.top.document.head) doc = window.top.document; }}
  catch (error) {{ doc = document; }}
  const tags = {data};
  tags.forEach(([tag, attrs], index) => {{
    const id = "{_TAG_ID_PREFIX}" + index;
    let element = doc.getElementById(id);
    if (!element) {{
      element = doc.createElement(tag);
      element.id = id;
      doc.head.appendChild(element);
    }}
    for (const [name, value] of Object.entries(attrs)) {{
      element.setAttribute(name, name === "href" ? new URL(value, document.baseURI).href : value);
    }}
  }});
}})();
</script>"""
