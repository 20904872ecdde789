#!/usr/bin/env bash
# Installs the Debian packages named as arguments when any is missing: the native libraries of the stores that need
# one from the system (liblmdb0: the LMDB row's fallback where LightningDB's bundled LMDB 1.0.1 does not load, as it
# needs glibc 2.38, see src/KvBench.Stores/Lmdb/LmdbNativeLibrary.cs), the tools the tests measure with (strace counts device flushes) and the one
# the reports draw with (gnuplot-nox draws the PNG charts). Run by the builds that need them (KvBench.Stores,
# KvBench.Evaluation, KvBench.Tests) when something is absent, so `dotnet test` and `dotnet run` set
# up a fresh machine on their own; does nothing when every package is installed.
set -euo pipefail

missing=()
for package in "$@"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "KvBench: ${missing[*]} missing; install with: sudo apt-get install ${missing[*]}" >&2
  echo "KvBench: until then the rows that need them report themselves unavailable, and the tests that need them fail saying so." >&2
  exit 0
fi

# Several builds may reach here at once; dpkg allows one installer at a time.
exec 9>/tmp/kvbench-install-debian-packages.lock
flock 9
echo "KvBench: installing ${missing[*]} from Debian's packages"
export DEBIAN_FRONTEND=noninteractive
apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null 2>&1 \
  || { apt-get update >/dev/null && apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null; }
