#!/bin/sh
# Debian packages the test suite uses: Chromium for the browser tests, poppler-utils for
# rendering sheets to PNG, libharfbuzz-subset0 for WeasyPrint's font subsetting, DejaVu fonts
# for the printed sheets.
# Installed with apt-get where we run as root; otherwise the tests that need them skip
# with a message saying what is missing.
set -u
missing=""
[ -x /usr/bin/chromium ] || missing="$missing chromium"
command -v pdftoppm >/dev/null 2>&1 || missing="$missing poppler-utils"
ls /usr/lib/*/libharfbuzz-subset.so.0 >/dev/null 2>&1 || missing="$missing libharfbuzz-subset0"
[ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || missing="$missing fonts-dejavu-core"
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing:$missing"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null && apt-get install -y -qq --no-install-recommends $missing >/dev/null \
    || echo "could not install$missing; the tests that need them will skip"
else
  echo "not root: cannot install$missing; the tests that need them will skip"
fi
exit 0
