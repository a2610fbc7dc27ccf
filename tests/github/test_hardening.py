"""Issue 12, gh cases 1-10 and the token-less dry run: each a test against the fake GitHub with faults.

Every test asserts the final state of the fake (what GitHub would hold), not only quarkci's output.
"""

from __future__ import annotations

import json
import re
import shutil
import socket
from pathlib import Path

import pytest

from quarkci.cli import main
from tests.fakegithub import Fault
from tests.github.conftest import TOKEN
from tests.github.reports import FIXED_TEXT, SKILL_FILE, finding, make_report

pytestmark = pytest.mark.usefixtures("tight_timeout")  # faults sleep past a 1 s client timeout

R = "/repos/octo/skills"
ROOT = Path(__file__).resolve().parents[2]


def _issue(fake, number, *, user="dev", body="", title="t", pull=None, labels=()):
    fake.state.issues[str(number)] = {
        "id": number,
        "title": title,
        "body": body,
        "labels": list(labels),
        "state": "open",
        "user": user,
        "created_at": "2026-01-01T00:00:00Z",
        "updated_at": "2026-01-01T00:00:00Z",
        "closed_at": None,
        "state_reason": None,
        "pull": pull,
    }
    fake.state.counters["issue"] = max(fake.state.counters["issue"], number)
    for name in labels:
        fake.state.labels.setdefault(
            name, {"id": fake.state.next("label"), "color": "ededed", "description": ""}
        )


def _comment(fake, cid, issue, body, user):
    fake.state.comments[str(cid)] = {
        "issue": issue,
        "body": body,
        "user": user,
        "created_at": "2026-01-01T00:00:00Z",
        "updated_at": "2026-01-01T00:00:00Z",
    }


# --- case 1: no double dispatch ------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["lost-response", "502", "timeout"])
def test_case01_a_failed_dispatch_post_never_starts_two_runs(fake, gh_run, kind):
    fake.faults = [Fault(kind, method="POST", path="/dispatches$", delay=1.3)]
    code, out, err = gh_run(
        [
            "gh",
            "dispatch",
            "--workflow",
            "release.yml",
            "--ref",
            "main",
            "--input",
            "amd-quark=0.13",
            "--json",
        ]
    )
    assert code == 0, err
    assert fake.faults_injected() == 1
    (run,) = fake.state.runs  # exactly one workflow run, whatever happened to the first POST
    cid = run["inputs"]["correlation-id"]
    assert re.fullmatch(r"qc-[0-9a-f]{16}", cid) and cid in run["display_title"]
    (item,) = json.loads(out)["items"]
    assert item["url"].endswith(f"/actions/runs/{run['id']}") and item["number"] == run["id"]
    posts = [c for c in fake.calls if c.method == "POST"]
    lookups = [c for c in fake.calls if c.path.endswith("/runs")]
    if kind == "502":  # refused before processing: looked up (nothing), then sent again
        assert len(posts) == 2 and len(lookups) >= 1
    else:  # processed but unanswered: the lookup finds the run, the POST is not sent again
        assert len(posts) == 1 and lookups
        where = [n for n, c in enumerate(fake.calls) if c.path.endswith("/runs")]
        assert where[-1] > next(n for n, c in enumerate(fake.calls) if c.method == "POST")


def test_case01_without_a_correlation_input_a_lost_post_is_not_retried(fake, gh_run):
    fake.state.commit_files(
        "main", {".github/workflows/plain.yml": b"on:\n  workflow_dispatch:\njobs: {}\n"}, "wf"
    )
    fake.state.workflows["plain.yml"] = {
        "id": 7,
        "name": "plain",
        "dispatch": True,
        "created_at": "2026-01-01T00:00:00Z",
    }
    fake.faults = [Fault("lost-response", method="POST", path="/dispatches$", delay=1.3)]
    code, _, err = gh_run(["gh", "dispatch", "--workflow", "plain.yml", "--ref", "main"])
    assert code == 3 and "not retried" in err and err.count("\n") == 1
    assert len(fake.state.runs) == 1 and [c.method for c in fake.calls].count("POST") == 1


