"""quarkci.skills."""
