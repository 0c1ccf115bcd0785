"""The phones' web server (companion/web/server.py) over real HTTP: what a valid link gets (the
shell, the page, the live channel, answers), what anyone else gets (the short "scan your code"
page, refusals with words in the reader's language), the security headers on every response,
the limits (size, rate, live pages), no token in the log, and stop() ending live pages."""

from __future__ import annotations

import http.client
import json
import logging
import re
import secrets
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any

import pytest

from companion import i18n
from companion.web.hub import PhoneHub
from companion.web.links import Links
from companion.web.server import (
    SECURITY_HEADERS,
    STATIC,
    Buckets,
    Limits,
    PhoneServer,
    choose_language,
    without_tokens,
)
from companion.web.snapshot import Snapshot

TOKEN = "GoodToken_for-seat-1xx"  # the fake hub's valid link (seat 1)
OTHER = "NotAToken_at-all-000000"
TIMEOUT = 5  # seconds a client waits on the server before the test fails (never reached)


class FakeHub:
    """PhoneHub's methods as the server uses them: one valid token, a version to step, the
    answers given."""

    def __init__(self) -> None:
        self.tokens = {TOKEN: 1}
        self.version = 1
        self.answers: list[tuple[int, Any]] = []
        self.reply = (True, "Taken: 2 GEMs")
        self.languages: list[str] = []
        self._changed = threading.Condition()

    @property
    def snapshot(self) -> SimpleNamespace:
        return SimpleNamespace(version=self.version)

    def seat(self, token: str) -> int | None:
        return self.tokens.get(token)

    def page(self, seat: int, language: str) -> dict[str, Any]:
        self.languages.append(language)
        return {"version": self.version, "lang": language, "seat": seat,
                "me": {"name": "<b>Ann</b>"}, "words": {"title": i18n._("Back")}}

    def wait(self, version: int, timeout: float) -> int:
        with self._changed:
            self._changed.wait_for(lambda: self.version != version, timeout)
            return self.version

    def answer(self, seat: int, body: Any) -> tuple[bool, str]:
        self.answers.append((seat, body))
        return self.reply

    def step(self) -> None:
        with self._changed:
            self.version += 1
            self._changed.notify_all()


@pytest.fixture
def hub() -> FakeHub:
    return FakeHub()


def serve(hub: Any, **limits: Any) -> Iterator[PhoneServer]:
    server = PhoneServer(hub, host="127.0.0.1", port=0, limits=Limits(**limits)).start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def server(hub: FakeHub) -> Iterator[PhoneServer]:
    yield from serve(hub)


class Reply:
    def __init__(self, response: http.client.HTTPResponse, body: bytes) -> None:
        self.status, self.headers, self.body = response.status, response.headers, body

    @property
    def text(self) -> str:
        return self.body.decode()

    def json(self) -> Any:
        assert self.headers.get_content_type() == "application/json"
        return json.loads(self.body)


def connect(server: PhoneServer, source: str = "127.0.0.1") -> http.client.HTTPConnection:
    return http.client.HTTPConnection("127.0.0.1", server.port, timeout=TIMEOUT,
                                      source_address=(source, 0))


def ask(server: PhoneServer, method: str, path: str, body: bytes | None = None,
        headers: dict[str, str] | None = None, source: str = "127.0.0.1") -> Reply:
    connection = connect(server, source)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        return Reply(response, response.read())
    finally:
        connection.close()


def answer(server: PhoneServer, body: Any, headers: dict[str, str] | None = None) -> Reply:
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    return ask(server, "POST", f"/p/{TOKEN}/answer", data,
               {"Content-Type": "application/json", **(headers or {})})