def test_dispatch_takes_the_retry_policy_in_force_when_it_runs(fake, gh_run, monkeypatch):
    """dispatch bound client.DEFAULT_POLICY when first imported: once any module imported it before a test
    (or a caller) set the policy, the dispatch loop kept production's retries and backoff (the soak took
    147 s instead of 23 s in the full suite). With no retries allowed, one 502 on the POST is the end."""
    import dataclasses

    import quarkci.github.client as client
    import quarkci.github.dispatch  # noqa: F401 - imported before the policy below is set, as in a session

    monkeypatch.setattr(client, "DEFAULT_POLICY", dataclasses.replace(client.DEFAULT_POLICY, total=0))
    fake.faults = [Fault("502", method="POST", path="/dispatches$")]
    code, _, err = gh_run(
        [
            "gh",
            "dispatch",
            "--workflow",
            "release.yml",
            "--ref",
            "main",
            "--input",
            "amd-quark=0.13",
            "--json",
        ]
    )
    assert code == 3 and "unavailable after 1 attempts" in err, err
    assert [c.method for c in fake.calls].count("POST") == 1 and fake.state.runs == []


# --- case 2: the sticky comment and issues check the author ------------------------------------------


@pytest.mark.parametrize("mine_is_newer", [False, True])
def test_case02_another_users_marked_comment_is_never_edited_or_deleted(
    fake, gh_run, tmp_path, mine_is_newer
):
    _issue(fake, 1)
    marker = "<!-- quarkci:report:ci -->"
    body = tmp_path / "b.md"
    body.write_text("## Report\nfresh\n")
    if not mine_is_newer:
        _comment(fake, 1001, 1, f"{marker}\nmallory's text", "mallory")
        fake.state.counters["comment"] = 1001
    code, out, err = gh_run(["gh", "comment", "--pr", "1", "--body-file", str(body), "--name", "ci"])
    assert code == 0, err
    if mine_is_newer:  # mallory posts a marked comment after quarkci's
        _comment(fake, 2000, 1, f"{marker}\nmallory's later text", "mallory")
        body.write_text("## Report\nchanged\n")
        assert gh_run(["gh", "comment", "--pr", "1", "--body-file", str(body), "--name", "ci"])[0] == 0
    by = {c["user"]: c["body"] for c in fake.state.comments.values()}
    assert len(fake.state.comments) == 2
    assert by["mallory"].startswith(marker + "\nmallory's")  # untouched
    assert by["quarkci-bot"].startswith(marker + "\n## Report")


@pytest.mark.parametrize(
    ("token", "env", "author"),
    [
        ("ghs_actionsToken000000000000000000000000", {}, "github-actions[bot]"),
        (
            "ghs_appToken00000000000000000000000000000",
            {"QUARKCI_GH_APP_SLUG": "quarkci-app"},
            "quarkci-app[bot]",
        ),
        ("github_pat_userToken0000000000000000000", {}, "alice"),
        ("ghs_otherToken000000000000000000000000000", {"QUARKCI_GH_LOGIN": "octo-deliver"}, "octo-deliver"),
    ],
)
def test_case02_identity_of_each_token_kind(fake, gh_run, tmp_path, monkeypatch, token, env, author):
    """Actions token -> github-actions[bot]; App token -> SLUG[bot]; user token -> the user; or --login."""
    monkeypatch.delenv("QUARKCI_GH_LOGIN")
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    fake.state.tokens[token] = author
    fake.state.bot_logins.append(author)
    monkeypatch.setenv("GITHUB_TOKEN", token)
    _issue(fake, 1)
    marker = "<!-- quarkci:report:ci -->"
    _comment(fake, 1001, 1, f"{marker}\nold by me", author)
    _comment(fake, 1002, 1, f"{marker}\nold by someone else", "someone")
    fake.state.counters["comment"] = 1002
    body = tmp_path / "b.md"
    body.write_text("new\n")
    code, out, err = gh_run(["gh", "comment", "--pr", "1", "--body-file", str(body), "--name", "ci"])
    assert code == 0, err
    assert out.startswith("comment: updated")
    assert fake.state.comments["1001"]["body"] == f"{marker}\nnew\n"
    assert fake.state.comments["1002"]["body"] == f"{marker}\nold by someone else"
    # GitHub names the token's login (GraphQL viewer) unless given; REST GET /user is never asked.
    assert (("POST", "/graphql") in fake.sequence()) == (not env) and ("GET", "/user") not in fake.sequence()


