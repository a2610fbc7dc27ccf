"""``--record-baseline`` records a sync baseline; ``--calibrate`` stays accepted as its deprecated spelling
(docs/glossary.md: "calibration" is PTQ calibration data only)."""

from __future__ import annotations

import pytest

from quarkci.cli import build_parser


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["sync"], False),
        (["sync", "--record-baseline"], True),
        (["sync", "--calibrate"], True),
    ],
)
def test_record_baseline_and_its_old_spelling(argv: list[str], expected: bool) -> None:
    args = build_parser().parse_args(argv)
    assert args.record_baseline is expected
    assert not hasattr(args, "calibrate")
