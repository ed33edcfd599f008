#!/usr/bin/env bash
# Real-browser test of the review dashboard: installs Debian's chromium when missing, then drives it
# headless over the DevTools protocol (tests/dashboards/cdp.py). Screenshots: test-artifacts/e2e/.
# Usage: bash scripts/e2e_browser.sh [extra pytest args]
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure_chromium.sh
chromium --version 2>/dev/null || /usr/bin/chromium --version
mkdir -p test-artifacts/e2e
FLOORMAN_E2E=1 exec .venv/bin/pytest -m e2e tests/dashboards/test_e2e_browser.py -p no:cacheprovider "$@"