def test_case02_issue_with_the_marker_by_another_author_is_not_quarkcis(fake, ws, gh_run):
    f = finding("breaking", "--x")
    _issue(
        fake,
        1,
        user="mallory",
        body=f"<!-- quarkci:finding:{f['fingerprint']} -->\nfake",
        title="x",
        labels=("quarkci-drift", "breaking"),
    )  # even with quarkci's labels it is not quarkci's
    ws.write(make_report([f]))
    assert gh_run(ws.issues_args())[0] == 0
    assert fake.state.issues["1"]["body"].endswith("fake") and fake.state.issues["1"]["state"] == "open"
    mine = [i for i in fake.state.issues.values() if i["user"] == "quarkci-bot"]
    assert len(mine) == 1 and f["fingerprint"] in mine[0]["body"]


# --- case 3: the drift PR is built from applied_fixes ------------------------------------------------


def _fixed_report(version="0.13", fixes=75, root="skills"):
    report = make_report(
        [finding("breaking", "--gone"), finding("semantic", "warmup")], [SKILL_FILE], version=version
    )
    report["applied_fixes"] = [
        f"quark-torch-ptq/SKILL.md:{n + 4}: rename w_int{n} -> w_int{n}_per_group" for n in range(fixes)
    ]
    report["skills_root"] = root
    return report


def test_case03_pr_after_fix_lists_the_applied_fixes_and_says_what_is_true(fake, ws, gh_run):
    ws.write(
        _fixed_report(), {SKILL_FILE: FIXED_TEXT}
    )  # the re-audit after --fix: no mechanical findings left
    code, out, err = gh_run(ws.pr_args())
    assert code == 0, err
    (pr,) = [i for i in fake.state.issues.values() if i.get("pull")]
    assert pr["title"] == "quarkci: sync skills with amd-quark 0.13 (75 mechanical fixes)"
    assert "### Applied fixes (75)" in pr["body"]
    assert pr["body"].count("rename w_int") == 75
    assert "filed\nas issues by `quarkci gh issues`" in pr["body"]
    assert (
        "semantic findings (1) need a human's judgement" in pr["body"] and "not filed as issues" in pr["body"]
    )
    assert "Breaking and semantic findings are never auto-fixed; they are filed as" not in pr["body"]


# --- case 4: one drift PR per skills root across releases --------------------------------------------


def test_case04_a_newer_release_supersedes_the_open_drift_pr(fake, ws, gh_run):
    ws.write(_fixed_report("0.13", 3), {SKILL_FILE: FIXED_TEXT})
    assert gh_run(ws.pr_args())[0] == 0
    ws.write(_fixed_report("0.14", 4), {SKILL_FILE: FIXED_TEXT + "0.14\n"})
    code, out, err = gh_run(ws.pr_args())
    assert code == 0, err
    pulls = {n: i for n, i in fake.state.issues.items() if i.get("pull")}
    opened = [i for i in pulls.values() if i["state"] == "open"]
    assert len(opened) == 1 and opened[0]["pull"]["head"] == "quarkci/skill-sync/0.14"
    new = next(n for n, i in pulls.items() if i["state"] == "open")
    old = next(n for n, i in pulls.items() if i["state"] == "closed")
    note = fake.state.issues[old]["body"].split("<!-- quarkci:closed -->", 1)[1]
    assert f"Superseded by #{new}" in note and "0.14" in note and fake.state.comments == {}
    assert re.search(rf"closed pull request #{old} \[quarkci/skill-sync/0\.13\]", out)
    # the older report again (a re-run of an old release): nothing opened, nothing written
    ws.write(_fixed_report("0.13", 3), {SKILL_FILE: FIXED_TEXT})
    fake.clear_log()
    code, out, _ = gh_run(ws.pr_args())
    assert code == 0 and "newer amd-quark 0.14 is open" in out and fake.writes() == []
    # a drift PR of another skills root is not touched
    ws.write(_fixed_report("0.15", 2, root="other/skills"), {SKILL_FILE: FIXED_TEXT + "0.15\n"})
    assert gh_run(ws.pr_args())[0] == 0
    assert sum(1 for i in fake.state.issues.values() if i.get("pull") and i["state"] == "open") == 2


