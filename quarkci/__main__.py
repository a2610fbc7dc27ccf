"""``python -m quarkci`` entry point."""

from quarkci.cli import main

raise SystemExit(main())
