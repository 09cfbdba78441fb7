#!/usr/bin/env python3
"""Drives the board of `pricehost serve` in a real headless Chromium, for BoardBrowserTests.

    board_browser.py SPEC.json

SPEC: {"port": serve's port, "path": the board's path and query, "token": the serve.token (typed into the page's form),
       "pricesFile": the file provider's file, "rewrite": the file's new text,
       "changedAsset": "SOL", "changedAmount": "150.5", "staleAsset": "ETH",
       "failingAsset": "DOGE", "streamAsset": "BTC", "streamProvider": "coinbase",
       "screenshot": where to save a PNG}
or, to see the charts start from /v1/history when /v1/candles is refused (both answered by the relay):
      {"port", "path", "changedAsset", "candles": {"status": 503 or 404},
       "history": {asset: {provider: [[seconds ago, amount], ...]}}}
or, to see the charts drawn from /v1/candles and the range chosen, kept across a reload:
      {"port", "path", "changedAsset", "emptyAsset",
       "candles": {"status": 200, "series": {asset: [[open, high, low, close], ...]}}}
  (a series' candles end with the one now is in, of the interval asked; an asset without one has none)

The browser reaches serve through a loopback relay of this script's, which can cut every
connection at once (a dropped network) and can answer /v1/history and /v1/candles itself,
as their contracts say, so that the board's side of them is seen whatever serve answers.

It only looks and reports: one JSON object on stdout's last line, what the page showed
and when; the Swift test decides. Every wait is bounded. Exit 2 when Chromium,
chromedriver or selenium is missing (the reason on stdout), 1 when the browser failed.
"""
import calendar
import http
import json
import os
import shutil
import signal
import socket
import sys
import threading
import time
import urllib.parse

try:
    from selenium import webdriver
    from selenium.common.exceptions import WebDriverException
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
except ImportError:
    print("selenium is not installed (pip install selenium)")
    sys.exit(2)


def find(names):
    for name in names:
        path = shutil.which(name)
        if path:
            return path
    return None


