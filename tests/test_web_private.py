"""A private table in a real headless Chromium: created from the lobby (private unless "public" is ticked), its
invite link shown with a copy button, opened on a phone to watch and sit down, refused without the link.
Screenshots of the invite link (desktop and phone) go to test-output/screenshots."""

from __future__ import annotations

import json
from pathlib import Path

import httpx

from test_server_support import ServerProcess, shot
from test_web_e2e import new_page

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def test_a_private_table_is_joined_through_its_invite_link(browser, tmp_path):
    server = ServerProcess(f"sqlite:///{tmp_path / 'private.sqlite'}").start()
    errors: list = []
    try:
        a = new_page(browser, errors, viewport={"width": 1280, "height": 800})
        a.goto(server.url + "/")
        a.wait_for_selector("#f-seat-2")
        assert not a.is_checked("#f-public") and "lobby" in a.inner_text("#f-public-row")
        a.fill("#f-name", "Stammtisch")
        a.fill("#f-player", "Ada")
        a.select_option("#f-seat-1", "human")
        a.select_option("#f-seat-2", "human")
        shot(a, "40-new-private-table")
        a.click("#create-form button[type=submit]")
        a.wait_for_selector("#panel .invite-box input.invite-url")
        link = a.input_value("#panel input.invite-url")
        tid = a.evaluate("() => S.tableId")
        assert link.startswith(f"{server.url}/t/{tid}#invite=") and len(link.split("#invite=")[1]) >= 20
        assert "This table is private" in a.inner_text("#panel")
        a.click("#panel button.copy-invite")
        a.wait_for_selector("#panel button.copy-invite:has-text('Copied')")
        shot(a, "41-invite-link-desktop")
        assert httpx.get(server.url + "/api/tables").json()["tables"] == []  # not in the lobby
        # without the link a person is told what to do, and sees nothing of the table
        stranger = new_page(browser, errors)
        stranger.goto(f"{server.url}/t/{tid}")
        stranger.wait_for_selector("#dialog p.denied")
        assert "private" in stranger.inner_text("#dialog") and stranger.evaluate("() => S.state") is None
        shot(stranger, "44-private-table-refused")
        # the invited person opens the link on a phone: watches, then takes a seat
        b = new_page(browser, errors, **PHONE)
        b.goto(link)
        b.wait_for_function("() => S.state && S.state.you.role === 'spectator'")
        assert "#invite" not in b.url  # kept in the browser, taken out of the address bar
        b.click("#panel button.primary")
        b.fill("#join-name", "Bea")  # asked in a form of the page
        b.click("#dialog .name-form button[type=submit]")
        b.wait_for_function("() => S.state && S.state.you.role === 'player' && S.state.you.position === 1")
        b.wait_for_selector("#panel .invite-box input.invite-url")
        assert b.input_value("#panel input.invite-url") == link
        shot(b, "42-invite-link-phone")
        assert not b.is_visible("#btn-invite") and b.is_visible("#bottombar")  # on a phone: in the menu
        b.click("#bb-menu")
        b.wait_for_selector("#dialog.dlg-menu #sel-deck")  # the deck and the language are in the menu too
        b.get_by_role("button", name="Invite", exact=True).click()
        b.wait_for_selector("#dialog.dlg-invite input.invite-url")
        assert b.input_value("#dialog input.invite-url") == link
        shot(b, "43-invite-dialog-phone")
        b.keyboard.press("Escape")
        b.reload()  # the seat stays (the token is kept)
        b.wait_for_function("() => S.state && S.state.you.position === 1")
        # a third person comes through the same link: the deal starts
        c = new_page(browser, errors)
        c.goto(link)
        c.wait_for_selector("#panel button.primary")
        c.click("#panel button.primary")
        c.fill("#join-name", "Cid")
        c.click("#dialog .name-form button[type=submit]")
        c.wait_for_selector("#hand .card")
        a.wait_for_function("() => S.state && S.state.table.status === 'playing'")
        assert [s["name"] for s in a.evaluate("() => S.state.table.seats")][0] == "Ada"
        # the score sheet downloads at a private table too (fetched with the secret in a header)
        a.click("#btn-sheet")
        a.wait_for_selector("#dialog.dlg-sheet")
        with a.expect_download() as got:
            a.click("#dialog a:has-text('Score sheet (JSON)')")
        sheet = json.loads(Path(got.value.path()).read_text())
        assert sheet["table"]["name"] == "Stammtisch" and got.value.suggested_filename == f"skat-{tid}-sheet.json"
    finally:
        server.stop()
    assert not errors
