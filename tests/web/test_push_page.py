"""The table page's "notify me" button (in the seat's notifications card) in real Chromium
against a real server.

Headless Chromium reaches no push service, so ``PushManager`` is replaced in these pages only
(an init script) by one that answers ``subscribe`` with a subscription whose keys the test
made as a browser would; everything else is real: the service worker registering at scope
``/``, the manifest the page links (read back through the DevTools protocol), the routes the
button calls with the seat's token, and the page under its Content-Security-Policy.
Screenshots at 1280 and 390 px go to tests/web/artifacts/.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.support.push_service import Device, unb64url

from .conftest import ARTIFACTS, ConsoleErrors, ServerThread, live_app

pytestmark = pytest.mark.browser
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
IPHONE_SAFARI = (
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 "
    "(KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1"
)

# The stand-in PushManager: subscribe() records the applicationServerKey it was given and
# keeps the subscription (in localStorage, so a reload finds it as a browser would).
STUB = """
(() => {
  const SUB = %s;
  const stored = () => localStorage.getItem("stub_push") === "on";
  const make = () => ({
    endpoint: SUB.endpoint,
    options: { applicationServerKey: window.__serverKey || null },
    toJSON: () => SUB,
    unsubscribe: () => { localStorage.removeItem("stub_push"); return Promise.resolve(true); },
  });
  PushManager.prototype.getSubscription = function () {
    return Promise.resolve(stored() ? make() : null);
  };
  PushManager.prototype.subscribe = function (options) {
    window.__subscribeOptions = {
      userVisibleOnly: options.userVisibleOnly,
      key: Array.from(new Uint8Array(options.applicationServerKey)),
    };
    window.__serverKey = new Uint8Array(options.applicationServerKey).buffer;
    localStorage.setItem("stub_push", "on");
    return Promise.resolve(make());
  };
})();
"""
NO_PUSH = "delete window.PushManager;"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    # The stub's endpoint is never contacted: private addresses are allowed so that its name
    # is not looked up (this machine has no DNS), and its made-up push services' hosts are.
    with live_app(tmp_path_factory.mktemp("push-db"), bot_delay=5.0,
                  webhook_allow_private=True,
                  push_hosts="push.example.net,x.example") as running:  # fmt: skip
        yield running


def started_table(server: ServerThread) -> dict[str, Any]:
    body = {"game": "norenberc", "seats": 2, "name": "Anna", "bots": [None, "random"]}
    made: dict[str, Any] = httpx.post(f"{server.url}/api/tables", json=body).json()
    headers = {"Authorization": f"Bearer {made['token']}"}
    httpx.post(f"{server.url}/api/tables/{made['table_id']}/start", headers=headers)
    return made


def devices(server: ServerThread, made: dict[str, Any]) -> list[dict[str, Any]]:
    answer = httpx.get(
        f"{server.url}/api/tables/{made['table_id']}/seats/0/push",
        headers={"Authorization": f"Bearer {made['token']}"},
    )
    assert answer.status_code == 200, answer.text
    found: list[dict[str, Any]] = answer.json()["devices"]
    return found


def open_card(page: Any) -> None:
    """Unfold the seat's notifications card: the push control (and its module) come with it."""
    page.locator("#notify-title").click(timeout=10_000)


