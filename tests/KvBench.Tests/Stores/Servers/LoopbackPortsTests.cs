using KvBench.Stores.Servers;


namespace KvBench.Tests.Stores.Servers;

/// <summary>The ports KvBench's servers listen on: never one twice in a process.</summary>
public sealed class LoopbackPortsTests
{
    [Fact]
    public void Ports_handed_out_are_distinct_within_a_call_and_across_calls()
    {
        int[] first = LoopbackPorts.Free(100);
        int[] second = [.. Enumerable.Range(0, 100).Select(_ => LoopbackPorts.Free())];

        Assert.Equal(first.Length, first.Distinct().Count());
        Assert.Empty(first.Intersect(second));
        Assert.Equal(second.Length, second.Distinct().Count());
        Assert.All(first.Concat(second), port => Assert.InRange(port, 1, 65535));
    }

    [Fact]
    public void A_count_below_one_is_refused() =>
        Assert.Throws<ArgumentOutOfRangeException>(() => LoopbackPorts.Free(0));
}