def raw(server: PhoneServer, data: bytes) -> tuple[int, dict[str, str], bytes]:
    """A request written as bytes (what http.client would not send): status, headers, body."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=TIMEOUT) as connection:
        connection.sendall(data)
        received = b""
        while chunk := connection.recv(65536):
            received += chunk
    head, _sep, body = received.partition(b"\r\n\r\n")
    status_line, *lines = head.decode("iso-8859-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines)
    return int(status_line.split()[1]), headers, body


def raw_ended(server: PhoneServer, data: bytes) -> tuple[int, dict[str, str], bytes]:
    """raw(), then a wait until the server has ended the connection: a refused one still
    counts against the connection limits while the server reads what its client may send."""
    answer = raw(server, data)
    for _try in range(500):
        if server.open_connections == 0:
            return answer
        time.sleep(0.01)
    raise AssertionError(f"{server.open_connections} connections still open")


class Live:
    """A live page read as a phone's browser would: its events one at a time."""

    def __init__(self, server: PhoneServer, path: str, source: str = "127.0.0.1",
                 headers: dict[str, str] | None = None) -> None:
        self.connection = connect(server, source)
        self.connection.request("GET", path, headers=headers or {})
        self.response = self.connection.getresponse()

    def next(self) -> tuple[str, Any]:
        """The next event (name, data), a comment ("comment", text), or ("end", None)."""
        name, data = "message", None
        while True:
            line = self.response.fp.readline()
            if not line:
                return "end", None
            line = line.decode().rstrip("\n")
            if line.startswith(":"):
                return "comment", line[1:].strip()
            if line.startswith("event: "):
                name = line[len("event: "):]
            elif line.startswith("data: "):
                data = json.loads(line[len("data: "):])
            elif not line and data is not None:
                return name, data

    def close(self) -> None:
        self.connection.close()


# what anyone gets

def test_the_security_headers_are_on_every_kind_of_response(server: PhoneServer) -> None:
    replies = {
        "scan page": ask(server, "GET", "/"),
        "wrong link": ask(server, "GET", f"/p/{OTHER}"),
        "shell": ask(server, "GET", f"/p/{TOKEN}"),
        "page": ask(server, "GET", f"/p/{TOKEN}/page"),
        "script": ask(server, "GET", "/static/phone.js"),
        "style": ask(server, "GET", "/static/phone.css"),
        "answer": answer(server, {"version": 1, "track": "transport", "levels": [2]}),
        "not found": ask(server, "GET", "/admin"),
        "method": ask(server, "PUT", "/"),
        "media type": ask(server, "POST", f"/p/{TOKEN}/answer", b"{}",
                          {"Content-Type": "text/plain"}),
    }
    statuses = {what: reply.status for what, reply in replies.items()}
    assert statuses == {"scan page": 200, "wrong link": 403, "shell": 200, "page": 200,
                        "script": 200, "style": 200, "answer": 200, "not found": 404,
                        "method": 405, "media type": 415}
    status, headers, _body = raw(server, b"GET /" + b"x" * 3000 + b" HTTP/1.1\r\n\r\n")
    assert status == 414
    every: list[tuple[str, Any]] = [(w, r.headers) for w, r in replies.items()]
    for what, found in [*every, ("too long", headers)]:
        for name, value in SECURITY_HEADERS:
            assert found[name] == value, (what, name)
        assert found["Server"] == "phoenix-companion", what  # no version of anything


def test_without_a_valid_link_the_server_says_only_to_scan_the_code(server: PhoneServer) -> None:
    home = ask(server, "GET", "/")
    assert home.status == 200
    assert home.headers["Content-Type"] == "text/html; charset=utf-8"
    assert "Scan your code on the table&#x27;s screen to open your page." in home.text
    assert "not (or no longer) valid" not in home.text
    for path in (f"/p/{OTHER}", f"/p/{OTHER}/"):
        refused = ask(server, "GET", path)
        assert refused.status == 403
        assert "This link is not (or no longer) valid." in refused.text
        assert "Scan your code" in refused.text
    for path in (f"/p/{OTHER}/page", f"/p/{OTHER}/live"):
        refused = ask(server, "GET", path)
        assert refused.status == 403
        assert "no longer valid" in refused.json()["message"]
    assert answer(server, {}).status == 200  # (the right token, for contrast)
    wrong = ask(server, "POST", f"/p/{OTHER}/answer", b"{}",
                {"Content-Type": "application/json"})
    assert wrong.status == 403 and wrong.json()["applied"] is False


