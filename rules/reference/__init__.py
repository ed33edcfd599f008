"""The rule engine as it was before the speed work (commit 44af2d0), frozen for differential tests.

Why keep it: every optimisation of ``rules`` must produce identical findings and action_states;
``tests/rules/test_engine_equivalence.py`` runs both over every real hand and a simulated night and
compares digests. Production code never imports this package. Do not edit it except to follow a
deliberate, reviewed change of a check (then change both and say why in the commit).
"""
