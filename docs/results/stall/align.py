"""Lines up a run's timeline (kvbench run --json) with the fsync calls strace saw during it.

In WAL at synchronous=NORMAL (Sqlite_WAL, Buffered) a commit does not sync: only a checkpoint syncs the WAL and the
database file, so an fsync in the measured window marks a checkpoint. Prints, per run, each burst of fsync calls with
the highest p99 of the intervals from its start to shortly after its end (an open-loop run records a stalled
operation's latency when it completes, after the stall), and the p99 of every other interval.

Usage: align.py RUN.json RUN.fsyncs LABEL [RUN.json RUN.fsyncs LABEL ...]
"""
import json
import re
import sys
from datetime import datetime, timedelta

CALL = re.compile(r"^(\d+)\s+(\d\d:\d\d:\d\d\.\d+) (fsync|fdatasync)\(\d+(?:\)\s+= (-?\d+).*<([\d.]+)>| <unfinished)")
RESUMED = re.compile(r"^(\d+)\s+\S+ <\.\.\. (?:fsync|fdatasync) resumed>.*<([\d.]+)>")


def calls(path, day):
    """The (start, seconds) of every fsync and fdatasync in an strace -f -tt -T log."""
    pending = {}
    for line in open(path, encoding="utf-8"):
        match = CALL.match(line)
        if match:
            start = datetime.combine(day, datetime.strptime(match.group(2), "%H:%M:%S.%f").time())
            if match.group(5) is None:
                pending[match.group(1)] = start
            else:
                yield start, float(match.group(5))
            continue
        match = RESUMED.match(line)
        if match and match.group(1) in pending:
            yield pending.pop(match.group(1)), float(match.group(2))


def median(values):
    ordered = sorted(values)
    return ordered[len(ordered) // 2] if ordered else float("nan")


def windows(syncs, window, gap):
    """The checkpoints: runs of fsync calls less than gap seconds apart, as (first start, last end, calls, seconds)."""
    groups = []
    for start, seconds in sorted(syncs):
        at = (start - window).total_seconds()
        if groups and at - groups[-1][1] < gap:
            first, last, count, total = groups[-1]
            groups[-1] = (first, max(last, at + seconds), count + 1, total + seconds)
        else:
            groups.append((at, at + seconds, 1, seconds))
    return groups


def report(run_path, fsync_path, label, after):
    # A results file (kvbench run --json) holds the run under "Results"; the one workload run is its first.
    run = json.load(open(run_path, encoding="utf-8"))["Results"][0]
    window = datetime.fromisoformat(run["WindowStartUtc"]).replace(tzinfo=None)
    timeline = run["Timeline"]
    end = window + timedelta(seconds=timeline[-1]["StartSeconds"] + timeline[-1]["Seconds"])
    syncs = [(start, seconds) for start, seconds in calls(fsync_path, window.date()) if window <= start < end]
    checkpoints = windows(syncs, window, after)
    near = set()
    lines = [f"### {label}", "",
             f"{len(syncs)} fsync calls in the measured window, in {len(checkpoints)} bursts less than "
             f"{after * 1e3:.0f} ms apart.", ""]
    if checkpoints:
        lines += ["| Burst starts at s | fsync calls | Their ms | Highest p99 ms from its start to its end + "
                  f"{after * 1e3:.0f} ms |", "|---|---|---|---|"]
    for first, last, count, total in checkpoints:
        inside = [i for i, p in enumerate(timeline)
                  if p["StartSeconds"] < last + after and first < p["StartSeconds"] + p["Seconds"]]
        near.update(inside)
        highest = max((timeline[i]["P99"] / 1e6 for i in inside), default=float("nan"))
        lines.append(f"| {first:.3f} | {count} | {total * 1e3:.1f} | {highest:.2f} |")
    others = [p["P99"] / 1e6 for i, p in enumerate(timeline) if i not in near]
    lines += ["", f"The other {len(others)} of {len(timeline)} intervals: p99 median {median(others):.2f} ms, "
              f"highest {max(others, default=float('nan')):.2f} ms.", ""]
    return lines


def main(args):
    for i in range(0, len(args), 3):
        print("\n".join(report(args[i], args[i + 1], args[i + 2], 0.05)))


if __name__ == "__main__":
    main(sys.argv[1:])
