"""Driver: the players' phones at a real table. The app runs under Xvfb with the 3-player draft
example stored up to Cat's turn 9 (before she uses her Transport ship); each phone is Debian's
Chromium as a 390x844 phone, driven by Selenium from a thread of its own (`Phone`) so that the
app's loop goes on while a page loads and answers. Run by tests/ui/play/test_phones.py.

    DISPLAY=:99 .venv/bin/python tests/ui/drive_phones.py join-and-answer --db DB --config CFG

join-and-answer: the table's Phones button shows a QR code per player, each decoded from the
screen (OpenCV's QRCodeDetector) to that player's link; Bob's phone opens his and shows his
station; Cat's Transport ship is used on the table by touch and Bob's page follows with his
Diplomacy bonus question; Bob answers on the phone and the table shows it answered; the same
answer sent again is refused in words; the table's Undo brings the question back to the phone,
and a choice made on the table takes it away; a wrong token gets the "scan your code" page;
Settings' New links ends Bob's page and his old link is refused. A second phone, its browser
in German, opens Ann's page in German and switches it to English.
switch-off-and-on: Settings' switch turns the phones off and on again.
Prints `DRIVER-RESULT {...}` as its last stdout line.
"""

from __future__ import annotations

import queue
import shutil
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from drive_table import shot
from drive_turns import Turn, example_lines, use_ship
from harness import DriverError, Robot, Steps, run

PHONE = (390, 844)  # a phone in portrait, CSS pixels
CAT_TRANSPORT = 42  # the example's line: Cat uses her Transport ship (Bob's bonus follows)
BROWSER_WAIT = 30.0  # seconds a phone waits for its page to show something


def chromium() -> tuple[str, str]:
    """Debian's Chromium and its driver (make test installs them)."""
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if browser is None or driver is None:
        raise DriverError("Chromium and chromedriver are needed (Debian: chromium and "
                          "chromium-driver; make test installs them as root)")
    return browser, driver


def start_browser(language: str, folder: str) -> Any:
    """Chromium as a phone in portrait, headless, its browser language `language`."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    browser, driver = chromium()
    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
                 f"--user-data-dir={folder}", f"--lang={language}"):
        options.add_argument(flag)
    options.add_experimental_option("prefs", {"intl.accept_languages": language})
    options.add_experimental_option("mobileEmulation", {"deviceMetrics": {
        "width": PHONE[0], "height": PHONE[1], "pixelRatio": 1.0}})
    return webdriver.Chrome(options=options, service=Service(executable_path=driver))


class Phone:
    """One player's phone: a browser worked by a thread of its own; `do(job)` hands it a job
    (a function of the Selenium driver) and lets the app's frames pass until it is done."""

    def __init__(self, language: str) -> None:
        self.language = language
        self.jobs: queue.Queue = queue.Queue()
        self.folder = tempfile.TemporaryDirectory(prefix="phone-")
        self.thread = threading.Thread(target=self._work, daemon=True)
        self.thread.start()

    def _work(self) -> None:
        browser = None
        while True:
            job, box, done = self.jobs.get()
            if job is None:
                break
            try:
                if browser is None:
                    browser = start_browser(self.language, self.folder.name)
                box.append((True, job(browser)))
            except Exception as error:  # the scenario reports it
                box.append((False, error))
            finally:
                done.set()
        if browser is not None:
            browser.quit()
        done.set()

    def do(self, job: Callable[[Any], Any], what: str, timeout: float = 90.0) -> Steps:
        """Run `job(browser)` on the phone: `yield from`, its result returned."""
        box: list[tuple[bool, Any]] = []
        done = threading.Event()
        self.jobs.put((job, box, done))
        deadline = time.monotonic() + timeout
        while not done.is_set():
            if time.monotonic() > deadline:
                raise DriverError(f"the phone did not finish: {what}")
            yield
        ok, value = box[0]
        if not ok:
            raise DriverError(f"the phone could not {what}: {type(value).__name__}: {value}")
        return value

    def close(self) -> None:
        done = threading.Event()
        self.jobs.put((None, [], done))
        done.wait(30)
        self.folder.cleanup()


def until(browser: Any, condition: Callable[[Any], Any], what: str) -> Any:
    """Wait in the phone for `condition(browser)` to be true (its value returned)."""
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(browser, BROWSER_WAIT, poll_frequency=0.05).until(
        condition, message=f"the page never showed {what}")


def text_of(browser: Any, element_id: str) -> str:
    from selenium.webdriver.common.by import By

    found = browser.find_elements(By.ID, element_id)
    return found[0].text if found else ""


