"""The browser tests' machinery: a real ``croupier serve`` on a free loopback port, Debian's
Chromium driven by playwright (never a downloaded browser), and a player at a page.

If Chromium or playwright is missing the tests fail, saying how to install them."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from server_harness import free_port

ROOT = Path(__file__).resolve().parent.parent
DEBIAN_CHROMIUM = Path("/usr/bin/chromium")
# Screenshots go where CROUPIER_SCREENS says (docs/screens refreshes the README's); by default
# to a scratch folder, so a test run leaves the clone as it found it.
_SCREENS = os.environ.get("CROUPIER_SCREENS")
SCREENS = ROOT / _SCREENS if _SCREENS else Path(tempfile.gettempdir()) / "croupier-screens"
CARD = re.compile(r"^(10|[2-9TJQKA])[cdhs]$")
# A clause as the books are cited: "rws 3.3", "au 11.5(d)", "cardroom betting 14", "qld s19(3)".
CLAUSE = re.compile(r"\b(?:rws|au|qld|cardroom [a-z-]+|league) s?\d+[\d.]*(?:\([a-z0-9]+\))*")


def chromium() -> str:
    """Debian's Chromium, or a failure that says how to install it."""
    path = shutil.which("chromium") or (str(DEBIAN_CHROMIUM) if DEBIAN_CHROMIUM.exists() else None)
    if path is None:
        pytest.fail(
            "Chromium is missing: the browser tests drive Debian's chromium package. "
            "Run `bash tools/chromium.sh` (apt-get install -y chromium), then the tests again.",
            pytrace=False,
        )
    return path


