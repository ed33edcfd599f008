#!/usr/bin/env bash
# Installs Debian's chromium for the browser test when it is missing (the test drives it headless
# over the DevTools protocol; no browser download from anywhere but the Debian archive).
set -euo pipefail
if command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ]; then
    exit 0
fi
echo "installing chromium (Debian package) for the browser test"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null