# --- case 5: issue dedup survives human edits ---------------------------------------------------------


def test_case05_unlabelled_issue_with_a_note_above_the_marker_and_a_new_title(fake, ws, gh_run):
    findings = [finding("breaking", "--x"), finding("breaking", "--y")]
    ws.write(make_report(findings))
    assert gh_run(ws.issues_args())[0] == 0
    first = fake.state.issues["1"]
    first["labels"] = []  # a human removed the labels
    first["body"] = "Triage: we know, fixing in #99.\n\n" + first["body"]  # and wrote above the marker
    first["title"] = "ptq skill: --x flag removed upstream"  # and renamed it
    fake.clear_log()
    code, out, _ = gh_run(ws.issues_args())
    assert code == 0 and out.startswith("issues: unchanged")
    assert fake.writes() == [] and len(fake.state.issues) == 2
    # the finding's text changes: the body is edited, the note and the human title stay
    findings[0]["impact"] = "every command fails"
    ws.write(make_report(findings))
    assert gh_run(ws.issues_args())[1].startswith("issues: updated")
    assert first["title"] == "ptq skill: --x flag removed upstream"
    assert first["body"].startswith("Triage: we know, fixing in #99.\n\n<!-- quarkci:finding:")
    assert "every command fails" in first["body"] and len(fake.state.issues) == 2
    fake.clear_log()
    assert gh_run(ws.issues_args())[0] == 0 and fake.writes() == []


# --- case 6: exit codes -------------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_case06_connection_refused_and_dns_failure_exit_3(ws, gh_run, monkeypatch):
    monkeypatch.setenv("GITHUB_TOKEN", TOKEN)
    monkeypatch.setenv("GITHUB_REPOSITORY", "octo/skills")
    monkeypatch.setenv("QUARKCI_GH_LOGIN", "quarkci-bot")
    ws.write(make_report([finding("breaking", "--x")]))
    for url in (f"http://127.0.0.1:{_free_port()}", "http://api.github.invalid"):
        code, _, err = gh_run(ws.issues_args("--api-url", url))
        assert code == 3, err
        assert "unreachable" in err and err.count("quarkci: error") == 1


@pytest.mark.parametrize(
    ("fault", "code", "words"),
    [
        ("502", 3, "unavailable after retries: 502"),
        ("primary-rate-limit", 3, "rate limit"),
        ("403", 2, "lacks a permission"),
        ("404", 2, "not found, or not visible to this token"),
    ],
)
def test_case06_api_failures_map_to_exit_codes_with_the_reason(fake, ws, gh_run, fault, code, words):
    ws.write(make_report([finding("breaking", "--x")]))
    fake.faults = [Fault(fault, method="GET", path="/issues$", times=20)]
    got, _, err = gh_run(ws.issues_args())
    assert got == code and words in err, err
    assert err.strip().count("\nquarkci: error") == 0 and "Traceback" not in err


def test_case06_bad_token_and_missing_repository_exit_2(fake, ws, gh_run, monkeypatch):
    ws.write(make_report([finding("breaking", "--x")]))
    code, _, err = gh_run(ws.issues_args("--repo", "octo/missing"))
    assert code == 2 and "404" in err and "not visible to this token" in err
    monkeypatch.setenv("GITHUB_TOKEN", "ghp_wrong0000000000000000000000000000000")
    code, _, err = gh_run(ws.issues_args())
    assert code == 2 and "token was rejected" in err


def test_case06_exit_codes_documented_in_help_and_readme(capsys):
    for sub in ("pr", "issues", "comment", "dispatch"):
        with pytest.raises(SystemExit):
            main(["gh", sub, "--help"])
        text = capsys.readouterr().out
        assert "exit codes:" in text and "3  GitHub unreachable" in text and "401 token rejected" in text
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("\n## GitHub delivery") :]
    section = section[: section.find("\n## ", 4) if "\n## " in section[4:] else len(section)]
    for needle in (
        "Exit codes",
        "| 3 |",
        "| 2 |",
        "github-actions[bot]",
        "permissions",
        "runner group",
        "ephemeral",
        "2.336.0",
        "Dependabot",
    ):
        assert needle in section, needle


