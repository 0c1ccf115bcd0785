"""The phones' web server: the page shell and its two files, each player's page as JSON, the live
channel (server-sent events) and the answer of a Diplomacy bonus, for a valid link only. Standard
library only (http.server: no start-up cost, little memory on a Pi), on its own threads, so it
never blocks the touchscreen; size-, rate- and connection-limited, with headers that forbid
framing and any script or style but its own (a phone on the same Wi-Fi is not a friend).

    server = PhoneServer(hub, port=8080).start()   # OSError when the port cannot be bound
    server.port                                    # the port it listens on (port=0: a free one)
    server.stop()                                  # every connection closed, live ones too
"""

from __future__ import annotations

import html
import json
import logging
import math
import re
import select
import socket
import socketserver
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from io import BytesIO
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import parse_qs, urlsplit

from companion import i18n
from companion.i18n import N_, _

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Limits:
    """Every number the server goes by, in one place (a test may give its own)."""

    body: int = 4096  # bytes of an answer's body (413 beyond; 411 without a Content-Length)
    request_line: int = 2048  # bytes of the request line (414 beyond)
    header_line: int = 2048  # bytes of one header line (431 beyond)
    headers: int = 50  # header lines of a request (431 beyond)
    timeout: float = 10.0  # seconds a connection may keep the server waiting, reading or writing
    rate: float = 20.0  # requests a second per client address (a token bucket; 429 beyond)
    burst: int = 40  # requests at once per client address
    answer_rate: float = 3.0  # answers a second per client address (429 beyond)
    answer_burst: int = 3  # answers at once per client address
    live_per_address: int = 4  # live pages open per client address (503 beyond)
    live_in_all: int = 32  # live pages open in all (503 beyond)
    connections_per_address: int = 16  # open connections per client address (closed beyond)
    connections_in_all: int = 128  # open connections in all (closed beyond)
    addresses: int = 1024  # client addresses whose buckets are kept (the fullest dropped first)
    ping_after: float = 15.0  # seconds without news before a live page is pinged (": ping")
    live_check: float = 0.5  # seconds between a live page's looks at its link and the stop
    retry_ms: int = 3000  # how soon a phone's browser reconnects a lost live page
    busy_retry_s: int = 5  # the Retry-After of a 503
    poll_interval: float = 0.1  # seconds between the accepting thread's looks at stop()
    linger: float = 1.0  # seconds a refused request's unread bytes are read (and dropped) so
    linger_bytes: int = 65536  # that its refusal reaches the phone (a close with them unread
    # would reset the connection, the refusal lost); at most this many


LIMITS = Limits()

SECURITY_HEADERS = (
    ("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; "
     "img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; "
     "frame-ancestors 'none'"),
    ("X-Frame-Options", "DENY"),
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "no-referrer"),
    ("Cache-Control", "no-store"),
    ("Cross-Origin-Resource-Policy", "same-origin"),
)
SERVER_NAME = "phoenix-companion"  # the Server header: no version of anything
STATIC = Path(__file__).parent / "static"
SHELL = "phone.html"
FILES = {  # path -> (file in STATIC, content type)
    "/static/phone.js": ("phone.js", "text/javascript; charset=utf-8"),
    "/static/phone.css": ("phone.css", "text/css; charset=utf-8"),
}
HTML = "text/html; charset=utf-8"
TEXT = "text/plain; charset=utf-8"
JSON = "application/json"
EVENTS = "text/event-stream; charset=utf-8"
PLAYER = re.compile(r"/p/(?P<token>[A-Za-z0-9_-]{1,64})(?P<part>/|/page|/live|/answer)?")
TOKEN_IN = re.compile(r"/p/[^/?#\s\"']*")  # where a log line could show a token
ANSWER = "/answer"
LIVE = "/live"
PAGE = "/page"

