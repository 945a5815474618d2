"""Policy validation: defaults are the seed's profile; every bad value is named."""

from __future__ import annotations

import pytest

from chunking.errors import PolicyError
from chunking.policy import Policy, parse_policy


def test_defaults_are_the_seed_profile():
    p = Policy()
    assert (p.max_tokens, p.overlap_tokens, p.target_pages, p.max_pages, p.max_chunks) == (512, 120, 2, 3, 50_000)
    assert (p.fence, p.encoding, p.strategy, p.structure, p.snap) == (
        "chapter", "cl100k_base", "chapter-window", "auto", "none")


@pytest.mark.parametrize(
    "changes, field",
    [
        ({"overlap_tokens": 512}, "overlap_tokens"),
        ({"overlap_tokens": -1}, "overlap_tokens"),
        ({"max_tokens": 0}, "max_tokens"),
        ({"target_pages": 0}, "target_pages"),
        ({"max_pages": 1, "target_pages": 2}, "max_pages"),
        ({"max_chunks": 0}, "max_chunks"),
        ({"encoding": "no_such_encoding"}, "encoding"),
        ({"strategy": "semantic"}, "strategy"),
        ({"fence": "part"}, "fence"),
        ({"structure": "toc"}, "structure"),
        ({"snap": "word"}, "snap"),
        ({"max_tokens": "512"}, "max_tokens"),
        ({"max_tokens": True}, "max_tokens"),
        ({"min_section_tokens": 600}, "min_section_tokens"),
    ],
)
def test_invalid_policy_is_rejected_and_names_the_field(changes, field):
    with pytest.raises(PolicyError, match=f"'{field}'"):
        Policy(**changes)


def test_parse_policy_keeps_defaults_for_unnamed_fields():
    p = parse_policy("strategy=fixed-window, max_tokens=256")
    assert p.strategy == "fixed-window" and p.max_tokens == 256
    assert p.overlap_tokens == Policy().overlap_tokens


@pytest.mark.parametrize("spec, needle", [("max_tokens", "key=value"), ("colour=red", "'colour'"),
                                          ("max_tokens=many", "'max_tokens'")])
def test_parse_policy_rejects_malformed_specs(spec, needle):
    with pytest.raises(PolicyError, match=needle):
        parse_policy(spec)


def test_profile_changes_with_every_output_affecting_field():
    base = Policy()
    variants = [base.with_(max_tokens=400), base.with_(overlap_tokens=60), base.with_(target_pages=3),
                base.with_(max_pages=4), base.with_(fence="section"), base.with_(encoding="o200k_base"),
                base.with_(structure="headings"), base.with_(snap="sentence"), base.with_(strategy="section")]
    profiles = {v.profile() for v in variants}
    assert base.profile() not in profiles and len(profiles) == len(variants)


def test_profile_ignores_max_chunks():
    assert Policy(max_chunks=10).profile() == Policy().profile()