# --- case 7: truncation inside sections; the report URL -----------------------------------------------


def test_case07_a_pr_with_1500_fixes_lists_what_fits_and_links_the_report(fake, ws, gh_run):
    report = _fixed_report(fixes=1500)
    report["applied_fixes"] = [f + " " + "p" * 40 for f in report["applied_fixes"]]
    ws.write(report, {SKILL_FILE: FIXED_TEXT})
    url = "https://github.example/octo/skills/actions/runs/7#artifacts"
    code, _, err = gh_run(ws.pr_args("--full-report-url", url))
    assert code == 0, err
    (pr,) = [i for i in fake.state.issues.values() if i.get("pull")]
    shown = pr["body"].count("rename w_int")
    (left,) = re.findall(r"_… (\d+) more item\(s\) not shown here", pr["body"])
    assert shown > 500 and shown + int(left) == 1500 and url in pr["body"]
    assert "### Files changed (1)" in pr["body"]  # the later section survives


def test_case07_report_url_is_checked(ws, gh_run, monkeypatch):
    monkeypatch.setenv("GITHUB_TOKEN", TOKEN)
    monkeypatch.setenv("GITHUB_REPOSITORY", "octo/skills")
    ws.write(make_report([]))
    code, _, err = gh_run(ws.issues_args("--full-report-url", "javascript:alert(1)"))
    assert code == 2 and "--full-report-url" in err


# --- case 8: capped closes, one line per retry, the surviving issue ----------------------------------


def test_case08_closes_are_capped_and_cost_one_write_each(fake, ws, gh_run):
    ws.write(make_report([finding("breaking", f"--f{n}") for n in range(12)]))
    gh_run(ws.issues_args("--max-new", "20"))
    ws.write(make_report([]))
    fake.clear_log()
    code, out, _ = gh_run(ws.issues_args("--max-close", "5"))
    assert code == 0
    assert fake.writes() == [("PATCH", f"{R}/issues/{n}") for n in range(1, 6)]
    assert sum(1 for i in fake.state.issues.values() if i["state"] == "open") == 7
    assert out.count("--max-close 5 reached") == 7


