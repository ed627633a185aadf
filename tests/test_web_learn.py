"""Learn Skat in a real headless Chromium: every lesson played through to its end in every language, at desktop
and phone size, by doing what the lesson suggests through the page's own buttons and cards; what the learner
reads is in the page's language; a card that may not be played is refused with the follow-suit rule; the page
is axe-clean and never scrolls sideways on a phone. Screenshots go to test-output/screenshots/learn-*.png."""

from __future__ import annotations

import json
import re
import time

import pytest

from test_server_support import ROOT, ServerProcess, axe_problems, shot

LANGS = ("en", "de", "ru", "pl", "ko")
LESSONS = ("first-game", "defending", "overbid")
DESKTOP = {"viewport": {"width": 1366, "height": 768}}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
CATALOGS = ROOT / "src" / "skat" / "web" / "static" / "i18n"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = ServerProcess(f"sqlite:///{tmp_path_factory.mktemp('learn') / 'skat.sqlite'}").start()
    yield srv
    srv.stop()


def open_lesson(browser, server, lang: str, lesson: str, size: dict):
    context = browser.new_context(**size)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.add_init_script(f"localStorage.setItem('skat.lang', '{lang}');"  # a reload keeps the lesson where it was
                         f"if (!localStorage.getItem('skat.learn')) localStorage.setItem('skat.learn', "
                         f"JSON.stringify({{lesson: '{lesson}', actions: []}}));")
    page.goto(f"{server.url}/learn")
    page.wait_for_function("() => window.learnState && window.learnState()")
    return context, page, errors


def wait_for(page, actions: int) -> None:
    """Until the page has the answer to its ``actions``-th action."""
    page.wait_for_function(f"() => learnActions() === {actions} && learnState() && "
                           f"learnState().events.filter(e => e.seat === learnState().seat).length === {actions}",
                           timeout=20000)


def click_card(page, card: str) -> None:
    """Click a card of the hand where a person sees it: the hand's cards overlap, the left edge of each shows."""
    page.click(f"#l-hand .card[data-card={card}]", position={"x": 8, "y": 30})


def do(page, token: str) -> None:
    """Make the action ``token`` as a learner would: a card, two cards and "put away", or a button."""
    if re.fullmatch(r"[CSHD][789TJQKA]", token):
        click_card(page, token)
    elif token.startswith("discard "):
        for card in token.split()[1:]:
            click_card(page, card)
        page.click("#l-actions button.primary")
    else:
        label = page.evaluate("t => learnWords.actionWords(t)", token)
        page.locator("#l-actions button").filter(has_text=re.compile(f"^{re.escape(label)}$")).click()


def english_leaks(page, lang: str) -> list[str]:
    """English texts of the learn section shown on a page in another language."""
    if lang == "en":
        return []
    en = json.loads((CATALOGS / "en.json").read_text(encoding="utf-8"))["learn"]
    own = json.loads((CATALOGS / f"{lang}.json").read_text(encoding="utf-8"))["learn"]
    shown = page.inner_text("body")
    return [text for key, text in en.items()
            if isinstance(text, str) and "{" not in text and len(text) > 4 and own.get(key) != text and text in shown]


@pytest.mark.parametrize("lang", LANGS)
def test_every_lesson_to_its_end(browser, server, lang):
    problems: list[str] = []
    for n, lesson in enumerate(LESSONS):
        size_name, size = (("desktop", DESKTOP), ("phone", PHONE))[(n + LANGS.index(lang)) % 2]
        context, page, errors = open_lesson(browser, server, lang, lesson, size)
        try:
            assert page.locator("#l-lesson-name").inner_text().startswith(f"{n + 1}.")
            done = 0
            started = time.time()
            while not page.evaluate("learnState().over"):
                assert time.time() - started < 120, f"{lesson} in {lang} did not end"
                if done in (0, 7):
                    page.click("#l-show")
                    suggestion = page.locator(".l-suggestion").inner_text()
                    assert suggestion and suggestion == suggestion.strip()
                    if done == 7:
                        page.wait_for_function("() => [...document.images].every(i => i.complete)")
                        shot(page, f"learn-{lesson}-{lang}-{size_name}-suggestion")
                token = page.evaluate("learnState().suggestion.action")
                do(page, token)
                done += 1
                wait_for(page, done)
            result = page.locator("#l-result-steps li").all_inner_texts()
            assert len(result) >= 4 and all(line.strip() for line in result)
            assert page.locator("#l-result").is_visible()
            page.wait_for_function("() => [...document.images].every(i => i.complete)")
            assert not any("{" in line for line in result), result  # every placeholder filled
            shot(page, f"learn-{lesson}-{lang}-{size_name}-result")
            problems += [f"{lesson}/{lang}: {text}" for text in english_leaks(page, lang)]
            problems += axe_problems(page, f"learn-{lesson}-{lang}-{size_name}")
            width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
            assert width[0] <= width[1], f"{lesson} in {lang} scrolls sideways on a {size_name}: {width}"
            assert not errors, errors
        finally:
            context.close()
    assert not problems, "\n".join(problems)


def test_a_card_that_may_not_be_played_is_refused_with_the_rule(browser, server):
    """Defending, the first trick: spades are trumps, the declarer leads the S8 and the learner (middlehand)
    holds ST and S7 besides the jacks; a heart may not be played, and a jack is a trump."""
    context, page, errors = open_lesson(browser, server, "en", "defending", DESKTOP)
    try:
        for n, token in enumerate(["pass", "pickup"][:1], start=1):
            do(page, token)
            wait_for(page, n)
        view = page.evaluate("learnState().view")
        assert view["phase"] == "play" and view["trick"] == [[0, "S8"]]
        assert "HA" not in view["legal_actions"]
        click_card(page, "HA")
        note = page.locator("#l-note").inner_text()
        assert "may not be played" in note and "Eight of Spades was led" in note and "you must follow" in note
        assert page.evaluate("learnActions()") == 1  # nothing was played
        prompt = page.locator("#l-prompt").inner_text()
        assert "you must follow with trumps if you can" in prompt
        shot(page, "learn-illegal-card")
        do(page, "ST")
        wait_for(page, 2)
        assert page.locator("#l-note").inner_text() == ""
        page.reload()  # the lesson goes on where it was
        page.wait_for_function("() => window.learnState && window.learnState()")
        assert page.evaluate("learnActions()") == 2
        page.click("#l-undo")
        wait_for(page, 1)
        assert page.evaluate("learnState().view.trick") == [[0, "S8"]]
        assert not errors, errors
    finally:
        context.close()
