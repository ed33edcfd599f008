"""Frozen copy of the detector feature code as of ea68902 (before the speed round of issue 5).

Why: the speed round must not change what the feature and statistics tables mean; the
equivalence test runs this copy and the live code on one warehouse and compares every table.
Do not edit (except to delete it when the speed round is over).
"""
