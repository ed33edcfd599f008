"""Partitions of the nightly audit: a UTC hand date (the landing folder ``landing/<YYYY-MM-DD>/``)
crossed with a shard of that day's files.

Why shards: one big night is one date, and a date alone can only be built by one process. A
shard is a stable slice of the day's files (by a hash of the file's path inside the day folder),
so ``floorman audit --workers N --shards N`` and the schedule build the same assets, several
slices of one night in parallel, and every run is recorded per (date, shard). With one shard
(the default) the whole day is shard ``0``.
"""

from __future__ import annotations

import zlib

import dagster as dg

#: the most shards a day can be split into (static: Dagster keys must not change between loads)
MAX_SHARDS = 8

#: end_offset=1: today's folder is a valid partition, so files landing during the day can be built
daily_hands = dg.DailyPartitionsDefinition(start_date="2024-01-01", timezone="UTC", end_offset=1)
shards = dg.StaticPartitionsDefinition([str(k) for k in range(MAX_SHARDS)])
audit_partitions = dg.MultiPartitionsDefinition({"date": daily_hands, "shard": shards})


def partition_key(date: str, shard: int | str = 0) -> dg.MultiPartitionKey:
    return dg.MultiPartitionKey({"date": date, "shard": str(shard)})


def split_key(key: str | dg.MultiPartitionKey) -> tuple[str, str]:
    """(date, shard) of a partition key (a ``MultiPartitionKey`` or its string ``date|shard``)."""
    if isinstance(key, dg.MultiPartitionKey):
        dims = key.keys_by_dimension
        return dims["date"], dims["shard"]
    date, _, shard = str(key).partition("|")
    return date, shard or "0"


def label(date: str, shard: int | str) -> str:
    """File and report name of a partition: the date for shard 0 (unsharded nights keep their
    names), ``<date>.<shard>`` otherwise."""
    return date if str(shard) == "0" else f"{date}.{shard}"


def shard_of(relative_path: str, n_shards: int) -> int:
    """The shard a landed file belongs to: stable across runs, machines and Python versions."""
    if n_shards <= 1:
        return 0
    return zlib.crc32(relative_path.replace("\\", "/").encode("utf-8")) % n_shards
