#!/usr/bin/env bash
# trickcam's developer tasks. Each task sets up what it needs first, so each works on a fresh
# clone of a fresh machine that has Python >= 3.11 (and, for the vision tests, Debian's apt).
#
#   ./dev.sh demo     set up and run the main job: trickcam demo (extra arguments pass through,
#                     e.g. ./dev.sh demo --serve to follow the hand on the live web page)
#   ./dev.sh test     set up everything (dev + train extras, Debian packages) and run the suite:
#                     ruff check, ruff format --check, mypy --strict rules, pytest
#   ./dev.sh setup    only set up the runtime environment (.venv)
#
# Environment: PYTHON (interpreter to build .venv from), TORCH_SPEC (default torch==2.13.0, the
# CPU build), TRICKCAM_NO_APT=1 (never call apt-get).
set -euo pipefail
cd "$(dirname "$0")"

VENV=.venv
TORCH_SPEC=${TORCH_SPEC:-torch==2.13.0}
# Debian packages the suite uses: SVG card decks and their renderer, fonts for foreign card
# indices (vision), Chromium (the pages' browser tests, driven by Playwright), PostgreSQL (the
# service's PostgreSQL tests), nginx (trickcam serve --workers N --proxy nginx: a table's camera
# frames reach the worker holding its watcher).
SYSTEM_PACKAGES="gnome-cards-data kdegames-card-data-kf5 librsvg2-bin fonts-dejavu-core fonts-liberation chromium postgresql nginx"

log() { printf '\033[1m[dev.sh]\033[0m %s\n' "$*" >&2; }

find_python() {
  if [ -n "${PYTHON:-}" ]; then echo "$PYTHON"; return; fi
  for p in python3.11 python3.12 python3.13 python3; do
    if command -v "$p" >/dev/null 2>&1 &&
       "$p" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' 2>/dev/null; then
      echo "$p"; return
    fi
  done
  log "no Python >= 3.11 found (set PYTHON=/path/to/python3.11)"; exit 1
}

# setup EXTRAS: create .venv and install the package (editable) with the given extras.
# A stamp keyed on pyproject.toml and the extras skips the install when nothing changed.
setup() {
  local extras=$1 stamp key
  if [ ! -x "$VENV/bin/python" ]; then
    log "creating $VENV"
    "$(find_python)" -m venv "$VENV"
    "$VENV/bin/python" -m pip install -q --upgrade pip
  fi
  key="$(cat pyproject.toml)|$extras|$TORCH_SPEC"
  stamp="$VENV/.installed-$(printf '%s' "$key" | cksum | cut -d' ' -f1)"
  if [ ! -f "$stamp" ]; then
    log "installing trickcam${extras:+[$extras]}"
    local pkgs=(-e ".${extras:+[$extras]}")
    [[ "$extras" == *train* ]] && pkgs=("$TORCH_SPEC" "${pkgs[@]}")
    if ! "$VENV/bin/python" -m pip install -q "${pkgs[@]}" >"$VENV/install.log" 2>&1; then
      tail -n 30 "$VENV/install.log" >&2
      log "installing failed; the whole log is $VENV/install.log"; exit 1
    fi
    touch "$stamp"
  fi
}

system_packages() {
  if [ -d /usr/share/aisleriot/cards ] && [ -d /usr/share/carddecks ] && command -v rsvg-convert >/dev/null &&
     [ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] && [ -d /usr/share/fonts/truetype/liberation ] &&
     command -v chromium >/dev/null && ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 &&
     { command -v nginx >/dev/null || [ -x /usr/sbin/nginx ]; }; then
    return
  fi
  if [ "${TRICKCAM_NO_APT:-}" = 1 ]; then log "system packages missing; TRICKCAM_NO_APT=1, not installing"; return; fi
  local sudo=""
  [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null && sudo=sudo
  if command -v apt-get >/dev/null; then
    log "installing system packages: $SYSTEM_PACKAGES"
    $sudo apt-get update -qq >/dev/null && $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $SYSTEM_PACKAGES >/dev/null
  else
    log "no apt-get: install $SYSTEM_PACKAGES by hand for the whole suite"
  fi
}

task=${1:-help}
shift || true
case "$task" in
  setup)
    setup ""
    ;;
  demo)
    setup ""
    exec "$VENV/bin/trickcam" demo "$@"
    ;;
  test)
    setup "dev,train"
    system_packages
    log "ruff check"; "$VENV/bin/ruff" check .
    log "ruff format --check"; "$VENV/bin/ruff" format --check .
    log "mypy --strict rules"; "$VENV/bin/mypy" --strict rules
    log "pytest"; exec "$VENV/bin/python" -m pytest "$@"
    ;;
  *)
    sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'
    [ "$task" = help ] || exit 2
    ;;
esac