class Relay:
    """A TCP relay on loopback between the browser and serve, which can cut every
    connection through it at once: a dropped network, as the page sees one."""

    def __init__(self, port, history=None, candles=None):
        self.target = ("127.0.0.1", port)
        # {asset: {provider: [[seconds ago, amount], ...]}}: /v1/history answered here, as its contract says.
        self.history = history
        self.asked = []
        # {"status": 200, "series": {asset: [[open, high, low, close], ...]}}: /v1/candles answered here.
        self.candles = candles
        self.candles_asked = []
        self.answers = {path: answer for path, answer, given in [("/v1/history", self.answer_history, history),
                                                                 ("/v1/candles", self.answer_candles, candles)]
                        if given is not None}
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.lock = threading.Lock()
        self.sockets = []
        threading.Thread(target=self.accept, daemon=True).start()

    def accept(self):
        while True:
            try:
                client, _ = self.listener.accept()
                upstream = socket.create_connection(self.target, timeout=5)
                upstream.settimeout(None)
            except OSError:
                return
            with self.lock:
                self.sockets += [client, upstream]
            requests = self.answer if self.answers else self.pump
            threading.Thread(target=requests, args=(client, upstream), daemon=True).start()
            threading.Thread(target=self.pump, args=(upstream, client), daemon=True).start()

    def answer(self, client, upstream):
        """Relays the browser's requests, but answers GET /v1/history and /v1/candles itself when
        given them. The browser sends its next request on a connection only after the answer to the last one."""
        pending = b""
        try:
            while True:
                data = client.recv(65536)
                if not data:
                    break
                pending += data
                while b"\r\n\r\n" in pending:
                    head, pending = pending.split(b"\r\n\r\n", 1)
                    target = head.split(b" ")[1].decode() if head.count(b" ") >= 2 else ""
                    parts = urllib.parse.urlsplit(target)
                    if parts.path not in self.answers:
                        upstream.sendall(head + b"\r\n\r\n")
                        continue
                    query = {name: values[0] for name, values in urllib.parse.parse_qs(parts.query).items()}
                    status, value = self.answers[parts.path](query)
                    body = json.dumps(value).encode()
                    client.sendall(b"HTTP/1.1 %d %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n"
                                   % (status, http.HTTPStatus(status).phrase.encode(), len(body)) + body)
                if len(pending) > 65536:
                    break
        except OSError:
            pass
        Relay.end(client, upstream)

    def answer_history(self, query):
        asset, provider = query.get("asset", ""), query.get("provider", "")
        self.asked.append(query)
        now = time.time()
        points = [{"provider": provider, "amount": amount, "source": "rest", "timestamp": iso(now - ago)}
                  for ago, amount in self.history.get(asset, {}).get(provider, [])]
        return 200, {"asset": asset, "currency": query.get("currency", "USD"), "minutes": 15, "points": points}

    def answer_candles(self, query):
        """/v1/candles as its contract says: the candles whose start is within [from, now], oldest first;
        what the board asked is kept, with how far back its `from` was when it asked."""
        now = time.time()
        try:
            since = calendar.timegm(time.strptime(query.get("from", ""), "%Y-%m-%dT%H:%M:%SZ"))
        except ValueError:
            since = None
        self.candles_asked.append(dict(query, fromSecondsAgo=None if since is None else round(now - since)))
        status = self.candles.get("status", 200)
        if status != 200:
            return status, {"error": "no quote store: the relay has none" if status == 503 else "no route GET /v1/candles"}
        size = {"1m": 60, "5m": 300, "15m": 900, "1h": 3600, "4h": 14400, "1d": 86400}.get(query.get("interval", "1m"))
        if since is None or size is None:
            return 400, {"error": "a bad from or interval: %r" % query}
        series = self.candles.get("series", {}).get(query.get("asset", ""), [])
        last = int(now) // size * size
        starts = [last - (len(series) - 1 - index) * size for index in range(len(series))]
        return 200, [{"start": iso(start), "open": o, "high": h, "low": l, "close": c, "count": 3}
                     for start, (o, h, l, c) in zip(starts, series) if start >= since]

    @staticmethod
    def pump(source, sink):
        try:
            while True:
                data = source.recv(65536)
                if not data:
                    break
                sink.sendall(data)
        except OSError:
            pass
        Relay.end(source, sink)

    @staticmethod
    def end(*sockets):
        """Shuts both ways down: wakes the pump blocked in recv on it, and tells the other side."""
        for end in sockets:
            try:
                end.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def cut(self):
        """Ends every connection open now; new ones go through."""
        with self.lock:
            cutting, self.sockets = self.sockets, []
        # shutdown, not close alone: close does not wake a pump blocked in recv.
        Relay.end(*cutting)
        for end in cutting:
            end.close()
        return len(cutting) // 2