def test_a_valid_link_gets_the_shell_its_files_and_its_page(server: PhoneServer,
                                                           hub: FakeHub) -> None:
    shell = ask(server, "GET", f"/p/{TOKEN}")
    assert shell.status == 200
    assert shell.headers["Content-Type"] == "text/html; charset=utf-8"
    assert shell.body == (STATIC / "phone.html").read_bytes()
    script, style = ask(server, "GET", "/static/phone.js"), ask(server, "GET", "/static/phone.css")
    assert script.headers["Content-Type"] == "text/javascript; charset=utf-8"
    assert script.body == (STATIC / "phone.js").read_bytes()
    assert style.headers["Content-Type"] == "text/css; charset=utf-8"
    assert style.body == (STATIC / "phone.css").read_bytes()
    page = ask(server, "GET", f"/p/{TOKEN}/page?lang=de")
    assert page.status == 200
    assert page.json() == {"version": 1, "lang": "de", "seat": 1, "me": {"name": "<b>Ann</b>"},
                           "words": {"title": "Zurück"}}  # worded in the reader's language


def test_anything_else_is_not_found_or_not_allowed(server: PhoneServer) -> None:
    for path in ("/admin", "/static/phone.html", "/static/../server.py", "/static/x.js",
                 f"/p/{TOKEN}/other", "/p/", "/p/a%2Fb/page", f"/p/{TOKEN}/page/x"):
        reply = ask(server, "GET", path)
        assert (reply.status, reply.text) == (404, "Nothing here.\n"), path
    for method, path in [("PUT", "/"), ("DELETE", f"/p/{TOKEN}"), ("HEAD", "/"),
                         ("OPTIONS", f"/p/{TOKEN}/answer"), ("POST", "/"),
                         ("POST", f"/p/{TOKEN}/page"), ("GET", f"/p/{TOKEN}/answer")]:
        reply = ask(server, method, path, b"{}" if method == "POST" else None)
        assert reply.status == 405, (method, path)
        assert reply.headers["Allow"] == "GET, POST"


def test_one_connection_serves_request_after_request(server: PhoneServer) -> None:
    connection = connect(server)
    try:
        for path in ("/", f"/p/{TOKEN}/page", "/static/phone.css"):
            connection.request("GET", path)
            response = connection.getresponse()
            response.read()
            assert response.status == 200
    finally:
        connection.close()


# the language

def test_the_language_is_the_pages_choice_else_the_browsers_else_english() -> None:
    assert choose_language("de", "en") == "de"
    assert choose_language("fr", "de-DE,de;q=0.9,en;q=0.8") == "de"
    assert choose_language(None, "fr-FR, de;q=0.5, en;q=0.7") == "en"  # by q values
    assert choose_language(None, "fr, de;q=0") == "en"  # q=0: not wanted
    assert choose_language(None, "fr, DE-at;q=0.2") == "de"
    assert choose_language(None, None) == "en"
    assert choose_language("", "nonsense;q=x") == "en"


def test_the_server_speaks_the_readers_language(server: PhoneServer, hub: FakeHub) -> None:
    german = {"Accept-Language": "fr-FR,de;q=0.8"}
    home = ask(server, "GET", "/", headers=german)
    assert '<html lang="de">' in home.text
    assert "Scanne deinen Code auf dem Bildschirm am Tisch, um deine Seite zu öffnen." \
        in home.text
    refused = ask(server, "GET", f"/p/{OTHER}?lang=de")
    assert "Dieser Link ist nicht (oder nicht mehr) gültig." in refused.text
    assert ask(server, "GET", "/nothing", headers=german).text == "Hier ist nichts.\n"
    ask(server, "GET", f"/p/{TOKEN}/page?lang=de", headers={"Accept-Language": "en"})
    ask(server, "GET", f"/p/{TOKEN}/page?lang=xx", headers=german)
    ask(server, "GET", f"/p/{TOKEN}/page")
    assert hub.languages == ["de", "de", "en"]
    assert i18n.language() == "en"  # the table's language is its own