STATUS_WORDS = {  # a refusal's words, by status
    HTTPStatus.BAD_REQUEST: N_("The request is not one this server understands."),
    HTTPStatus.FORBIDDEN: N_("This link is not (or no longer) valid."),
    HTTPStatus.NOT_FOUND: N_("Nothing here."),
    HTTPStatus.METHOD_NOT_ALLOWED: N_("This method is not allowed here."),
    HTTPStatus.LENGTH_REQUIRED: N_("The request needs a Content-Length."),
    HTTPStatus.REQUEST_ENTITY_TOO_LARGE: N_("The request is too large."),
    HTTPStatus.REQUEST_URI_TOO_LONG: N_("The address is too long."),
    HTTPStatus.UNSUPPORTED_MEDIA_TYPE: N_("An answer is sent as JSON."),
    HTTPStatus.TOO_MANY_REQUESTS: N_("Too many requests: wait a moment and try again."),
    HTTPStatus.REQUEST_HEADER_FIELDS_TOO_LARGE: N_("The request's headers are too large."),
    HTTPStatus.INTERNAL_SERVER_ERROR: N_("Something went wrong on the table: try again."),
    HTTPStatus.SERVICE_UNAVAILABLE: N_("Too many pages are open: close one and try again."),
}


class Hub(Protocol):
    """What the server asks of the table (companion.web.hub.PhoneHub)."""

    @property
    def snapshot(self) -> Any: ...  # .version: the version shown

    def seat(self, token: str) -> int | None: ...

    def page(self, seat: int, language: str) -> dict[str, Any]: ...

    def wait(self, version: int, timeout: float) -> int: ...

    def answer(self, seat: int, body: Any) -> tuple[bool, str]: ...


def choose_language(asked: str | None, accepted: str | None) -> str:
    """The language of a reply: `asked` (?lang=) when it is one of i18n.LANGUAGES, else the
    first known one of an Accept-Language header (by its q values), else i18n.DEFAULT."""
    if asked in i18n.LANGUAGES:
        return asked
    ranked = []
    for place, part in enumerate((accepted or "").split(",")[:32]):
        tag, *params = part.split(";")
        quality = 1.0
        for param in params:
            name, sep, value = param.strip().partition("=")
            if sep and name.strip().lower() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        code = tag.strip().split("-")[0].lower()
        if code in i18n.LANGUAGES and quality > 0:
            ranked.append((-quality, place, code))
    return min(ranked)[2] if ranked else i18n.DEFAULT


def without_tokens(text: str) -> str:
    """`text` (a log line) with every player's token replaced by "…"."""
    return TOKEN_IN.sub("/p/…", text)


