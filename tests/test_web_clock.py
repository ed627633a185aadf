"""The move clock at the browser table (issue 30, point 1; docs/clock.md), in a real headless Chromium: two people
at a table with a 5-second clock. Anna plays; Bernd (on a phone) does nothing: Anna sees his countdown run out and
then "the computer plays for Bernd"; Bernd sees that his time ran out and takes his seat back with "I'm back",
after which his own countdown runs. Screenshots: test-output/screenshots/clock-*.png."""

from __future__ import annotations

import time

import pytest

from test_server_support import ServerProcess, axe_problems, shot

DESKTOP = {"viewport": {"width": 1366, "height": 768}}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = ServerProcess(f"sqlite:///{tmp_path_factory.mktemp('clock') / 'skat.sqlite'}").start()
    yield srv
    srv.stop()


def _page(browser, size, lang="en"):
    context = browser.new_context(**size)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.add_init_script(f"localStorage.setItem('skat.lang', '{lang}');")
    return context, page, errors


MY_TURN = """() => { const v = S.state && S.state.view; return !!v && v.phase !== 'finished'
    && v.to_move === S.state.you.seat && v.legal_actions.length > 0 && !(S.state.table.clock
    && S.state.table.clock.away.includes(S.state.you.position)); }"""


def _act_if_my_turn(page) -> None:
    page.evaluate(f"""() => {{ if (!({MY_TURN})()) return; const v = S.state.view, seq = S.state.seq;
        S.ws.send({{type: 'action', action: v.legal_actions.includes('pass') ? 'pass' : v.legal_actions[0], seq}}); }}""")


def _until(anna, check, seconds=30.0):
    """Let Anna play her decisions until ``check()`` holds."""
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "the table did not get there in time"
        _act_if_my_turn(anna)
        time.sleep(0.1)


def test_a_person_who_lets_the_time_run_out_is_played_for_and_comes_back(browser, server):
    a_context, anna, a_errors = _page(browser, DESKTOP)
    b_context, bernd, b_errors = _page(browser, PHONE, lang="de")
    try:
        anna.goto(server.url)
        anna.select_option("#f-clock", "auto")
        assert anna.locator("#f-clock option[value='30']").text_content() == "30 s per decision"
        made = anna.evaluate("""() => fetch('/api/tables', {method: 'POST', headers: {'Content-Type': 'application/json'},
            body: JSON.stringify({seats: ['human', 'human', 'random'], claim: 0, public: false, player_name: 'Anna',
                                  clock: {decision: 5, reserve: 0, grace: 60}})}).then(r => r.json())""")
        assert made["table"]["clock"]["decision"] == 5
        anna.goto(f"{server.url}/t/{made['table_id']}#token={made['token']}")
        bernd.goto(server.url)
        joined = bernd.evaluate(f"""() => fetch('/api/tables/{made['table_id']}/join', {{method: 'POST',
            headers: {{'Content-Type': 'application/json'}}, body: JSON.stringify({{name: 'Bernd',
            invite: '{made['invite']}'}})}}).then(r => r.json())""")
        bernd.goto(f"{server.url}/t/{made['table_id']}#token={joined['token']}")
        anna.wait_for_function("() => window.S && S.state && S.state.view")
        bernd.wait_for_function("() => window.S && S.state && S.state.view")

        # Anna sees Bernd's countdown while he is to move (before his time runs out)
        bernd_moves = """() => { const st = S.state; const v = st && st.view; return !!v && v.phase !== 'finished'
            && st.table.positions[v.to_move] === 1 && !st.table.clock.away.includes(1); }"""
        _until(anna, lambda: anna.evaluate(bernd_moves))
        counting = anna.locator("[data-clock-pos='1']")
        counting.wait_for()
        anna.wait_for_function("() => /^0:0[1-5]$/.test(document.querySelector(\"[data-clock-pos='1']\").textContent)")
        shot(anna, "clock-desktop-countdown")

        # his time runs out: the computer plays for him; Anna reads it beside his name
        _until(anna, lambda: anna.evaluate("() => S.state.table.clock.away.includes(1)"), seconds=20)
        anna.locator(".opponent .stand-in").wait_for()
        assert anna.locator(".opponent .stand-in").text_content() == "the computer plays for Bernd"
        # Bernd's phone says so, in German, and offers his seat back
        bernd.locator("#away-box").wait_for()
        assert bernd.locator("#away-text").text_content().startswith("Deine Zeit ist abgelaufen")
        assert bernd.locator("#btn-back").text_content() == "Ich bin zurück"
        shot(bernd, "clock-phone-away")
        assert not axe_problems(bernd, "the away box on a phone")

        # he is back: the box goes, and when he is to move his own countdown runs
        bernd.locator("#btn-back").click()
        bernd.locator("#away-box").wait_for(state="hidden")
        anna.wait_for_function("() => !S.state.table.clock.away.includes(1)")
        _until(anna, lambda: anna.evaluate(bernd_moves) or anna.evaluate("() => S.state.view.phase === 'finished'"))
        if anna.evaluate(bernd_moves):
            bernd.wait_for_function("() => /^Deine Zeit: 0:0\\d$/.test(document.querySelector('#my-clock').textContent)")
            shot(bernd, "clock-phone-mine")
        assert not [e for e in a_errors + b_errors if "WebSocket" not in e]
    finally:
        a_context.close()
        b_context.close()