# the live page

def test_the_live_page_comes_at_once_after_every_step_and_ends_with_its_link(
        server: PhoneServer, hub: FakeHub) -> None:
    live = Live(server, f"/p/{TOKEN}/live?lang=de")
    try:
        assert live.response.status == 200
        assert live.response.headers["Content-Type"] == "text/event-stream; charset=utf-8"
        assert live.response.headers["Content-Security-Policy"] == dict(SECURITY_HEADERS)[
            "Content-Security-Policy"]
        name, page = live.next()
        assert (name, page["version"], page["lang"]) == ("page", 1, "de")
        hub.step()
        name, page = live.next()
        assert (name, page["version"]) == ("page", 2)
        hub.tokens.clear()  # new links, or a new game
        name, gone = live.next()
        assert name == "gone"
        assert gone["message"] == ("Dieser Link ist nicht mehr gültig. Scanne deinen Code auf "
                                   "dem Bildschirm am Tisch erneut.")
        assert live.next() == ("end", None)
    finally:
        live.close()


def test_a_quiet_live_page_is_pinged(hub: FakeHub) -> None:
    for server in serve(hub, ping_after=0.05, live_check=0.02):
        live = Live(server, f"/p/{TOKEN}/live")
        try:
            assert live.next()[0] == "page"
            assert live.next() == ("comment", "ping")
        finally:
            live.close()


def test_live_pages_are_limited_per_address_and_in_all(hub: FakeHub) -> None:
    for server in serve(hub, live_per_address=2, live_in_all=3, live_check=0.01, burst=1000):
        pages = [Live(server, f"/p/{TOKEN}/live", source=a)
                 for a in ("127.0.0.1", "127.0.0.1", "127.0.0.2")]
        try:
            assert [page.next()[0] for page in pages] == ["page"] * 3
            refused = ask(server, "GET", f"/p/{TOKEN}/live", source="127.0.0.1")
            assert refused.status == 503 and refused.headers["Retry-After"] == "5"
            assert "Too many pages are open" in refused.json()["message"]
            assert ask(server, "GET", f"/p/{TOKEN}/live", source="127.0.0.3").status == 503
            assert ask(server, "GET", f"/p/{TOKEN}/page", source="127.0.0.3").status == 200
            pages.pop().close()  # a phone closes its page: there is room again
            for _try in range(500):  # until the server has seen it go (its next look)
                again = Live(server, f"/p/{TOKEN}/live", source="127.0.0.3")
                pages.append(again)
                if again.response.status == 200:
                    break
                pages.pop().close()
                time.sleep(0.01)
            assert again.response.status == 200 and again.next()[0] == "page"
        finally:
            for page in pages:
                page.close()


def test_stop_closes_live_pages_and_the_port(hub: FakeHub) -> None:
    server = PhoneServer(hub, host="127.0.0.1", port=0).start()
    live = Live(server, f"/p/{TOKEN}/live")
    idle = connect(server)  # kept open between requests (HTTP/1.1)
    try:
        idle.request("GET", "/")
        idle.getresponse().read()
        assert live.next()[0] == "page"
        server.stop()
        assert closed(lambda: live.response.fp.readline())
        assert idle.sock is not None and closed(lambda: idle.sock.recv(1))
        with pytest.raises(ConnectionRefusedError):
            ask(server, "GET", "/")
    finally:
        live.close()
        idle.close()
        server.stop()


def closed(read: Callable[[], bytes]) -> bool:
    """True when a read finds the connection closed (an end, or a reset)."""
    try:
        return read() == b""
    except ConnectionResetError:
        return True


def test_a_silent_connection_is_closed_after_the_timeout(hub: FakeHub) -> None:
    for server in serve(hub, timeout=0.1):
        with socket.create_connection(("127.0.0.1", server.port), timeout=TIMEOUT) as silent:
            silent.sendall(b"GET / HTTP/1.1\r\n")  # and nothing more
            assert closed(lambda: silent.recv(1))


