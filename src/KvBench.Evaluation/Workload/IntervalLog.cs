using System.Globalization;
using System.Text;

using HdrHistogram;

namespace KvBench.Evaluation.Workload;

/// <summary>
/// A run's latencies over time as HdrHistogram's interval log (<c>.hlog</c>): one histogram per interval of the run
/// (<see cref="WorkloadResult.Timeline"/>) and operation type, tagged with the type's name, which HdrHistogram's own
/// reader, HistogramLogAnalyzer and the plotters built on them read.
/// </summary>
public static class IntervalLog
{
    /// <summary>The file extension HdrHistogram's tools expect.</summary>
    public const string Extension = ".hlog";

    /// <summary>Writes <paramref name="result"/>'s interval histograms to <paramref name="stream"/>.</summary>
    /// <exception cref="InvalidOperationException">The run did not keep them (<see cref="RunSettings.KeepIntervalHistograms"/>).</exception>
    public static void Write(WorkloadResult result, Stream stream)
    {
        ArgumentNullException.ThrowIfNull(result);
        ArgumentNullException.ThrowIfNull(stream);
        IReadOnlyList<IReadOnlyDictionary<OperationType, LatencyHistogram>> intervals = result.IntervalHistograms
            ?? throw new InvalidOperationException(
                $"The run of {result.Workload.Name} on {result.Store} kept no interval histograms; run it with KeepIntervalHistograms.");
        DateTimeOffset start = result.WindowStartUtc ?? DateTimeOffset.UnixEpoch;
        var histograms = new List<HistogramBase>();
        for (int i = 0; i < intervals.Count; i++)
        {
            TimelinePoint point = result.Timeline[i];
            long from = start.AddSeconds(point.StartSeconds).ToUnixTimeMilliseconds();
            long to = start.AddSeconds(point.StartSeconds + point.Seconds).ToUnixTimeMilliseconds();
            foreach ((OperationType type, LatencyHistogram latencies) in intervals[i].OrderBy(pair => pair.Key))
            {
                LongHistogram histogram = latencies.ToHdrHistogram();
                histogram.Tag = type.ToString();
                histogram.StartTimeStamp = from;
                histogram.EndTimeStamp = to;
                histograms.Add(histogram);
            }
        }

        // HdrHistogram.NET writes UTF-16; the format is ASCII, which HdrHistogram's Java and Python readers expect and
        // its .NET reader takes too, so the text is written again as UTF-8 without a byte order mark.
        using var utf16 = new MemoryStream();
        HistogramLogWriter.Write(utf16, start.UtcDateTime, [.. histograms]);
        string text = Encoding.Unicode.GetString(utf16.ToArray()).TrimStart('\uFEFF');
        stream.Write(s_ascii.GetBytes(text));
    }

    private static readonly UTF8Encoding s_ascii = new(encoderShouldEmitUTF8Identifier: false, throwOnInvalidBytes: true);

    /// <summary>
    /// The log's file name for <paramref name="result"/> beside a results file named <paramref name="resultsFile"/>:
    /// the results file's name, the row, the workload, its records and the threads (a scale sweep runs one workload at
    /// several record counts), with characters a file name should not hold replaced.
    /// </summary>
    public static string PathBeside(string resultsFile, WorkloadResult result)
    {
        ArgumentNullException.ThrowIfNull(resultsFile);
        ArgumentNullException.ThrowIfNull(result);
        string stem = Path.Combine(Path.GetDirectoryName(Path.GetFullPath(resultsFile))!, Path.GetFileNameWithoutExtension(resultsFile));
        return string.Create(
            CultureInfo.InvariantCulture,
            $"{stem}.{Safe(result.Store)}.{Safe(result.Workload.Name)}.{result.Workload.RecordCount}r.x{result.Settings.Threads}{Extension}");
    }

    private static string Safe(string name)
    {
        var safe = new StringBuilder(name.Length);
        foreach (char c in name)
        {
            safe.Append(char.IsAsciiLetterOrDigit(c) || c is '-' or '_' ? c : '_');
        }

        return safe.ToString();
    }
}
