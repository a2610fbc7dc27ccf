"""The verbosity gate (``quarkci.gates.verbosity``) on planted completion-token counts, with negative
controls."""

from __future__ import annotations

from quarkci.gates import verbosity


def _verb(**tasks) -> dict:
    return {
        "verbosity": {
            t: [{"samples": n, "mean_completion_tokens": m} for n, m in runs] for t, runs in tasks.items()
        }
    }


def test_verbosity_two_sided_threshold():
    assert verbosity.evaluate(_verb(g=[(100, 100.0)]), _verb(g=[(100, 105.0)]))["pass"] is True
    longer = verbosity.evaluate(_verb(g=[(100, 100.0)]), _verb(g=[(100, 105.1)]))
    shorter = verbosity.evaluate(_verb(g=[(100, 100.0)]), _verb(g=[(100, 94.9)]))
    assert longer["failure_class"] == shorter["failure_class"] == "VERBOSITY_EXCEEDED"


def test_verbosity_compares_only_matched_sample_counts_and_lists_the_rest():
    # a truncated candidate run (50 samples) reads +9.6 %; the matched complete runs read +1.7 %
    base = _verb(g=[(1000, 100.0)], h=[(100, 10.0)])
    cand = _verb(g=[(50, 109.6), (995, 101.7)], h=[(90, 10.0)])
    v = verbosity.evaluate(base, cand)
    assert v["pass"] is True and v["tasks"][0]["candidate_samples"] == 995
    assert v["not_measured"] == ["h"] and "not measured: h" in v["detail"]
    only_truncated = verbosity.evaluate(_verb(g=[(1000, 100.0)]), _verb(g=[(50, 109.6)]))
    assert only_truncated["failure_class"] == "SAMPLE_ACCOUNTING_FAILED"


def test_verbosity_nothing_harvested_is_user_config_error():
    v = verbosity.evaluate({"verbosity": {}}, {"tasks": {}})
    assert (v["failure_class"], v.get("input_error")) == ("USER_CONFIG_ERROR", True)
    assert "input_error" not in verbosity.evaluate(_verb(g=[(10, 1.0)]), _verb(g=[(10, 1.0)]))
