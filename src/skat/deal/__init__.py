"""The deal-state layer: the base of every deal (:class:`skat.deal._core.DealState`, compiled),
and one deal of standard Skat with its house rules (:mod:`skat.deal.game`, :mod:`skat.deal.ramsch`)."""
