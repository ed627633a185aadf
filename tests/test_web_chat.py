"""The chat in a real headless Chromium (issue 30, point 2; docs/chat.md): two players at a table, one reading
English and one German, exchange messages; markup shows as the characters it is (no element, no script); a preset
phrase reads in each reader's language; a muted player's messages disappear for the muter; a message too long and a
flood are refused, said in the chat; the phone's chat opens from the bottom bar; the lobby's chat is for signed-in
accounts. axe finds nothing serious. Screenshots: test-output/screenshots/chat-*.png."""

from __future__ import annotations

import pytest

from test_server_support import ServerProcess, axe_problems, shot

DESKTOP = {"viewport": {"width": 1366, "height": 768}}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
MARKUP = '<img src=x onerror="window.__xss=1"><b>bold</b> & <script>window.__xss=2</script>'


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = ServerProcess(f"sqlite:///{tmp_path_factory.mktemp('chat') / 'skat.sqlite'}").start()
    yield srv
    srv.stop()


def page_of(browser, server, lang: str, size=DESKTOP):
    context = browser.new_context(**size)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" and "401" not in m.text and "404" not in m.text else None)
    page.add_init_script(f"localStorage.setItem('skat.lang', '{lang}');")
    page.goto(server.url)
    return context, page, errors


def sit_down(page, server, table_id: str, token: str) -> None:
    page.goto(f"{server.url}/t/{table_id}#token={token}")
    page.wait_for_function("() => S.state && S.state.you.role === 'player'")


def new_table(page) -> dict:
    return page.evaluate("""() => fetch('/api/tables', {method: 'POST', headers: {'Content-Type': 'application/json'},
        body: JSON.stringify({seats: ['human', 'human', 'random'], claim: 0, player_name: 'Anna', public: false})})
        .then(r => r.json())""")


def join(page, made: dict, name: str) -> str:
    return page.evaluate("""([id, invite, name]) => fetch(`/api/tables/${id}/join`, {method: 'POST',
        headers: {'Content-Type': 'application/json'}, body: JSON.stringify({name, position: 1, invite})})
        .then(r => r.json()).then(j => j.token)""", [made["table_id"], made["invite"], name])


def say(page, text: str) -> None:
    page.fill("#table-chat .chat-input", text)
    page.press("#table-chat .chat-input", "Enter")


def lines(page) -> list[str]:
    return page.eval_on_selector_all("#table-chat .chat-line .chat-text", "els => els.map(e => e.textContent)")


def test_two_players_chat_markup_is_text_phrases_are_translated_and_mute_hides(browser, server):
    ctx_a, anna, errors_a = page_of(browser, server, "en")
    ctx_b, bert, errors_b = page_of(browser, server, "de")
    try:
        made = new_table(anna)
        token = join(bert, made, "Bert")
        sit_down(anna, server, made["table_id"], made["token"])
        sit_down(bert, server, made["table_id"], token)
        assert anna.locator("#table-chat .chat-empty").inner_text() == "No messages yet."
        say(anna, MARKUP)
        bert.wait_for_function("() => document.querySelectorAll('#table-chat .chat-line').length === 1")
        assert lines(bert) == [MARKUP]  # the characters as written
        assert bert.locator("#table-chat img, #table-chat b, #table-chat script").count() == 0
        assert bert.evaluate("() => window.__xss") is None and anna.evaluate("() => window.__xss") is None
        assert bert.locator("#table-chat .chat-who").first.inner_text() == "Anna"
        anna.select_option("#table-chat .chat-phrases", "well_played")
        bert.wait_for_function("() => document.querySelectorAll('#table-chat .chat-line').length === 2")
        assert lines(bert)[-1] == "Gut gespielt!"
        anna.wait_for_function("() => document.querySelectorAll('#table-chat .chat-line').length === 2")
        assert lines(anna)[-1] == "Well played!"
        say(bert, "Danke, gleichfalls")
        anna.wait_for_function("() => [...document.querySelectorAll('#table-chat .chat-text')].some(e => e.textContent === 'Danke, gleichfalls')")
        assert not axe_problems(anna, "chat desktop en")
        shot(anna, "chat-desktop-en")
        # the limits, refused by the server and said in the chat (the page's own field stops at 300 characters)
        anna.evaluate("() => S.ws.send({type: 'chat', text: 'x'.repeat(301)})")
        anna.wait_for_function("() => document.querySelector('#table-chat .chat-error').textContent !== ''")
        assert anna.locator("#table-chat .chat-error").inner_text() == "Too long: at most 300 characters."
        assert anna.get_attribute("#table-chat .chat-input", "maxlength") == "300"
        anna.evaluate("() => { for (let i = 0; i < 6; i++) S.ws.send({type: 'chat', text: 'spam ' + i}); }")
        anna.wait_for_function("() => document.querySelector('#table-chat .chat-error').textContent.startsWith('Too many')")
        assert anna.locator("#banner").is_hidden()  # said in the chat, not in the table's banner
        shot(anna, "chat-desktop-en-flood")
        # Bert mutes Anna: her messages go from his page, and the server sends him none any more; as he is the only
        # one who would read her now, her next message is refused
        bert.wait_for_function("() => document.querySelectorAll('#table-chat .chat-line').length === 6")
        bert.click("#table-chat .chat-line:not(.mine) .chat-mute")
        assert lines(bert) == ["Danke, gleichfalls"]
        assert bert.locator("#table-chat .chat-unmute").inner_text() == "Stummgeschaltete Person wieder zeigen"
        bert.wait_for_timeout(200)  # the mute reached the server
        say(anna, "can you read me?")
        anna.wait_for_function("() => document.querySelector('#table-chat .chat-error').textContent.startsWith('Everybody')")
        assert anna.locator("#table-chat .chat-error").inner_text() == "Everybody here muted you: your message was not sent."
        assert lines(bert) == ["Danke, gleichfalls"]
        assert not axe_problems(bert, "chat desktop de muted")
        shot(bert, "chat-desktop-de-muted")
        bert.click("#table-chat .chat-unmute")  # shown again
        assert len(lines(bert)) == 6 and bert.locator("#table-chat .chat-unmute").is_hidden()
        assert not errors_a and not errors_b, (errors_a, errors_b)
    finally:
        ctx_a.close()
        ctx_b.close()


