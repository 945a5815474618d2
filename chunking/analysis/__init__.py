"""Analysis of chunking runs: run several policies over one book and score them.

``compare`` runs policies over one tokenized book and tabulates them; ``scorecard`` measures one
run (chapter crossings, page spans, overlap, size spread). Both read the pipeline's outputs and
never write files; the CLI (``chunking compare``) and the app's Compare page call them alike.
"""
