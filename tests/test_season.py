"""A club's season (skat.table.season, docs/season.md): evenings' players matched to members by name key, by a
link or by a linked account's name; the ranking by the sum of Seeger-Fabian points or the best N evenings, with
its tie-break; unmatched players listed; JSON both ways, bad input refused with its code."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skat.server.accounts import name_key as account_name_key
from skat.table.season import Evening, Result, Season, SeasonError, Unmatched, name_key


def evening(tid: str, date: str, *lines: tuple[str, int]) -> Evening:
    """An evening whose players are placed in the order given."""
    return Evening(tid, f"Evening {tid}", date, [Result(p, pts, i) for i, (p, pts) in enumerate(lines, 1)])


def three_evenings(rule: str = "sum", best: int | None = None) -> Season:
    s = Season("Jahreswertung 2026", rule, best)
    for name in ("Anna", "Bernd", "Carla", "Dieter"):
        s.add_member(name)
    s.add_evening(evening("t1", "2026-01-09", ("Anna", 900), ("bernd", 700), ("Carla", 300)))
    s.add_evening(evening("t2", "2026-02-13", ("Bernd", 1200), ("ANNA", -100), ("Dieter", 50), ("Erwin", 20)))
    s.add_evening(evening("t3", "2026-03-13", ("Carla", 1000), ("Anna", 200), ("Bernd", 100)))
    return s


def table(s: Season, **kw) -> list[tuple]:
    return [(x.rank, x.member, x.total, x.played, x.counted) for x in s.ranking(**kw)]


def test_one_rule_compares_names_for_accounts_and_for_seasons():
    assert account_name_key is name_key
    assert name_key("Straße") == name_key("STRASSE") and name_key("Ｊｏｒｇ") == name_key("jorg")


def test_the_sum_of_every_evening():
    s = three_evenings()
    assert table(s) == [
        (1, "Bernd", 2000, 3, (True, True, True)),
        (2, "Carla", 1300, 2, (True, False, True)),
        (3, "Anna", 1000, 3, (True, True, True)),
        (4, "Dieter", 50, 1, (False, True, False)),
    ]
    anna = next(x for x in s.ranking() if x.member == "Anna")
    assert anna.points == (900, -100, 200) and anna.best == 900
    carla = next(x for x in s.ranking() if x.member == "Carla")
    assert carla.points == (300, None, 1000)
    assert s.unmatched() == [Unmatched("Erwin", (2,))]


def test_the_best_two_of_three_evenings_drop_the_worst_even_when_it_is_negative():
    s = three_evenings("best", 2)
    assert table(s) == [
        (1, "Bernd", 1900, 3, (True, True, False)),
        (2, "Carla", 1300, 2, (True, False, True)),
        (3, "Anna", 1100, 3, (True, False, True)),  # -100 is not counted
        (4, "Dieter", 50, 1, (False, True, False)),
    ]
    s.set_rule("best", 1)
    assert [(x.member, x.total) for x in s.ranking()] == [("Bernd", 1200), ("Carla", 1000), ("Anna", 900),
                                                          ("Dieter", 50)]
    s.set_rule("sum")
    assert s.ranking()[0].total == 2000


def test_equal_points_count_the_earlier_evening():
    s = Season("x", "best", 1)
    s.add_member("Anna")
    s.add_evening(evening("a", "2026-01-01", ("Anna", 100)))
    s.add_evening(evening("b", "2026-01-02", ("Anna", 100)))
    assert s.ranking()[0].counted == (True, False)


def test_the_tie_break_more_evenings_then_the_better_evening_then_a_shared_place():
    s = Season("x")
    for name in ("Anna", "Bernd", "Carla", "Dieter", "Emil"):
        s.add_member(name)
    s.add_evening(evening("a", "2026-01-01", ("Anna", 600), ("Bernd", 1000), ("Carla", 500), ("Dieter", 500),
                          ("Emil", 100)))
    s.add_evening(evening("b", "2026-02-01", ("Anna", 400), ("Carla", 500), ("Dieter", 500)))
    # Anna, Bernd, Carla and Dieter have 1000 each: Bernd played one evening only; Anna's best evening (600)
    # beats Carla's and Dieter's (500), who are equal in everything and share third place
    assert [(x.rank, x.member) for x in s.ranking()] == [(1, "Anna"), (2, "Carla"), (2, "Dieter"), (4, "Bernd"),
                                                         (5, "Emil")]


def test_a_link_and_a_linked_account_make_a_player_a_member():
    s = three_evenings()
    assert s.member_of("Erwin") is None
    s.add_member("Erwin Schulz")
    s.link("Erwin", "erwin schulz")
    assert s.member_of(" erwin ".strip()).name == "Erwin Schulz"
    assert s.unmatched() == []
    assert next(x for x in s.ranking() if x.member == "Erwin Schulz").points == (None, 20, None)
    # a member linked to an account is the player who played under the account's name
    s.add_evening(evening("t4", "2026-04-10", ("dieter_k", 400), ("Anna", 10)))
    assert s.unmatched() == [Unmatched("dieter_k", (4,))]
    s.link_account("Dieter", "acc-1")
    accounts = {"acc-1": "Dieter_K"}
    assert s.unmatched(accounts) == []
    dieter = next(x for x in s.ranking(accounts) if x.member == "Dieter")
    assert dieter.points == (None, 50, None, 400) and dieter.account == "acc-1"
    # a link comes before a member's own name
    s.link("Anna", "Carla")
    assert s.member_of("anna").name == "Carla"
    s.unlink("ANNA")
    assert s.member_of("anna").name == "Anna"
    with pytest.raises(SeasonError) as no:
        s.unlink("Anna")
    assert no.value.code == "no_member"
    s.remove_member("Erwin Schulz")
    assert s.links == {} and s.unmatched(accounts) == [Unmatched("Erwin", (2,))]


def test_a_member_twice_in_one_evening_counts_once_and_the_other_is_listed():
    s = Season("x")
    s.add_member("Hans")
    s.link("Hansi", "Hans")
    s.add_evening(evening("a", "2026-01-01", ("Hansi", 300), ("Hans", 200)))
    assert s.ranking()[0].points == (300,)
    assert s.unmatched() == [Unmatched("Hans", (1,), "twice")]


def test_evenings_keep_the_order_of_their_dates():
    s = Season("x")
    s.add_evening(Evening("b", "", "2026-02-01"))
    s.add_evening(Evening("c", "", "2026-03-01"))
    s.add_evening(Evening("a", "", "2026-01-01"))
    assert [e.tournament for e in s.evenings] == ["a", "b", "c"]
    s.remove_evening("b")
    assert [e.tournament for e in s.evenings] == ["a", "c"]


def test_json_both_ways_and_without_the_results():
    s = three_evenings("best", 2)
    s.add_member("Erwin Schulz", "acc-9")
    s.link("Erwin", "Erwin Schulz")
    again = Season.from_json_text(s.to_json_text())
    assert again.to_json() == s.to_json() and table(again) == table(s)
    bare = Season.from_json(s.to_json(results=False))
    assert all(e.results == [] for e in bare.evenings) and bare.ranking() == []
    assert [e.tournament for e in bare.evenings] == ["t1", "t2", "t3"]


@pytest.mark.parametrize("change, code", [
    (lambda s: s.add_member("anna"), "member_taken"),
    (lambda s: s.add_member("  "), "bad_name"),
    (lambda s: s.add_member("x" * 101), "bad_name"),
    (lambda s: s.add_member("a\nb"), "bad_name"),
    (lambda s: s.add_member(7), "bad_name"),
    (lambda s: s.remove_member("Zoe"), "no_member"),
    (lambda s: s.link("Zoe", "Zora"), "no_member"),
    (lambda s: s.link("", "Anna"), "bad_name"),
    (lambda s: s.set_rule("average"), "bad_rule"),
    (lambda s: s.set_rule("best"), "bad_rule"),
    (lambda s: s.set_rule("best", 0), "bad_rule"),
    (lambda s: s.set_rule("best", True), "bad_rule"),
    (lambda s: s.set_rule("sum", 3), "bad_rule"),
    (lambda s: s.add_evening(Evening("t1")), "evening_taken"),
    (lambda s: s.add_evening(Evening("t9", "", "2026-02-30")), "bad_date"),
    (lambda s: s.add_evening(Evening("t9", "", "13.03.2026")), "bad_date"),
    (lambda s: s.remove_evening("t9"), "no_evening"),
    (lambda s: s.rename(""), "bad_name"),
])
def test_bad_changes_are_refused_with_their_code_and_change_nothing(change, code):
    s = three_evenings()
    before = s.to_json()
    with pytest.raises(SeasonError) as refused:
        change(s)
    assert refused.value.code == code, str(refused.value)
    assert s.to_json() == before


@pytest.mark.parametrize("data, words", [
    ([], "an object"),
    ({"rule": "mean"}, "'sum'"),
    ({"rule": "best", "best": "2"}, "whole number"),
    ({"members": "Anna"}, "'members' is a list"),
    ({"members": [{"name": "Anna"}, {"name": "ANNA"}]}, "member already"),
    ({"members": [{"name": "Anna", "account": 5}]}, "account's id"),
    ({"links": [{"player": "Anni", "member": "Anna"}]}, "no member"),
    ({"evenings": [{"tournament": "t", "results": [{"player": "A", "points": "9", "place": 1}]}]}, "whole number"),
    ({"evenings": [{"tournament": "t", "date": "yesterday"}]}, "YYYY-MM-DD"),
    ({"evenings": [{"name": "no tournament"}]}, "tournament"),
])
def test_bad_json_is_refused_saying_why(data, words):
    with pytest.raises(SeasonError, match=words):
        Season.from_json(data)
    with pytest.raises(SeasonError, match="not valid JSON"):
        Season.from_json_text("{")


scores = st.lists(st.one_of(st.none(), st.integers(-2000, 3000)), min_size=1, max_size=8)


@settings(max_examples=200, deadline=None)
@given(per_member=st.lists(scores, min_size=1, max_size=6), best=st.integers(1, 8))
def test_best_n_counts_the_n_highest_evenings(per_member, best):
    evenings = max(len(p) for p in per_member)
    s_sum, s_best = Season("s"), Season("b", "best", best)
    for s in (s_sum, s_best):
        for i in range(len(per_member)):
            s.add_member(f"P{i}")
        for e in range(evenings):
            lines = [(f"P{i}", p[e]) for i, p in enumerate(per_member) if e < len(p) and p[e] is not None]
            s.add_evening(Evening(f"t{e}", "", "", [Result(n, pts, k) for k, (n, pts) in enumerate(lines, 1)]))
    summed = {x.member: x for x in s_sum.ranking()}
    for x in s_best.ranking():
        played = sorted((p for p in x.points if p is not None), reverse=True)
        assert x.total == sum(played[:best]) and sum(x.counted) == min(best, len(played))
        assert all(p is not None for p, c in zip(x.points, x.counted, strict=True) if c)
        # the counted evenings are at least as good as every one left out
        kept = [p for p, c in zip(x.points, x.counted, strict=True) if c]
        dropped = [p for p, c in zip(x.points, x.counted, strict=True) if not c and p is not None]
        assert not dropped or min(kept) >= max(dropped)
        whole = summed[x.member]
        assert whole.played == x.played and whole.total == sum(played)
        assert whole.total - x.total == sum(dropped)  # what the evenings left out had
        if all(p >= 0 for p in played):
            assert x.total <= whole.total  # with no negative evening, leaving evenings out never adds
        if all(p <= 0 for p in dropped):
            assert x.total >= whole.total  # leaving out only negative evenings never takes away
    ranks = [x.rank for x in s_best.ranking()]
    assert ranks == sorted(ranks) and (not ranks or ranks[0] == 1)
