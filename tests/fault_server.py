"""A small HTTP server for the faults the fake arXiv and scholarly servers do not make: a connection
dropped in the middle of a body, well-formed answers that hold nothing, a JSON list where an object
belongs, a maintenance page with status 200.

It runs in the test's own process, on 127.0.0.1, one thread a connection, and answers every request
with the raw bytes `answer(path)` gives (status line, headers, body), then closes the connection, so a
test can send a `Content-Length` larger than the body it sends. It counts connections and keeps the
paths asked. Use the `fault_server` fixture: `server = fault_server(EMPTY_ANSWERS)`.
"""

from __future__ import annotations

import json
import socket
import socketserver
import threading
from collections.abc import Callable, Iterator

import pytest
from scholarly_server import scholarly_env

Respond = Callable[[str], bytes]


def http_answer(body: bytes, content_type: str = "application/json", status: str = "200 OK", content_length: int | None = None) -> bytes:
    """A whole HTTP/1.1 answer, as raw bytes; `content_length` may promise more than `body` holds."""
    length = len(body) if content_length is None else content_length
    head = f"HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {length}\r\nConnection: close\r\n\r\n"
    return head.encode("ascii") + body


def empty_answers(path: str) -> bytes:
    """Well-formed answers that hold no record: ORCID's, OpenAlex's and dblp's (the person is known, their list is empty)."""
    if path.endswith(".xml"):  # dblp's /pid/<pid>.xml
        pid = path.split("/pid/", 1)[-1].removesuffix(".xml")
        xml = f'<?xml version="1.0" encoding="US-ASCII"?>\n<dblpperson name="Sheng Lin 0003" pid="{pid}" n="0">\n<person key="homepages/{pid}" mdate="2025-01-01">\n<author pid="{pid}">Sheng Lin 0003</author>\n</person>\n</dblpperson>\n'
        return http_answer(xml.encode("ascii"), "application/xml")
    if "/openalex/works" in path:
        body: dict = {"meta": {"count": 0, "db_response_time_ms": 5, "page": None, "per_page": 200, "next_cursor": None}, "results": [], "group_by": []}
    elif "/openalex/authors/" in path:
        body = {"id": "https://openalex.org/" + path.rsplit("/", 1)[-1], "display_name": "Sheng Lin", "works_count": 0}
    elif path.endswith("/person"):
        body = {"name": {"given-names": {"value": "Sheng"}, "family-name": {"value": "Lin"}}}
    elif "/crossref/works" in path:
        body = {"status": "ok", "message": {"total-results": 0, "items": [], "next-cursor": None}}
    elif path.endswith("/works"):
        body = {"last-modified-date": None, "group": [], "path": path}
    else:
        return http_answer(b"not here", "text/plain", "404 Not Found")
    return http_answer(json.dumps(body).encode("utf-8"))


def always(body: bytes, content_type: str = "application/json", under: str = "/") -> Respond:
    """The same 200 answer to every request whose path starts with `under`; `empty_answers` to the others
    (`under="/orcid/"`: Crossref, also asked for an ORCID iD's works, answers with none)."""
    return lambda path: http_answer(body, content_type) if path.startswith(under) else empty_answers(path)


def dropped_mid_answer(path: str, under: str = "/") -> bytes:
    """200 with `Content-Length: 5000`, 13 bytes of the body, and then the connection closes."""
    return http_answer(b'{"results": [', content_length=5000) if path.startswith(under) else empty_answers(path)


MAINTENANCE_PAGE = b"<html><body>Service maintenance</body></html>"  # 45 bytes, well-formed XML too


class FaultServer:
    """One running server: its base URL, the `SITEGEN_*_API` variables that point sitegen at it, what it was asked."""

    def __init__(self, respond: Respond):
        self.respond = respond
        self.paths: list[str] = []
        self.lock = threading.Lock()
        server = self

        class Handler(socketserver.BaseRequestHandler):
            def handle(self) -> None:
                connection: socket.socket = self.request
                connection.settimeout(10)
                head = b""
                while b"\r\n\r\n" not in head:
                    chunk = connection.recv(65536)
                    if not chunk:
                        return
                    head += chunk
                path = head.split(b" ", 2)[1].decode("ascii", "replace")
                with server.lock:
                    server.paths.append(path)
                connection.sendall(server.respond(path.split("?", 1)[0]))
                connection.shutdown(socket.SHUT_RDWR)

        socketserver.ThreadingTCPServer.allow_reuse_address = True
        self.server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    @property
    def env(self) -> dict[str, str]:
        return {"SITEGEN_ARXIV_API": f"{self.base_url}/api/query", **scholarly_env(self.base_url)}

    @property
    def connections(self) -> int:
        with self.lock:
            return len(self.paths)

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def fault_server() -> Iterator[Callable[[Respond], FaultServer]]:
    """A factory: `fault_server(respond)` starts a server answering each request with `respond(path)`'s bytes."""
    servers: list[FaultServer] = []

    def start(respond: Respond) -> FaultServer:
        server = FaultServer(respond)
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()
