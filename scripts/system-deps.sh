#!/bin/sh
# Debian packages the test suite uses: Chromium for the browser tests, poppler-utils for
# rendering sheets to PNG, libharfbuzz-subset0 for WeasyPrint's font subsetting, and the fonts
# the printed sheets name (scoresheets/print.css): DejaVu for Latin, Greek, Cyrillic, Arabic,
# Hebrew and the suits; Noto core (about 12 MB to download) for the Indic scripts, Thai, Armenian,
# Georgian and Ethiopic; Noto CJK (about 57 MB) for Chinese, Japanese and Korean; Noto Color Emoji
# (about 10 MB) for an emoji in a player's name; DejaVu's condensed faces (fonts-dejavu-extra) for the
# why of each score and the blank sheets' narrow column heads. fonts-noto-extra
# (72 MB) and the serif and UI families are left out: the sheets need none of them. PostgreSQL's
# server programs (initdb, pg_ctl): the tests start a throwaway server of their own to run the app's
# tests on PostgreSQL too (tests/throwaway_postgres.py); none that is already running is used.
# Installed with apt-get where we run as root; otherwise the tests that need them skip
# with a message saying what is missing.
set -u
missing=""
[ -x /usr/bin/chromium ] || missing="$missing chromium"
command -v pdftoppm >/dev/null 2>&1 || missing="$missing poppler-utils"
ls /usr/lib/*/libharfbuzz-subset.so.0 >/dev/null 2>&1 || missing="$missing libharfbuzz-subset0"
[ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || missing="$missing fonts-dejavu-core"
[ -f /usr/share/fonts/truetype/noto/NotoSansDevanagari-Regular.ttf ] || missing="$missing fonts-noto-core"
ls /usr/share/fonts/opentype/noto/NotoSansCJK-Regular.tt? >/dev/null 2>&1 || missing="$missing fonts-noto-cjk"
[ -f /usr/share/fonts/truetype/noto/NotoColorEmoji.ttf ] || missing="$missing fonts-noto-color-emoji"
[ -f /usr/share/fonts/truetype/dejavu/DejaVuSansCondensed.ttf ] || missing="$missing fonts-dejavu-extra"
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing="$missing postgresql"
[ -x /usr/sbin/nginx ] || missing="$missing nginx"
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
