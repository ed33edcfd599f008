"""Dagster definitions of the nightly audit, loaded by ``pipelines.definitions``."""