def page_facts(browser: Any) -> dict[str, Any]:
    """What the page shows, read off it as a player reads it."""
    from selenium.webdriver.common.by import By

    def texts(selector: str) -> list[str]:
        return [e.text for e in browser.find_elements(By.CSS_SELECTOR, selector)]

    return {"name": text_of(browser, "me-name"), "turn": text_of(browser, "turn"),
            "lang": browser.execute_script("return document.documentElement.lang"),
            "version": browser.execute_script("return document.body.dataset.version"),
            "sectors": [e.get_attribute("data-title")
                        for e in browser.find_elements(By.CSS_SELECTOR, "#station .sector")],
            "counters": text_of(browser, "counters"), "points": text_of(browser, "points"),
            "projected": text_of(browser, "projected"),
            "question": text_of(browser, "question"), "waiting": text_of(browser, "waiting"),
            "choices": texts("#question button.choice"),
            "log": text_of(browser, "log"), "status": text_of(browser, "status"),
            "station_heading": text_of(browser, "station-title"),
            "body": browser.find_element(By.TAG_NAME, "body").text}


def decode_codes(robot: Robot, players: list[str]) -> dict[str, str]:
    """Each player's QR code read off the window's picture, as a phone's camera would: OpenCV's
    ArUco-based QR detector (its classic one misses some codes a phone reads), else the
    classic one."""
    import cv2
    from kivy.core.window import Window

    with tempfile.TemporaryDirectory() as folder:
        picture = cv2.imread(Window.screenshot(name=str(Path(folder) / "table.png")))
    height = picture.shape[0]
    detectors = (cv2.QRCodeDetectorAruco(), cv2.QRCodeDetector())
    found = {}
    for name in players:
        code = robot.find(f"phones:code:{name}")
        (left, bottom), (right, top) = code.to_window(*code.pos), code.to_window(code.right,
                                                                                  code.top)
        crop = picture[int(height - top):int(height - bottom), int(left):int(right)]
        found[name] = next((text for text in (d.detectAndDecode(crop)[0] for d in detectors)
                            if text), "")
    return found


def join_and_answer(robot: Robot, size: tuple[int, int], shots: Path | None) -> Steps:
    app, result = robot.app, robot.result
    session = app.session
    yield from robot.wait_for(lambda: app.screens.current == "table", "the table")
    players = [p["name"] for p in session.state["players"]]
    yield from robot.tap("table:phones")
    yield from robot.wait_for(lambda: robot.find("phones:code:Cat") is not None, "the codes")
    yield from robot.frames(3)
    result["help"] = robot.text("phones:help")
    result["decoded"] = decode_codes(robot, players)
    result["links"] = {name: link for name, _color, link in app.phones.links()}
    yield from shot(robot, shots, "table-phones", size)
    yield from robot.tap("phones:close")
    yield from robot.wait_for(lambda: robot.popup() is None, "the codes closed")

    bob = Phone("en")
    try:
        link = result["decoded"]["Bob"]

        def open_page(browser: Any) -> dict[str, Any]:
            browser.get(link)
            until(browser, lambda b: text_of(b, "me-name") == "Bob", "Bob's name")
            return page_facts(browser)

        result["joined"] = yield from bob.do(open_page, "open Bob's page")
        bob_state = session.state["players"][1]
        result["bob_sectors"] = sorted(f"Sector {s['number']} · Level {s['level']}"
                                       for s in bob_state["sectors"])
        result["bob_gems_before"] = bob_state["gems"]

        # a step on the table, by touch: Cat uses her Transport ship
        command = example_lines("three-players-draft")[CAT_TRANSPORT]
        if command["cmd"] != "use_ship" or command["player"] != "Cat":
            raise DriverError(f"line {CAT_TRANSPORT} is {command!r}, not Cat's ship")
        stepped = time.monotonic()
        yield from use_ship(Turn(robot), command)

        def question_shown(browser: Any) -> dict[str, Any]:
            until(browser, lambda b: text_of(b, "question") != "", "the question")
            return {**page_facts(browser), "seconds": time.monotonic() - stepped}

        result["asked"] = yield from bob.do(question_shown, "show Bob's question")
        if shots is not None:
            yield from bob.do(lambda b: b.save_screenshot(
                str(shots / f"phone-question-{PHONE[0]}x{PHONE[1]}.png")), "take a picture")
        version = result["asked"]["version"]
        result["table_before"] = app.screens.current

        def answer(browser: Any) -> dict[str, Any]:
            from selenium.webdriver.common.by import By

            browser.find_element(By.CSS_SELECTOR, '#question button.choice[data-levels="1"]') \
                .click()
            until(browser, lambda b: text_of(b, "reply") not in ("", b.execute_script(
                "return window.phoenixWords ? window.phoenixWords.sending : ''")), "the reply")
            return {"reply": text_of(browser, "reply")}

        result["answered"] = yield from bob.do(answer, "answer the bonus")
        yield from robot.wait_for(lambda: not session.waiting(), "the bonus chosen")
        yield from robot.frames(3)
        result["table_after"] = app.screens.current
        result["banner"] = robot.text("table:message")
        result["bob_gems_after"] = session.state["players"][1]["gems"]
        result["last_step"] = session.game.game.steps[-1].command

        def send_again(browser: Any) -> dict[str, Any]:
            until(browser, lambda b: text_of(b, "question") == "", "the question gone")
            sent = browser.execute_async_script(
                "const done = arguments[arguments.length - 1];"
                "fetch(location.pathname + '/answer', {method: 'POST',"
                " headers: {'Content-Type': 'application/json'},"
                " body: JSON.stringify({version: arguments[0], track: 'transport',"
                " levels: [1]})}).then(r => r.json().then(j => done([r.status, j])));",
                int(version))
            return {"status": sent[0], "reply": sent[1], "page": page_facts(browser)}

        result["again"] = yield from bob.do(send_again, "send the answer again")

        # the table takes Bob's choice back, then makes it on the table: the page follows
        yield from robot.tap("table:undo")
        yield from robot.wait_for(lambda: session.waiting(), "the bonus waiting again")

        def asked_again(browser: Any) -> dict[str, Any]:
            until(browser, lambda b: text_of(b, "question") != "", "the question again")
            return page_facts(browser)

        result["asked_again"] = yield from bob.do(asked_again, "show the question again")
        yield from robot.tap("bonus:0")
        yield from robot.wait_for(lambda: not session.waiting(), "the bonus chosen on the table")

        def answered_on_the_table(browser: Any) -> dict[str, Any]:
            until(browser, lambda b: text_of(b, "question") == "", "the question answered")
            return page_facts(browser)

        result["table_answered"] = yield from bob.do(answered_on_the_table,
                                                     "show the table's answer")

        def wrong_token(browser: Any) -> dict[str, Any]:
            browser.get(link.rsplit("/", 1)[0] + "/notAToken0000000000000")
            return {"body": browser.find_element("tag name", "body").text}

        result["wrong"] = yield from bob.do(wrong_token, "open a wrong link")

        def back_to_page(browser: Any) -> None:
            browser.get(link)
            until(browser, lambda b: text_of(b, "me-name") == "Bob", "Bob's page again")

        yield from bob.do(back_to_page, "open Bob's page again")
        yield from robot.tap("table:home")
        yield from robot.tap("home:settings")
        yield from robot.tap("settings:phones:renew")
        result["renewed"] = robot.text("settings:message")
        yield from shot(robot, shots, "settings-phones", size)

        def old_link(browser: Any) -> dict[str, Any]:
            until(browser, lambda b: "scan" in b.find_element("tag name", "body").text.lower(),
                  "the page ending")
            ended = browser.find_element("tag name", "body").text
            browser.get(link)
            return {"ended": ended, "reopened": browser.find_element("tag name", "body").text}

        result["old"] = yield from bob.do(old_link, "see the old link refused")
    finally:
        bob.close()

    ann = Phone("de")
    try:
        new_link = {name: link for name, _c, link in app.phones.links()}["Ann"]

        def german_page(browser: Any) -> dict[str, Any]:
            from selenium.webdriver.common.by import By

            browser.get(new_link)
            until(browser, lambda b: text_of(b, "me-name") == "Ann", "Ann's name")
            german = page_facts(browser)
            if shots is not None:
                browser.save_screenshot(str(shots / f"phone-station-de-{PHONE[0]}x{PHONE[1]}.png"))
            browser.find_element(By.ID, "lang-switch").click()
            until(browser, lambda b: b.execute_script(
                "return document.documentElement.lang") == "en", "English")
            english = page_facts(browser)
            if shots is not None:
                browser.save_screenshot(str(shots / f"phone-station-{PHONE[0]}x{PHONE[1]}.png"))
            return {"de": german, "en": english}

        result["ann"] = yield from ann.do(german_page, "open Ann's page in German")
    finally:
        ann.close()


