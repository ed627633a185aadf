"""Friends in a real headless Chromium (issue 30, point 3; docs/friends.md): Anna follows Bernd from his page; while
Bernd sits at his public table, Anna's lobby shows him online at that table; Anna invites him to her private table
from its Invite dialog with one click; Bernd's lobby (on a phone, in German) shows the invitation and its "Join"
takes him to her table; Bernd blocks Anna, and her page shows the block. Screenshots:
test-output/screenshots/friends-*.png."""

from __future__ import annotations

import pytest

from test_server_support import ServerProcess, axe_problems, shot

DESKTOP = {"viewport": {"width": 1366, "height": 768}}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = ServerProcess(f"sqlite:///{tmp_path_factory.mktemp('friends') / 'skat.sqlite'}").start()
    yield srv
    srv.stop()


def person(browser, server, name: str, size, lang: str):
    """A browser context signed in as a new account, its page open at the lobby."""
    context = browser.new_context(**size)
    context.add_init_script(f"localStorage.setItem('skat.lang', '{lang}'); localStorage.setItem('skat.players.lang', '{lang}');")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    r = page.request.post(server.url + "/api/account/register", data={"name": name, "password": f"password-{name}"},
                          headers={"Origin": server.url})
    assert r.status == 201, r.text()
    me = page.request.get(server.url + "/api/me").json()["player"]["id"]
    return context, page, errors, me


def test_following_inviting_and_blocking_in_the_browser(browser, server):
    a_context, anna, a_errors, a = person(browser, server, "Anna", DESKTOP, "en")
    b_context, bernd, b_errors, b = person(browser, server, "Bernd", PHONE, "de")
    try:
        # Anna follows Bernd from his page
        anna.goto(f"{server.url}/players/{b}")
        anna.locator("#f-follow").wait_for()
        assert anna.inner_text("#f-follow") == "Follow"
        anna.click("#f-follow")
        anna.wait_for_function("() => document.querySelector('#f-follow').textContent === 'Unfollow'")
        # Bernd sits at his public table
        bernd.goto(server.url)
        made = bernd.evaluate("""() => fetch('/api/tables', {method: 'POST', headers: {'Content-Type': 'application/json'},
            body: JSON.stringify({name: 'Bernds Tisch', public: true, seats: ['human', 'human', 'strong']})}).then(r => r.json())""")
        bernd.goto(f"{server.url}/t/{made['table_id']}#token={made['token']}")
        bernd.wait_for_function("() => window.S && S.state && S.state.table")
        # Anna's lobby: Bernd online at his table, with its link
        anna.goto(server.url)
        anna.locator("#friends-box li.online").wait_for()
        entry = anna.locator("#friends-box li.online")
        assert "Bernd" in entry.inner_text() and "online · at Bernds Tisch" in entry.inner_text()
        assert entry.locator("a.f-go").get_attribute("href") == f"/t/{made['table_id']}"
        assert anna.inner_text("#friends-title") == "Friends"
        shot(anna, "friends-desktop-lobby")
        assert not axe_problems(anna, "the lobby with friends")
        # Anna at her private table invites Bernd with one click
        mine = anna.evaluate("""() => fetch('/api/tables', {method: 'POST', headers: {'Content-Type': 'application/json'},
            body: JSON.stringify({name: "Anna's table", seats: ['human', 'human', 'strong']})}).then(r => r.json())""")
        anna.goto(f"{server.url}/t/{mine['table_id']}#token={mine['token']}&invite={mine['invite']}")
        anna.wait_for_function("() => window.S && S.state && S.state.table")
        anna.click("#btn-invite")
        invite = anna.locator("#invite-friends li", has_text="Bernd").locator("button")
        invite.wait_for()
        invite.click()
        anna.wait_for_function("() => document.querySelector('#invite-friends li button').textContent === 'Invited'")
        shot(anna, "friends-desktop-invite")
        # Bernd's lobby shows the invitation; Join takes him to her table
        bernd.goto(server.url)
        bernd.locator("#invitations-panel .f-invitations li").wait_for()
        assert "Anna lädt dich an den Tisch Anna's table ein" in bernd.inner_text(".f-invitations li")
        shot(bernd, "friends-phone-invitation")
        assert not axe_problems(bernd, "an invitation on a phone")
        bernd.click(".f-invitations a.button")
        bernd.wait_for_function(f"() => location.pathname === '/t/{mine['table_id']}' && window.S && S.state && S.state.table")
        # the invite link lets him in at the private table: he watches it, with its free seat offered
        assert bernd.evaluate("() => S.state.you.role") == "spectator"
        assert bernd.evaluate("() => S.state.table.seats[1].taken") is False
        # Bernd blocks Anna on her page
        bernd.goto(f"{server.url}/players/{a}")
        bernd.locator("#f-block").wait_for()
        bernd.click("#f-block")
        bernd.wait_for_function("() => document.querySelector('#f-block').textContent === 'Blockierung aufheben'")
        assert "blockiert" in bernd.inner_text(".f-note")
        assert bernd.locator("#f-follow").count() == 0
        shot(bernd, "friends-phone-blocked")
        # 401 and 404 are answers the pages expect (a person with no game has no statistics)
        assert not [e for e in a_errors + b_errors if "WebSocket" not in e and "401" not in e and "404" not in e]
    finally:
        a_context.close()
        b_context.close()
