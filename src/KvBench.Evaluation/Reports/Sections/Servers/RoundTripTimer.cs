using System.Diagnostics;

using KvBench.Stores;
using KvBench.Stores.Servers;


namespace KvBench.Evaluation.Reports.Sections.Servers;

/// <summary>Times round trips that ask a server for nothing, through a server row's own client: what the network and the client add to each call.</summary>
public static class RoundTripTimer
{
    /// <summary>
    /// <paramref name="count"/> round trips to <paramref name="row"/>'s server at <paramref name="endpoint"/> on one
    /// connection, one at a time, after a tenth as many of warm-up (the JIT, the client's buffers, the server's plan).
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="count"/> is not positive.</exception>
    public static ServerRoundTrip Measure(ServerRow row, string endpoint, int count)
    {
        ArgumentNullException.ThrowIfNull(row);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(count);
        using IServerPing ping = row.OpenPing(endpoint);
        for (int i = 0; i < Math.Max(1, count / 10); i++)
        {
            ping.RoundTrip();
        }

        double[] nanoseconds = new double[count];
        for (int i = 0; i < count; i++)
        {
            long started = Stopwatch.GetTimestamp();
            ping.RoundTrip();
            nanoseconds[i] = Stopwatch.GetElapsedTime(started).TotalNanoseconds;
        }

        Array.Sort(nanoseconds);
        return new ServerRoundTrip(
            row.Name, StoreCatalog.Engine(row.Name), row.Replication, endpoint, ping.Request, count,
            nanoseconds[count / 2], nanoseconds[Math.Min(count - 1, (int)(count * 0.99))]);
    }
}
