"""The "Open on your phone" spot: the QR code of $PERUDO_COACH_PUBLIC_URL, or how to get one,
in English and French; and the home-screen tags in every run."""

from __future__ import annotations

import io

import numpy as np
import pytest
import zxingcpp
from PIL import Image
from streamlit.runtime.memory_media_file_storage import MemoryMediaFileStorage
from streamlit.testing.v1 import AppTest

from serving.lan import PUBLIC_URL_ENV
from views.i18n import translate

LAN_URL = "http://192.168.1.23:8501"
LOCALES = {"en": "en-US", "fr": "fr-FR"}


@pytest.fixture
def stored_media(monkeypatch: pytest.MonkeyPatch) -> dict[str, bytes]:
    """Every media file the app stores during a run (file id -> bytes)."""
    stored: dict[str, bytes] = {}
    original = MemoryMediaFileStorage.load_and_get_id

    def recording(self, path_or_data, mimetype, kind, filename=None):  # type: ignore[no-untyped-def]
        file_id = original(self, path_or_data, mimetype, kind, filename)
        if isinstance(path_or_data, bytes):
            stored[file_id] = path_or_data
        return file_id

    monkeypatch.setattr(MemoryMediaFileStorage, "load_and_get_id", recording)
    return stored


def spot(app: AppTest, lang: str):  # type: ignore[no-untyped-def]
    expanders = [e for e in app.sidebar.expander if e.label == translate(lang, "phone.title")]
    assert len(expanders) == 1, [e.label for e in app.sidebar.expander]
    return expanders[0]


def decode_png(data: bytes) -> list[str]:
    image = np.array(Image.open(io.BytesIO(data)).convert("L"))
    return [result.text for result in zxingcpp.read_barcodes(image)]


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_spot_shows_the_qr_code_of_the_public_url(
    app: AppTest, lang: str, monkeypatch: pytest.MonkeyPatch, stored_media: dict[str, bytes]
) -> None:
    monkeypatch.setenv(PUBLIC_URL_ENV, LAN_URL)
    app.context = {"locale": LOCALES[lang]}
    app.run()
    assert not app.exception
    box = spot(app, lang)
    images = box.get("image")
    assert len(images) == 1
    image = images[0]
    assert image.proto.imgs[0].alt == translate(lang, "phone.qr_alt", url=LAN_URL)
    file_id = image.value[0].rsplit("/", 1)[1].split(".")[0]
    assert decode_png(stored_media[file_id]) == [LAN_URL]
    assert [c.value for c in box.code] == [LAN_URL]
    captions = [c.value for c in box.caption]
    assert translate(lang, "phone.scan") in captions
    assert translate(lang, "phone.open_network") in captions
    assert translate(lang, "phone.hint") not in captions


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_without_an_address_the_spot_says_how_to_get_one(
    app: AppTest, lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(PUBLIC_URL_ENV, raising=False)
    app.context = {"locale": LOCALES[lang], "url": "http://localhost:8501"}
    app.run()
    assert not app.exception
    box = spot(app, lang)
    assert [c.value for c in box.caption] == [translate(lang, "phone.hint")]
    assert "make serve" in translate(lang, "phone.hint")
    assert len(box.get("image")) == 0


def test_a_hosted_app_shows_its_own_address(app: AppTest, monkeypatch: pytest.MonkeyPatch) -> None:
    """No $PERUDO_COACH_PUBLIC_URL, but the browser reached the app by a public name."""
    monkeypatch.delenv(PUBLIC_URL_ENV, raising=False)
    app.context = {"locale": "en-US", "url": "https://perudo-coach.streamlit.app/~/+"}
    app.run()
    box = spot(app, "en")
    assert len(box.get("image")) == 1
    assert [c.value for c in box.code] == ["https://perudo-coach.streamlit.app"]
    # https: a hosted instance, so no "same Wi-Fi" note
    assert translate("en", "phone.open_network") not in [c.value for c in box.caption]


CRAFTED_PATHS = ["/x)](http:evil.example)", "/x%29%5D(http://evil.example)",
                 "/a/b)](javascript:alert(1))?q=[y](http://evil.example)"]


@pytest.mark.parametrize("path", CRAFTED_PATHS)
def test_the_visitors_path_never_reaches_the_spot(
    app: AppTest, path: str, monkeypatch: pytest.MonkeyPatch, stored_media: dict[str, bytes]
) -> None:
    """Issue 31, point 4: no public address set, a hosted app reached by a crafted path: the
    spot shows the app's own address (scheme, host, port), as text; no Markdown at all."""
    monkeypatch.delenv(PUBLIC_URL_ENV, raising=False)
    app.context = {"locale": "en-US", "url": f"https://perudo.example.org:8443{path}"}
    app.run()
    assert not app.exception
    box = spot(app, "en")
    assert [c.value for c in box.code] == ["https://perudo.example.org:8443"]
    assert not any("evil" in m.value or "](" in m.value for m in box.markdown)
    file_id = box.get("image")[0].value[0].rsplit("/", 1)[1].split(".")[0]
    assert decode_png(stored_media[file_id]) == ["https://perudo.example.org:8443"]


def test_a_public_url_is_shown_as_text(app: AppTest, monkeypatch: pytest.MonkeyPatch) -> None:
    """The operator's own address is drawn as text too: Markdown in it stays inert."""
    crafted = "https://perudo.example.org/x)](http:evil.example)"
    monkeypatch.setenv(PUBLIC_URL_ENV, crafted)
    app.run()
    box = spot(app, "en")
    assert [c.value for c in box.code] == [crafted]
    assert not any("evil" in m.value for m in box.markdown)


def test_a_bad_public_url_is_ignored(app: AppTest, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(PUBLIC_URL_ENV, "javascript:alert(1)")
    app.run()
    assert [c.value for c in spot(app, "en").caption] == [translate("en", "phone.hint")]


def test_the_home_screen_tags_are_added(app: AppTest) -> None:
    app.run()
    tags = [h for h in app.get("html") if "apple-touch-icon" in h.proto.body]
    assert len(tags) == 1 and tags[0].proto.unsafe_allow_javascript
    scripts = [tag.proto.body for tag in tags]
    body = scripts[0]
    for expected in ("app/static/apple-touch-icon.png", "app/static/manifest.webmanifest",
                     '"theme-color"', "#b3261e", translate("en", "app.name")):
        assert expected in body