def test_a_port_that_cannot_be_bound_is_an_oserror(hub: FakeHub) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        with pytest.raises(OSError):
            PhoneServer(hub, host="127.0.0.1", port=taken.getsockname()[1]).start()


# answers

def test_an_answer_is_handed_to_the_hub_and_its_words_come_back(server: PhoneServer,
                                                                hub: FakeHub) -> None:
    body = {"version": 1, "track": "transport", "levels": [2, 3]}
    applied = answer(server, body, {"Origin": f"http://127.0.0.1:{server.port}"})
    assert (applied.status, applied.json()) == (200, {"applied": True,
                                                      "message": "Taken: 2 GEMs"})
    hub.reply = (False, "That bonus was answered on the table.")
    refused = answer(server, body)
    assert (refused.status, refused.json()) == (409, {
        "applied": False, "message": "That bonus was answered on the table."})
    assert hub.answers == [(1, body), (1, body)]


def test_answers_that_are_not_answers_are_refused_with_words(hub: FakeHub) -> None:
    for server in serve(hub, answer_burst=100):
        refusals_are_worded(server)
    assert hub.answers == []


def refusals_are_worded(server: PhoneServer) -> None:
    def refused(reply: Reply, status: int) -> str:
        assert reply.status == status
        found = reply.json()
        assert found["applied"] is False
        return str(found["message"])

    assert refused(answer(server, b"{not json"), 400) == "The answer is not valid JSON."
    assert refused(answer(server, b"\xff\xfe"), 400) == "The answer is not valid JSON."
    assert refused(answer(server, b"[" * 3000 + b"]" * 3000), 413)
    assert refused(answer(server, b"[" * 2000 + b"]" * 2000), 400)  # too deep
    assert refused(answer(server, {"padding": "x" * 5000}), 413) == "The request is too large."
    assert refused(ask(server, "POST", f"/p/{TOKEN}/answer", b"{}",
                       {"Content-Type": "text/plain"}), 415) == "An answer is sent as JSON."
    assert refused(ask(server, "POST", f"/p/{TOKEN}/answer", b"{}"), 415)
    assert refused(answer(server, {}, {"Origin": "http://evil.example"}), 403) == \
        "The answer comes from another site."
    assert refused(answer(server, {}, {"Origin": "null"}), 403)
    status, _headers, body = raw(server, f"POST /p/{TOKEN}/answer HTTP/1.1\r\nHost: x\r\n"
                                        "Content-Type: application/json\r\n"
                                        "Connection: close\r\n\r\n".encode())
    assert status == 411
    assert json.loads(body)["message"] == "The request needs a Content-Length."
    status, _headers, body = raw(server, f"POST /p/{TOKEN}/answer HTTP/1.1\r\nHost: x\r\n"
                                        "Content-Type: application/json\r\n"
                                        "Transfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n"
                                        .encode())
    assert status == 411
    german = ask(server, "POST", f"/p/{TOKEN}/answer?lang=de", b"{x",
                 {"Content-Type": "application/json"})
    assert german.json()["message"] == "Die Antwort ist kein gültiges JSON."


# limits

def test_a_client_beyond_its_burst_is_asked_to_wait(hub: FakeHub) -> None:
    for server in serve(hub, rate=0.01, burst=3):
        assert [ask(server, "GET", "/").status for _n in range(3)] == [200] * 3
        waiting = ask(server, "GET", f"/p/{TOKEN}/page")
        assert waiting.status == 429
        assert int(waiting.headers["Retry-After"]) >= 1
        assert waiting.text == "Too many requests: wait a moment and try again.\n"
        assert ask(server, "GET", "/", source="127.0.0.2").status == 200  # another phone


def test_answers_have_a_rate_of_their_own(hub: FakeHub) -> None:
    for server in serve(hub, answer_rate=0.01, answer_burst=2):
        assert [answer(server, {}).status for _n in range(2)] == [200, 200]
        waiting = answer(server, {})
        assert waiting.status == 429 and waiting.json()["applied"] is False
        assert ask(server, "GET", f"/p/{TOKEN}/page").status == 200
        assert len(hub.answers) == 2


