"""quarkci.sync."""
