using System.Diagnostics;
using System.Globalization;

using KvBench.Evaluation.MultiProcess;

namespace KvBench.Evaluation.Reports.Sections;

/// <summary>What a section's measurement gets from the run: where to work, where the benchmark results are, the CLI to start, the log.</summary>
/// <param name="workDirectory">The scratch directory for the sections' stores; its file system is the one reported.</param>
/// <param name="resultsDirectory">Where BenchmarkDotNet's reports are.</param>
/// <param name="cli">The CLI to start as other processes, or <see langword="null"/> to leave what needs one unmeasured.</param>
/// <param name="log">Receives what each step starts and how long it took.</param>
public sealed class AdrContext(string workDirectory, string resultsDirectory, KvBenchCli? cli, Action<string>? log)
{
    // The step clock starts when the context is made, at the start of the run.
    private long _stepStarted = Stopwatch.GetTimestamp();

    /// <summary>The scratch directory for the sections' stores.</summary>
    public string WorkDirectory { get; } = workDirectory;

    /// <summary>Where BenchmarkDotNet's reports are.</summary>
    public string ResultsDirectory { get; } = resultsDirectory;

    /// <summary>The CLI to start as other processes (two-process, kill and contention checks), when one was found.</summary>
    public KvBenchCli? Cli { get; } = cli;

    /// <summary>Says one line.</summary>
    public void Log(string line) => log?.Invoke(line);

    /// <summary>
    /// Says how long <paramref name="step"/> took since the previous step ended, so a run over its budget shows where
    /// the time went.
    /// </summary>
    public void Took(string step)
    {
        Log($"{step}: {Stopwatch.GetElapsedTime(_stepStarted).TotalSeconds.ToString("N0", CultureInfo.InvariantCulture)} s");
        _stepStarted = Stopwatch.GetTimestamp();
    }

    /// <summary>Deletes a step's scratch directory when it can.</summary>
    public static void TryDelete(string directory)
    {
        try
        {
            if (Directory.Exists(directory))
            {
                Directory.Delete(directory, recursive: true);
            }
        }
        catch (IOException)
        {
            // A probe's child process may still be releasing a file; the scratch directory is the caller's to remove.
        }
    }
}