def iso(seconds):
    """A time as the API writes it: ISO 8601 in UTC, to the second."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(seconds))


def wait_for(check, seconds, step=0.05):
    """check() until it returns something truthy, for at most `seconds`; its last value."""
    deadline = time.monotonic() + seconds
    value = check()
    while not value and time.monotonic() < deadline:
        time.sleep(step)
        value = check()
    return value


class OutOfTime(Exception):
    pass


def out_of_time(_signal, _frame):
    raise OutOfTime()


def step(result, name):
    """Notes when each step began, so that a slow run shows where its time went."""
    result.setdefault("steps", []).append([name, round(time.monotonic() - STARTED, 2)])


STARTED = time.monotonic()
BUDGET_SECONDS = 110


def main():
    with open(sys.argv[1], encoding="utf-8") as handle:
        spec = json.load(handle)
    # Everything, the browser's start included, within the budget: past it, what was seen so far is reported.
    signal.signal(signal.SIGALRM, out_of_time)
    signal.alarm(BUDGET_SECONDS)
    chromium = find(["chromium", "chromium-browser", "google-chrome"])
    driver_path = find(["chromedriver"])
    if not chromium or not driver_path:
        print("chromium and chromedriver are not installed (apt-get install chromium chromium-driver)")
        sys.exit(2)

    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--window-size=1000,820", "--force-device-scale-factor=1", "--lang=en-US",
                     "--no-first-run", "--disable-extensions", "--disable-background-networking"]:
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    result = {}
    step(result, "start the browser")
    try:
        browser = webdriver.Chrome(service=Service(driver_path), options=options)
    except OutOfTime:
        print(json.dumps({"error": "the browser did not start within %d s" % BUDGET_SECONDS, **result}))
        sys.exit(1)
    browser.set_page_load_timeout(20)
    browser.set_script_timeout(10)
    failed = False
    try:
        observe(browser, spec, result)
    except OutOfTime:
        result["error"] = "out of time (%d s) in the step %r" % (BUDGET_SECONDS, result["steps"][-1][0])
        failed = True
    signal.alarm(15)
    try:
        result["requests"] = requests(browser)
        result["console"] = [entry.get("message", "") for entry in browser.get_log("browser")]
        browser.quit()
    except (WebDriverException, OutOfTime) as error:
        result["logError"] = repr(error)
    signal.alarm(0)
    print(json.dumps(result))
    if failed:
        sys.exit(1)


def text(browser, script, *arguments):
    try:
        return browser.execute_script(script, *arguments)
    except WebDriverException:
        return None


def price(browser, asset):
    return text(browser, "const e = document.querySelector(`[data-asset='${arguments[0]}'] [data-role=price]`);"
                         "return e ? e.textContent : null;", asset)


def row(browser, asset, provider):
    return text(browser, """
        const r = document.querySelector(`[data-asset='${arguments[0]}'] tr[data-provider='${arguments[1]}']`);
        if (!r) return null;
        const cell = (role) => { const e = r.querySelector(`[data-role=${role}]`); return e ? e.textContent : null; };
        const age = r.querySelector('.age');
        return {state: r.dataset.state, amount: cell('amount'), source: cell('source'), age: cell('age'),
                staleClass: r.classList.contains('stale'), ageTitle: age ? age.title : null,
                ageBackground: age ? getComputedStyle(age).backgroundColor : null};
        """, asset, provider)


def chart(browser, asset):
    """What the asset's chart shows: its name in words, the price scale's labels, the time axis'
    labels, each line's count of points, whether a band is drawn, and the text shown instead of a line."""
    return text(browser, """
        const svg = document.querySelector(`[data-asset='${arguments[0]}'] svg.chart`);
        if (!svg) return null;
        const label = document.getElementById(svg.getAttribute('aria-labelledby'));
        const one = (role) => { const e = svg.querySelector(`[data-role=${role}]`); return e ? e.textContent : null; };
        const empty = svg.querySelector('.empty');
        return {label: label ? label.textContent : null, role: svg.getAttribute('role'), high: one('high'), low: one('low'),
                times: [...svg.querySelectorAll('[data-role=time]')].map((e) => e.textContent),
                polylines: [...svg.querySelectorAll('polyline')].map((l) => l.getAttribute('points').split(' ').length),
                band: !!svg.querySelector('polygon.band'), empty: empty ? empty.textContent : null};""", asset)


def labelled(browser, asset, *words):
    """The asset's chart once its name in words has every one of `words`, else None."""
    shown = chart(browser, asset)
    return shown if shown and all(word in (shown.get("label") or "") for word in words) else None


