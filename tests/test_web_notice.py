"""Noticing your turn at the browser table (issue 30, point 5), in a real headless Chromium: with the player's
choices on, a sound for each card and for your turn; while the tab is hidden the title says it is your turn and a
system notification does too; back in the tab, the title is plain again. The browser's sound, notifications and
visibility are stand-ins the page cannot tell from the real ones (an init script), so what the page did is
counted. Screenshots: test-output/screenshots/notice-*.png."""

from __future__ import annotations

import time

import pytest

from test_server_support import ServerProcess, axe_problems, shot

DESKTOP = {"viewport": {"width": 1366, "height": 768}}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}

STAND_INS = """
window.__tones = 0; window.__notes = []; window.__hidden = %(hidden)s;
class FakeAudio {
  constructor() { this.state = 'running'; this.currentTime = 0; this.destination = {}; }
  resume() { return Promise.resolve(); }
  createOscillator() { return {frequency: {value: 0}, connect(g) { return g; }, start() { window.__tones++; }, stop() {}}; }
  createGain() { return {gain: {setValueAtTime() {}, exponentialRampToValueAtTime() {}}, connect(d) { return d; }}; }
}
window.AudioContext = FakeAudio;
class FakeNotification {
  constructor(title, options) { window.__notes.push([title, options && options.body]); }
  close() {}
  static requestPermission() { return Promise.resolve('granted'); }
}
FakeNotification.permission = '%(permission)s';
window.Notification = FakeNotification;
Object.defineProperty(Document.prototype, 'hidden', {configurable: true, get() { return window.__hidden; }});
Object.defineProperty(Document.prototype, 'visibilityState', {configurable: true,
  get() { return window.__hidden ? 'hidden' : 'visible'; }});
localStorage.setItem('skat.lang', '%(lang)s');
"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = ServerProcess(f"sqlite:///{tmp_path_factory.mktemp('notice') / 'skat.sqlite'}").start()
    yield srv
    srv.stop()


def table_page(browser, server, *, hidden: bool, permission: str = "granted", lang: str = "en", size=DESKTOP,
               settings: str | None = None):
    context = browser.new_context(**size)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    script = STAND_INS % {"hidden": "true" if hidden else "false", "permission": permission, "lang": lang}
    if settings is not None:
        script += f"localStorage.setItem('skat.notice', '{settings}');"
    page.add_init_script(script)
    page.goto(server.url)
    made = page.evaluate("""() => fetch('/api/tables', {method: 'POST', headers: {'Content-Type': 'application/json'},
        body: JSON.stringify({seats: ['human', 'random', 'random'], deals: 1, claim: 0, public: false})})
        .then(r => r.json())""")
    page.goto(f"{server.url}/t/{made['table_id']}#token={made['token']}")
    page.wait_for_function("() => S.state && S.state.view")
    return context, page, errors


MY_TURN = """() => { const v = S.state && S.state.view; return !!v && v.phase !== 'finished'
    && v.to_move === S.state.you.seat && v.legal_actions.length > 0; }"""


def act(page) -> None:
    page.evaluate("""() => { const v = S.state.view, seq = S.state.seq;
        S.ws.send({type: 'action', action: v.legal_actions.includes('pass') ? 'pass' : v.legal_actions[0], seq}); }""")


def test_a_hidden_tab_says_it_is_your_turn_and_sounds_follow_the_cards(browser, server):
    context, page, errors = table_page(browser, server, hidden=True, settings='{"sound":true,"notify":true}')
    try:
        assert page.locator("#notice-sound").is_checked() and page.locator("#notice-notify").is_checked()
        page.wait_for_function(MY_TURN, timeout=20000)
        page.wait_for_function("() => document.title.startsWith('● ')")
        assert page.title() == "● Your turn · Skat"
        notes = page.evaluate("() => window.__notes")
        assert notes and notes[0][0] == "Your turn" and notes[0][1].startswith("It is your turn at ")
        assert page.evaluate("() => window.__tones") >= 2  # the turn's two tones
        # back in the tab: the title is plain again
        page.evaluate("() => { window.__hidden = false; document.dispatchEvent(new Event('visibilitychange')); }")
        page.wait_for_function("() => document.title === 'Skat'")
        # play on: every card played sounds
        deadline = time.time() + 60
        while not page.evaluate("() => S.state.view.phase === 'play' && S.state.view.tricks.length >= 2"):
            assert time.time() < deadline, page.evaluate("() => S.state.view")
            if page.evaluate("() => S.state.view.phase === 'finished'"):
                break  # the deal ended without two tricks (passed in, a lost Null)
            if page.evaluate(MY_TURN):
                act(page)
            page.wait_for_timeout(60)
        assert page.evaluate("() => window.__tones") >= 2 + (6 if page.evaluate(
            "() => S.state.view.phase === 'play'") else 0)
        assert page.title() == "Skat"  # visible: never marked
        assert not axe_problems(page, "notice desktop")
        shot(page, "notice-side-en-desktop")
        assert not errors, errors
    finally:
        context.close()


def test_nothing_sounds_or_notifies_unless_chosen_and_a_refusal_is_said(browser, server):
    context, page, errors = table_page(browser, server, hidden=True, permission="default", lang="de", size=PHONE)
    try:
        assert not page.locator("#notice-sound").is_checked() and not page.locator("#notice-notify").is_checked()
        page.wait_for_function(MY_TURN, timeout=20000)
        page.wait_for_function("() => document.title.startsWith('● Du bist dran')")  # the title is always marked
        assert page.evaluate("() => [window.__tones, window.__notes.length]") == [0, 0]
        # the choices are in the phone's menu; a browser that refuses notifications is said so
        page.evaluate("() => { window.Notification.requestPermission = () => Promise.resolve('denied'); }")
        page.click("#bb-menu")
        page.click("#notice-notify")
        page.wait_for_function("() => S.dialog === 'alert'")
        assert "Benachrichtigungen" in page.locator("#dialog").inner_text()
        page.keyboard.press("Escape")
        assert page.evaluate("() => JSON.parse(localStorage.getItem('skat.notice')).notify") is False
        page.click("#bb-menu")
        page.click("#notice-sound")  # a sample of the sound, and the choice kept
        assert page.evaluate("() => window.__tones") == 2
        assert page.evaluate("() => JSON.parse(localStorage.getItem('skat.notice')).sound") is True
        shot(page, "notice-menu-de-phone")
        assert not axe_problems(page, "notice phone menu")
        assert not errors, errors
    finally:
        context.close()
