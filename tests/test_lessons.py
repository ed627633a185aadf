"""Learn Skat (skat.lessons, POST /api/learn/{lesson}): every lesson plays through on its script and off it, every
explanation comes from the rule functions and agrees with the engine, every explanation's text is in every
language's catalog, and bad input gets a specific error."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from skat.cards import Card, card_points
from skat.enums import GameType
from skat.lessons import LESSONS, LessonError, step
from skat.rules.ranking import legal_cards, trick_winner
from skat.server.routes.learn import LessonAnswer

CATALOGS = Path(__file__).resolve().parent.parent / "src" / "skat" / "web" / "static" / "i18n"
LANGS = ("en", "de", "ru", "pl", "ko")


def follow_suggestions(lesson: str, limit: int = 80) -> tuple[list[str], dict]:
    """The learner's actions when always taking the suggestion, and the final answer."""
    actions: list[str] = []
    while True:
        answer = step(lesson, actions)
        if answer["over"]:
            return actions, answer
        actions.append(answer["suggestion"]["action"])
        assert len(actions) < limit


def first_legal(lesson: str) -> tuple[list[str], dict]:
    """A learner who always makes the first legal action (never the script's)."""
    actions: list[str] = []
    while True:
        answer = step(lesson, actions)
        if answer["over"]:
            return actions, answer
        actions.append(answer["view"]["legal_actions"][0])


def keys_of(items) -> set[str]:
    """Every catalog key an answer's explanations use (the page adds the Won/Lost, With/Without, Trump/Discard,
    Hand and You forms from the params)."""
    found: set[str] = set()
    for item in items:
        key, params = item["key"], item["params"]
        suffix = ""
        for name, value in params.items():
            if isinstance(value, bool):
                suffix += {"won": "Won" if value else "Lost", "trump": "Trump" if value else "Discard",
                           "matWith": "With" if value else "Without", "hand": "Hand" if value else ""}.get(name, "")
            if name == "why":
                found.add(value)
            if name == "levels" and isinstance(value, list):
                found |= keys_of(value)
        found.add(key + suffix)
    return found


def all_explanations(answer: dict) -> list[dict]:
    items = [item for event in answer["events"] for item in event["explain"]]
    items += answer.get("prompt") or []
    items += answer.get("result") or []
    if answer.get("suggestion"):
        items += answer["suggestion"]["why"]
    for reasons in (answer.get("illegal") or {}).values():
        items += reasons
    return items


@pytest.mark.parametrize("lesson", sorted(LESSONS))
def test_the_script_is_legal_and_following_the_suggestions_plays_it(lesson):
    actions, answer = follow_suggestions(lesson)
    script = LESSONS[lesson].script
    assert [e["action"] for e in answer["events"]] == list(script)  # the whole deal went the script's way
    assert actions == [t for t, e in zip(script, answer["events"], strict=True) if e["seat"] == LESSONS[lesson].learner]
    LessonAnswer.model_validate(answer)
    assert answer["result"][-1]["key"] == "resultScore"


@pytest.mark.parametrize("lesson", sorted(LESSONS))
def test_the_result_is_reckoned_as_the_engine_values_it(lesson):
    _, answer = follow_suggestions(lesson)
    game = LESSONS[lesson].game()
    for event in answer["events"]:
        game.apply(game.parse_action(event["action"]), event["seat"])
    outcome = game.result.outcome
    steps = {item["key"]: item["params"] for item in answer["result"]}
    assert steps["resultValue"]["v"] == outcome.game_value
    assert steps["resultValue"]["levels"] * steps["resultValue"]["base"] == outcome.game_value
    assert steps["resultScore"]["score"] == game.result.scores[game.result.declarer]
    assert steps["resultLevels"]["total"] == outcome.multiplier == outcome.matadors + 1 + sum(
        1 for item in steps["resultLevels"]["levels"] if item["key"] not in ("levelMatadors", "levelGame"))
    assert steps["resultMatadors"]["mat"] == outcome.matadors