def test_case08_one_line_per_retry(fake, ws):
    """In a real process (logging as the CLI configures it): two 502s -> exactly two stderr lines."""
    import os
    import subprocess
    import sys

    ws.write(make_report([finding("breaking", "--x")]))
    fake.faults = [Fault("502", method="POST", path="/issues$", times=2)]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}  # production retry policy: about 3 s of backoff
    proc = subprocess.run(
        [sys.executable, "-m", "quarkci", *ws.issues_args()],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert proc.returncode == 0, proc.stderr
    assert fake.faults_injected() == 2
    lines = [x for x in proc.stderr.splitlines() if x.strip()]
    assert len(lines) == 2 and all(
        re.match(
            r"quarkci: WARNING: retry [12]/\d+: POST /repos/octo/skills/issues "
            r"answered HTTP 502$",
            x,
        )
        for x in lines
    ), lines


def test_case08_a_lost_response_is_looked_up_not_sent_again(fake, ws, gh_run):
    ws.write(make_report([finding("breaking", "--x")]))
    fake.faults = [Fault("lost-response", method="POST", path="/issues$", delay=1.3)]
    code, out, _ = gh_run([*ws.issues_args(), "--json"])
    assert code == 0
    states = {n: i["state"] for n, i in fake.state.issues.items()}
    assert states == {"1": "open"}  # the lost create was found by its fingerprint: no #2 (issue 23)
    (item,) = json.loads(out)["items"]
    assert (item["operation"], item["number"]) == ("created", 1) and "not sent again" in item["note"]


# --- case 9: one workflow-command escaper for everything printed in Actions ----------------------------


def test_case09_a_skill_folder_name_cannot_inject_workflow_commands(tmp_path, monkeypatch, capsys):
    from tests.sync.conftest import FIXTURES, build_wheel

    wheels = {v: build_wheel(FIXTURES / f"rel_{v.replace('.', '')}", v, tmp_path) for v in ("0.98", "0.99")}
    skills = tmp_path / "skills"
    evil = skills / "x\n::error title=pwned::owned\n::add-mask::secret\n##[error]old"
    shutil.copytree(ROOT / "tests" / "fixtures" / "skills" / "positive" / "ptq-runner", evil)
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    code = main(
        [
            "sync",
            "--upstream",
            str(wheels["0.99"]),
            "--baseline",
            str(wheels["0.98"]),
            "--skills",
            str(skills),
            "--out",
            str(tmp_path / "out"),
            "--fail-on",
            "none",
        ]
    )
    out, err = capsys.readouterr()
    assert code == 0
    assert "owned" in out  # the folder name is printed ...
    lines = (out + err).splitlines()
    assert not [x for x in lines if x.lstrip().startswith(("::", "##["))]  # ... but never as a command
    assert any("x%0A::error title=pwned::owned%0A::add-mask::secret%0A#\\u0023[error]old" in x for x in lines)
    # the findings lines are escaped where they are printed, so outside Actions (no guard) too ...
    monkeypatch.delenv("GITHUB_ACTIONS")
    main(
        [
            "sync",
            "--upstream",
            str(wheels["0.99"]),
            "--baseline",
            str(wheels["0.98"]),
            "--skills",
            str(skills),
            "--out",
            str(tmp_path / "out2"),
            "--fail-on",
            "none",
        ]
    )
    assert not [x for x in capsys.readouterr().out.splitlines() if x.lstrip().startswith(("::", "##["))]
    # ... negative control: the skill id the report holds, printed as is, does carry the raw lines
    report = json.loads((tmp_path / "out2" / "validation_report.json").read_text(encoding="utf-8"))
    assert any(x.startswith("::error title=pwned") for x in report["findings"][0]["skill"].splitlines())


def test_case09_the_guard_escapes_plain_lines_and_passes_deliberate_commands(monkeypatch):
    import io
    import sys

    from quarkci.report.lines import CommandGuard, emit_command, neutralise

    guard = CommandGuard(io.StringIO())
    monkeypatch.setattr(sys, "stdout", guard)
    print("plain\n  ::warning::x\n##[group]y\nok::fine")
    emit_command("::error file=a,line=1::escaped%0Adata")
    print("::add-mask::partial", end="")
    guard.flush()
    assert guard.raw.getvalue().splitlines() == [
        "plain",
        "  %3A%3Awarning::x",
        "#\\u0023[group]y",
        "ok::fine",
        "::error file=a,line=1::escaped%0Adata",
        "%3A%3Aadd-mask::partial",
    ]
    assert neutralise("::stop-commands::tok") == "%3A%3Astop-commands::tok"


# --- case 10: dispatch inputs checked against the target's declaration ------------------------------


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (
            ["--input", "amd-quark=0.13", "--input", "upstream=amd-quark==0.13"],
            "--input upstream: not declared by release.yml",
        ),
        ([], "--input amd-quark=...: required by release.yml"),
        (["--input", "amd-quark=0.13", "--input", "scheme=mx9"], "accepts one of fp8, int8"),
        (["--input", "amd-quark=0.13\n::set-output name=x::y"], "must be one line"),
    ],
)
def test_case10_undeclared_missing_or_invalid_inputs_are_refused_before_dispatch(fake, gh_run, args, words):
    code, _, err = gh_run(["gh", "dispatch", "--workflow", "release.yml", "--ref", "main", *args])
    assert code == 2 and words in err and err.count("\n") == 1, err
    assert fake.writes() == [] and fake.state.runs == []


def test_case10_offers_are_sent_only_where_declared(fake, gh_run):
    code, out, err = gh_run(
        [
            "gh",
            "dispatch",
            "--workflow",
            "release.yml",
            "--ref",
            "main",
            "--offer",
            "amd-quark=0.14",
            "--offer",
            "upstream=amd-quark==0.14",
            "--offer",
            "pr=3",
        ]
    )
    assert code == 0, err
    (run,) = fake.state.runs
    assert (
        set(run["inputs"]) == {"amd-quark", "scheme", "correlation-id"}
        and run["inputs"]["amd-quark"] == "0.14"
    )


# --- issue 14: gh --dry-run without a token ------------------------------------------------------------


