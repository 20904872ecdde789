using System.Globalization;
using System.Text.Json;

using KvBench.Evaluation.Measuring;
using KvBench.Evaluation.Reports.Results;

namespace KvBench.Evaluation.Comparison;

/// <summary>
/// The cells of a results file (<see cref="ResultsFile"/>), or of a file that <c>kvbench run</c>, <c>ycsb</c> or
/// <c>sweep</c> wrote with <c>--json</c> before those were results files: every workload run in it (a single run, a list
/// of them, or the runs inside a scale sweep's points or a section) gives its throughput and its p99 over the run's
/// timeline of intervals (one second for a single run; 100 ms, or 70 ms for the SQLite suites, in the default evaluation).
/// </summary>
public static class ResultCells
{
    private static readonly CultureInfo s_numbers = CultureInfo.InvariantCulture;

    /// <summary>Reads the cells of the results file at <paramref name="path"/>.</summary>
    /// <exception cref="ResultsFileException">The file cannot be read, is not JSON, or holds no workload run.</exception>
    public static IReadOnlyList<ResultCell> Read(string path) => ReadRun(path).Cells;

    /// <summary>
    /// Reads the cells of the results file at <paramref name="path"/>, and, when it is a run's results file
    /// (<see cref="Reports.Results.RunResults"/>), what it says of the run: KvBench's version, the machine and each row's
    /// engine.
    /// </summary>
    /// <exception cref="ResultsFileException">The file cannot be read, is not JSON, or holds no workload run.</exception>
    public static ComparedRun ReadRun(string path)
    {
        ArgumentNullException.ThrowIfNull(path);
        JsonDocument document;
        try
        {
            document = JsonDocument.Parse(File.ReadAllBytes(path));
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or JsonException)
        {
            throw new ResultsFileException(path, e is JsonException ? $"is not JSON ({e.Message})" : e.Message, e);
        }

        using (document)
        {
            if (ResultsFile.IsEnvelope(document.RootElement))
            {
                // Refuses a version or kind this build does not know, rather than compare what it may misread.
                _ = ResultsFile.Read(path, document.RootElement);
            }

            var cells = new List<ResultCell>();
            var seen = new Dictionary<string, int>();
            var read = new HashSet<string>(StringComparer.Ordinal);
            foreach (JsonElement run in Runs(document.RootElement))
            {
                if (!read.Add(run.GetRawText()))
                {
                    // One run that two tables share (the SQLite section's baseline, in its upsert and pragma tables) is written
                    // in each; it is one measurement, and one cell.
                    continue;
                }

                string name = RunName(run);
                // A run of the same row, workload and threads again (the server section's tiers) is told apart by its
                // place, which is the same in every run of one command.
                int occurrence = seen[name] = seen.GetValueOrDefault(name) + 1;
                cells.AddRange(Cells(occurrence == 1 ? name : string.Create(s_numbers, $"{name} #{occurrence}"), run));
            }

            return cells.Count > 0
                ? new ComparedRun(cells, Facts(document.RootElement))
                : throw new ResultsFileException(path, "holds no workload run; give a results file, or a file that run, ycsb or sweep wrote with --json");
        }
    }

    /// <summary>KvBench's version, the machine and the engines of a run's results file; none for another file.</summary>
    private static Dictionary<string, string> Facts(JsonElement root)
    {
        var facts = new Dictionary<string, string>();
        if (root.ValueKind != JsonValueKind.Object || !root.TryGetProperty("Schema", out JsonElement schema) || schema.ValueKind != JsonValueKind.String)
        {
            return facts;
        }

        if (root.TryGetProperty("KvBench", out JsonElement version))
        {
            facts["KvBench"] = version.ToString();
        }

        foreach ((string group, string prefix) in (ReadOnlySpan<(string, string)>)[("Machine", "Machine: "), ("Engines", "Engine of ")])
        {
            if (root.TryGetProperty(group, out JsonElement members) && members.ValueKind == JsonValueKind.Object)
            {
                foreach (JsonProperty member in members.EnumerateObject())
                {
                    facts[prefix + member.Name] = member.Value.ToString();
                }
            }
        }

        return facts;
    }

    /// <summary>Every object shaped as a workload run, wherever it sits in the document.</summary>
    internal static IEnumerable<JsonElement> Runs(JsonElement element)
    {
        if (element.ValueKind == JsonValueKind.Object)
        {
            if (element.TryGetProperty("Store", out _) && element.TryGetProperty("Operations", out _) && element.TryGetProperty("Workload", out _))
            {
                yield return element;
                yield break;
            }

            foreach (JsonProperty property in element.EnumerateObject())
            {
                foreach (JsonElement run in Runs(property.Value))
                {
                    yield return run;
                }
            }
        }
        else if (element.ValueKind == JsonValueKind.Array)
        {
            foreach (JsonElement item in element.EnumerateArray())
            {
                foreach (JsonElement run in Runs(item))
                {
                    yield return run;
                }
            }
        }
    }

    private static string RunName(JsonElement run)
    {
        JsonElement workload = run.GetProperty("Workload");
        return string.Create(
            s_numbers,
            $"{run.GetProperty("Store").GetString()} / {workload.GetProperty("Name").GetString()} / " +
                $"{workload.GetProperty("RecordCount").GetInt64():N0} records / " +
                $"{run.GetProperty("Settings").GetProperty("Threads").GetInt32()} threads");
    }

    private static IEnumerable<ResultCell> Cells(string name, JsonElement run)
    {
        double[] rates = Timeline(run, "OperationsPerSecond");
        double[] p99s = [.. Timeline(run, "P99").Select(nanoseconds => nanoseconds / 1_000)];
        if (rates.Length == 0)
        {
            // A file from before runs kept a timeline: the run's own figure, with no interval to judge a change by.
            double total = run.GetProperty("Operations").EnumerateArray().Sum(operation => operation.GetProperty("OperationsPerSecond").GetDouble());
            rates = [total];
        }

        yield return Cell(name, "throughput", "ops/s", Better.Higher, rates);
        if (p99s.Length > 0)
        {
            yield return Cell(name, "p99", "µs", Better.Lower, p99s);
        }
    }

    private static double[] Timeline(JsonElement run, string field) =>
        run.TryGetProperty("Timeline", out JsonElement timeline) && timeline.ValueKind == JsonValueKind.Array
            ? [.. timeline.EnumerateArray()
                .Where(point => point.GetProperty("Seconds").GetDouble() > 0 && point.GetProperty("OperationsPerSecond").GetDouble() > 0)
                .Select(point => point.GetProperty(field).GetDouble())]
            : [];

    private static ResultCell Cell(string run, string metric, string unit, Better better, double[] samples)
    {
        (double median, double low, double high) = PredictionInterval.Of(samples);
        return new ResultCell(run, metric, unit, better, median, low, high, samples.Length);
    }
}