class Buckets:
    """Token buckets by client address: `rate` a second, `burst` at most; the addresses kept
    are bounded (the fullest buckets, those of clients gone quiet, are dropped first)."""

    def __init__(self, rate: float, burst: int, kept: int,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self.kept, self.clock = rate, burst, kept, clock
        self._levels: dict[str, tuple[float, float]] = {}  # address -> (tokens, when)
        self._lock = threading.Lock()

    def take(self, address: str) -> float:
        """0 when `address` may go on (a token taken), else the seconds until it may."""
        with self._lock:
            now = self.clock()
            tokens, then = self._levels.get(address, (float(self.burst), now))
            tokens = min(float(self.burst), tokens + (now - then) * self.rate)
            if tokens >= 1:
                self._levels[address] = (tokens - 1, now)
                if len(self._levels) > self.kept:
                    self._drop_fullest(now)
                return 0.0
            self._levels[address] = (tokens, now)
            return (1 - tokens) / self.rate

    def _drop_fullest(self, now: float) -> None:
        def fullness(item: tuple[str, tuple[float, float]]) -> float:
            tokens, then = item[1]
            return tokens + (now - then) * self.rate

        ordered = sorted(self._levels.items(), key=fullness)
        self._levels = dict(ordered[:self.kept])


class _Server(ThreadingHTTPServer):
    """The listening socket and what its connections share: the hub, the limits, the open
    connections (closed by stop()), the live pages and the buckets."""

    daemon_threads = True
    block_on_close = False  # stop() closes the connections itself, and does not wait on them

    def __init__(self, address: tuple[str, int], hub: Hub, limits: Limits,
                 files: dict[str, bytes]) -> None:
        self.hub, self.limits, self.files = hub, limits, files
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        self.connections: dict[socket.socket, str] = {}  # open connection -> client address
        self.live: dict[str, int] = {}  # client address -> live pages open
        self.requests = Buckets(limits.rate, limits.burst, limits.addresses)
        self.answers = Buckets(limits.answer_rate, limits.answer_burst, limits.addresses)
        super().__init__(address, _Handler)

    def server_bind(self) -> None:
        # (HTTPServer's would look the host's name up: a DNS wait at start-up for nothing)
        socketserver.TCPServer.server_bind(self)
        host, port = self.server_address[:2]
        self.server_name, self.server_port = str(host), int(port)

    def process_request(self, request: Any, client_address: Any) -> None:
        address = str(client_address[0])
        with self.lock:
            refused = self.stopping.is_set() \
                or len(self.connections) >= self.limits.connections_in_all \
                or sum(1 for a in self.connections.values() if a == address) \
                >= self.limits.connections_per_address
            if not refused:
                self.connections[request] = address
        if refused:
            log.info("phone server: a connection from %s refused (too many open)", address)
            self.shutdown_request(request)
            return
        super().process_request(request, client_address)

    def shutdown_request(self, request: Any) -> None:
        with self.lock:
            self.connections.pop(request, None)
        super().shutdown_request(request)

    def handle_error(self, request: Any, client_address: Any) -> None:
        error = sys.exc_info()[1]
        if isinstance(error, OSError):  # the phone went away, or stop() closed it
            log.debug("phone server: connection from %s ended: %s", client_address[0], error)
        else:
            log.exception("phone server: a request from %s failed", client_address[0])

    def close_connections(self) -> None:
        """Stop: every open connection shut down (their threads see it and end)."""
        with self.lock:
            self.stopping.set()
            connections = list(self.connections)
        for connection in connections:
            with suppress(OSError):
                connection.shutdown(socket.SHUT_RDWR)

    @contextmanager
    def live_page(self, address: str) -> Iterator[bool]:
        """A live page of `address` counted while the block runs: True, or False (not counted)
        when the limits leave no room for it."""
        with self.lock:
            room = self.live.get(address, 0) < self.limits.live_per_address \
                and sum(self.live.values()) < self.limits.live_in_all
            if room:
                self.live[address] = self.live.get(address, 0) + 1
        try:
            yield room
        finally:
            if room:
                with self.lock:
                    self.live[address] -= 1
                    if not self.live[address]:
                        del self.live[address]


class _Handler(BaseHTTPRequestHandler):
    """One connection: its requests, one at a time (HTTP/1.1, kept open between them)."""

    server: _Server
    protocol_version = "HTTP/1.1"
    language = i18n.DEFAULT
    requestline = ""
    replied = False  # this request's reply begun
    refused = False  # a refusal sent: the connection ends after it

    def version_string(self) -> str:
        return SERVER_NAME

    def setup(self) -> None:
        super().setup()
        self.connection.settimeout(self.server.limits.timeout)

    def finish(self) -> None:
        try:
            super().finish()
        finally:
            if self.refused:
                self._linger()

    def _linger(self) -> None:
        """What the phone still sends read and dropped (for a while) before the connection is
        closed, so that a refusal sent before its request was read reaches it."""
        limits = self.server.limits
        deadline, left = time.monotonic() + limits.linger, limits.linger_bytes
        with suppress(OSError):
            self.connection.shutdown(socket.SHUT_WR)
            while left > 0 and (now := time.monotonic()) < deadline:
                self.connection.settimeout(deadline - now)
                data = self.connection.recv(min(left, 4096))
                if not data:
                    break
                left -= len(data)

    def log_message(self, format: str, *args: Any) -> None:
        log.debug("phone server: %s %s", self.address_string(), without_tokens(format % args))

    def log_error(self, format: str, *args: Any) -> None:
        log.info("phone server: %s %s", self.address_string(), without_tokens(format % args))

    def end_headers(self) -> None:
        self.replied = True
        for name, value in SECURITY_HEADERS:
            self.send_header(name, value)
        super().end_headers()

    # reading a request, within the limits

    def handle_one_request(self) -> None:
        self.language = i18n.DEFAULT
        try:
            if self._read_request():
                self._handle()
            self.wfile.flush()
        except OSError as error:  # a timeout, the phone gone, or stop()
            log.debug("phone server: %s connection ended: %s", self.address_string(), error)
            self.close_connection = True

    def _read_request(self) -> bool:
        """The request line and headers read and parsed, within the limits (else refused)."""
        limits = self.server.limits
        self.command, self.request_version, self.requestline = "", "HTTP/1.0", ""
        self.replied = False
        self.raw_requestline = self.rfile.readline(limits.request_line + 1)
        if not self.raw_requestline:
            self.close_connection = True
            return False
        if len(self.raw_requestline) > limits.request_line:
            self.send_error(HTTPStatus.REQUEST_URI_TOO_LONG)
            return False
        if len(self.raw_requestline.split()) != 3:  # HTTP/0.9 or no request at all
            self.requestline = self.raw_requestline.decode("iso-8859-1").rstrip("\r\n")
            self.send_error(HTTPStatus.BAD_REQUEST)
            return False
        head, lines = [], 0
        while True:
            line = self.rfile.readline(limits.header_line + 1)
            if len(line) > limits.header_line or (lines >= limits.headers and line.strip()):
                self.send_error(HTTPStatus.REQUEST_HEADER_FIELDS_TOO_LARGE)
                return False
            head.append(line)
            if not line.strip():
                break
            lines += 1
        connection = self.rfile
        self.rfile = BytesIO(b"".join(head))  # parse_request reads the headers from here
        try:
            parsed = self.parse_request()
        finally:
            self.rfile = connection
        if parsed and ("Transfer-Encoding" in self.headers
                       or (self.command != "POST" and "Content-Length" in self.headers)):
            self.close_connection = True  # a body it will not read: the connection ends after
        return parsed

    # answering

    def _handle(self) -> None:
        url = urlsplit(self.path)
        asked = parse_qs(url.query).get("lang", [None])[0]
        self.language = choose_language(asked, self.headers.get("Accept-Language"))
        with i18n.speaking(self.language):
            try:
                self._route(url.path)
            except OSError:
                raise
            except Exception:
                log.exception("phone server: %s %s failed", self.command,
                              without_tokens(url.path))
                if self.replied:  # (a live page's stream had begun)
                    self.close_connection = True
                else:
                    self._refuse(HTTPStatus.INTERNAL_SERVER_ERROR, api=True)

    def _route(self, path: str) -> None:
        server = self.server
        if self.command not in ("GET", "POST"):
            self._refuse(HTTPStatus.METHOD_NOT_ALLOWED, api=False)
            return
        waited = server.requests.take(self.client_address[0])
        if waited:
            self._refuse(HTTPStatus.TOO_MANY_REQUESTS, api=False,
                         headers=[("Retry-After", str(math.ceil(waited)))])
            return
        if path == "/" or path in FILES:
            if self.command != "GET":
                self._refuse(HTTPStatus.METHOD_NOT_ALLOWED, api=False)
            elif path == "/":
                self._send(HTTPStatus.OK, scan_page(refused=False), HTML)
            else:
                self._send(HTTPStatus.OK, server.files[path], FILES[path][1])
            return
        found = PLAYER.fullmatch(path)
        if found is None:
            self._refuse(HTTPStatus.NOT_FOUND, api=False)
            return
        token, part = found["token"], found["part"] or "/"
        api = part != "/"
        if self.command != ("POST" if part == ANSWER else "GET"):
            self._refuse(HTTPStatus.METHOD_NOT_ALLOWED, api=api)
            return
        if self.command == "POST" and not self._same_origin():
            self._refuse(HTTPStatus.FORBIDDEN, api=True,
                         words=_("The answer comes from another site."))
            return
        seat = server.hub.seat(token)
        if seat is None:
            if api:
                self._refuse(HTTPStatus.FORBIDDEN, api=True, words=gone_words())
            else:
                self._send(HTTPStatus.FORBIDDEN, scan_page(refused=True), HTML)
            return
        if part == "/":
            self._send(HTTPStatus.OK, server.files[SHELL], HTML)
        elif part == PAGE:
            self._send(HTTPStatus.OK, as_json(server.hub.page(seat, self.language)), JSON)
        elif part == LIVE:
            self._live(token, seat)
        else:
            self._answer(seat)

    def _same_origin(self) -> bool:
        """True unless an Origin header names another site than the Host header."""
        origin = self.headers.get("Origin")
        if origin is None:
            return True
        host = (self.headers.get("Host") or "").strip().lower()
        found = urlsplit(origin.strip().lower())
        return found.scheme in ("http", "https") and bool(host) and found.netloc == host

    def _answer(self, seat: int) -> None:
        limits, headers = self.server.limits, self.headers
        lengths = headers.get_all("Content-Length") or []
        if "Transfer-Encoding" in headers or not lengths:
            self._refuse(HTTPStatus.LENGTH_REQUIRED, api=True)
            return
        if len(lengths) != 1 or not lengths[0].strip().isdigit():
            self._refuse(HTTPStatus.BAD_REQUEST, api=True)
            return
        length = int(lengths[0])
        if length > limits.body:
            self._refuse(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, api=True)
            return
        if headers.get_content_type() != JSON:
            self._refuse(HTTPStatus.UNSUPPORTED_MEDIA_TYPE, api=True)
            return
        waited = self.server.answers.take(self.client_address[0])
        if waited:
            self._refuse(HTTPStatus.TOO_MANY_REQUESTS, api=True,
                         headers=[("Retry-After", str(math.ceil(waited)))])
            return
        body = self.rfile.read(length)
        if len(body) < length:  # the phone went away
            self.close_connection = True
            return
        try:
            answer = json.loads(body.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError):
            self._refuse(HTTPStatus.BAD_REQUEST, api=True,
                         words=_("The answer is not valid JSON."))
            return
        applied, words = self.server.hub.answer(seat, answer)
        self._send(HTTPStatus.OK if applied else HTTPStatus.CONFLICT,
                   as_json({"applied": bool(applied), "message": words}), JSON)

    def _live(self, token: str, seat: int) -> None:
        """The player's page at once and after every step, until the link ends, the phone goes
        away or the server stops (server-sent events)."""
        server, hub, limits = self.server, self.server.hub, self.server.limits
        with server.live_page(self.client_address[0]) as room:
            if not room:
                self._refuse(HTTPStatus.SERVICE_UNAVAILABLE, api=True,
                             headers=[("Retry-After", str(limits.busy_retry_s))])
                return
            self.close_connection = True  # the stream ends with the connection
            self.send_response(HTTPStatus.OK)
            self.send_header("Content-Type", EVENTS)
            self.send_header("Connection", "close")
            self.end_headers()
            version = hub.snapshot.version
            self.wfile.write(f"retry: {limits.retry_ms}\n\n".encode()
                             + event("page", hub.page(seat, self.language)))
            phone = select.poll()
            phone.register(self.connection, select.POLLIN | select.POLLPRI)
            quiet_since = time.monotonic()
            while not server.stopping.is_set():
                shown = hub.wait(version, limits.live_check)
                if server.stopping.is_set() or phone.poll(0):  # stopped, or the phone left
                    return
                if hub.seat(token) != seat:
                    self.wfile.write(event("gone", {"message": gone_words()}))
                    return
                if shown != version:
                    version = shown
                    self.wfile.write(event("page", hub.page(seat, self.language)))
                    quiet_since = time.monotonic()
                elif time.monotonic() - quiet_since >= limits.ping_after:
                    self.wfile.write(b": ping\n\n")
                    quiet_since = time.monotonic()

    # replies

    def send_error(self, code: int, message: str | None = None,
                   explain: str | None = None) -> None:
        """A refusal before the request is understood (http.server's own calls too)."""
        self._refuse(HTTPStatus(code), api=False)

    def _refuse(self, status: HTTPStatus, api: bool, words: str | None = None,
                headers: list[tuple[str, str]] | None = None) -> None:
        """A refusal, in the reader's language: JSON {"message"} for the page's script (with
        "applied": false for an answer), else a line of text; the connection ends after it."""
        with i18n.speaking(self.language):
            if words is None:
                words = _(STATUS_WORDS[status]) if status in STATUS_WORDS else status.phrase
            if api:
                body: dict[str, Any] = {"message": words}
                if self.command == "POST":
                    body = {"applied": False, **body}
                self._send(status, as_json(body), JSON, headers)
            else:
                self._send(status, (words + "\n").encode(), TEXT, headers)

    def _send(self, status: HTTPStatus, body: bytes, content_type: str,
              headers: list[tuple[str, str]] | None = None) -> None:
        if status >= HTTPStatus.BAD_REQUEST:
            self.close_connection = self.refused = True
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        if status == HTTPStatus.METHOD_NOT_ALLOWED:
            self.send_header("Allow", "GET, POST")
        for name, value in headers or []:
            self.send_header(name, value)
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)