def test_the_buckets_refill_at_their_rate() -> None:
    now = [0.0]
    buckets = Buckets(rate=2.0, burst=2, kept=2, clock=lambda: now[0])
    assert [buckets.take("a"), buckets.take("a")] == [0.0, 0.0]
    assert buckets.take("a") == pytest.approx(0.5)
    now[0] = 0.5
    assert buckets.take("a") == 0.0
    buckets.take("b")
    buckets.take("c")  # three addresses, two kept: the fullest ("b", "c" refill) dropped first
    assert buckets.take("a") > 0  # "a" is still empty: kept


def test_requests_beyond_the_size_limits_are_refused(hub: FakeHub) -> None:
    for server in serve(hub, connections_per_address=2):
        status, _headers, body = raw_ended(server, b"GET /" + b"a" * 2100 + b" HTTP/1.1\r\n\r\n")
        assert (status, body) == (414, b"The address is too long.\n")
        many = "".join(f"X-{n}: {n}\r\n" for n in range(51))
        status, _headers, body = raw_ended(server, f"GET / HTTP/1.1\r\n{many}\r\n".encode())
        assert (status, body) == (431, b"The request's headers are too large.\n")
        status, _headers, _body = raw_ended(server, b"GET / HTTP/1.1\r\nX: " + b"a" * 2100
                                                    + b"\r\n\r\n")
        assert status == 431
        fifty = "".join(f"X-{n}: {n}\r\n" for n in range(49))
        status, _headers, _body = raw_ended(server, f"GET / HTTP/1.1\r\nHost: x\r\n{fifty}"
                                                    "Connection: close\r\n\r\n".encode())
        assert status == 431  # 51 lines
        status, _headers, _body = raw_ended(server, f"GET / HTTP/1.1\r\n{fifty}"
                                                    "Connection: close\r\n\r\n".encode())
        assert status == 200  # 50
        status, _headers, _body = raw_ended(server, b"GET /\r\n\r\n")  # HTTP/0.9
        assert status == 400
        with socket.create_connection(("127.0.0.1", server.port)), \
                socket.create_connection(("127.0.0.1", server.port)), \
                pytest.raises((ConnectionError, http.client.HTTPException)):
            ask(server, "GET", "/")  # a third connection from one address: closed at once


def test_a_failing_hub_gives_words_and_a_logged_error(hub: FakeHub, server: PhoneServer,
                                                      caplog: pytest.LogCaptureFixture) -> None:
    def broken(seat: int, language: str) -> dict[str, Any]:
        raise RuntimeError("a bug")

    hub.page = broken  # type: ignore[method-assign]
    with caplog.at_level(logging.ERROR, logger="companion.web.server"):
        reply = ask(server, "GET", f"/p/{TOKEN}/page")
    assert reply.status == 500
    assert reply.json() == {"message": "Something went wrong on the table: try again."}
    assert "RuntimeError: a bug" in caplog.text and TOKEN not in caplog.text


# the log

def test_no_token_is_ever_logged(server: PhoneServer, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="companion.web.server")
    ask(server, "GET", f"/p/{TOKEN}")
    ask(server, "GET", f"/p/{TOKEN}/page?lang=de")
    ask(server, "GET", f"/p/{OTHER}")
    answer(server, b"{x")
    raw(server, f"GET /p/{TOKEN} HTTP/1.1 extra\r\n\r\n".encode())  # logs its request line
    live = Live(server, f"/p/{TOKEN}/live")
    live.next()
    live.close()
    assert "/p/…" in caplog.text
    assert TOKEN not in caplog.text and OTHER not in caplog.text
    assert without_tokens('"GET /p/abc_-D/live?lang=de HTTP/1.1" 200') == \
        '"GET /p/…/live?lang=de HTTP/1.1" 200'


# with the table's own hub and links

