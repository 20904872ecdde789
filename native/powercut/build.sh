#!/usr/bin/env bash
# Builds the power-cut file system: build.sh OUTPUT. Needs gcc and Debian's libfuse3-dev (fusermount3 comes with fuse3).
set -euo pipefail
output="$1"
source="$(dirname "$0")/powercut.c"
mkdir -p "$(dirname "$output")"
# Built beside its final name and renamed, so a concurrent build never runs a half-written file.
gcc -std=gnu11 -O2 -Wall -Wextra -Werror $(pkg-config --cflags fuse3) "$source" -o "$output.tmp.$$" $(pkg-config --libs fuse3)
mv -f "$output.tmp.$$" "$output"