def push_page(new_page: Any, viewport: dict[str, int], script: str, **options: Any) -> Any:
    # Its init script and service worker stay with the context.
    page = new_page(viewport=viewport, permissions=["notifications"], fresh=True, **options)
    page.context.add_init_script(script)
    return page


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280", "390"])
def test_the_button_subscribes_this_device_for_the_seat_and_turns_it_off(
    new_page: Any, server: ServerThread, viewport: dict[str, int]
) -> None:
    made = started_table(server)
    device = Device(endpoint=f"https://push.example.net/wpush/{made['table_id']}")
    page = push_page(new_page, viewport, STUB % json.dumps(device.subscription()))
    page.goto(f"{server.url}/t/{made['table_id']}#seat={made['token']}")
    open_card(page)
    button = page.locator("#notify #push-enable")
    button.wait_for(timeout=10_000)
    page.wait_for_function("!document.querySelector('#push-enable').disabled", timeout=10_000)
    page.screenshot(path=str(ARTIFACTS / f"push-offer-{viewport['width']}.png"), full_page=True)
    button.click()
    page.locator("#notify #push-on").wait_for(timeout=10_000)
    page.screenshot(path=str(ARTIFACTS / f"push-on-{viewport['width']}.png"), full_page=True)
    # The browser was asked with the server's own key, for notifications the player sees.
    asked = page.evaluate("window.__subscribeOptions")
    key = httpx.get(f"{server.url}/api/push/key").json()["public_key"]
    assert asked == {"userVisibleOnly": True, "key": list(unb64url(key))}
    # The server holds this device for seat 0, in the page's language.
    [held] = devices(server, made)
    assert held["device"] == hashlib.sha256(device.endpoint.encode()).hexdigest()[:16]
    assert (held["service"], held["lang"]) == ("push.example.net", "en")
    # A reload finds the device on the seat's list; "turn off" removes it from the server.
    page.reload()
    open_card(page)
    page.locator("#notify #push-off").click(timeout=10_000)
    # While the removal is under way the same button shows, disabled ("working").
    page.locator("#notify #push-enable:not([disabled])").wait_for(timeout=10_000)
    assert devices(server, made) == []


def test_the_service_worker_controls_the_whole_site_and_the_manifest_is_valid(
    new_page: Any, server: ServerThread
) -> None:
    made = started_table(server)
    page = push_page(
        new_page, DESKTOP, STUB % json.dumps(Device(endpoint="https://x.example/1").subscription())
    )
    page.goto(f"{server.url}/t/{made['table_id']}#seat={made['token']}")
    open_card(page)
    page.locator("#push-enable:not([disabled])").wait_for(timeout=10_000)
    # Nothing is installed before the player asks for notices.
    assert page.evaluate("navigator.serviceWorker.getRegistration('/').then(r => !!r)") is False
    page.locator("#push-enable").click()
    page.locator("#push-on").wait_for(timeout=10_000)
    scope = page.evaluate("navigator.serviceWorker.ready.then(r => [r.scope, r.active.scriptURL])")
    assert scope == [f"{server.url}/", f"{server.url}/sw.js"]
    cdp = page.context.new_cdp_session(page)
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["url"] == f"{server.url}/manifest.webmanifest"
    assert manifest["errors"] == []
    parsed = json.loads(manifest["data"])
    assert parsed["name"] == "Guildhall" and parsed["display"] == "standalone"
    for icon in parsed["icons"]:
        answer = httpx.get(server.url + icon["src"])
        assert answer.status_code == 200 and answer.headers["content-type"] == icon["type"]