def test_what_each_lesson_ends_with():
    """The lessons teach what they say: a won clubs game with Schneider; the defenders beating the declarer; and
    a grand that saves a bid the skat made clubs too low for."""
    results = {lesson: {i["key"]: i["params"] for i in follow_suggestions(lesson)[1]["result"]} for lesson in LESSONS}
    first = results["first-game"]
    assert first["resultPoints"]["won"] and first["resultValue"] == {"levels": 4, "base": 12, "game": "clubs", "v": 48}
    assert any(level["key"] == "levelSchneider" for level in first["resultLevels"]["levels"])
    defending = results["defending"]
    assert not defending["resultPoints"]["won"] and defending["resultPoints"]["defenders"] >= 61
    assert defending["resultScore"]["score"] == -44  # spades without 1, 2 x 11, lost: counts double
    overbid = step("overbid", ["hold"] * 8 + ["pickup", "discard D8 HT"])
    games = {g["game"]: g for g in overbid["prompt"][1]["params"]["games"]}
    assert games["clubs"]["v"] == 24 and not games["clubs"]["enough"]  # without 1 now: 2 x 12 < 33
    assert games["clubs"]["schneider"] == 36  # only Schneider would reach the bid
    assert games["grand"]["v"] == 48 and games["grand"]["enough"]
    assert overbid["suggestion"]["action"] == "declare grand"


def test_declaring_clubs_after_the_skat_overbids():
    # clubs is worth only 24 now: 68 card points win on points, but without Schneider it is overbid
    actions = ["hold"] * 8 + ["pickup", "discard D8 HT", "declare clubs",
                              "SJ", "HA", "CA", "C7", "SA", "C8", "CK", "CT", "C9", "HJ"]
    answer = step("overbid", actions)
    assert answer["over"]
    assert answer["result"][0]["params"]["points"] == 68
    steps = {item["key"]: item["params"] for item in answer["result"]}
    assert steps["resultOverbid"] == {"bid": 33, "worth": 24, "v": 36, "base": 12}  # the next multiple of 12 >= 33
    assert steps["resultScore"] == {"won": False, "v": 24, "score": -72}  # lost at 36, counting double


@pytest.mark.parametrize("lesson", sorted(LESSONS))
def test_a_learner_off_the_script_still_plays_to_the_end(lesson):
    actions, answer = first_legal(lesson)
    assert answer["over"] and answer["result"]
    sources = set()
    for n in range(len(actions)):
        partial = step(lesson, actions[:n])
        if partial.get("suggestion"):
            sources.add(partial["suggestion"]["source"])
    assert "computer" in sources  # off the script, a computer player's choice is suggested


def test_why_a_card_may_not_be_played_is_the_follow_suit_rule():
    seen = 0
    actions, _ = follow_suggestions("defending")
    for n in range(len(actions) + 1):
        answer = step("defending", actions[:n])
        view = answer["view"]
        if answer["over"] or view["phase"] != "play" or not view["trick"] or view["to_move"] != answer["seat"]:
            continue
        game = GameType.parse(view["contract"]["game"])
        legal = legal_cards(game, view["hand"], [c for _, c in view["trick"]])
        assert sorted(view["legal_actions"]) == sorted(c.name for c in legal)
        for card in view["hand"]:
            reasons = answer["illegal"].get(card)
            if Card.parse(card) in legal:
                assert reasons is None
            else:
                seen += 1
                assert reasons[0]["key"] in ("illegalMustFollow", "illegalJackIsTrump")
                assert sorted(reasons[0]["params"]["cards"]) == sorted(c.name for c in legal)
                assert reasons[0]["params"]["led"] == view["trick"][0][1]
    assert seen >= 5


