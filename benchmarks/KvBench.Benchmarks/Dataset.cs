using KvBench.Evaluation.Workload;

namespace KvBench.Benchmarks;

/// <summary>
/// The data directory of one row's preloaded dataset. In a run started by <see cref="EvaluationRun"/>, every benchmark case
/// of a row and value size reuses one directory, loaded by the first case: BenchmarkDotNet runs each case in a process
/// of its own, and loading the same records again for each method would cost more than measuring them (the FileSystem
/// row writes a file per record). Reuse is safe because Put only overwrites records with new versions of their own
/// values, so the dataset keeps its keys and sizes; each case reads every record back before it measures (adopting the
/// version an earlier case left, so its own writes still change the bytes), and reloads when a record is missing or
/// holds other bytes (a row that keeps nothing across processes, like Memory, always reloads).
/// Outside such a run (tests), each case gets a fresh directory that is deleted at cleanup.
/// </summary>
internal sealed class Dataset : IDisposable
{
    /// <summary>The environment variable, inherited by BenchmarkDotNet's child processes, that names the run's shared dataset root.</summary>
    public const string SharedRootVariable = "KVBENCH_BENCHMARK_DATASETS";

    private const string FailuresFileName = "lost-writes.txt";

    private readonly bool _shared;

    private Dataset(string path, bool shared)
    {
        Path = path;
        _shared = shared;
        Directory.CreateDirectory(path);
    }

    public string Path { get; }

    /// <summary>Whether an earlier case finished loading this directory.</summary>
    public bool IsLoaded => File.Exists(MarkerPath);

    private string MarkerPath => Path + ".loaded";

    /// <summary>The dataset of <paramref name="row"/> with <paramref name="recordCount"/> records of <paramref name="valueBytes"/>.</summary>
    public static Dataset For(string row, int valueBytes, int recordCount) =>
        Environment.GetEnvironmentVariable(SharedRootVariable) is { Length: > 0 } root
            ? new Dataset(System.IO.Path.Combine(root, $"{row}-{valueBytes}B-{recordCount}"), shared: true)
            : new Dataset(System.IO.Path.Combine(System.IO.Path.GetTempPath(), "kvbench-benchmarks", $"{row}-{Guid.NewGuid():N}"), shared: false);

    /// <summary>
    /// Throws when <paramref name="lastWrites"/> found a key without the version written last, and, in a run started by
    /// <see cref="EvaluationRun"/>, also writes the failure into the run's root, where <see cref="Failures"/> finds it: a
    /// benchmark process that throws in its global cleanup prints the error, but whether its report counts as failed is
    /// BenchmarkDotNet's choice, and a skipped write must fail the run whatever it chooses.
    /// </summary>
    private static void ThrowIfWritesLost(string row, VerificationResult lastWrites)
    {
        ArgumentNullException.ThrowIfNull(lastWrites);
        if (lastWrites.Ok)
        {
            return;
        }

        string failure = $"{row}: {lastWrites.Missing} of {lastWrites.Checked} keys missing and {lastWrites.Wrong} " +
            $"without the value written last (first bad index {lastWrites.FirstBadIndex}).";
        if (Environment.GetEnvironmentVariable(SharedRootVariable) is { Length: > 0 } root)
        {
            File.AppendAllLines(System.IO.Path.Combine(root, FailuresFileName), [failure]);
        }

        throw new InvalidDataException(failure);
    }

    /// <summary>
    /// A benchmark's global cleanup: checks through <paramref name="read"/> that every one of <paramref name="records"/>
    /// holds the version written last (see <see cref="ThrowIfWritesLost"/>), then disposes <paramref name="opened"/> and
    /// <paramref name="dataset"/> whatever the check found. Nothing is checked when the setup failed before opening.
    /// </summary>
    public static void CloseChecked(Dataset? dataset, string row, VersionedRecords? records, IDisposable? opened, Func<byte[], byte[]?> read)
    {
        try
        {
            if (opened is not null && records is not null)
            {
                ThrowIfWritesLost(row, records.VerifyLastWrites(read));
            }
        }
        finally
        {
            opened?.Dispose();
            dataset?.Dispose();
        }
    }

    /// <summary>The lost-write failures the benchmark processes of the run rooted at <paramref name="root"/> recorded.</summary>
    public static IReadOnlyList<string> Failures(string root)
    {
        string path = System.IO.Path.Combine(root, FailuresFileName);
        return File.Exists(path) ? File.ReadAllLines(path) : [];
    }

    /// <summary>A fresh root for one run's shared datasets, under the system temp directory.</summary>
    public static string CreateSharedRoot() =>
        Directory.CreateDirectory(System.IO.Path.Combine(System.IO.Path.GetTempPath(), "kvbench-benchmarks", $"run-{Guid.NewGuid():N}")).FullName;

    /// <summary>
    /// Opens the dataset with <paramref name="open"/>. When no earlier case loaded it, or what it loaded no longer reads
    /// back, empties the directory, opens it and fills it with <paramref name="load"/>. A fresh load that does not read
    /// back its exact bytes throws: a run on wrong data is no result.
    /// </summary>
    public T Open<T>(string row, Func<string, T> open, Action<T> load, Func<T, VerificationResult> verify)
        where T : IDisposable
    {
        if (IsLoaded)
        {
            T reused = open(Path);
            if (verify(reused).Ok)
            {
                return reused;
            }

            reused.Dispose();
        }

        File.Delete(MarkerPath);
        Directory.Delete(Path, recursive: true);
        Directory.CreateDirectory(Path);
        T target = open(Path);
        try
        {
            load(target);
            verify(target).ThrowIfFailed(row);
        }
        catch
        {
            target.Dispose();
            throw;
        }

        File.WriteAllText(MarkerPath, string.Empty);
        return target;
    }

    public void Dispose()
    {
        if (!_shared)
        {
            Directory.Delete(Path, recursive: true);
        }
    }
}