def observe(browser, spec, result):
    if spec.get("candles", {}).get("status") == 200:
        return observe_candles(browser, spec, result)
    if spec.get("history") is not None:
        return observe_history(browser, spec, result)
    started = time.monotonic()
    relay = Relay(spec["port"])
    step(result, "load the page")
    browser.get("http://127.0.0.1:%d%s" % (relay.port, spec["path"]))
    result["title"] = browser.title
    # With serve.token set, the page asks for it: typed with the keyboard, Enter submits.
    login = wait_for(lambda: text(browser, "const f = document.getElementById('login'); return f && !f.hidden;"), 10)
    result["loginShown"] = bool(login)
    if login:
        field = browser.find_element(By.ID, "token")
        result["tokenFocused"] = browser.switch_to.active_element == field
        field.send_keys(spec["token"] + Keys.ENTER)
    result["urlAfterLogin"] = browser.current_url
    result["tokenStored"] = text(browser, "return sessionStorage.getItem('pricehost.token') === arguments[0];", spec["token"])

    changed = spec["changedAsset"]
    step(result, "the first price")
    first = wait_for(lambda: (price(browser, changed) or "—") != "—" and price(browser, changed), 15)
    result["firstPriceSeconds"] = round(time.monotonic() - started, 2)
    result["initial"] = {asset: price(browser, asset) for asset in [changed, spec["staleAsset"], spec["streamAsset"]]}
    result["initial"][changed] = first

    # The price changes upstream: the file provider's file, replaced whole.
    step(result, "a new price")
    temporary = spec["pricesFile"] + ".new"
    with open(temporary, "w", encoding="utf-8") as handle:
        handle.write(spec["rewrite"])
    os.replace(temporary, spec["pricesFile"])
    rewritten = time.monotonic()
    seen = wait_for(lambda: price(browser, changed) == spec["changedAmount"], 5, step=0.02)
    result["updateSeconds"] = round(time.monotonic() - rewritten, 3) if seen else None
    result["afterRewrite"] = price(browser, changed)

    step(result, "stale and failing")
    result["staleRow"] = row(browser, spec["staleAsset"], "file")
    result["freshRow"] = row(browser, changed, "file")
    result["failing"] = wait_for(lambda: text(browser, """
        const f = document.querySelector(`[data-asset='${arguments[0]}'] .failures p`);
        return f ? f.textContent : null;""", spec["failingAsset"]), 5)

    stream = spec["streamAsset"], spec["streamProvider"]
    step(result, "the streamed price")
    live = wait_for(lambda: (row(browser, *stream) or {}).get("state") == "fresh" and row(browser, *stream), 10)
    result["streamRow"] = live or row(browser, *stream)
    result["streamStats"] = text(browser, """
        const s = document.querySelector(`[data-asset='${arguments[0]}'] [data-role=stats]`);
        if (!s || s.hidden) return null;
        const out = {};
        for (const dd of s.querySelectorAll('dd')) out[dd.dataset.role] = dd.textContent;
        return out;""", spec["streamAsset"])
    result["streamBasis"] = text(browser, "return document.querySelector(`[data-asset='${arguments[0]}'] [data-role=basis]`).textContent;",
                                 spec["streamAsset"])

    # What a screen reader has: the status line, headings, the table's headers, and the
    # chart as an image named in words, its prices in text.
    step(result, "a screen reader's view")
    # The charts are drawn once a second: wait (at most 5 s) for the changed card's, named with its new price.
    wait_for(lambda: text(browser, """
        const chart = document.querySelector(`[data-asset='${arguments[0]}'] svg`);
        const label = chart && document.getElementById(chart.getAttribute('aria-labelledby'));
        return !!(label && chart.querySelectorAll('polyline').length && label.textContent.includes(arguments[1]));""",
                                  changed, spec["changedAmount"]), 5)
    result["accessibility"] = text(browser, """
        const status = document.getElementById('status');
        const card = document.querySelector(`[data-asset='${arguments[0]}']`);
        const chart = card.querySelector('svg');
        const label = document.getElementById(chart.getAttribute('aria-labelledby'));
        return {statusRole: status.getAttribute('role'), statusLive: status.getAttribute('aria-live'), status: status.textContent,
                heading: document.getElementById(card.getAttribute('aria-labelledby')).textContent,
                chartRole: chart.getAttribute('role'), chartLabel: label ? label.textContent : null,
                polylines: chart.querySelectorAll('polyline').length,
                rowHeaders: card.querySelectorAll('tbody th[scope=row]').length,
                columnHeaders: card.querySelectorAll('thead th[scope=col]').length,
                bodyText: document.body.innerText};""", changed)

    step(result, "the screenshot")
    shot = browser.get_screenshot_as_png()
    with open(spec["screenshot"], "wb") as handle:
        handle.write(shot)
    result["screenshotBytes"] = len(shot)

    # Offline: every resource the page loaded came from its own server.
    result["resources"] = text(browser, "return performance.getEntriesByType('resource').map(e => e.name);")
    result["origin"] = text(browser, "return location.origin;")

    # A phone-sized screen: nothing wider than the window.
    step(result, "a phone")
    browser.set_window_size(390, 844)
    time.sleep(0.5)
    result["phone"] = text(browser, "return {scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth,"
                                    " priceVisible: document.querySelector('[data-role=price]').getBoundingClientRect().width > 0};")
    browser.set_window_size(1000, 820)

    # Dark mode: the colors follow prefers-color-scheme.
    step(result, "dark mode")
    light = text(browser, "return getComputedStyle(document.body).backgroundColor;")
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
    result["colors"] = {"light": light, "dark": text(browser, "return getComputedStyle(document.body).backgroundColor;")}
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "light"}]})

    # A dropped connection: the board reconnects by itself, resuming with Last-Event-ID.
    step(result, "a dropped connection")
    result["connectionsCut"] = relay.cut()
    result["offlineStatus"] = wait_for(lambda: text(browser, "const s = document.getElementById('status');"
                                                             "return s.classList.contains('bad') ? s.textContent : null;"), 5, step=0.01)
    result["backOnline"] = wait_for(lambda: text(browser, "const s = document.getElementById('status');"
                                                          "return s.textContent.startsWith('Live') ? s.textContent : null;"), 20)

    # The feed goes silent: past staleAfterSeconds (plus the REST fallback's interval) it is shown stale.
    step(result, "a silent feed")
    silent = wait_for(lambda: (row(browser, *stream) or {}).get("state") == "stale" and row(browser, *stream), 25, step=0.2)
    result["streamStale"] = silent or row(browser, *stream)


