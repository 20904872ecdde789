using System.Globalization;

using KvBench.Stores;
using KvBench.Stores.Servers;

namespace KvBench.Evaluation.MultiProcess;

/// <summary>Server kill rounds held against what the server's tier promises (<see cref="ServerRow.Promise"/>).</summary>
public static class ServerKillVerdict
{
    /// <summary>What the server of <paramref name="result"/>'s row promises at its tier.</summary>
    public static ServerTierPromise PromiseOf(CrashRoundsResult result)
    {
        ArgumentNullException.ThrowIfNull(result);
        return StoreCatalog.Row(result.Store) is ServerRow row
            ? row.Promise(result.Durability)
            : throw new ArgumentException($"{result.Store} is not a server row.", nameof(result));
    }

    /// <summary>
    /// Whether the rounds broke the promise: an acknowledged write lost where none may be (Synced), writes lost from
    /// further back than the promise allows (Buffered), a torn record, or a server that did not come back.
    /// </summary>
    public static bool Broken(CrashRoundsResult result)
    {
        ArgumentNullException.ThrowIfNull(result);
        ServerTierPromise promise = PromiseOf(result);
        return result.Torn > 0
            || result.ReopenFailures.Count > 0
            || (result.Lost > 0 && (promise.MayLose == TimeSpan.Zero || result.LostSpan > promise.MayLose));
    }

    /// <summary>One phrase: what was lost against what the tier allows.</summary>
    public static string Of(CrashRoundsResult result)
    {
        ServerTierPromise promise = PromiseOf(result);
        if (result.ReopenFailures.Count > 0 || result.Torn > 0)
        {
            return $"broken: {result.ReopenFailures.Count} reopens failed, {result.Torn:N0} records torn";
        }

        if (result.Lost == 0)
        {
            return "held: nothing acknowledged lost";
        }

        string lost = string.Create(
            CultureInfo.InvariantCulture,
            $"{result.Lost:N0} acknowledged writes lost, from up to {Milliseconds(result.LostSpan)} before the kill");
        string known = StoreCatalog.Row(result.Store) is ServerRow row && row.KnownLoss(result.Durability) is not null
            ? " (the row's known loss, which its Acknowledged column names)"
            : string.Empty;
        return promise.MayLose == TimeSpan.Zero
            ? $"broken: {lost}; {result.Durability} promises none{known}"
            : result.LostSpan <= promise.MayLose
                ? $"within the promise: {lost}, of {Milliseconds(promise.MayLose)} allowed"
                : $"broken: {lost}, more than the {Milliseconds(promise.MayLose)} allowed";
    }

    /// <summary>A span in milliseconds for the tables: tenths below 10 ms, where a loss of the last few writes lands, whole ones above.</summary>
    public static string Milliseconds(TimeSpan span) =>
        span.TotalMilliseconds.ToString(span.TotalMilliseconds < 10 ? "0.0" : "N0", CultureInfo.InvariantCulture) + " ms";

    /// <summary>
    /// Whether a broken result is a failure of this run: not where the loss is the row's known one
    /// (<see cref="ServerRow.KnownLoss"/>), which the table shows as measured, and which no run can fix.
    /// </summary>
    public static bool IsNewFailure(CrashRoundsResult result) =>
        Broken(result)
            && !(
                result.Torn == 0
                    && result.ReopenFailures.Count == 0
                    && StoreCatalog.Row(result.Store) is ServerRow row
                    && row.KnownLoss(result.Durability) is not null);

    /// <summary>The problem line of a broken result, for a run's failure list.</summary>
    public static string Problem(CrashRoundsResult result)
    {
        ArgumentNullException.ThrowIfNull(result);
        return $"Server kill rounds: {result.Store} at {result.Durability} ({PromiseOf(result).Setting}): {Of(result)}";
    }
}
