"""Polish and Korean in a real headless Chromium (issue 32): the lobby, a table played to its result, the score
keeper (the new-list form and a list with games), the club tournament (the form, the director's desk, the public
ranking), Officers' Skat (the start form, a game to its result) and the lessons (/learn), each page opened in ``pl``
and in ``ko`` (the language in localStorage, as the pickers leave it), at desktop and phone size.

A text the page shows in another language than its own fails: a visible text (or a visible control's label,
placeholder or title) that is an English catalog text (src/skat/web/static/i18n/en.json, placeholders filled
with anything) and no text of the page's language; on a Korean page any word in Latin letters that is not a
name, an abbreviation or a key; on a Polish page an English word. Nothing is wider than a phone, and Hangul is
drawn in a font that has it (Chromium falls back to the system's fonts: .ci/run installs fonts-nanum where no
Hangul font is there). Screenshots: test-output/screenshots/95-lang-*.png."""

from __future__ import annotations

import json
import re
import time

import httpx
import pytest

from test_server_support import ROOT, ServerProcess, advanced, shot
from test_web_e2e import click_action, my_turn, new_page, result_shown, table_state

I18N = ROOT / "src" / "skat" / "web" / "static" / "i18n"
LANGS = ("pl", "ko")
DESKTOP = {"viewport": {"width": 1366, "height": 768}}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
SEED = 4  # the table's deals (heuristic computer players): a game is played to its result
NAMES = {"pl": ["Łucja", "Bartosz", "Zofia", "Wojciech", "Grażyna", "Mieczysław"],
         "ko": ["김민준", "이서연", "박지호", "최수아", "정우진", "강하은"]}

#: Latin words a Korean page may show: names of things that have none in Korean (the rule set's name, the
#: scoring's inventors, file formats, keyboard keys)
LATIN_OK = {"ISkO", "ISS", "JSON", "CSV", "PDF", "Seeger", "Fabian", "Enter", "Esc", "OK", "OB", "passt", "mir", "nicht",
            "English", "Deutsch", "Polski", "Skat"}
#: English words that no Polish text has (a Polish page showing one shows English)
ENGLISH = re.compile(r"\b(the|and|with|without|of|is|are|was|for|won|lost|points|trick|tricks|declarer|bid|worth|counts|"
                     r"game|games|player|players|table|tables|card|cards|deal|deals|dealer|series|round|hand of)\b", re.I)

VISIBLE_TEXTS = """() => {
  const out = [];
  const shown = (el) => el && el.checkVisibility({checkOpacity: true, checkVisibilityCSS: true});
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    const text = n.textContent.replace(/\\s+/g, " ").trim();
    if (!text || !el || ["SCRIPT", "STYLE", "TEMPLATE"].includes(el.tagName)) continue;
    if (el.tagName === "OPTION" ? shown(el.closest("select")) : shown(el)) out.push(text);
  }
  for (const el of document.querySelectorAll("[placeholder], [title], [aria-label], input[type=button], input[type=submit]")) {
    if (!shown(el)) continue;
    for (const a of ["placeholder", "title", "aria-label", "value"]) {
      if (a === "value" && !["button", "submit"].includes(el.type)) continue;
      const v = (el.getAttribute(a) || "").trim();
      if (v) out.push(v);
    }
  }
  out.push(document.title);
  return out;
}"""


def _forms(text) -> list[str]:
    return list(text.values()) if isinstance(text, dict) else [text]


def _pattern(template: str) -> re.Pattern:
    """A catalog text as a pattern of what the page shows: each {placeholder} anything."""
    parts = re.split(r"\{\w+\}", template)
    return re.compile(".*?".join(re.escape(p) for p in parts), re.S)


def _patterns(catalog: dict) -> list[re.Pattern]:
    return [_pattern(t) for section in catalog.values() for text in section.values() for t in _forms(text)
            if _words(t)]


def _words(template: str) -> bool:
    """Whether a catalog text says something in words (two letters in a row outside its placeholders)."""
    return bool(re.search(r"[^\W\d_]{2,}", re.sub(r"\{\w+\}", "", template)))


