#!/usr/bin/env bash
# Installs Debian's poppler-utils when pdftotext is missing: the evidence tests read the exported
# PDF's text with it, as a reviewer's viewer would (nothing is fetched but the Debian package).
set -euo pipefail
if command -v pdftotext >/dev/null 2>&1; then
    exit 0
fi
echo "installing poppler-utils (Debian package) for the evidence PDF tests"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends poppler-utils >/dev/null
