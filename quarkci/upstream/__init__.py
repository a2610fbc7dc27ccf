"""quarkci.upstream."""
