"""Daily partitions: one per UTC hand date (the landing folder ``landing/<YYYY-MM-DD>/``)."""

from __future__ import annotations

import dagster as dg

daily_hands = dg.DailyPartitionsDefinition(start_date="2024-01-01", timezone="UTC")