@pytest.fixture(scope="module")
def catalogs() -> dict:
    return {lang: json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8")) for lang in ("en", *LANGS)}


@pytest.fixture(scope="module")
def english(catalogs) -> dict:
    """The page's language -> the English catalog texts (with words) that this language says otherwise."""
    out = {}
    for lang in LANGS:
        own = {t for section in catalogs[lang].values() for text in section.values() for t in _forms(text)}
        out[lang] = [(t, _pattern(t)) for section in catalogs["en"].values() for text in section.values()
                     for t in _forms(text) if _words(t) and t not in own]
    return out


@pytest.fixture(scope="module")
def own(catalogs) -> dict:
    return {lang: _patterns(catalogs[lang]) for lang in LANGS}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = ServerProcess(f"sqlite:///{tmp_path_factory.mktemp('languages') / 'languages.sqlite'}").start()
    yield srv
    srv.stop()


class Checker:
    """Looks at what a page shows in its language: :meth:`look` collects what is foreign on it."""

    def __init__(self, lang: str, english: dict, own: dict, names: list[str]) -> None:
        self.lang, self.english, self.own, self.names = lang, english[lang], own[lang], set(names)
        self.found: list[str] = []

    def foreign(self, text: str) -> list[str]:
        pieces = {text, *(p.strip() for p in re.split(r" [·—|] |: |\n|, ", text) if p.strip())}
        out = []
        for piece in pieces:
            if any(p.fullmatch(piece) for p in self.own):
                continue
            hit = next((t for t, p in self.english if p.fullmatch(piece)), None)
            if hit is not None:
                out.append(f"{piece!r} (English {hit!r})")
        if out:
            return out
        if self.lang == "ko" and not re.fullmatch(r"\S*[/#=]\S*|[0-9a-f]+", text):  # not a link, not an id
            for word in re.findall(r"[A-Za-z]{3,}", re.sub(r"\b[0-9a-f]{4,12}\b", "", text)):  # a table's id
                if word not in LATIN_OK and not any(word in n for n in self.names):
                    out.append(f"{text!r}: the Latin word {word!r}")
        elif self.lang == "pl":
            bare = text
            for n in self.names:
                bare = bare.replace(n, "")
            out += [f"{text!r}: the English word {m.group(0)!r}" for m in ENGLISH.finditer(bare)]
        return out

    def look(self, page, where: str) -> None:
        """Check the page's visible texts, its language attribute and its fit on a phone; screenshots."""
        assert page.evaluate("() => document.documentElement.lang") == self.lang, where
        for text in page.evaluate(VISIBLE_TEXTS):
            self.found += [f"{where}: {x}" for x in self.foreign(text)]
        shot(page, f"95-lang-{self.lang}-{where}-desktop")
        size = page.viewport_size
        page.set_viewport_size(PHONE["viewport"])
        page.wait_for_timeout(80)
        wide = page.evaluate("() => [document.documentElement.scrollWidth, innerWidth]")
        if wide[0] > wide[1] + 1:
            self.found.append(f"{where}: {wide[0]} px wide on a {wide[1]} px phone")
        for text in page.evaluate(VISIBLE_TEXTS):  # a phone shows some things of its own (the bottom bar)
            self.found += [f"{where} (phone): {x}" for x in self.foreign(text)]
        shot(page, f"95-lang-{self.lang}-{where}-phone")
        page.set_viewport_size(size)
        page.wait_for_timeout(50)


def open_page(browser, lang: str, errors: list):
    page = new_page(browser, errors, **DESKTOP)
    page.add_init_script(f"localStorage.setItem('skat.lang', {lang!r})")
    return page


def test_the_checker_finds_english_and_latin_words(english, own):
    pl = Checker("pl", english, own, NAMES["pl"])
    assert pl.foreign("Wszyscy spasowali") == [] and pl.foreign("Łucja wygrywa") == []
    assert pl.foreign("Everybody passed") and pl.foreign("Seat 2") and pl.foreign("Grand won with 2 card points")
    ko = Checker("ko", english, own, NAMES["ko"])
    assert ko.foreign("모두 패스") == [] and ko.foreign("김민준 승리") == [] and ko.foreign("Seeger-Fabian") == []
    assert ko.foreign("Everybody passed") and ko.foreign("트릭 3개, the declarer")


def fits_hangul(page) -> bool:
    """Whether Chromium draws Hangul in a font that has it (not the empty boxes of a missing glyph): a syllable
    measured in the page's font differs in width from the missing-glyph box."""
    return page.evaluate("""() => { const c = document.createElement('canvas').getContext('2d');
        c.font = '16px ' + getComputedStyle(document.body).fontFamily;
        const a = c.measureText('한').width, b = c.measureText('\\u{10FFFD}').width, d = c.measureText('국어').width;
        return a > 0 && Math.abs(a - b) > 0.5 && d > a; }""")


@pytest.mark.parametrize("lang", LANGS)
def test_the_lobby_and_a_table_played_to_its_result(browser, server, catalogs, english, own, lang):
    errors: list = []
    check = Checker(lang, english, own, NAMES[lang])
    page = open_page(browser, lang, errors)
    page.goto(server.url + "/")
    page.wait_for_selector("#lobby:not(.hidden)")
    page.wait_for_selector("#f-ruleset option", state="attached")
    if lang == "ko":
        assert fits_hangul(page), "Chromium has no font with Hangul (apt-get install fonts-nanum)"
    assert page.input_value("#sel-lang") == lang
    check.look(page, "lobby")

    created = httpx.post(f"{server.url}/api/tables", json={
        "seats": ["human", "heuristic", "heuristic"], "player_name": NAMES[lang][0], "seed": SEED}).json()
    page.goto(f"{server.url}/t/{created['table_id']}#token={created['token']}")
    page.wait_for_selector("#hand .card")
    page.wait_for_function("() => S.state && S.state.view")
    check.names |= set(page.evaluate("() => S.state.table.seats.map((s) => s.name)"))  # the computers' names
    play_to_result(page, check)
    assert table_state(page)["phase"] == "finished"
    check.look(page, "result")
    page.click(f"#dialog button:has-text({catalogs[lang]['table']['scoreSheet']!r})")
    page.wait_for_selector("#dialog table")
    check.look(page, "sheet")
    page.context.close()
    assert not errors, errors
    assert not check.found, "\n".join(check.found)


def play_to_result(page, check: Checker, timeout: float = 120) -> None:
    """Play the person's part of a deal through the page (hold, pick up, put away the first two, declare the first
    game offered, play the first playable card) until the result shows; each phase looked at once."""
    seen: set[str] = set()
    deadline = time.time() + timeout
    while not result_shown(page):
        assert time.time() < deadline, f"the deal did not end: {table_state(page)}"
        st = table_state(page)
        if not my_turn(st):
            time.sleep(0.05)
            continue
        phase, legal, before = st["phase"], st["legal"], st["seq"]
        if phase not in seen and phase != "declare" and (phase != "play" or st["tricks"] >= 3):
            seen.add(phase)  # the play looked at with three tricks on the table
            check.look(page, f"table-{phase}")
        if phase == "bidding":
            click_action(page, "hold" if "hold" in legal else "18" if legal == ["18", "pass"] else "pass")
        elif phase == "skat":
            click_action(page, "pickup")
        elif phase == "discard":
            cards = page.locator("#hand .card.playable")
            cards.nth(0).click()
            cards.nth(1).click()
            click_action(page, "discard")
        elif phase == "declare":
            page.wait_for_selector("#panel .chooser .games button")
            page.locator("#panel .chooser .games button").first.click()
            page.wait_for_selector('#panel .chooser [data-action^="declare "]')
            check.look(page, "table-declare")
            page.locator('#panel .chooser [data-action^="declare "]').click()
        else:
            page.locator("#hand .card.playable").first.click()
        advanced(page, before)


def keeper_games(players: list[str]) -> list[dict]:
    a, b, c = players[:3]
    d = players[3]
    return [{"declarer": b, "game": "grand", "hand": True, "with": 2, "points": 78, "bid": 18},
            {"declarer": c, "game": "clubs", "with": 1, "points": 50, "bid": 18, "kontra": True},
            {"declarer": "ramsch", "ramsch": {d: 50, a: 40, b: 30}},
            {"declarer": a, "game": "null", "result": "won", "bid": 23}]


@pytest.mark.parametrize("lang", LANGS)
def test_the_score_keeper(browser, server, english, own, lang):
    errors: list = []
    check = Checker(lang, english, own, NAMES[lang])
    page = open_page(browser, lang, errors)
    page.goto(server.url + "/keeper")
    page.wait_for_selector("#k-new-form")
    page.wait_for_selector("#k-ruleset option", state="attached")
    check.look(page, "keeper-new")
    players = NAMES[lang][:4]
    made = httpx.post(server.url + "/api/keeper", json={"players": players, "ruleset": "pub",
                                                        "first_dealer": players[0]})
    assert made.status_code == 201, made.text
    made = made.json()
    key = made["keeper_url"].split("#key=")[1]
    r = httpx.post(f"{server.url}/api/keeper/{made['id']}/changes", headers={"X-Keeper-Key": key}, json={
        "changes": [{"id": f"g{i}", "op": "add", "entry": g} for i, g in enumerate(keeper_games(players))]})
    assert r.status_code == 200 and all(x["ok"] for x in r.json()["results"]), r.text
    page.goto(server.url + made["keeper_url"])
    page.wait_for_selector('#k-sheet tr[data-n="4"]')
    check.look(page, "keeper-list")
    page.click('#k-sheet tr[data-n="1"]')
    page.wait_for_selector("#k-overlay:not(.hidden)")
    check.look(page, "keeper-game")
    page.context.close()
    assert not errors, errors
    assert not check.found, "\n".join(check.found)


@pytest.mark.parametrize("lang", LANGS)
def test_the_tournament(browser, server, english, own, lang):
    errors: list = []
    check = Checker(lang, english, own, NAMES[lang])
    page = open_page(browser, lang, errors)
    page.goto(server.url + "/tournament")
    page.wait_for_selector("#f-ruleset option", state="attached")
    page.fill("#f-name", {"pl": "Turniej klubowy", "ko": "클럽 토너먼트"}[lang])
    page.fill("#f-players", "\n".join(NAMES[lang] + [NAMES[lang][0] + "a"]))
    page.wait_for_function("() => document.querySelector('#f-count').textContent.includes('7')")
    check.look(page, "tournament-new")
    page.click("#f-create")
    page.wait_for_url("**/tn/*")
    page.wait_for_selector("#tn-draw-lot:not(.hidden)")
    page.fill("#tn-seed", "11")
    page.click("#tn-draw-lot")
    page.wait_for_function("() => document.querySelectorAll('.tn-table .tn-keeper-url').length === 2")
    check.look(page, "tournament-desk")
    tid = page.url.rsplit("/", 1)[1]
    public = open_page(browser, lang, errors)
    public.goto(f"{server.url}/tn/{tid}")
    public.wait_for_function("() => TN.connected && document.querySelectorAll('#tn-rank-table tbody tr').length === 7")
    check.look(public, "tournament-ranking")
    page.context.close()
    public.context.close()
    assert not errors, errors
    assert not check.found, "\n".join(check.found)


def _officers_step(page) -> None:
    page.wait_for_function("() => O.state.view.phase === 'finished' || "
                           "(O.state.view.to_move === O.state.seat && O.state.legal.length > 0)")
    if page.evaluate("() => O.state.view.phase") == "finished":
        return
    seq = page.evaluate("() => O.state.seq")
    if page.evaluate("() => O.state.view.phase") == "play":
        page.locator("#o-me .card.playable").first.click()
    else:
        page.locator("#o-panel [data-action]").first.click()
    page.wait_for_function(f"() => O.state.seq > {seq}")


@pytest.mark.parametrize("lang", LANGS)
def test_officers_skat(browser, server, english, own, lang):
    errors: list = []
    check = Checker(lang, english, own, NAMES[lang])
    page = open_page(browser, lang, errors)
    page.goto(server.url + "/officers")
    page.wait_for_selector("#o-variant option", state="attached")
    check.look(page, "officers-start")
    page.select_option("#o-variant", "classic")
    page.fill("#o-seed", "5")
    page.click("#o-start-btn")
    page.wait_for_selector("#o-board:not(.hidden)")
    page.wait_for_function("() => O.state !== null && O.state.view.to_move === O.state.seat")
    check.look(page, "officers-choose")
    deadline = time.time() + 90
    while page.evaluate("() => O.state.view.phase") != "finished":
        assert time.time() < deadline, "the game did not end"
        _officers_step(page)
    page.wait_for_selector("#o-result:not(.hidden)")
    check.look(page, "officers-result")
    page.context.close()
    assert not errors, errors
    assert not check.found, "\n".join(check.found)


@pytest.mark.parametrize("lang", LANGS)
def test_the_learn_page(browser, server, english, own, lang):
    assert httpx.get(server.url + "/learn").status_code == 200
    errors: list = []
    check = Checker(lang, english, own, NAMES[lang])
    page = open_page(browser, lang, errors)
    page.goto(server.url + "/learn")
    page.wait_for_selector("#l-list li")
    page.wait_for_function("() => document.querySelector('#l-lesson-name').textContent")
    check.names |= set(page.locator("#l-others strong").all_inner_texts())  # the lesson's players
    check.look(page, "learn")
    page.context.close()
    assert not errors, errors
    assert not check.found, "\n".join(check.found)
