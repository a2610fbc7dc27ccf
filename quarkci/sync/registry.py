"""The explicit, ordered registry of drift rules (no import side effects, no entry points)."""

from __future__ import annotations

from quarkci.contracts.diff import RULE_CHANGE as CONTRACT_RULE_IDS
from quarkci.core.rules import Rule
from quarkci.sync.rules import (
    api_name_removed,
    cli_command_misspelt,
    cli_command_unknown,
    cli_flag_choice_invalid,
    cli_flag_default_changed,
    cli_flag_deprecated,
    cli_flag_misspelt,
    cli_flag_removed,
    cli_flag_renamed,
    cli_flag_unverifiable,
    command_count_mismatch,
    contract_upstream_example_invalid,
    dependency_extra_misspelt,
    dependency_extra_unknown,
    dependency_not_required,
    dependency_range_mismatch,
    export_format_unknown,
    fact_unverifiable,
    model_count_mismatch,
    model_list_incomplete,
    model_type_misspelt,
    model_type_unknown,
    name_stated_unavailable,
    onnx_config_misspelt,
    onnx_config_unknown,
    python_argument_missing,
    python_argument_unknown,
    python_default_changed,
    python_import_unresolved,
    python_keyword_unknown,
    python_module_misspelt,
    python_name_misspelt,
    python_name_unknown,
    python_version_mismatch,
    scheme_count_mismatch,
    scheme_list_incomplete,
    scheme_misspelt,
    scheme_unknown,
    skill_frontmatter_invalid,
    skill_link_broken,
    skill_unreadable,
    source_path_missing,
    source_path_unverifiable,
    torch_index_tag_unknown,
    torch_version_mismatch,
    transformers_version_mismatch,
    upstream_fact_moved,
    version_unverifiable,
)
from quarkci.sync.state import AuditState

RULES: tuple[Rule[AuditState], ...] = (
    skill_unreadable,
    skill_frontmatter_invalid,
    source_path_missing,
    source_path_unverifiable,
    upstream_fact_moved,
    cli_command_unknown,
    cli_command_misspelt,
    skill_link_broken,
    cli_flag_removed,
    cli_flag_misspelt,
    cli_flag_renamed,
    cli_flag_deprecated,
    cli_flag_default_changed,
    cli_flag_choice_invalid,
    cli_flag_unverifiable,
    command_count_mismatch,
    scheme_unknown,
    scheme_misspelt,
    onnx_config_unknown,
    onnx_config_misspelt,
    name_stated_unavailable,
    scheme_list_incomplete,
    scheme_count_mismatch,
    model_type_unknown,
    model_type_misspelt,
    model_list_incomplete,
    model_count_mismatch,
    export_format_unknown,
    python_version_mismatch,
    torch_version_mismatch,
    torch_index_tag_unknown,
    transformers_version_mismatch,
    dependency_range_mismatch,
    dependency_extra_unknown,
    dependency_extra_misspelt,
    dependency_not_required,
    python_module_misspelt,
    python_name_misspelt,
    python_name_unknown,
    python_import_unresolved,
    python_keyword_unknown,
    python_argument_missing,
    python_argument_unknown,
    python_default_changed,
    api_name_removed,
    version_unverifiable,
    fact_unverifiable,
    contract_upstream_example_invalid,
)

RULE_IDS: tuple[str, ...] = tuple(r.ID for r in RULES)
assert len(set(RULE_IDS)) == len(RULE_IDS), "duplicate rule id"
# Every id a finding may carry: rule ids plus the ids a delegating rule emits. The contract-* ids of
# `quarkci contracts diff` stay accepted in a repository's sync config (they were sync findings before
# that comparison moved out of the skill audit), so existing `.quarkci.yaml` files keep loading.
FINDING_RULE_IDS: frozenset[str] = (
    frozenset(RULE_IDS)
    | frozenset(rid for r in RULES for rid in getattr(r, "EMITS", ()))
    | frozenset(CONTRACT_RULE_IDS)
)
