"""serving.warm: waits for the server, then asks its script health check once."""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from serving import warm


def serve(answers: dict[str, int]) -> tuple[ThreadingHTTPServer, list[str]]:
    asked: list[str] = []

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            asked.append(self.path)
            self.send_response(answers.get(self.path, 404))
            self.end_headers()
            self.wfile.write(b"ok")

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, asked


def test_runs_the_script_once_the_server_answers():
    server, asked = serve({warm.HEALTH: 200, warm.SCRIPT_HEALTH: 200})
    try:
        assert warm.warm(f"http://127.0.0.1:{server.server_address[1]}", deadline_s=5)
    finally:
        server.shutdown()
    assert asked == [warm.HEALTH, warm.SCRIPT_HEALTH]


def test_gives_up_when_no_server_answers():
    server, _ = serve({})
    port = server.server_address[1]
    server.shutdown()
    server.server_close()
    assert not warm.warm(f"http://127.0.0.1:{port}", deadline_s=0.5)


def test_serving_start_enables_the_script_health_check():
    from serving import start as script

    command = script.streamlit_command(script.plan("127.0.0.1", 8501), [])
    assert command[command.index("--server.scriptHealthCheckEnabled") + 1] == "true"