@pytest.mark.parametrize(
    ("user_agent", "said"),
    [
        (IPHONE_SAFARI, "add this page to the home screen"),
        (None, "This browser cannot receive notices from a web page."),
    ],
    ids=["iphone", "other"],
)
def test_a_browser_without_push_is_told_why(
    new_page: Any, server: ServerThread, user_agent: str | None, said: str
) -> None:
    made = started_table(server)
    options = {"user_agent": user_agent} if user_agent else {}
    page = push_page(new_page, PHONE, NO_PUSH, **options)
    page.goto(f"{server.url}/t/{made['table_id']}#seat={made['token']}")
    open_card(page)
    why = page.locator("#notify #push-why")
    why.wait_for(timeout=10_000)
    assert said in (why.text_content() or "")
    assert page.locator("#push-enable").count() == 0
    page.screenshot(path=str(ARTIFACTS / f"push-unsupported-{user_agent is None}.png"))


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280", "390"])
def test_a_fourth_device_is_told_why_in_the_pages_language(
    new_page: Any, server: ServerThread, console_errors: ConsoleErrors, viewport: dict[str, int]
) -> None:
    """A seat sends its notices to three devices at most: the fourth is refused
    (``too_many_devices``) and the card says so in the page's words, not the server's."""
    made = started_table(server)
    route = f"{server.url}/api/tables/{made['table_id']}/seats/0/push"
    for n in range(3):  # a phone, a laptop and a tablet are already on
        body = Device(endpoint=f"https://push.example.net/wpush/{made['table_id']}-{n}")
        answer = httpx.post(
            route,
            json=body.subscription(),
            headers={"Authorization": f"Bearer {made['token']}"},
        )
        assert answer.status_code == 201, answer.text
    fourth = Device(endpoint=f"https://push.example.net/wpush/{made['table_id']}-4")
    page = push_page(new_page, viewport, STUB % json.dumps(fourth.subscription()))
    page.goto(f"{server.url}/t/{made['table_id']}?lang=nl#seat={made['token']}")
    open_card(page)
    button = page.locator("#notify #push-enable")
    button.wait_for(timeout=10_000)
    page.wait_for_function("!document.querySelector('#push-enable').disabled", timeout=10_000)
    button.click()
    error = page.locator("#notify #push-error")
    error.wait_for(timeout=10_000)
    assert (error.text_content() or "").endswith(
        "De meldingen van deze plaats gaan al naar drie apparaten; zet ze eerst op een daarvan uit."
    ), error.text_content()
    assert len(devices(server, made)) == 3  # the fourth was not stored
    assert page.locator("#notify #push-enable").is_visible()  # it may be tried again
    page.locator("#notify").evaluate("el => el.scrollIntoView({block: 'start'})")
    page.screenshot(path=str(ARTIFACTS / f"push-too-many-nl-{viewport['width']}.png"))
    console_errors[:] = [e for e in console_errors if "409" not in e]


def test_a_spectator_sees_no_button(new_page: Any, server: ServerThread) -> None:
    made = started_table(server)
    page = push_page(
        new_page, DESKTOP, STUB % json.dumps(Device(endpoint="https://x.example/2").subscription())
    )
    page.goto(f"{server.url}/t/{made['table_id']}")
    page.locator(".player").first.wait_for(timeout=10_000)
    assert page.locator("#push-control").count() == 0


def test_the_page_with_its_worker_keeps_to_its_policy(browser: Any, server: ServerThread) -> None:
    made = started_table(server)
    context = browser.new_context(bypass_csp=False, permissions=["notifications"])
    context.add_init_script(
        STUB % json.dumps(Device(endpoint="https://x.example/3").subscription())
    )
    context.add_init_script(
        "window.__violations = [];"
        "document.addEventListener('securitypolicyviolation',"
        " e => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));"
    )
    errors = ConsoleErrors()
    page = errors.watch(context.new_page())
    try:
        page.goto(f"{server.url}/t/{made['table_id']}#seat={made['token']}")
        open_card(page)
        page.locator("#notify #push-enable:not([disabled])").click(timeout=10_000)
        page.locator("#notify #push-on").wait_for(timeout=10_000)
        scope = page.evaluate("navigator.serviceWorker.ready.then(r => r.scope)")
        assert scope == f"{server.url}/"
        assert page.evaluate("window.__violations") == []
        assert errors == []
    finally:
        context.close()