class Server:
    """``croupier serve`` in a subprocess, with no demo table and a long clock (no test waits
    on it, and none is hurried by it)."""

    def __init__(self, folder: Path, db: str | None = None, demo: bool = False) -> None:
        """On SQLite in ``folder``, or on the database ``db`` (another process's too);
        ``demo``: with the demo table of bots, as ``croupier serve`` starts by default."""
        folder.mkdir(parents=True, exist_ok=True)
        self.db = db or str(folder / "room.db")
        self.log_path = folder / "serve.log"
        self.log = self.log_path.open("wb")
        # free_port's port may be taken by another test worker before the server binds it:
        # then it exits at start (or another worker's server answers), and another is tried.
        for _ in range(5):
            self.port = free_port()
            self.url = f"http://127.0.0.1:{self.port}"
            command = [
                sys.executable, "-c", "from croupier.cli import app; app()", "serve",
                "--db", str(self.db), "--port", str(self.port), "--demo" if demo else "--no-demo",
                "--clock", "30", "--bank", "30", "--pause", "0.4", "--bot-delay", "0",
            ]  # fmt: skip
            self.process = subprocess.Popen(command, stdout=self.log, stderr=subprocess.STDOUT)
            if self._started():
                return
            self.process.kill()
            self.process.wait()
        self.log.close()
        raise AssertionError(f"croupier serve did not start: see {folder / 'serve.log'}")

    def _started(self) -> bool:
        """Whether this server, and no other, answers on the port within 60 s."""
        deadline = time.time() + 60
        while time.time() < deadline and self.process.poll() is None:
            try:
                with urllib.request.urlopen(f"{self.url}/api/health", timeout=1) as answer:
                    owner = str(json.loads(answer.read())["server"])
                    return owner.split(":")[-2] == str(self.process.pid)
            except OSError:
                time.sleep(0.1)
        return False

    def http(self, method: str, path: str, token: str, body: object = None) -> Any:
        request = urllib.request.Request(
            self.url + path,
            method=method,
            data=None if body is None else json.dumps(body).encode(),
            headers={"authorization": f"Bearer {token}", "content-type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=10) as answer:
            return json.loads(answer.read())

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.log.close()


def serving(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A card room of its own for a test module (its ``server`` fixture)."""
    running = Server(tmp_path_factory.mktemp("browser-room"))
    yield running
    running.stop()


def launching() -> Iterator[Any]:
    """Debian's Chromium driven by playwright (a test module's ``browser`` fixture)."""
    path = chromium()
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail("playwright is missing: python3 -m pip install -e '.[test]'", pytrace=False)
    with sync_playwright() as driver:
        launched = driver.chromium.launch(executable_path=path, args=["--no-sandbox"])
        yield launched
        launched.close()


class Player:
    """One person at one browser context: registers through the page, and records every
    WebSocket frame the server sends it."""

    def __init__(
        self, browser: Any, server: Server, name: str, phone: bool = False, droppable: bool = False
    ) -> None:
        viewport = {"width": 390, "height": 844} if phone else {"width": 1280, "height": 820}
        self.context = browser.new_context(viewport=viewport)
        self.page = self.context.new_page()
        self.routes: list[Any] = []  # the page's sockets, when ``droppable`` (drop_socket)
        if droppable:
            self.page.route_web_socket(re.compile(r"/ws$"), self._through)
        self.server = server
        self.name = name
        self.frames: list[str] = []  # what the server sent the page
        self.sent: list[str] = []  # what the page sent
        self.errors: list[str] = []
        self.sockets: list[str] = []  # the address of each socket the page opened
        self.page.on("websocket", self._socket)
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.goto(server.url + "/")
        self.page.fill("#name", name)
        self.page.fill("#password", "password-123")
        self.page.click("#register")
        self.page.wait_for_selector("#tables[data-loaded]")

    def _socket(self, socket: Any) -> None:
        self.sockets.append(str(socket.url))
        socket.on("framereceived", lambda payload: self.frames.append(str(payload)))
        socket.on("framesent", lambda payload: self.sent.append(str(payload)))

    def _through(self, route: Any) -> None:
        route.connect_to_server()
        self.routes.append(route)

    def welcomed(self, times: int) -> None:
        """Wait until the server has welcomed the page ``times`` times (once per connection).
        The page's own timer lets playwright deliver the frames meanwhile."""
        deadline = time.time() + 10
        while sum('"type":"welcome"' in frame for frame in self.frames) < times:
            if time.time() > deadline:
                raise AssertionError(f"the page was not welcomed {times} times")
            self.page.wait_for_timeout(30)

    def tell(self, message: dict[str, Any]) -> None:
        """Send the page ``message`` as if the server had (a droppable player's socket)."""
        self.routes[-1].send(json.dumps(message))

    def drop_socket(self) -> None:
        """Close the page's socket as a network failure would; the page reconnects."""
        self.routes[-1].close(code=1001)  # going away

    @property
    def token(self) -> str:
        return str(self.page.evaluate("localStorage.getItem('croupier.token')"))

    def messages(self) -> Iterator[dict[str, Any]]:
        for frame in list(self.frames):
            yield json.loads(frame)

    def open_table(self, table: int, watch: bool = False) -> None:
        self.page.goto(f"{self.server.url}/#/table/{table}{'?watch' if watch else ''}")
        self.page.wait_for_selector("#felt")

    def sit(self, seat: int, chips: int) -> None:
        self.page.fill("#buy-in", str(chips))
        self.page.click(f".seat[data-seat='{seat}'] button.sit")
        self.page.wait_for_selector(f".seat.you[data-seat='{seat}']")

    def turn_key(self) -> str:
        return str(self.page.get_attribute("#actions", "data-turn"))

    def act(self, move: Callable[[Player], None]) -> None:
        """Make ``move`` and wait until the page has heard the answer: the turn moved on, or
        the server refused it."""
        key, seen = self.turn_key(), len(self.frames)

        def answered() -> bool:
            if self.turn_key() != key:
                return True
            return any('"type":"error"' in frame for frame in self.frames[seen:])

        move(self)
        wait_for(answered, 10)

    def my_turn(self) -> bool:
        return bool(self.page.locator("#actions.mine button[data-action]").count())

    def can(self, action: str) -> bool:
        return bool(self.page.locator(f"#actions button[data-action='{action}']").count())

    def click(self, action: str) -> None:
        """Click the action's button; if it went before the click (the server played the
        turn: a leaver's, or the clock's), nothing is clicked."""
        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        key = self.turn_key()
        try:
            self.page.click(f"#actions button[data-action='{action}']", timeout=5000)
        except PlaywrightTimeout:
            if self.turn_key() == key and self.my_turn():
                raise

    def my_cards(self) -> list[str]:
        cards = self.page.locator(".seat.you .hole .card")
        return [str(cards.nth(i).get_attribute("data-card")) for i in range(cards.count())]

    def results(self) -> int:
        return int(self.page.locator("#results li.result").count())

    def stacks(self) -> dict[int, int]:
        """Each seat's chips as the page shows them."""
        out = {}
        seats = self.page.locator(".seat:not(.empty)")
        for i in range(seats.count()):
            seat = seats.nth(i)
            out[int(seat.get_attribute("data-seat") or 0)] = int(
                seat.locator(".stack").inner_text()
            )
        return out

    def chips_on_table(self) -> int:
        """The chips the page shows at the table at one moment: the stacks, and in a hand the
        total pot (the bets in front of the seats included; a finished hand's pots are in the
        stacks already)."""
        return int(
            self.page.evaluate(
                """() => {
                  const stacks = [...document.querySelectorAll("#felt .seat:not(.empty) .stack")];
                  const pot = document.querySelector("#felt #pot");
                  const inPot = pot ? Number(pot.textContent.split(": ")[1]) : 0;
                  return stacks.reduce((sum, s) => sum + Number(s.textContent), inPot);
                }"""
            )
        )

    def screenshot(self, name: str, full_page: bool = False) -> None:
        SCREENS.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(SCREENS / name), full_page=full_page)

    def close(self) -> None:
        self.context.close()


def simple(player: Player) -> None:
    """Check or call; stand pat at the draw; an opener who must bet brings in or bets least."""
    if player.can("draw"):
        player.click("draw")
    elif player.can("check_or_call"):
        player.click("check_or_call")
    elif player.can("bring_in"):
        player.click("bring_in")
    else:
        player.click("bet_or_raise")  # the box holds the least legal amount


def play(
    players: list[Player],
    until: Callable[[], bool],
    move: Callable[[Player], None] = simple,
    timeout: float = 60,
) -> None:
    """Each player makes ``move`` on their turns until ``until()``."""
    deadline = time.time() + timeout
    while not until():
        if time.time() > deadline:
            raise AssertionError("the hands did not finish in time")
        acted = False
        for player in players:
            if player.my_turn():
                player.act(move)
                acted = True
        if not acted:
            time.sleep(0.05)


def wait_for(condition: Callable[[], bool], timeout: float = 10) -> None:
    deadline = time.time() + timeout
    while not condition():
        if time.time() > deadline:
            raise AssertionError("timed out waiting")
        time.sleep(0.03)


def create_table(server: Server, token: str, spec: dict[str, object], name: str) -> int:
    made = server.http("POST", "/api/tables", token, {"name": name, "spec": spec})
    return int(made["table"])


def events_sent(player: Player, table: int | None = None) -> list[dict[str, Any]]:
    """Every event the server sent this player's page (at ``table``), in the order sent."""
    found: list[dict[str, Any]] = []
    for message in player.messages():
        if table is not None and message.get("table") != table:
            continue
        if message.get("type") == "events":
            found.extend(message["events"])
        elif message.get("type") == "state" and message.get("hand"):
            found.extend(message["hand"]["events"])
    return found


def hole_cards_sent(player: Player, table: int | None = None) -> list[str]:
    """Every hole card the server sent this player's page, hidden ones as ``??``."""
    cards: list[str] = []
    for event in events_sent(player, table):
        if event["event"] == "DealHole":
            cards.extend(event["cards"])
        elif event["event"] == "Draw":
            cards.extend(event["discarded"] + event["drawn"])
    return cards