@pytest.mark.parametrize("lesson", sorted(LESSONS))
def test_every_trick_explained_is_the_engines_trick(lesson):
    _, answer = follow_suggestions(lesson)
    contract = None
    taken = [item["params"] for e in answer["events"] for item in e["explain"] if item["key"] == "trickTaken"]
    for e in answer["events"]:
        if e["action"].startswith("declare"):
            contract = GameType.parse(e["action"].split()[1])
    assert len(taken) == 10
    for params in taken:
        cards = params["cards"]
        assert params["card"] == cards[trick_winner(contract, cards)]
        assert params["points"] == card_points(cards)


def test_every_explanation_is_in_every_language():
    catalogs = {lang: json.loads((CATALOGS / f"{lang}.json").read_text(encoding="utf-8"))["learn"] for lang in LANGS}
    used: set[str] = set()
    for lesson in LESSONS:
        for play in (follow_suggestions, first_legal):
            actions, _ = play(lesson)
            for n in range(0, len(actions) + 1, 3):
                used |= keys_of(all_explanations(step(lesson, actions[:n])))
    used |= keys_of(all_explanations(step("overbid", ["hold"] * 8 + ["pickup", "discard D8 HT", "declare clubs",
                                                                     "SJ", "HA", "CA", "C7", "SA", "C8", "CK", "CT",
                                                                     "C9", "HJ"])))
    assert len(used) > 40
    for lang in LANGS:
        missing = sorted(k for k in used if k not in catalogs[lang])
        assert not missing, f"{lang} lacks {missing}"
    for key, text in catalogs["en"].items():
        wanted = set(re.findall(r"\{(\w+)\}", json.dumps(text)))
        for lang in LANGS:
            assert set(re.findall(r"\{(\w+)\}", json.dumps(catalogs[lang][key], ensure_ascii=False))) <= wanted | {
                "v"}, (lang, key)


@pytest.mark.parametrize(("lesson", "actions", "code", "index"), [
    ("chess", [], "unknown_lesson", None),
    ("first-game", ["hold", "CJ"], "illegal_action", 1),
    ("first-game", ["hold", "nonsense"], "bad_action", 1),
    ("first-game", [42], "bad_action", 0),
])
def test_bad_input_says_what_and_where(lesson, actions, code, index):
    with pytest.raises(LessonError) as caught:
        step(lesson, actions)
    assert caught.value.code == code and caught.value.index == index
    assert str(caught.value)


def test_actions_past_the_end_are_refused():
    actions, _ = follow_suggestions("first-game")
    with pytest.raises(LessonError) as caught:
        step("first-game", [*actions, "CJ"])
    assert caught.value.code == "not_your_turn" and caught.value.index == len(actions)


def test_the_learn_api(client):
    answer = client.post("/api/learn/first-game", json={"actions": ["hold"]})
    assert answer.status_code == 200
    body = answer.json()
    assert body["lesson"] == "first-game" and body["seat"] == 0 and body["view"]["seat"] == 0
    assert body["lessons"] == ["first-game", "defending", "overbid"]
    assert "CJ" in body["view"]["hand"]
    for other in (1, 2):  # hidden information stays hidden: the others' cards appear only as they are played
        assert str(other) not in body["view"]["open_hands"]
    assert client.post("/api/learn/first-game").status_code == 200  # no body: the start
    missing = client.post("/api/learn/chess", json={})
    assert missing.status_code == 404 and missing.json()["error"] == "no_lesson"
    illegal = client.post("/api/learn/first-game", json={"actions": ["hold", "CJ"]})
    assert illegal.status_code == 422 and illegal.json()["error"] == "illegal_action"
    assert "action 2 of 2" in illegal.json()["message"]
    bad = client.post("/api/learn/first-game", json={"actions": "hold"})
    assert bad.status_code == 400 and bad.json()["error"] == "bad_action"
    too_many = client.post("/api/learn/first-game", json={"actions": ["hold"] * 81})
    assert too_many.status_code == 400 and too_many.json()["error"] == "bad_action"
    page = client.get("/learn")
    assert page.status_code == 200 and "learn.js" in page.text
