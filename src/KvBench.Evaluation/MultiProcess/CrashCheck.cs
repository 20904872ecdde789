using KvBench.Core;
using KvBench.Evaluation.Workload;

namespace KvBench.Evaluation.MultiProcess;

/// <summary>What a store reopened after a kill holds of one writer's records.</summary>
/// <param name="Lost">Acknowledged records missing, or holding other bytes.</param>
/// <param name="Torn">Records past the acknowledged ones that came back with bytes that are neither nothing nor the record.</param>
/// <param name="FirstLost">The index of the first lost record, or <see langword="null"/> when none was lost.</param>
public readonly record struct CrashCheck(long Lost, long Torn, long? FirstLost)
{
    /// <summary>Unacknowledged records looked at after the last acknowledged one for torn writes: more than can be in flight.</summary>
    public const int UnacknowledgedChecked = 64;

    /// <summary>
    /// Reads records 0 to <paramref name="acknowledged"/> - 1 of <paramref name="records"/> back, and the next
    /// <see cref="UnacknowledgedChecked"/>.
    /// </summary>
    public static CrashCheck Of(IKeyValueStore store, RecordSet records, long acknowledged)
    {
        ArgumentNullException.ThrowIfNull(store);
        ArgumentNullException.ThrowIfNull(records);
        ArgumentOutOfRangeException.ThrowIfNegative(acknowledged);
        long lost = 0;
        long torn = 0;
        long? firstLost = null;
        for (long index = 0; index < acknowledged + UnacknowledgedChecked; index++)
        {
            byte[]? value = store.Get(records.Key(index));
            bool exact = value is not null && value.AsSpan().SequenceEqual(records.Value(index));
            if (index < acknowledged && !exact)
            {
                lost++;
                firstLost ??= index;
            }
            else if (index >= acknowledged && value is not null && !exact)
            {
                torn++;
            }
        }

        return new CrashCheck(lost, torn, firstLost);
    }
}
