"""inspector.palette: one colour per meaning, the same in text, on page images and in figures."""

from __future__ import annotations

import io
import re

import pymupdf
from PIL import Image

from inspector import palette
from inspector.views import pdfview, render


def _mark_colour(css_class: str) -> str:
    """The background the inspector's CSS gives ``<mark class=css_class>`` (alone)."""
    (colour,) = re.findall(rf"mark\.{css_class}[ ,][^{{]*\{{ background: (#[0-9a-f]{{6}})", render.STYLE)
    return colour


def test_overlap_in_text_looks_like_overlap_painted_on_the_page_image() -> None:
    doc = pymupdf.open()
    page = doc.new_page(width=200, height=100)
    page.insert_text((20, 50), "shared words here", fontsize=30)
    pdf = doc.tobytes()
    png = pdfview.page_image(pdf, 1, "shared words here", [(0, 6, "overlap")], zoom=1.0)
    img = Image.open(io.BytesIO(png)).convert("RGB")
    rect = next(pymupdf.Rect(w[:4]) for w in page.get_text("words") if w[4] == "shared")
    pixels = img.crop(tuple(int(v) for v in rect)).get_flattened_data()
    paper = max(set(pixels), key=list(pixels).count)  # the tinted paper around the glyphs
    css = palette.rgb01(_mark_colour("ov-prev"))
    assert all(abs(paper[k] / 255 - css[k]) <= 3 / 255 for k in range(3)), (paper, css)
    assert _mark_colour("ov-prev") == _mark_colour("ov-next")


def test_a_policy_colour_depends_on_its_name_only() -> None:
    names = ["chapter-window", "fixed-window", "section", "fixed-window max_tokens=256"]
    colours = [palette.policy_colours(n) for n in names]
    assert len(set(colours)) == len(names)
    assert [palette.policy_colours(f"P{k}: {n}") for k, n in enumerate(names)] == colours


def test_no_policy_wears_the_overlap_colour() -> None:
    pairs = [*palette.STRATEGY_COLOURS.values(), *palette.VARIANT_COLOURS]
    assert palette.OVERLAP not in {c for pair in pairs for c in pair}
    assert palette.ACROSS != palette.OVERLAP and palette.LOST != palette.OVERLAP


def test_retrieval_evaluation_bars_wear_each_policys_colour() -> None:
    from chunking.retrieval.evaluate import PolicyScore
    from inspector.views.retrieval import evaluation_figure

    def score(policy: str, retriever: str) -> PolicyScore:
        return PolicyScore(policy, 10, 5, 0.5, 0.5, 0.1, 0.2, 0.3, mrr=0.4, chapter_purity=0.5,
                           tokens_per_hit=100.0, retriever=retriever, zone="boundary")

    scores = [score(p, r) for p in ("chapter-window", "fixed-window") for r in ("bm25", "dense")]
    bars = evaluation_figure(scores, zone="boundary").data
    assert [b.marker.color for b in bars] == [palette.policy_colour(s.policy) for s in scores]
    assert len({b.marker.pattern.shape for b in bars}) == 2  # the retrievers are told apart
