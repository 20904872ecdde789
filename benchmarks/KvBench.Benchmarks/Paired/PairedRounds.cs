using System.Diagnostics;
using System.Runtime;

using KvBench.Evaluation.Measuring;

namespace KvBench.Benchmarks.Paired;

/// <summary>
/// The rounds of one cell: two blocks of a row and two of its reference, the same number of operations each, in ABBA
/// order, so what the machine does meanwhile, and what one side's block leaves in the caches, falls on both sides of
/// every round.
/// </summary>
internal static class PairedRounds
{
    /// <summary>How many pairs of blocks, at the final size, the block's length is estimated from.</summary>
    private const int CalibrationPairs = 5;

    /// <summary>
    /// How many pairs in a row the JIT must compile nothing in before the rounds start: a side whose loop or calls were
    /// still waiting for their optimized code (tier-1 compiles on a background thread, later on a busy machine) was
    /// measured slower for a whole process, and a row's processes disagreed by more than the goal.
    /// </summary>
    private const int JitQuietPairs = 10;

    /// <summary>The longest warm-up, in multiples of <see cref="PairedPriceSettings.Warmup"/>, when the JIT does not go quiet.</summary>
    private const int MaxWarmupFactor = 3;

    /// <summary>
    /// Each round's time per operation of <paramref name="row"/> divided by that of <paramref name="reference"/>, for
    /// <paramref name="method"/>, after both warmed up together.
    /// </summary>
    public static PairedSamples Measure(PairedSide row, PairedSide reference, string method, PairedPriceSettings settings)
    {
        ArgumentNullException.ThrowIfNull(row);
        ArgumentNullException.ThrowIfNull(reference);
        return Measure(operations => row.Time(method, operations), operations => reference.Time(method, operations), settings);
    }

    /// <summary>
    /// Each round's wall time of <paramref name="row"/>'s threads divided by that of <paramref name="reference"/>'s, for
    /// <paramref name="method"/> (Put or Get), every thread making the same number of calls.
    /// </summary>
    public static PairedSamples Measure(CallingThreads row, CallingThreads reference, string method, PairedPriceSettings settings)
    {
        ArgumentNullException.ThrowIfNull(row);
        ArgumentNullException.ThrowIfNull(reference);
        return Measure(operations => Time(row, method, operations), operations => Time(reference, method, operations), settings);
    }

    private static long Time(CallingThreads threads, string method, int operations)
    {
        Action<CallingThreads.Share> share = method switch
        {
            PointMethods.Put => thread => thread.Put(operations),
            PointMethods.Get => thread => thread.Get(operations),
            _ => throw new ArgumentOutOfRangeException(nameof(method), method, "Threads are measured calling Put and Get."),
        };
        long started = Stopwatch.GetTimestamp();
        threads.Run(share);
        return Stopwatch.GetTimestamp() - started;
    }

    /// <summary>The rounds of two timers, each running the given number of operations and returning the ticks they took.</summary>
    internal static PairedSamples Measure(Func<int, long> row, Func<int, long> reference, PairedPriceSettings settings)
    {
        ArgumentNullException.ThrowIfNull(settings);
        long block = (long)(settings.Block.TotalSeconds * Stopwatch.Frequency);
        long warmup = (long)(settings.Warmup.TotalSeconds * Stopwatch.Frequency);

        // Doubles the block's operations until the slower side's block takes at least half the block time, and keeps
        // alternating until the warm-up time has passed and the JIT has gone quiet. The block is then sized from the
        // median of the last pairs, not from one pair: one Put that ran a checkpoint (LiteDB's, every 1,000 log pages)
        // took milliseconds where the others took microseconds, and a block sized from it held one operation.
        int operations = 1;
        long warmed = 0;
        long compiled = JitInfo.GetCompiledMethodCount();
        int quietPairs = 0;
        var slowerTicks = new List<long>();
        while (true)
        {
            long rowTicks = row(operations);
            long referenceTicks = reference(operations);
            long slower = Math.Max(1, Math.Max(rowTicks, referenceTicks));
            warmed += rowTicks + referenceTicks;
            long compiledNow = JitInfo.GetCompiledMethodCount();
            quietPairs = compiledNow == compiled ? quietPairs + 1 : 0;
            compiled = compiledNow;
            slowerTicks.Add(slower);
            if (slowerTicks.Count > CalibrationPairs)
            {
                slowerTicks.RemoveAt(0);
            }

            long typical = slowerTicks.Order().ElementAt(slowerTicks.Count / 2);
            if (typical < block / 2 && operations < int.MaxValue / 2)
            {
                operations *= 2;
                slowerTicks.Clear();
            }
            else if (warmed >= warmup && slowerTicks.Count == CalibrationPairs && (quietPairs >= JitQuietPairs || warmed >= warmup * MaxWarmupFactor))
            {
                operations = (int)Math.Clamp(operations * (double)block / typical, 1, int.MaxValue);
                break;
            }
        }

        // Every round after the first starts with a row block straight after the row's own (the last of the round
        // before); the warm-up ended with the reference's, so one row block more gives the first round the same start.
        row(operations);
        double[] ratios = new double[settings.Rounds];
        double[] referenceNanoseconds = new double[settings.Rounds];
        for (int round = 0; round < ratios.Length; round++)
        {
            // One round is row, reference, reference, row: each side runs one block straight after its own (its caches
            // warm) and one straight after the other side's (its caches refilled), so the round's sums compare like
            // with like. A round of one block a side, alternately first, gives ratios in two clusters, one for each
            // side that runs second, and the median of such rounds can fall anywhere in the gap between them.
            long rowTicks = row(operations);
            long referenceTicks = reference(operations);
            long referenceAfterItsOwn = reference(operations);
            rowTicks += row(operations);
            ratios[round] = rowTicks / (double)Math.Max(1, referenceTicks + referenceAfterItsOwn);

            // The time per call a program calling the store over and over sees is that of a block after its own:
            // counting both of the round's blocks would include the cost of refilling caches after the other side, a
            // slower time than BenchmarkDotNet, which runs one side alone, reports.
            referenceNanoseconds[round] = referenceAfterItsOwn * (1e9 / Stopwatch.Frequency) / operations;
        }

        return new PairedSamples(ratios, referenceNanoseconds);
    }
}

/// <summary>The rounds of one cell.</summary>
/// <param name="Ratios">Each round's row ÷ reference: the time of its two row blocks over that of its two reference blocks.</param>
/// <param name="ReferenceNanoseconds">
/// Each round's reference time per operation (per call of each thread, when threads call) in its block that followed
/// its own, its caches warm: with the round's ratio, what the row added per call in nanoseconds.
/// </param>
internal sealed record PairedSamples(double[] Ratios, double[] ReferenceNanoseconds);
