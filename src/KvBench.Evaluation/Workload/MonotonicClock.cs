using System.Diagnostics;
using System.Runtime.InteropServices;

namespace KvBench.Evaluation.Workload;

/// <summary>
/// <see cref="Stopwatch"/> timestamps as the operating system's monotonic clock, and a wait for one that does not hold
/// a core. On Linux, .NET reads <see cref="Stopwatch.GetTimestamp"/> from <c>clock_gettime(CLOCK_MONOTONIC)</c> in
/// nanoseconds: one clock for every process on the machine, so two processes' timestamps compare, and the kernel can
/// sleep a thread until a timestamp itself (<c>clock_nanosleep</c> with <c>TIMER_ABSTIME</c>).
/// <see cref="IsSystemMonotonic"/> checks that once, rather than trusting it.
/// </summary>
internal static partial class MonotonicClock
{
    private const int ClockMonotonic = 1;
    private const int TimerAbsoluteTime = 1;
    private const int Interrupted = 4;
    private const long NanosecondsPerSecond = 1_000_000_000;

    /// <summary>
    /// How long before its timestamp a wait stops sleeping and spins: a sleeping thread wakes some tens of microseconds
    /// late (the kernel's timer slack is 50 µs), and an open loop counts lateness as latency. 100 µs of spinning per
    /// operation costs a fifth of a core at 2,000 operations a second, where spinning through each whole gap, as a
    /// millisecond sleep forces, held every thread of an open loop on a core of its own.
    /// </summary>
    private static readonly long s_spinTicks = Stopwatch.Frequency / 10_000;

    /// <summary>
    /// Whether Stopwatch timestamps are <c>CLOCK_MONOTONIC</c> nanoseconds here: Linux, a nanosecond frequency, and a
    /// reading of <c>CLOCK_MONOTONIC</c> that falls between two Stopwatch readings taken around it.
    /// </summary>
    public static bool IsSystemMonotonic { get; } = OperatingSystem.IsLinux() && Stopwatch.Frequency == NanosecondsPerSecond && ReadsBetweenStopwatchReadings();

    /// <summary>
    /// Returns at <paramref name="timestamp"/> (a <see cref="Stopwatch.GetTimestamp"/> value) or just after, sleeping
    /// until shortly before it.
    /// </summary>
    public static void WaitUntil(long timestamp)
    {
        long spinFrom = timestamp - s_spinTicks;
        if (IsSystemMonotonic)
        {
            var until = new TimeSpec { Seconds = spinFrom / NanosecondsPerSecond, Nanoseconds = spinFrom % NanosecondsPerSecond };
            while (spinFrom > Stopwatch.GetTimestamp() && ClockNanosleep(ClockMonotonic, TimerAbsoluteTime, in until, 0) == Interrupted)
            {
            }
        }
        else
        {
            // Thread.Sleep counts whole milliseconds and may oversleep by one: sleep only what cannot overshoot.
            long remaining = spinFrom - Stopwatch.GetTimestamp();
            if (remaining > Stopwatch.Frequency / 500)
            {
                Thread.Sleep(TimeSpan.FromSeconds((double)(remaining - (Stopwatch.Frequency / 1000)) / Stopwatch.Frequency));
            }
        }

        while (Stopwatch.GetTimestamp() < timestamp)
        {
            Thread.SpinWait(20);
        }
    }

    private static bool ReadsBetweenStopwatchReadings()
    {
        long before = Stopwatch.GetTimestamp();
        if (ClockGettime(ClockMonotonic, out TimeSpec now) != 0)
        {
            return false;
        }

        long after = Stopwatch.GetTimestamp();
        long monotonic = (now.Seconds * NanosecondsPerSecond) + now.Nanoseconds;
        return before <= monotonic && monotonic <= after;
    }

    [LibraryImport("libc", EntryPoint = "clock_gettime")]
    private static partial int ClockGettime(int clock, out TimeSpec time);

    /// <summary>Returns 0, or the error number itself (EINTR when a signal woke the thread early).</summary>
    [LibraryImport("libc", EntryPoint = "clock_nanosleep")]
    private static partial int ClockNanosleep(int clock, int flags, in TimeSpec request, nint remaining);

    /// <summary>Linux's <c>struct timespec</c> on 64-bit: seconds and nanoseconds, both <c>long</c>.</summary>
    [StructLayout(LayoutKind.Sequential)]
    private struct TimeSpec
    {
        public long Seconds;
        public long Nanoseconds;
    }
}
