"""Doctor: print one ``DOCTOR {json}`` line (library version or repo SHA, torch, toolchain, devices).

Usage: python doctor.py --package PKG [--dist DIST] [--needs g++,ninja]
Exit 0 when the library imports and every tool in --needs is on PATH, 1 otherwise (still printing).
"""

import argparse
import importlib
import importlib.metadata as md
import json
import os
import shutil
import subprocess
import sys


def devices() -> list[str]:
    """'cpu' plus each visible GPU's arch (gfx942 / sm90 ...)."""
    found = ["cpu"]
    try:
        import torch
    except ImportError:
        return found
    if torch.cuda.is_available():
        for i in range(torch.cuda.device_count()):
            props = torch.cuda.get_device_properties(i)
            arch = getattr(props, "gcnArchName", "") or f"sm{props.major}{props.minor}"
            found.append(arch.split(":")[0])
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--package", required=True)
    parser.add_argument("--dist", default="")
    parser.add_argument("--needs", default="")
    args = parser.parse_args()
    sys.path.insert(0, os.getcwd())  # a checkout's package imports from the repository root
    report: dict[str, object] = {"python": sys.version.split()[0]}
    try:
        import torch

        report["torch"] = torch.__version__
    except ImportError:
        report["torch"] = None
    ok = True
    try:
        module = importlib.import_module(args.package.split(".")[0])
        report["library_file"] = getattr(module, "__file__", None)
        report["library_version"] = getattr(module, "__version__", None)
    except Exception as exc:  # the doctor reports, it does not crash
        report["library_error"] = f"{type(exc).__name__}: {exc}"
        ok = False
    if args.dist:
        try:
            report["library_version"] = md.version(args.dist)
        except md.PackageNotFoundError:
            report["library_error"] = f"{args.dist} is not installed"
            ok = False
    sha = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True, check=False)
    report["repo_sha"] = sha.stdout.strip() if sha.returncode == 0 else None
    missing = [tool for tool in filter(None, args.needs.split(",")) if shutil.which(tool) is None]
    report["toolchain_missing"] = missing
    report["devices"] = devices()
    print("DOCTOR " + json.dumps(report, sort_keys=True))
    return 0 if ok and not missing else 1


if __name__ == "__main__":
    sys.exit(main())
