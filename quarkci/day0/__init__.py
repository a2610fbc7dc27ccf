"""Day-0 release: source model -> PTQ -> serving canary -> baseline/candidate evals -> gates -> decision."""
