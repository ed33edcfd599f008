"""Operations: Dagster at INFO with failed checks as plain lines, and a clean Ctrl-C."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from pipelines import cli
from pipelines.cli_audit import failed_check_line, print_report
from tests.conftest import real_data

ROOT = Path(__file__).resolve().parents[2]
HAND_FILE = ("fpdb3_regression", "regression-test-files", "cash", "Stars", "Flop",
             "NLHE-FR-USD-0.01-0.02-201005.microgrind.txt")


def test_failed_checks_print_as_plain_lines(capsys: pytest.CaptureFixture[str]) -> None:
    checks = [
        {"name": "parse_rate[2026-11-30]", "passed": False, "severity": "error",
         "detail": 'long text with {"json": "dump"}', "metadata": {"parse_rate": 0.9712}},
        {"name": "flag_volume[night]", "passed": False, "severity": "warn",
         "detail": "40 flags tonight; recent median 9", "metadata": {"flags": 40}},
        {"name": "unreconciled_hands[2026-11-30]", "passed": True, "severity": "warn", "detail": "0", "metadata": {}},
    ]
    print_report({"run_id": "r1", "checks": checks})
    out = capsys.readouterr().out
    assert "    CHECK FAILED partition_hands parse_rate: 97.1% < 99.5% (partition 2026-11-30)\n" in out
    assert "    CHECK WARNING collusion_flags flag_volume: 40 flags tonight; recent median 9\n" in out
    assert "checks: 1 passed, 1 failed (blocking), 1 warnings" in out
    assert "unreconciled_hands" not in out and "{" not in out


def test_a_long_detail_is_cut_to_one_line() -> None:
    line = failed_check_line({"name": "custom", "severity": "error", "detail": "x\n" * 500}, assets={})
    assert line.startswith("CHECK FAILED audit custom: x x") and "\n" not in line and line.endswith("…")


@pytest.mark.parametrize(("level", "debug_shown"), [("INFO", False), ("DEBUG", True)])
def test_dagster_logs_at_the_chosen_level(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], level: str, debug_shown: bool
) -> None:
    from pipelines.audit import instance_home, materialize_partition

    src = tmp_path / "in" / HAND_FILE[-1]
    src.parent.mkdir()
    shutil.copy(real_data(*HAND_FILE), src)
    home = str(instance_home(tmp_path / "work"))
    materialize_partition("2026-11-30", 0, [str(src)], str(tmp_path / "work"), str(tmp_path / "w.duckdb"), "", level,
                          home)
    err = capsys.readouterr().err
    assert (" - DEBUG - " in err) is debug_shown


def test_cli_audit_defaults_to_info() -> None:
    args = cli.build_parser().parse_args(["audit", "x", "--db", "w.duckdb"])
    assert args.log_level == "INFO"
    assert cli.build_parser().parse_args(["audit", "x", "--db", "w", "--log-level", "debug"]).log_level == "DEBUG"


def test_ctrl_c_is_one_line_and_exit_130(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import pipelines.cli_export as cli_export

    def interrupted(args: object) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli_export, "cmd_users_list", interrupted)
    assert cli.main(["users", "list", "--users", "nowhere.json"]) == 130
    captured = capsys.readouterr()
    assert captured.err == "interrupted\n" and captured.out == ""


def test_dagster_interruption_counts_as_ctrl_c(capsys: pytest.CaptureFixture[str]) -> None:
    from dagster._core.errors import DagsterExecutionInterruptedError

    def run() -> int:
        # Dagster's console handler: one write per record (message and terminator together)
        sys.stderr.write("2026 - dagster - ERROR - STEP_FAILURE\n\nDagsterExecutionInterruptedError\n\nStack:\n")
        print("a real warning", file=sys.stderr)
        try:
            raise DagsterExecutionInterruptedError()
        except BaseException as exc:
            raise RuntimeError("partition failed") from exc

    assert cli.interruptible(run) == 130
    assert capsys.readouterr().err == "a real warning\ninterrupted\n"
    with pytest.raises(ValueError):
        cli.interruptible(lambda: int("not a number"))


SLOW_RUN = textwrap.dedent('''
    import sys, time
    from pathlib import Path
    import dagster as dg
    from pipelines.audit import log_config
    from pipelines.cli import interruptible

    @dg.asset
    def slow() -> None:
        Path(sys.argv[1]).touch()
        time.sleep(60)

    sys.exit(interruptible(lambda: int(dg.materialize([slow], run_config=log_config("INFO")).success)))
''')


def test_sigint_during_a_real_dagster_run(tmp_path: Path) -> None:
    """SIGINT (what Ctrl-C sends) while a Dagster step runs: one line, exit 130, nothing else."""
    started = tmp_path / "started"
    proc = subprocess.Popen([sys.executable, "-c", SLOW_RUN, str(started)], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while not started.exists():
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline
            time.sleep(0.1)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert (proc.returncode, out, err) == (130, "", "interrupted\n")


def test_sigint_swallowed_by_a_handler_still_counts(capsys: pytest.CaptureFixture[str]) -> None:
    """Dagster's multiprocess executor catches SIGINT itself and just fails the run: still Ctrl-C."""

    def run() -> int:
        previous = signal.signal(signal.SIGINT, lambda *_: None)  # as Dagster's capture_interrupts does
        try:
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.05)
            sys.stderr.write("2026-12-01 - dagster - ERROR - Step finished without success or failure event.\n")
        finally:
            signal.signal(signal.SIGINT, previous)
        raise RuntimeError("the fan-out night failed")

    assert cli.interruptible(run) == 130
    assert capsys.readouterr().err == "interrupted\n"
