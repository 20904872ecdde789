using System.Globalization;

using KvBench.Core;

namespace KvBench.Stores.Servers;

/// <summary>One server <c>kvbench servers up</c> runs: its row, the tier it serves, where it listens, its process.</summary>
public sealed record PublishedServer(string Row, Durability Durability, string Endpoint, int ProcessId);

/// <summary>The servers <c>kvbench servers up</c> runs, and the process that runs them (which stops them when told to).</summary>
public sealed record PublishedServerList(int OwnerProcessId, IReadOnlyList<PublishedServer> Servers);

/// <summary>
/// Servers for every kvbench process of this machine: one process (<c>kvbench servers up</c>) starts them and stays in
/// the foreground; their endpoints go into a file every other process reads, so a server row opened without an endpoint
/// uses them; the owner stops them, and withdraws the file, when it is told to (<c>kvbench servers down</c>, Ctrl+C).
/// A file whose owner no longer runs is ignored.
/// </summary>
public static class PublishedServers
{
    private const string OwnerLine = "owner";

    /// <summary>The file that lists the servers while they run.</summary>
    public static string FilePath { get; } = Path.Combine(ServerDirectories.Root, "servers-up.txt");

    /// <summary>
    /// Starts the servers of the server rows <paramref name="names"/> and publishes them; dispose the result to stop them
    /// and withdraw the file.
    /// </summary>
    /// <exception cref="InvalidOperationException">Another process publishes servers already.</exception>
    /// <exception cref="StoreUnavailableException">A server could not be installed or started; none is left running.</exception>
    public static async Task<IAsyncDisposable> UpAsync(IEnumerable<string> names, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(names);
        if (Read() is { } running)
        {
            throw new InvalidOperationException($"servers are up already, run by process {running.OwnerProcessId}: `kvbench servers down` stops them.");
        }

        ServerRow[] rows = [
            .. names.Select(StoreCatalog.Row).Select(row =>
                row as ServerRow
                    ?? throw new ArgumentException(
                        $"{row.Name} is not a server row; the server rows are {string.Join(", ", StoreCatalog.ServerNames)}.",
                        nameof(names)))];
        RowHostGroup hosts = await StoreCatalog.StartHostsAsync(rows.Select(row => row.Name), cancellationToken).ConfigureAwait(false);
        try
        {
            Write([.. rows.SelectMany(row => Enum.GetValues<Durability>()
                .Select(durability => (Durability: durability, Server: row.Servers.Shared(durability)))
                .Where(shared => shared.Server is { Endpoint: not null, ProcessIds.Count: > 0 })
                .Select(shared => new PublishedServer(row.Name, shared.Durability, shared.Server!.Endpoint!, shared.Server.ProcessIds[0])))]);
        }
        catch
        {
            await hosts.DisposeAsync().ConfigureAwait(false);
            throw;
        }

        return new Publication(hosts);
    }

    /// <summary>The servers up now, or <see langword="null"/> when none are (no file, or its owner no longer runs).</summary>
    public static PublishedServerList? Read()
    {
        string[] lines;
        try
        {
            lines = File.ReadAllLines(FilePath);
        }
        catch (Exception error) when (error is FileNotFoundException or DirectoryNotFoundException)
        {
            return null;
        }

        if (lines.Length == 0
            || lines[0].Split(' ') is not [OwnerLine, string ownerText]
            || !int.TryParse(ownerText, CultureInfo.InvariantCulture, out int owner)
            || !Signals.Exists(owner))
        {
            return null;
        }

        return new PublishedServerList(owner, [.. lines.Skip(1).Select(line => line.Split(' ')).Select(fields =>
            new PublishedServer(fields[0], Enum.Parse<Durability>(fields[1]), fields[2], int.Parse(fields[3], CultureInfo.InvariantCulture)))]);
    }

    /// <summary>Tells the process that runs the servers to stop them (SIGTERM) and waits until it has; whether any were up.</summary>
    /// <exception cref="TimeoutException">The owner still ran after <paramref name="timeout"/>.</exception>
    public static async Task<bool> DownAsync(TimeSpan timeout)
    {
        if (Read() is not { } running || !Signals.Send(running.OwnerProcessId, Signals.Terminate))
        {
            return false;
        }

        return await Signals.WaitUntilGoneAsync(running.OwnerProcessId, timeout).ConfigureAwait(false)
            ? true
            : throw new TimeoutException($"The process {running.OwnerProcessId} that runs the servers did not stop within {timeout.TotalSeconds:0} s.");
    }

    /// <summary>The endpoint published for <paramref name="row"/> at <paramref name="durability"/>, or <see langword="null"/>.</summary>
    internal static string? Endpoint(string row, Durability durability) =>
        Read()?.Servers.FirstOrDefault(server => server.Row == row && server.Durability == durability)?.Endpoint;

    /// <summary>Written to a temporary file and moved into place, so a reader sees the whole list or none.</summary>
    private static void Write(IReadOnlyList<PublishedServer> servers)
    {
        string temporary = $"{FilePath}.{Environment.ProcessId}";
        File.WriteAllLines(temporary, [
            $"{OwnerLine} {Environment.ProcessId}",
            .. servers.Select(server => string.Create(CultureInfo.InvariantCulture, $"{server.Row} {server.Durability} {server.Endpoint} {server.ProcessId}")),
        ]);
        File.Move(temporary, FilePath, overwrite: true);
    }

    private sealed class Publication(RowHostGroup hosts) : IAsyncDisposable
    {
        public async ValueTask DisposeAsync()
        {
            File.Delete(FilePath);
            await hosts.DisposeAsync().ConfigureAwait(false);
        }
    }
}
