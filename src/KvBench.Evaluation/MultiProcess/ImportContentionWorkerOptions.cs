using System.Globalization;
using System.Text.Json;

using KvBench.Core;

namespace KvBench.Evaluation.MultiProcess;

/// <summary>Which side of an import-contention run a worker process plays.</summary>
public enum ImportContentionRole
{
    /// <summary>Point reads and small writes at a fixed rate, timed; looks for each of the cli's batches.</summary>
    Ui,

    /// <summary>A bulk import in batches at full speed.</summary>
    Cli,
}

/// <summary>What one worker process of an import-contention run does: its role, which store it opens and how, and the run's settings.</summary>
public sealed record ImportContentionWorkerOptions
{
    /// <summary>The CLI command that runs a worker.</summary>
    public const string CommandName = "contend-worker";

    /// <summary>The worker's side.</summary>
    public required ImportContentionRole Role { get; init; }

    /// <summary>The row name of the store.</summary>
    public required string Store { get; init; }

    /// <summary>The store's directory, shared with the other worker.</summary>
    public required string Directory { get; init; }

    /// <summary>The durability tier the store is opened with.</summary>
    public Durability Durability { get; init; } = Durability.Buffered;

    /// <summary>How the worker opens the store.</summary>
    public StoreAccess Access { get; init; } = StoreAccess.ReadWrite;

    /// <summary>The run's settings, the same for both workers.</summary>
    public required ImportContentionSettings Settings { get; init; }

    /// <summary>The longest the worker runs, so an orphaned worker always ends.</summary>
    public TimeSpan MaxDuration { get; init; } = TimeSpan.FromMinutes(2);

    /// <summary>The command line that runs this worker through the CLI, without the program name.</summary>
    public IReadOnlyList<string> ToArguments() =>
    [
        CommandName,
        "--role", Role.ToString(),
        "--store", Store,
        "--dir", Directory,
        "--durability", Durability.ToString(),
        "--access", Access.ToString(),
        "--settings", JsonSerializer.Serialize(Settings, WorkerJsonContext.Default.ImportContentionSettings),
        "--max-seconds", ((long)Math.Ceiling(MaxDuration.TotalSeconds)).ToString(CultureInfo.InvariantCulture),
    ];

    /// <summary>Reads the <c>--settings</c> argument back.</summary>
    /// <exception cref="JsonException">It is not the JSON of <see cref="ImportContentionSettings"/>.</exception>
    public static ImportContentionSettings ParseSettings(string json) =>
        JsonSerializer.Deserialize(json, WorkerJsonContext.Default.ImportContentionSettings) ?? throw new JsonException("The settings are null.");
}
