"""quarkci.facts."""