def load(browser, relay, spec, result):
    """Opens the board through the relay: the changed asset's first price, as the page shows it."""
    step(result, "load the page")
    browser.get("http://127.0.0.1:%d%s" % (relay.port, spec["path"]))
    asset = spec["changedAsset"]
    result["price"] = wait_for(lambda: (price(browser, asset) or "—") != "—" and price(browser, asset), 15)
    return asset


def observe_history(browser, spec, result):
    """The chart, refused candles, filled from /v1/history (both answered by the relay) before the stream adds to it."""
    relay = Relay(spec["port"], history=spec["history"], candles=spec.get("candles"))
    asset = load(browser, relay, spec, result)
    step(result, "the chart")
    # History is drawn first; the stream's first price joins it at the next redraw (once a second).
    result["chart"] = wait_for(lambda: labelled(browser, asset, "last %s," % result["price"]), 5) or chart(browser, asset)
    result["status"] = text(browser, "return document.getElementById('status').textContent;")
    result["historyAsked"] = relay.asked
    result["candlesAsked"] = relay.candles_asked


def observe_candles(browser, spec, result):
    """The charts drawn from /v1/candles (answered by the relay) with the stream's prices joining the
    last candle; then the range chosen with the mouse, asked for, and kept across a reload."""
    relay = Relay(spec["port"], candles=spec["candles"])
    asset = load(browser, relay, spec, result)
    step(result, "the candles")
    result["chart"] = wait_for(lambda: labelled(browser, asset, "candles", "last %s," % result["price"]), 5) or chart(browser, asset)
    result["empty"] = chart(browser, spec["emptyAsset"])
    result["firstAsked"] = list(relay.candles_asked)
    result["range"] = text(browser, """
        const f = document.getElementById('range');
        return {legend: f.querySelector('legend').textContent,
                choices: [...f.querySelectorAll('label')].map((l) => [l.textContent.trim(), l.querySelector('input[type=radio]').value])};""")

    step(result, "one day")
    before = len(relay.candles_asked)
    browser.find_element(By.XPATH, "//fieldset[@id='range']//label[input[@value='1d']]").click()
    result["dayChart"] = wait_for(lambda: labelled(browser, asset, "last 1 day ("), 5) or chart(browser, asset)
    result["dayAsked"] = relay.candles_asked[before:]
    result["stored"] = text(browser, "return localStorage.getItem('pricehost.range');")

    step(result, "a reload")
    before = len(relay.candles_asked)
    browser.refresh()
    wait_for(lambda: len(relay.candles_asked) > before, 10)
    result["reloadAsked"] = relay.candles_asked[before:]
    result["checkedAfterReload"] = text(browser, "const i = document.querySelector('#range input:checked'); return i ? i.value : null;")


def requests(browser):
    """Each request the page sent: its URL and whether it had Last-Event-ID or Authorization."""
    found = []
    for entry in browser.get_log("performance"):
        try:
            message = json.loads(entry["message"])["message"]
        except (KeyError, ValueError):
            continue
        if message.get("method") != "Network.requestWillBeSent":
            continue
        request = message["params"]["request"]
        headers = {name.lower(): value for name, value in request.get("headers", {}).items()}
        found.append({"url": request.get("url", ""), "lastEventID": headers.get("last-event-id"),
                      "authorization": "authorization" in headers})
    return found


if __name__ == "__main__":
    try:
        main()
    except WebDriverException as error:
        print(json.dumps({"error": str(error).splitlines()[0] if str(error) else repr(error)}))
        sys.exit(1)
