"""The app's server as ``make run`` serves it (``serving.streamlit_cli``), each script run
logged for ``test_bench_speed.py``'s account of where a tap's time goes.

``python -m tests.benchmarks.timed_server run streamlit_app.py …`` with
``$PERUDO_BENCH_RUN_LOG`` naming a file: one JSON line per script run (a fragment's too) with
when it started (``time.time()``, the machine's one clock), its length and the CPU its thread
used, in milliseconds, and the messages it sent to the browser and their size. It wraps two
private methods of Streamlit 1.67's ``ScriptRunner``: a benchmark's instrument, never the
app's. The wrapping costs microseconds a run.
"""

from __future__ import annotations

import json
import os
import threading
import time
from typing import Any

from streamlit.runtime.scriptrunner.script_runner import ScriptRunner

from serving import streamlit_cli

LOG_ENV = "PERUDO_BENCH_RUN_LOG"


def install(path: str) -> None:
    """Log each script run of this process to ``path``."""
    log = open(path, "a", buffering=1)  # noqa: SIM115 - open for the life of the server
    lock = threading.Lock()
    sent = threading.local()
    run_script, enqueue = ScriptRunner._run_script, ScriptRunner._enqueue_forward_msg

    def timed_run(self: ScriptRunner, rerun_data: Any) -> None:
        sent.messages = sent.bytes = 0
        started, clock, cpu = time.time(), time.perf_counter(), time.thread_time()
        try:
            run_script(self, rerun_data)
        finally:
            record = {"start": started, "ms": (time.perf_counter() - clock) * 1000,
                      "cpu_ms": (time.thread_time() - cpu) * 1000,
                      "messages": sent.messages, "bytes": sent.bytes}
            with lock:
                log.write(json.dumps(record) + "\n")

    def counted_enqueue(self: ScriptRunner, msg: Any) -> None:
        if hasattr(sent, "messages"):
            sent.messages += 1
            sent.bytes += msg.ByteSize()
        enqueue(self, msg)

    ScriptRunner._run_script = timed_run  # type: ignore[method-assign]
    ScriptRunner._enqueue_forward_msg = counted_enqueue  # type: ignore[method-assign]


def runs(path: str, start: float, end: float) -> list[dict[str, float]]:
    """The runs logged in ``path`` that started between ``start`` and ``end``."""
    with open(path) as log:
        records = [json.loads(line) for line in log if line.strip()]
    return [record for record in records if start <= record["start"] <= end]


if __name__ == "__main__":
    install(os.environ[LOG_ENV])
    streamlit_cli.main()