def _push_to_worker(page: Any, server: ServerThread, payload: dict[str, Any]) -> list[Any]:
    """Deliver ``payload`` to the page's service worker as its push service would (after
    decryption), through the DevTools protocol; the notifications it then shows.

    The notices are read only once the worker's push event has ended. Chromium's
    ``getNotifications()`` deletes, for good, a stored notice written before the read began
    that the platform does not yet list as shown; a read racing the worker's
    ``showNotification`` (a loaded machine widens that window) lost the notice that way."""
    cdp = page.context.new_cdp_session(page)
    registrations: list[dict[str, Any]] = []
    cdp.on(
        "ServiceWorker.workerRegistrationUpdated",
        lambda e: registrations.extend(e["registrations"]),
    )
    events: list[dict[str, Any]] = []
    cdp.on(
        "BackgroundService.backgroundServiceEventReceived",
        lambda e: events.append(e["backgroundServiceEvent"]),
    )
    cdp.send("BackgroundService.startObserving", {"service": "pushMessaging"})
    cdp.send("BackgroundService.setRecording", {"shouldRecord": True, "service": "pushMessaging"})
    cdp.send("ServiceWorker.enable")
    for _ in range(100):  # the registration is reported right after enabling
        if registrations:
            break
        page.wait_for_timeout(50)
    [registration] = [r for r in registrations if r["scopeURL"] == f"{server.url}/"]
    data = json.dumps(payload)
    cdp.send(
        "ServiceWorker.deliverPushMessage",
        {"origin": server.url, "registrationId": registration["registrationId"],
         "data": data},
    )  # fmt: skip
    status = _push_event_status(page, events, data)
    assert status == "Success", f"the worker's push event ended: {status}"
    # Polled from here: page.evaluate awaits the promise, where wait_for_function took the
    # pending promise itself for a true answer and read the notices before the new one.
    listed = (
        "navigator.serviceWorker.ready.then(r => r.getNotifications()).then(ns => ns.map("
        "n => ({title: n.title, body: n.body, tag: n.tag, url: n.data.url, icon: n.icon})))"
    )
    for _ in range(200):
        found: list[Any] = page.evaluate(listed)
        if any(n["body"] == payload["body"] for n in found):
            return found
        page.wait_for_timeout(50)
    raise AssertionError(f"the worker never showed {payload['body']!r}; it shows {found}")


def _push_event_status(page: Any, events: list[dict[str, Any]], data: str) -> str:
    """The status DevTools records when the push event carrying ``data`` ends (its
    ``waitUntil`` settled): the first "Push event completed" after that event's dispatch. An
    observer also receives the events recorded before it started: earlier pushes'."""
    for _ in range(600):  # up to 30 s: room for a worker starved of CPU
        dispatched = [
            i
            for i, e in enumerate(events)
            if e["eventName"] == "Push event dispatched"
            and {"key": "Payload", "value": data} in e["eventMetadata"]
        ]
        if dispatched:
            for e in events[dispatched[0] + 1 :]:
                if e["eventName"] == "Push event completed":
                    metadata = {m["key"]: m["value"] for m in e["eventMetadata"]}
                    return str(metadata.get("Status", ""))
        page.wait_for_timeout(50)
    seen = [(e["eventName"], e["eventMetadata"]) for e in events]
    raise AssertionError(f"the push event never ended; DevTools recorded {seen}")


def test_the_worker_shows_the_notice_and_opens_only_this_site(
    new_page: Any, server: ServerThread
) -> None:
    made = started_table(server)
    page = push_page(
        new_page, DESKTOP, STUB % json.dumps(Device(endpoint="https://x.example/4").subscription())
    )
    page.goto(f"{server.url}/t/{made['table_id']}#seat={made['token']}")
    open_card(page)
    page.locator("#push-enable:not([disabled])").click(timeout=10_000)
    page.locator("#push-on").wait_for(timeout=10_000)
    notice = {
        "title": "Your move: Toy",
        "body": "Anna, it is your move.",
        "url": "/t/abc",
        "tag": "T1",
    }
    [shown] = _push_to_worker(page, server, notice)
    assert shown == {
        "title": "Your move: Toy",
        "body": "Anna, it is your move.",
        "tag": "T1",
        "url": "/t/abc",
        "icon": f"{server.url}/static/img/crest-192.png",
    }
    # A newer notice of the table replaces it; a URL of another site is never opened.
    elsewhere = {**notice, "body": "Reminder", "url": "https://elsewhere.example/t/abc"}
    shown_now = _push_to_worker(page, server, elsewhere)
    assert [(n["body"], n["url"]) for n in shown_now] == [("Reminder", "/")]
