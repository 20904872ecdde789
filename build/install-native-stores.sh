#!/usr/bin/env bash
# Installs, from Debian's packages, the native libraries of the stores whose NuGet packages this machine's NuGet
# source does not serve: LMDB (liblmdb0) and RocksDB (librocksdb7.8). KvBench binds them itself (see
# src/KvBench.Stores/Lmdb and RocksDb). Run by the KvBench.Stores build when a library is missing, so `dotnet test`
# and `dotnet run` set up a fresh machine on their own; does nothing when both are present.
set -euo pipefail

missing=()
ldconfig -p | grep -q 'liblmdb\.so\.0 ' || missing+=(liblmdb0)
ldconfig -p | grep -q 'librocksdb\.so\.7\.8 ' || missing+=(librocksdb7.8)
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "KvBench: the LMDB and RocksDB rows need ${missing[*]}; install them with: sudo apt-get install ${missing[*]}" >&2
  echo "KvBench: until then those rows report themselves unavailable." >&2
  exit 0
fi

# Two builds may reach here at once; dpkg allows one installer at a time.
exec 9>/tmp/kvbench-install-native-stores.lock
flock 9
echo "KvBench: installing ${missing[*]} from Debian's packages"
export DEBIAN_FRONTEND=noninteractive
apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null 2>&1 \
  || { apt-get update >/dev/null && apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null; }
