"""From chunk files to a live vector index (``python -m chunking index``) and back (``search --store``).

* ``chunking.index.store``: the LanceDB store, its tables and the one record of what it holds.
* ``chunking.index.apply``: one index run: the upsert plan of ``chunking.analysis.diff`` applied to
  the store, embedding only text the store has never embedded with that model.
* ``chunking.index.query``: a store's chunks as the retrieval indexes search them (dense through
  LanceDB's own nearest-neighbour search, hybrid with BM25).
"""