@pytest.mark.parametrize("command", ["pr", "issues", "comment", "dispatch"])
def test_dry_run_without_a_token_prints_the_plan_and_reads_nothing(
    fake, ws, gh_run, tmp_path, monkeypatch, command
):
    monkeypatch.delenv("GITHUB_TOKEN")
    ws.write(_fixed_report(fixes=2), {SKILL_FILE: FIXED_TEXT})
    body = tmp_path / "b.md"
    body.write_text("hello\n")
    args = {
        "pr": ws.pr_args(),
        "issues": ws.issues_args(),
        "comment": ["gh", "comment", "--pr", "1", "--body-file", str(body)],
        "dispatch": [
            "gh",
            "dispatch",
            "--workflow",
            "release.yml",
            "--ref",
            "main",
            "--input",
            "amd-quark=1",
        ],
    }
    code, out, err = gh_run([*args[command], "--dry-run"])
    assert code == 0, err
    assert fake.calls == []  # not one request
    assert "would be created" in out and "planned writes:" in out and "no token" in out
    code, _, err = gh_run(args[command])  # a real run still needs the token
    assert code == 2 and "no GitHub token" in err


# --- case 11 (library side): the durable record of a handled release ------------------------------


def test_case11_release_mark_records_once_and_reads_back(fake, gh_run):
    check = ["gh", "release-mark", "--version", "0.99", "--check", "--json"]
    code, out, _ = gh_run(check)
    assert code == 0 and json.loads(out)["items"][0]["note"] == "not handled"
    assert fake.sequence() == [("GET", f"{R}/git/ref/tags/quarkci-handled/0.99")] and fake.writes() == []
    code, out, _ = gh_run(["gh", "release-mark", "--version", "0.99"])
    assert code == 0 and out.startswith("release-mark: created")
    assert fake.state.refs["refs/tags/quarkci-handled/0.99"] == fake.state.refs["refs/heads/main"]
    fake.clear_log()
    code, out, _ = gh_run(["gh", "release-mark", "--version", "0.99"])  # a second run: zero writes
    assert code == 0 and out.startswith("release-mark: unchanged") and fake.writes() == []
    code, out, _ = gh_run(check)
    assert json.loads(out)["items"][0]["note"] == "handled"
    code, _, err = gh_run(["gh", "release-mark", "--version", "0.99\n::error::x"])
    assert code == 2 and "cannot name a branch" in err


def test_release_mark_check_offline_plans_no_write(capsys):
    """`gh release-mark --check --dry-run` without a token reads nothing and plans no write (new-user trial)."""
    from quarkci import cli

    assert (
        cli.main(["gh", "release-mark", "--dry-run", "--repo", "me/skills", "--version", "0.13", "--check"])
        == 0
    )
    out = capsys.readouterr().out
    assert "POST" not in out and "not read" in out
    assert cli.main(["gh", "release-mark", "--dry-run", "--repo", "me/skills", "--version", "0.13"]) == 0
    assert "POST /repos/me/skills/git/refs" in capsys.readouterr().out  # negative control: a mark plans one


def test_case09_deliberate_annotations_pass_the_guard_through_the_cli(tmp_path, monkeypatch, capsys):
    """Through quarkci.cli.main (the guard and the closed-pipe wrapper both on), `report github` still prints
    its own annotations as real commands, while an injected one in a skill name stays escaped."""
    from tests.sync.conftest import FIXTURES, build_wheel

    wheels = {v: build_wheel(FIXTURES / f"rel_{v.replace('.', '')}", v, tmp_path) for v in ("0.98", "0.99")}
    out_dir = tmp_path / "out"
    assert (
        main(
            [
                "sync",
                "--upstream",
                str(wheels["0.99"]),
                "--baseline",
                str(wheels["0.98"]),
                "--skills",
                str(ROOT / "tests" / "fixtures" / "skills" / "positive"),
                "--out",
                str(out_dir),
                "--fail-on",
                "none",
            ]
        )
        == 0
    )
    capsys.readouterr()
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(tmp_path / "summary.md"))
    monkeypatch.setenv("GITHUB_OUTPUT", str(tmp_path / "output.txt"))
    assert main(["report", "github", "--report-dir", str(out_dir)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert any(x.startswith("::error file=") for x in lines), lines  # a deliberate annotation, unescaped