def test_the_real_hub_serves_its_players_links(monkeypatch: pytest.MonkeyPatch) -> None:
    def player_page(shown: Snapshot, seat: int) -> dict[str, Any]:
        return {"version": shown.version, "seat": seat, "lang": i18n.language(),
                "game": shown.name, "words": {"title": i18n._("Back")}}

    monkeypatch.setitem(sys.modules, "companion.web.page",
                        ModuleType("companion.web.page"))
    monkeypatch.setattr(sys.modules["companion.web.page"], "player_page", player_page,
                        raising=False)
    answers: list[Any] = []

    def run_answer(given: Any) -> tuple[bool, str]:
        answers.append(given)
        return True, "Bob takes 2 GEMs"

    hub = PhoneHub(Links(secrets.token_bytes(32)), run_answer)
    hub.publish(Snapshot(version=1, game=7, name="Friday game",
                         state={"players": [{"name": "Ann"}, {"name": "Bob"}]}))  # type: ignore[arg-type]
    for server in serve(hub, live_check=0.02):
        token = hub.tokens()[1]
        assert ask(server, "GET", f"/p/{token}").status == 200
        page = ask(server, "GET", f"/p/{token}/page", headers={"Accept-Language": "de"}).json()
        assert page == {"version": 1, "seat": 1, "lang": "de", "game": "Friday game",
                        "words": {"title": "Zurück"}}
        live = Live(server, f"/p/{token}/live")
        try:
            assert live.next() == ("page", {**page, "lang": "en", "words": {"title": "Back"}})
            hub.publish(Snapshot(version=2, game=7, name="Friday game",
                                 state={"players": [{}, {}]}))  # type: ignore[arg-type]
            assert live.next()[1]["version"] == 2
            done = answer_with(server, token, {"version": 2, "track": "transport",
                                               "levels": [2]})
            assert (done.status, done.json()["message"]) == (200, "Bob takes 2 GEMs")
            assert [(a.seat, a.version, a.track, a.levels) for a in answers] == [
                (1, 2, "transport", [2])]
            wrong = answer_with(server, token, {"track": "transport"})
            assert (wrong.status, wrong.json()["message"]) == (
                409, "The answer is not one the page sends.")
            hub.renew_links()  # Settings: new links; the page open learns it
            assert live.next()[0] == "gone"
        finally:
            live.close()
        assert ask(server, "GET", f"/p/{token}").status == 403
        assert ask(server, "GET", f"/p/{hub.tokens()[1]}").status == 200


def answer_with(server: PhoneServer, token: str, body: Any) -> Reply:
    return ask(server, "POST", f"/p/{token}/answer", json.dumps(body).encode(),
               {"Content-Type": "application/json"})


# the page's files

HOOKS = ("me-name", "lang-switch", "turn", "question", "reply", "waiting", "counters", "points",
         "projected", "diplomacy", "ships", "station", "others", "log", "status")


def test_the_page_has_its_hooks_and_nothing_the_policy_forbids() -> None:
    page = (STATIC / "phone.html").read_text()
    script = (STATIC / "phone.js").read_text()
    for hook in HOOKS:
        assert f'id="{hook}"' in page, hook
    assert re.findall(r"<script[^>]*>", page) == ['<script src="/static/phone.js" defer>']
    assert "<style" not in page and not re.search(r"\s(style|on[a-z]+)=", page)
    for source in (page, script, (STATIC / "phone.css").read_text()):
        assert not re.search(r"https?:|url\(|@import", source)  # nothing from elsewhere
    for forbidden in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write",
                      "eval(", "new Function"):
        assert forbidden not in script, forbidden
    for hook in ("dataset.levels", "dataset.title", "document.body.dataset.version",
                 "document.documentElement.lang", "'choice'", "'sector'"):
        assert hook in script, hook  # (the browser tests' hooks the script makes)


def test_the_page_files_are_package_data() -> None:
    pyproject = (Path(__file__).resolve().parents[2] / "pyproject.toml").read_text()
    assert '"companion.web" = ["static/*"]' in pyproject
