using KvBench.Core;
using KvBench.Stores;
using KvBench.Stores.Dqlite;
using KvBench.Stores.Servers;


namespace KvBench.Tests.Stores.Dqlite;

/// <summary>The dqlite row's cluster alone, started once for the class and stopped after it.</summary>
public sealed class DqliteHostFixture() : RowHostsFixture([DqliteRow.RowName]);

/// <summary>
/// Where the dqlite row's line limits come from: the shell's own, probed on a real cluster. A line of
/// <see cref="DqliteShell.MaxLineBytes"/> runs whole and a longer one reaches dqlite as two statements, broken where the
/// shell's 4,096-byte read buffer ended; a SELECT of <see cref="DqliteShell.MaxQueryLineBytes"/> is answered and one a
/// byte longer is not.
/// </summary>
[Trait("Category", "Servers")]
public sealed class DqliteShellTests : IClassFixture<DqliteHostFixture>
{
    private static readonly string s_endpoint = ((ServerRow)StoreCatalog.Row(DqliteRow.RowName)).EndpointFor(Durability.Synced)
        ?? throw new InvalidOperationException("KvBench runs no dqlite cluster here.");

    [Fact]
    public void A_line_of_the_longest_runs_whole_and_one_two_bytes_longer_is_split()
    {
        using DqliteShell shell = Shell(DqliteStoreOptions.DefaultRequestTimeout);
        const string Insert = "CREATE TEMP TABLE IF NOT EXISTS t(a); INSERT INTO temp.t VALUES('";

        shell.Run([$"{Insert}{new string('a', DqliteShell.MaxLineBytes - Insert.Length - 2)}')"]);
        Assert.Equal([$"={DqliteShell.MaxLineBytes - Insert.Length - 2}"], shell.Run(["SELECT '=' || max(length(a)) FROM temp.t"]));
        DqliteStatementException split = Assert.Throws<DqliteStatementException>(() =>
            shell.Run([$"{Insert}{new string('a', DqliteShell.MaxLineBytes - Insert.Length)}')"]));

        // The first 4,096 bytes end inside the string literal, and the byte after them is a statement of its own.
        Assert.Equal(2, split.Errors.Count);
        Assert.Equal(["=1"], shell.Run(["SELECT '=' || count(*) FROM temp.t"]));
    }

    [Fact]
    public void A_select_of_the_longest_is_answered_and_one_a_byte_longer_is_not()
    {
        using DqliteShell shell = Shell(TimeSpan.FromSeconds(5));

        Assert.Equal([$"={Text(DqliteShell.MaxQueryLineBytes)}"], shell.Run([Select(DqliteShell.MaxQueryLineBytes)]));
        Assert.Throws<StoreUnavailableException>(() => shell.Run([Select(DqliteShell.MaxQueryLineBytes + 1)]));
        Assert.True(shell.IsBroken);
    }

    [Fact]
    public void The_end_of_a_request_is_seen_when_every_line_fails_and_when_none_prints()
    {
        using DqliteShell shell = Shell(DqliteStoreOptions.DefaultRequestTimeout);

        Assert.Empty(shell.Run(["SELECT 1 WHERE 0", "CREATE TEMP TABLE IF NOT EXISTS t(x)"]));
        DqliteStatementException failed = Assert.Throws<DqliteStatementException>(() => shell.Run(["SELEC 1", "SELECT * FROM no_such_table"]));
        Assert.Equal(2, failed.Errors.Count);
        Assert.False(failed.IsBusy);
        Assert.False(shell.IsBroken);
    }

    private static DqliteShell Shell(TimeSpan timeout) => new(DqliteRow.RowName, DqliteEndpoints.Parse(s_endpoint), DqliteRow.Database, timeout);

    /// <summary>A SELECT of the length of a string of a's, <paramref name="lineBytes"/> long as a line.</summary>
    private static string Select(int lineBytes) => $"SELECT '=' || length('{new string('a', Text(lineBytes))}')";

    private static int Text(int lineBytes) => lineBytes - "SELECT '=' || length('')".Length;
}