def as_json(data: Any) -> bytes:
    return json.dumps(data, separators=(",", ":")).encode()


def event(name: str, data: Any) -> bytes:
    """One server-sent event (JSON has no line breaks: one data line)."""
    return f"event: {name}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n".encode()


def gone_words() -> str:
    return _("This link is no longer valid. Scan your code on the table's screen again.")


def scan_page(refused: bool) -> bytes:
    """The short page for anyone without a valid link, in the language spoken."""
    lines = [_("This link is not (or no longer) valid.")] if refused else []
    lines.append(_("Scan your code on the table's screen to open your page."))
    paragraphs = "\n".join(f"<p>{html.escape(line)}</p>" for line in lines)
    return f"""<!DOCTYPE html>
<html lang="{html.escape(i18n.language())}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Phoenix Companion</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/static/phone.css">
</head>
<body class="scan">
<main>
<h1>Phoenix Companion</h1>
{paragraphs}
</main>
</body>
</html>
""".encode()


class PhoneServer:
    """The phones' server for `hub` on `host`:`port` (port 0: a free one), on its own threads."""

    def __init__(self, hub: Hub, host: str = "0.0.0.0", port: int = 8080,
                 limits: Limits = LIMITS) -> None:
        self.hub, self.host, self.port, self.limits = hub, host, port, limits
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    def start(self) -> PhoneServer:
        """Listen and serve in a background thread; OSError when the port cannot be bound (or
        the page's files cannot be read)."""
        if self._server is not None:
            return self
        files = {path: (STATIC / name).read_bytes() for path, (name, _type) in FILES.items()}
        files[SHELL] = (STATIC / SHELL).read_bytes()
        self._server = _Server((self.host, self.port), self.hub, self.limits, files)
        self.port = self._server.server_port
        self._thread = threading.Thread(target=self._server.serve_forever,
                                        args=(self.limits.poll_interval,),
                                        name="phone-server", daemon=True)
        self._thread.start()
        log.info("phone server: listening on %s:%d", self.host, self.port)
        return self

    def stop(self) -> None:
        """Stop listening, and close every connection (live pages too) now."""
        server, self._server = self._server, None
        if server is None:
            return
        server.stopping.set()
        server.shutdown()  # the accepting thread ends (within poll_interval)
        server.server_close()
        server.close_connections()
        if self._thread is not None:
            self._thread.join()
        log.info("phone server: stopped")

    @property
    def running(self) -> bool:
        return self._server is not None

    @property
    def open_connections(self) -> int:
        """How many connections are open now: what the connection limits count (a connection
        the client closed counts until its thread has ended it)."""
        server = self._server
        if server is None:
            return 0
        with server.lock:
            return len(server.connections)
