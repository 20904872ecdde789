namespace KvBench.Benchmarks;

/// <summary>Benchmark categories, for <c>--anyCategories</c> and <c>--allCategories</c>.</summary>
public static class Categories
{
    /// <summary>Put, Get and HaveKey on a preloaded dataset, one operation per call.</summary>
    public const string PointOperations = "PointOperations";

    /// <summary>Put, Get and HaveKey on the server rows and their clients used directly, over loopback.</summary>
    public const string ServerPointOperations = "ServerPointOperations";

    /// <summary>Get and Put from 1, 2 and 4 threads at once, through the adapters and the raw drivers that serve many threads.</summary>
    public const string ThreadedPointOperations = "ThreadedPointOperations";

    /// <summary>Writes acknowledged only once they reached the device.</summary>
    public const string SyncedPuts = "SyncedPuts";

    /// <summary>What KvBench's own measuring costs per operation (the workload runner's clock and histogram).</summary>
    public const string Overhead = "Overhead";
}
