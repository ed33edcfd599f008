"""The nightly audit on a distributed engine: Dagster on PostgreSQL, steps on Celery workers.

``pipelines.cluster.definitions`` is the code location (the project's assets and jobs with the
Celery executor), ``pipelines.cluster.worker`` the Celery app the workers run,
``pipelines.cluster.settings`` the Celery settings both sides share, ``pipelines.cluster.night``
the driver of ``make cluster-test`` and ``pipelines.cluster.compare`` its warehouse comparison.
Nothing here is imported by the single-machine path: the ``cluster`` extra is optional.
"""
