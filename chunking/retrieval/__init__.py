"""Retrieval over a chunked book: find passages, search chunks, evaluate policies.

``locate`` maps a retrieved passage back to the book (chunk, chapter, pages); ``search`` ranks a
run's chunks for a query; ``evaluate`` probes a run with sentences of the book and scores how well
each policy's chunks are found. The CLI (``locate``, ``search``, ``evaluate``) and the app's
Retrieval page call these alike; none of them imports a command.
"""
