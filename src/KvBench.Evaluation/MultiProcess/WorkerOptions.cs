using System.Globalization;

using KvBench.Core;

namespace KvBench.Evaluation.MultiProcess;

/// <summary>What one worker process of a two-process check does: which store it opens, how, and whose records it writes and reads.</summary>
public sealed record WorkerOptions
{
    /// <summary>The CLI command that runs a worker.</summary>
    public const string CommandName = "mp-worker";

    /// <summary>The row name of the store.</summary>
    public required string Store { get; init; }

    /// <summary>The store's directory, shared with the peer.</summary>
    public required string Directory { get; init; }

    /// <summary>The durability tier the store is opened with.</summary>
    public Durability Durability { get; init; } = Durability.Buffered;

    /// <summary>How the worker opens the store. A worker that cannot write tries one write and records how it was refused.</summary>
    public StoreAccess Access { get; init; } = StoreAccess.ReadWrite;

    /// <summary>The worker's name; its records are <see cref="WorkerRecords.For"/> this name.</summary>
    public required string Name { get; init; }

    /// <summary>The peer's name, whose records this worker looks for.</summary>
    public required string Peer { get; init; }

    /// <summary>The pause after each write and read; <see cref="TimeSpan.Zero"/> writes as fast as the store allows.</summary>
    public TimeSpan Pause { get; init; } = TimeSpan.FromMilliseconds(5);

    /// <summary>
    /// Whether a writer calls <see cref="Core.IKeyValueStore.Flush"/> after every write, so each acknowledged record is
    /// durable to the store's tier; without it the kill probe sees what an acknowledged but unflushed write survives.
    /// </summary>
    public bool FlushEachWrite { get; init; } = true;

    /// <summary>
    /// The start size the worker asks the row for (<see cref="Stores.StoreRow.WithInitialSize"/>): a row whose store
    /// preallocates (LMDB's map) opens at it, the others as they are. <see langword="null"/>, the default, asks for none.
    /// </summary>
    public long? InitialSizeBytes { get; init; }

    /// <summary>How many records a writing worker writes before it honours a stop request.</summary>
    public int MinimumWrites { get; init; }

    /// <summary>The longest the worker runs without a stop request, so an orphaned worker always ends.</summary>
    public TimeSpan MaxDuration { get; init; } = TimeSpan.FromMinutes(2);

    /// <summary>The command line that runs this worker through the CLI, without the program name.</summary>
    public IReadOnlyList<string> ToArguments() =>
    [
        CommandName,
        "--store", Store,
        "--dir", Directory,
        "--durability", Durability.ToString(),
        "--access", Access.ToString(),
        "--name", Name,
        "--peer", Peer,
        "--pause-ms", ((long)Pause.TotalMilliseconds).ToString(CultureInfo.InvariantCulture),
        "--min-writes", MinimumWrites.ToString(CultureInfo.InvariantCulture),
        "--max-seconds", ((long)Math.Ceiling(MaxDuration.TotalSeconds)).ToString(CultureInfo.InvariantCulture),
        .. FlushEachWrite ? Array.Empty<string>() : ["--no-flush"],
        .. InitialSizeBytes is { } initialSize ? ["--initial-size", initialSize.ToString(CultureInfo.InvariantCulture)] : Array.Empty<string>(),
    ];
}
