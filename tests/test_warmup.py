"""views.warmup: the heavy imports happen once, in one thread, while other sessions wait."""

from __future__ import annotations

import gc
import importlib
import sys
import threading

import pytest

from views import warmup


@pytest.fixture
def fresh_warmup(tmp_path, monkeypatch):
    """A fresh copy of the module whose HEAVY is one slow module that counts its imports."""
    (tmp_path / "slow_heavy_module.py").write_text(
        "import time\nimport slow_heavy_counter\nslow_heavy_counter.count += 1\n"
        "time.sleep(0.3)\nVALUE = 42\n"
    )
    (tmp_path / "slow_heavy_counter.py").write_text("count = 0\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    for name in ("slow_heavy_module", "slow_heavy_counter"):
        sys.modules.pop(name, None)
    module = importlib.reload(warmup)
    monkeypatch.setattr(module, "HEAVY", ("slow_heavy_module",))
    yield module
    importlib.reload(warmup)
    for name in ("slow_heavy_module", "slow_heavy_counter"):
        sys.modules.pop(name, None)


def test_many_sessions_at_once_import_once_and_all_see_the_whole_module(fresh_warmup):
    seen: list[int] = []
    errors: list[BaseException] = []

    def session() -> None:
        try:
            fresh_warmup.wait()
            seen.append(sys.modules["slow_heavy_module"].VALUE)
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=session) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)  # stops a hung test; a slow machine still passes
    assert not errors
    assert seen == [42] * 8
    assert sys.modules["slow_heavy_counter"].count == 1


def test_what_the_imports_left_in_memory_is_frozen_out_of_the_collectors_reach(fresh_warmup):
    gc.unfreeze()
    assert gc.get_freeze_count() == 0
    fresh_warmup.wait()
    assert gc.get_freeze_count() > 0


def test_a_failed_import_is_raised_in_every_session(fresh_warmup, monkeypatch):
    monkeypatch.setattr(fresh_warmup, "HEAVY", ("no_such_module_anywhere",))
    for _ in range(2):
        with pytest.raises(ModuleNotFoundError):
            fresh_warmup.wait()


def test_the_real_list_names_importable_modules():
    for name in warmup.HEAVY:
        assert importlib.util.find_spec(name) is not None, name
