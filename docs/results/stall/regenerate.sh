#!/usr/bin/env bash
# Regenerates the SQLite WAL checkpoint stall: the same open-loop write-only run on Sqlite_WAL twice, checkpointing at
# SQLite's own threshold (1000 WAL frames) and at twice it, each under strace so that the checkpoints' fsync calls can
# be lined up with the run's timeline. Needs strace, python3 and gnuplot. KVBENCH names the kvbench to run (default:
# this checkout's Release build, `dotnet build -c Release src/KvBench.Cli`).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
read -r -a kvbench <<< "${KVBENCH:-dotnet $repo/src/KvBench.Cli/bin/Release/net10.0/kvbench.dll}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# In WAL at synchronous=NORMAL (Buffered) a commit does not sync, only a checkpoint does: every fsync is one. Open loop
# (--rate), so a stall delays the operations behind it and the writer is idle, not contending, between them.
workload=(--store Sqlite_WAL --load --durability Buffered --records 1000 --value-bytes 16KiB --mix update=1 --threads 1
          --rate 1000 --duration 6 --warmup 1 --interval 0.05)
for frames in 1000 2000; do
    run=checkpoint-$frames
    rm -rf "$here/$run".* "$here/$run-charts"
    TZ=UTC strace -f --seccomp-bpf -tt -T -e trace=fsync,fdatasync -o "$here/$run.fsyncs" \
        "${kvbench[@]}" run "${workload[@]}" --wal-autocheckpoint "$frames" --dir "$work/$run" \
        --json "$here/$run.json" > "$here/$run.txt"
    "${kvbench[@]}" render "$here/$run.json" --output "$here/$run.md"
done
python3 "$here/align.py" "$here/checkpoint-1000.json" "$here/checkpoint-1000.fsyncs" "Checkpoint at 1000 frames" \
    "$here/checkpoint-2000.json" "$here/checkpoint-2000.fsyncs" "Checkpoint at 2000 frames" > "$here/alignment.md"
