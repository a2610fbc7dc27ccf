"""quarkci.report."""
