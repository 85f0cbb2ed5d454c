#!/usr/bin/env bash
# What the integration tests need on this machine, installed or started when missing: Dovecot (a
# real IMAP server; each test starts its own throwaway instance), Chromium (page tests) and the
# local PostgreSQL server on 127.0.0.1:5432. Runs before `npm test` (the `pretest` script), so the
# README's test command works on a fresh Debian machine; installing needs root.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive

section() { printf '\n===== %s =====\n' "$*"; }

# Debian packages the tests need. postgresql only if the image lacks it entirely.
PACKAGES=(dovecot-imapd chromium)
command -v pg_ctlcluster >/dev/null 2>&1 || PACKAGES+=(postgresql)

installed() { [[ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" == 'install ok installed' ]]; }

section "Environment"
echo "node $(node --version), npm $(npm --version), $(. /etc/os-release && echo "$PRETTY_NAME"), user $(id -un)"

section "Debian packages"
missing=()
for p in "${PACKAGES[@]}"; do installed "$p" || missing+=("$p"); done
if ((${#missing[@]})); then
  if [[ "$(id -u)" != 0 ]]; then
    echo "missing Debian packages: ${missing[*]} (install them, or run the tests as root)" >&2
    exit 1
  fi
  echo "installing: ${missing[*]}"
  timeout 20m apt-get update -q
  timeout 40m apt-get install -y -q \
    -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold "${missing[@]}"
else
  echo "all present: ${PACKAGES[*]}"
fi

section "Dovecot system service"
# The package may have started the system-wide Dovecot on port 143. Our harness starts its own
# instance on a free port, but a stray daemon wastes resources and confuses debugging: stop it.
if [[ -s /run/dovecot/master.pid ]] && kill -0 "$(cat /run/dovecot/master.pid)" 2>/dev/null; then
  echo "stopping system Dovecot (pid $(cat /run/dovecot/master.pid))"
  doveadm stop 2>/dev/null || kill "$(cat /run/dovecot/master.pid)"
  for _ in $(seq 50); do kill -0 "$(cat /run/dovecot/master.pid 2>/dev/null)" 2>/dev/null || break; sleep 0.1; done
else
  echo "not running"
fi
if (exec 3<>/dev/tcp/127.0.0.1/143) 2>/dev/null; then
  echo "warning: something still listens on 127.0.0.1:143 (tests do not use that port)"
fi

section "PostgreSQL"
if pg_isready -q -h 127.0.0.1; then
  echo "already accepting connections"
else
  version="$(ls /etc/postgresql | sort -V | tail -n1)"
  echo "starting cluster $version/main"
  pg_ctlcluster --skip-systemctl-redirect "$version" main start
  for _ in $(seq 60); do pg_isready -q -h 127.0.0.1 && break; sleep 0.5; done
  pg_isready -h 127.0.0.1
fi

