"""quarkci: keep AMD Quark agent skills honest against real Quark releases, and gate quantized releases."""

__version__ = "0.1.0"
