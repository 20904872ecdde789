using KvBench.Benchmarks.Paired;
using KvBench.Evaluation.Measuring;

namespace KvBench.Tests.Benchmarks;

/// <summary>The cells a paired worker is told to measure: written by the measurement, read by the worker, anything else refused by name.</summary>
public sealed class PairedCellKeyTests
{
    [Fact]
    public void Cells_read_back_as_they_were_written()
    {
        PairedCellKey[] cells = [new(PointMethods.Get, 128, 1), new(PointMethods.Put, 1028, 4)];

        string written = PairedCellKey.Format(cells);

        Assert.Equal("Get@128x1,Put@1028x4", written);
        Assert.Equal(cells.ToHashSet(), PairedCellKey.Parse(written));
    }

    [Theory]
    [InlineData("", "No cell named")]
    [InlineData("Get@128", "'Get@128' is not a cell")]
    [InlineData("Get@0x1", "'Get@0x1' is not a cell")]
    [InlineData("Get@128x-4", "'Get@128x-4' is not a cell")]
    [InlineData("@128x1", "'@128x1' is not a cell")]
    [InlineData("Get@128x1,Foo@128x1", "'Foo@128x1' names no point method: the methods are Put, Get, GetArray, HaveKey.")]
    [InlineData("get@128x1", "'get@128x1' names no point method")]
    public void A_list_that_is_not_cells_is_refused_by_name(string cells, string expected)
    {
        ArgumentException error = Assert.Throws<ArgumentException>(() => PairedCellKey.Parse(cells));

        Assert.Contains(expected, error.Message, StringComparison.Ordinal);
    }
}
