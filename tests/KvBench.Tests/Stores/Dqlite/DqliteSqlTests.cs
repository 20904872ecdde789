using KvBench.Stores.Dqlite;
using KvBench.Stores.Servers;


namespace KvBench.Tests.Stores.Dqlite;

/// <summary>
/// Every line the dqlite row sends fits the shell's line (<see cref="DqliteShell.MaxLineBytes"/>, and
/// <see cref="DqliteShell.MaxQueryLineBytes"/> for a SELECT) with the longest key it declares: a longer line would reach
/// dqlite as two broken statements, a longer SELECT would not be answered.
/// </summary>
public sealed class DqliteSqlTests
{
    private static readonly string s_table = ServerStoreName.Of("/a/store");

    private static readonly byte[] s_longestKey = TestData.Bytes(DqliteSql.MaxKeyBytes, stream: 1);

    [Fact]
    public void A_scan_page_between_two_keys_of_the_longest_fits_a_line()
    {
        Assert.Equal(DqliteSql.TableNameBytes, s_table.Length);

        // A page after the first starts at the last key read with a zero byte added.
        string line = DqliteSql.Range(s_table, [.. s_longestKey, 0], s_longestKey, DqliteSql.PageRows);

        Assert.InRange(line.Length, DqliteShell.MaxQueryLineBytes - 16, DqliteShell.MaxQueryLineBytes);
    }

    [Fact]
    public void A_put_fits_one_line_while_it_can_and_is_staged_in_lines_that_fit_past_it()
    {
        byte[] fits = new byte[((DqliteShell.MaxLineBytes - 200) / 2) - s_longestKey.Length];
        byte[] large = TestData.Bytes(3 * DqliteSql.PartBytes + 17, stream: 2);

        Assert.True(DqliteSql.Upsert(s_table, [KeyValuePair.Create(s_longestKey, fits)])!.Length <= DqliteShell.MaxLineBytes);
        Assert.Null(DqliteSql.Upsert(s_table, [KeyValuePair.Create(s_longestKey, large)]));
        string[] staged = [
            .. DqliteSql.StagedUpsert(
                s_table,
                [KeyValuePair.Create(s_longestKey, large), KeyValuePair.Create(s_longestKey[..1], fits)],
                long.MaxValue)];

        Assert.All(staged, line => Assert.InRange(line.Length, 1, DqliteShell.MaxLineBytes));

        // The opening line, four parts, their join, the small item's row, the write and its count.
        Assert.Equal(1 + 4 + 1 + 1 + 1 + 1, staged.Length);
    }

    [Fact]
    public void A_delete_of_the_longest_key_fits_a_line() =>
        Assert.All(DqliteSql.Delete(s_table, s_longestKey), line => Assert.True(line.Length <= DqliteShell.MaxLineBytes));
}