def test_the_phone_opens_the_chat_from_the_bottom_bar(browser, server):
    ctx, page, errors = page_of(browser, server, "de", PHONE)
    try:
        made = new_table(page)
        sit_down(page, server, made["table_id"], made["token"])
        assert page.locator("#table-chat").is_hidden()  # closed on a phone: the hand stays in view
        page.click("#bb-chat")
        assert page.locator("#table-chat .chat-input").is_visible()
        say(page, "Gut Blatt allerseits! " + "Ein längerer Satz, der umbrechen muss. " * 2)
        page.wait_for_function("() => document.querySelectorAll('#table-chat .chat-line').length === 1")
        page.select_option("#table-chat .chat-phrases", "good_luck")
        page.wait_for_function("() => document.querySelectorAll('#table-chat .chat-line').length === 2")
        box = page.locator("#table-chat").bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390 and box["y"] + box["height"] <= 844 - 40
        assert not axe_problems(page, "chat phone open")
        shot(page, "chat-phone-de")
        page.click("#table-chat .chat-toggle")
        assert page.locator("#table-chat").is_hidden()
        assert not errors, errors
    finally:
        ctx.close()


def test_the_lobby_chat_is_for_signed_in_accounts(browser, server):
    ctx, page, errors = page_of(browser, server, "en")
    other_ctx, other, other_errors = page_of(browser, server, "pl")
    try:
        page.wait_for_selector("#lobby-chat .chat-sign-in")
        assert page.locator("#lobby-chat .chat-input").is_hidden()
        status = page.evaluate("""() => fetch('/api/account/register', {method: 'POST',
            headers: {'Content-Type': 'application/json'}, body: JSON.stringify({name: 'Lobbyist', password: 'secret-pass'})})
            .then(r => r.status)""")
        assert status == 201
        page.reload()
        page.wait_for_selector("#lobby-chat .chat-input", state="visible")
        page.fill("#lobby-chat .chat-input", "Who plays a <i>round</i>?")
        page.press("#lobby-chat .chat-input", "Enter")
        page.wait_for_function("() => document.querySelectorAll('#lobby-chat .chat-line').length === 1")
        page.select_option("#lobby-chat .chat-phrases", "hello")
        page.wait_for_function("() => document.querySelectorAll('#lobby-chat .chat-line').length === 2")
        other.wait_for_function("() => document.querySelectorAll('#lobby-chat .chat-line').length === 2", timeout=10000)
        texts = other.eval_on_selector_all("#lobby-chat .chat-text", "els => els.map(e => e.textContent)")
        assert texts == ["Who plays a <i>round</i>?", "Cześć!"]
        assert other.locator("#lobby-chat i").count() == 0
        assert not axe_problems(page, "lobby chat")
        page.locator("#lobby-chat").scroll_into_view_if_needed()
        shot(page, "chat-lobby-en")
        assert not errors and not other_errors, (errors, other_errors)
    finally:
        ctx.close()
        other_ctx.close()
