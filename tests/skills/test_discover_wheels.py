"""Skill discovery (:mod:`quarkci.skills.discover`) over the skills bundled in the real amd-quark wheels
(downloaded from PyPI at test time, cached).

Values checked by reading the 0.13 wheel's quark/_bundled_skills/ by hand: 47 SKILL.md (28 under the
layered _legacy_impl/ tree, 19 entries beside it, 16 of which are thin adapters), 28 declaring
source_knowledge; releases before 0.13 bundle no skills.
"""

from __future__ import annotations

import pytest

from quarkci.skills import SnapshotSource, discover
from tests.realwheels import REAL_VERSIONS, real_snapshot

pytestmark = pytest.mark.real


@pytest.fixture(scope="module")
def skills():
    return discover(SnapshotSource(real_snapshot("0.13")))


@pytest.mark.parametrize("version", [v for v in REAL_VERSIONS if v != "0.13"])
def test_releases_before_0_13_bundle_no_skills(version):
    assert discover(SnapshotSource(real_snapshot(version))) == []


def test_0_13_skill_inventory(skills):
    assert len(skills) == 47
    assert [s.error for s in skills if s.error] == []
    assert sum(1 for s in skills if s.path.startswith("_legacy_impl/")) == 28
    assert sum(1 for s in skills if s.source_knowledge) == 28
    assert sum(1 for s in skills if s.delegates_to) == 16
    by_id = {s.id: s for s in skills}
    assert (
        by_id["quark-torch-install"].delegates_to
        == "_legacy_impl/l1-atomic/torch/quark-torch-install/SKILL.md"
    )
    ptq = by_id["quark-torch-ptq"]
    assert ptq.source_knowledge == () and "quark-torch-ptq/references/quant-plan.md" in ptq.references
    legacy = by_id["_legacy_impl/l1-atomic/torch/quark-torch-install"]
    assert legacy.source_knowledge == ("tools/ci/install_torch.sh", "docs/source/install.rst")
    assert legacy.source_knowledge_lines == (12, 13)
