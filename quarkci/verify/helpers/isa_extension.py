"""ISA of a torch cpp_extension: build (or reuse) the JIT extension, then disassemble its object.

Usage: python isa_extension.py --module IMPORT.PATH --name EXTENSION_NAME [--lines N]
Compiles only: nothing of the extension is run. Honors TORCH_EXTENSIONS_DIR. Prints the .so path,
``ISA instructions=N`` and the first --lines lines of ``objdump -d``; exit 1 when no object exists.
"""

import argparse
import importlib
import pathlib
import subprocess
import sys

from torch.utils.cpp_extension import _get_build_directory


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--module", required=True)
    parser.add_argument("--name", required=True)
    parser.add_argument("--lines", type=int, default=20)
    args = parser.parse_args()
    importlib.import_module(args.module)
    objects = sorted(pathlib.Path(_get_build_directory(args.name, False)).glob("*.so"))
    if not objects:
        print(f"no built object for {args.name}", file=sys.stderr)
        return 1
    dump = subprocess.run(
        ["objdump", "-d", "--no-show-raw-insn", str(objects[0])], capture_output=True, text=True, check=True
    ).stdout.splitlines()
    print(f"OBJECT {objects[0]}")
    print(f"ISA instructions={sum(1 for line in dump if line.startswith('  '))}")
    print("\n".join(dump[: args.lines]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
