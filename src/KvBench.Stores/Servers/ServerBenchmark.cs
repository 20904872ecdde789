using System.Diagnostics;

namespace KvBench.Stores.Servers;

/// <summary>
/// A server's own benchmark tool (redis-benchmark, pgbench), run against the server of a row, so a table can show what
/// the row's .NET client and its way of storing add over the server's own client doing the same reads and writes.
/// </summary>
public abstract class ServerBenchmark
{
    private protected ServerBenchmark()
    {
    }

    /// <summary>The tool's name, as its package installs it.</summary>
    public abstract string Tool { get; }

    /// <summary>What the tool's writes and reads are, in one sentence, for the table that shows them.</summary>
    public abstract string Method { get; }

    /// <summary>
    /// Loads the run's keyspace on the server at <paramref name="endpoint"/> (<c>host:port</c>), then runs the tool's
    /// writes and its reads, each with <see cref="ServerBenchmarkRun.Clients"/> connections.
    /// </summary>
    /// <exception cref="ArgumentException"><paramref name="endpoint"/> is not <c>host:port</c>, or <paramref name="run"/> is not a run.</exception>
    /// <exception cref="ServerBenchmarkException">The tool failed, or printed what is not its report.</exception>
    public async Task<ServerBenchmarkResult> RunAsync(string endpoint, ServerBenchmarkRun run, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(endpoint);
        ArgumentNullException.ThrowIfNull(run);
        run.Validate();
        return HostPort.TryParse(endpoint, out HostPort server)
            ? await RunCoreAsync(server, run, cancellationToken).ConfigureAwait(false)
            : throw new ArgumentException($"{Tool} needs the server as host:port, not '{endpoint}'.", nameof(endpoint));
    }

    /// <summary>Runs the tool against <paramref name="server"/>; <paramref name="run"/> is valid.</summary>
    private protected abstract Task<ServerBenchmarkResult> RunCoreAsync(HostPort server, ServerBenchmarkRun run, CancellationToken cancellationToken);

    /// <summary>
    /// Runs the tool to its end and returns its standard output; a failure is a <see cref="ServerBenchmarkException"/>
    /// quoting its last words.
    /// </summary>
    private protected string RunTool(ProcessStartInfo startInfo)
    {
        (int exitCode, string output) = ServerCommand.Run(startInfo, ToolTimeout);
        return exitCode == 0
            ? output
            : throw new ServerBenchmarkException(
                Tool,
                $"`{Path.GetFileName(startInfo.FileName)} {string.Join(' ', startInfo.ArgumentList)}` exited with " +
                    $"code {exitCode}: {ServerCommand.LastLines(output, 3)}");
    }

    /// <summary>Long enough for a slow synced run of the section's request counts; a tool that hangs is killed.</summary>
    private static TimeSpan ToolTimeout { get; } = TimeSpan.FromMinutes(5);
}