def switch_off_and_on(robot: Robot, size: tuple[int, int], shots: Path | None) -> Steps:
    """Settings' one switch: the phones off (the server stops, the table's Phones button goes,
    the file says so), then on again; what Settings says each time."""
    app, result = robot.app, robot.result
    yield from robot.wait_for(lambda: app.screens.current == "table", "the table")
    result["button_before"] = robot.find("table:phones") is not None
    yield from robot.tap("table:home")
    yield from robot.tap("home:settings")
    result["address_on"] = yield from robot.read("settings:phones-address")
    yield from robot.tap("settings:phones:off")
    yield from robot.wait_for(lambda: not app.phones.serving, "the phones off")
    yield from robot.frames(2)
    result["address_off"] = robot.text("settings:phones-address")
    result["file_off"] = Path(app.config_file).read_text(encoding="utf-8")
    screen = app.screens.current_screen
    screen.ids.scroller.scroll_to(robot.find("settings:phones-address"), animate=False)
    yield from robot.frames(3)
    yield from shot(robot, shots, "settings-phones-off", size)
    yield from robot.tap("settings:back")
    yield from robot.tap("home:resume")
    yield from robot.wait_for(lambda: app.screens.current == "table", "the table again")
    yield from robot.frames(2)
    result["button_off"] = robot.find("table:phones") is not None
    yield from robot.tap("table:home")
    yield from robot.tap("home:settings")
    yield from robot.tap("settings:phones:on")
    yield from robot.wait_for(lambda: app.phones.serving, "the phones on")
    yield from robot.frames(2)
    result["address_again"] = robot.text("settings:phones-address")
    result["links_again"] = [link for _name, _color, link in app.phones.links()]


if __name__ == "__main__":
    raise SystemExit(run({"join-and-answer": join_and_answer,
                          "switch-off-and-on": switch_off_and_on}))
