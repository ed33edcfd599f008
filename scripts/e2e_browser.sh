#!/usr/bin/env bash
# Real-browser test of the review dashboard: installs Debian's chromium when missing, then drives it
# headless over the DevTools protocol (tests/dashboards/cdp.py). Screenshots: test-artifacts/e2e/.
# Usage: bash scripts/e2e_browser.sh [extra pytest args]
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v chromium >/dev/null 2>&1 && [ ! -x /usr/bin/chromium ]; then
    echo "installing chromium (Debian package)"
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null
fi
chromium --version 2>/dev/null || /usr/bin/chromium --version
mkdir -p test-artifacts/e2e
FLOORMAN_E2E=1 exec .venv/bin/pytest -m e2e tests/dashboards/test_e2e_browser.py -p no:cacheprovider "$@"
