"""The server's garbage collector policy (skat.server.collector): the survivors of a full collection are
frozen, garbage is still freed, and a thaw gives the frozen objects back."""

from __future__ import annotations

import gc
import weakref

import pytest

from skat.server.collector import CollectorPolicy


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


def cycle() -> tuple[weakref.ref, weakref.ref]:
    """Two objects that refer to each other and to nothing else (only a collection frees them)."""
    a, b = Node(), Node()
    a.other, b.other = b, a
    return weakref.ref(a), weakref.ref(b)


@pytest.fixture
def policy():
    before = gc.get_freeze_count()
    assert before == 0, "another test left objects frozen"
    p = CollectorPolicy(thaw_seconds=3600).install()
    yield p
    p.uninstall()
    assert gc.get_freeze_count() == 0 and p._after_collection not in gc.callbacks


def test_survivors_of_a_full_collection_are_frozen_and_garbage_is_freed(policy):
    assert gc.get_freeze_count() > 0  # the start-up's objects
    kept = [Node() for _ in range(1000)]
    dead = cycle()
    frozen, freezes = gc.get_freeze_count(), policy.freezes
    gc.collect()
    assert dead[0]() is None and dead[1]() is None  # garbage made since the last freeze is freed
    assert gc.get_freeze_count() >= frozen + len(kept)  # the survivors are frozen: the next scan skips them
    assert policy.freezes == freezes + 1
    gc.collect(1)  # a younger generation's collection freezes nothing
    assert policy.freezes == freezes + 1


def test_a_thaw_gives_frozen_objects_back_so_cycles_among_them_are_freed(policy):
    holder = [Node(), Node()]
    holder[0].other, holder[1].other = holder[1], holder[0]
    refs = weakref.ref(holder[0]), weakref.ref(holder[1])
    gc.collect()  # the pair survives: frozen
    holder.clear()  # now a cycle among frozen objects
    gc.collect()
    assert refs[0]() is not None  # frozen objects are not scanned: kept until the thaw
    policy.thaw()
    assert gc.get_freeze_count() == 0 and policy.thaws == 1
    gc.collect()
    assert refs[0]() is None and refs[1]() is None


def test_objects_freed_by_reference_counting_go_at_once_even_when_frozen(policy):
    box = [Node()]
    ref = weakref.ref(box[0])
    gc.collect()
    box.clear()
    assert ref() is None


@pytest.mark.parametrize("seconds", [0, -1, float("nan")])
def test_the_thaw_interval_must_be_positive(seconds):
    with pytest.raises(ValueError, match="positive"):
        CollectorPolicy(thaw_seconds=seconds)
