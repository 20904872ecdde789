namespace KvBench.Evaluation.Decision;

/// <summary>
/// The profile <c>kvbench profile init</c> writes: every field with its default and a comment saying what it means, so
/// a team edits a working profile instead of starting from the schema.
/// </summary>
public static class ProfileStarter
{
    /// <summary>The file <c>kvbench profile init</c> writes when given none.</summary>
    public const string DefaultFileName = "kvbench-profile.json";

    /// <summary>The starter profile: JSON with comments, valid for <see cref="ProfileReader"/>.</summary>
    public const string Text = """
        // A KvBench decision profile: your workload and what the choice must meet. `kvbench profile check FILE` reads it;
        // `kvbench decide --profile FILE` measures the candidates and writes the decision record.
        // Comments and trailing commas are allowed; field names are case-sensitive.
        {
          // The record's title: the question you answer. Required.
          "title": "Choose a store for our service's session cache",

          // The problem in your own words, printed at the top of the record. Optional.
          "context": "Sessions are read on every request and rewritten on login; losing the last second of writes is acceptable.",

          // The workload every candidate is measured under. Every field below is optional; the value shown is its default.
          "workload": {
            // Each key's length: bytes (16), a size ("1 KiB"; B, KB, KiB, MB, MiB, GB, GiB), a range {"min": 16, "max": 200}
            // or buckets {"buckets": [{"share": 0.8, "bytes": 200}, {"share": 0.2, "bytes": "40 KiB"}]}. At least 9 bytes.
            "keyBytes": 16,

            // How keys look: "random" (no useful order) or {"prefixes": 64} (keys under each prefix are ordered).
            "keyShape": "random",

            // Each value's length, in the same forms as keyBytes. At least 1 byte.
            "valueBytes": 128,

            // Records loaded before the measured run: a whole number, at least 1.
            "records": 100000,

            // The operations and their shares (0 or more; divided by their sum): get, update, insert, delete, hasKey, scan,
            // readModifyWrite. Operations left out have share 0.
            "mix": { "get": 0.5, "update": 0.5 },

            // The longest scan, in records; each scan reads 1 to this many. Used when scan has a share.
            "scanLength": 100,

            // How records are picked: "uniform", "latest" (newest hottest), "zipfian" (constant 0.99) or {"zipfian": 0.8}
            // (a constant above 0 and below 1).
            "popularity": "zipfian",

            // Threads issuing operations in the measured process: 1 to 256.
            "threads": 1,

            // "one" process, or {"readers": 2}: a writer process beside 1 to 16 reader processes (a UI beside a CLI).
            "processes": "one",

            // Operations per second across all threads (an open loop), such as 2000; leave it out to go as fast as the
            // store goes.
            // "rate": 2000,

            // What an acknowledged write must survive: "Buffered" (the process killed) or "Synced" (power lost).
            "durability": "Buffered",
          },

          // What the choice must meet or should favour; at least one. Each driver names one quantity, a threshold where the
          // quantity has one, and either "must": true (a candidate that misses it is out) or "weight": a number above 0
          // (candidates are ranked by their weighted drivers). "name" is optional and defaults to a description.
          // The quantities and their thresholds:
          //   {"capability": "keyBytes" | "valueBytes", "atLeast": "1 MiB"}                        a size
          //   {"capability": "growth" | "multiProcessWriters" | "orderedScans"}                  yes or no: no threshold
          //   {"throughput": "workload", "atLeast": "50000/s"}                                    /s, k/s, M/s
          //   {"latency": "get", "percentile": 99, "while": "alone" | "writing", "atMost": "2 ms"} ns, us, µs, ms, s
          //   {"visibilityLag": "p99", "atMost": "100 ms"}                                        a duration
          //   {"crashKept": "acknowledged", "atLeast": "100%"}                                    % or a number 0 to 1
          //   {"powerLossKept": "acknowledged", "atLeast": "100%"}                                the same; needs FUSE and root
          //   {"diskBytesPerRecord": true, "atMost": "512 B"}                                     a size
          //   {"allocations": "perOperation", "atMost": "256 B"}                                  a size
          //   {"cpu": "perOperation", "atMost": "20 us"}                                          a duration
          "drivers": [
            // Every acknowledged write is found again after the writer is killed.
            { "crashKept": "acknowledged", "atLeast": "100%", "must": true },

            // The service's peak, with room to spare.
            { "throughput": "workload", "atLeast": "20000/s", "must": true },

            // Requests wait on gets; a faster tail ranks higher.
            { "latency": "get", "percentile": 99, "while": "alone", "atMost": "1 ms", "weight": 2 },

            // A smaller footprint ranks higher.
            { "diskBytesPerRecord": true, "atMost": "512 B", "weight": 1 },
          ],

          // A store of your own joins as a row from its built assembly (docs/extending.md), its path relative to this file:
          // "rowAssemblies": ["../src/OurStore/bin/Release/net10.0/OurStore.dll"],
          // The rows to consider, as `kvbench stores` names them; leave it out for every embedded row this machine can open.
          "candidates": ["Sqlite_WAL", "LMDB", "RocksDB"],
        }
        """;
}
