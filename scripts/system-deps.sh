#!/bin/sh
# Debian packages Courtier uses. `system-deps.sh fonts` (make run): the fonts the printed sheets
# name, one package a line in scoresheets/fonts.txt, which companion.serve reads too: DejaVu for
# Latin, Greek, Cyrillic, Arabic, Hebrew and the suits; DejaVu's condensed faces (fonts-dejavu-extra)
# for the why of each score and the blank sheets' narrow column heads; Noto core (about 12 MB to
# download) for the Indic scripts, Thai, Armenian, Georgian and Ethiopic; Noto CJK (about 57 MB) for
# Chinese, Japanese and Korean; Noto Color Emoji (about 10 MB) for an emoji in a player's name.
# fonts-noto-extra (72 MB) and the serif and UI families are left out: the sheets need none of them.
# `system-deps.sh` (make test): those fonts, and what the test suite uses besides: Chromium for the
# browser tests, poppler-utils for rendering sheets to PNG, libharfbuzz-subset0 for WeasyPrint's font
# subsetting, and PostgreSQL's server programs (initdb, pg_ctl): the tests start a throwaway server of
# their own to run the app's tests on PostgreSQL too (tests/throwaway_postgres.py); none that is
# already running is used; nginx, the hosted setup's proxy as docs/ops.md configures it
# (tests/test_hosted_as_documented.py starts one of its own and leaves none running).
# Installed with apt-get where we run as root; otherwise the tests that need them skip with a message
# saying what is missing, and companion.serve says at start which fonts are missing and how to install them.
# FONTS_ROOT (default /usr/share/fonts) is where the fonts' files are looked for.
set -u
only=${1:-all}
case "$0" in */*) here=${0%/*} ;; *) here=. ;; esac
fonts_root=${FONTS_ROOT:-/usr/share/fonts}
missing=""
add() {
  case " $missing " in *" $1 "*) ;; *) missing="$missing $1" ;; esac
}
while IFS='|' read -r package pattern _lacking _families; do
  case "$package" in ''|'#'*) continue ;; esac
  set -- $fonts_root/$pattern  # the pattern's files, or the pattern itself when nothing matches
  [ -e "$1" ] || add "$package"
done < "$here/../scoresheets/fonts.txt"
if [ "$only" != fonts ]; then
  [ -x /usr/bin/chromium ] || add chromium
  command -v pdftoppm >/dev/null 2>&1 || add poppler-utils
  ls /usr/lib/*/libharfbuzz-subset.so.0 >/dev/null 2>&1 || add libharfbuzz-subset0
  ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || add postgresql
  [ -x /usr/sbin/nginx ] || add nginx
  then_what="the tests that need them will skip"
else
  then_what="Courtier will say which sheets need them"
fi
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing:$missing"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null && apt-get install -y -qq --no-install-recommends $missing >/dev/null \
    || echo "could not install$missing; $then_what"
else
  echo "cannot install$missing here (that needs root and apt-get); $then_what"
fi
exit 0
