"""The table server's routes, one router per resource (wired by :func:`skat.server.app.create_app`):

* :mod:`.tables` the tables (``/api/tables...``), :mod:`.analysis` the analysis of finished deals,
  :mod:`.health` ``/api/health`` and ``/api/meta``, :mod:`.pages` the pages and ``/static``;
  :mod:`skat.server.keeper`, :mod:`skat.server.tournament` and :mod:`skat.server.officers` hold the score
  keeper's, the tournaments' and the Officers' Skat routes with their services;
* :mod:`.models` the REST bodies and answers, :mod:`.bodies` the dependency that reads a body into its model,
  :mod:`.schema` the protocol's JSON Schema (``python -m skat.server.routes.schema``).

The table WebSocket is :mod:`skat.server.sockets`.
"""
