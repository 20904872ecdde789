using System.Globalization;
using System.Text.Json;

namespace KvBench.Evaluation.Comparison;

/// <summary>
/// The cells of a results file that <c>kvbench run</c>, <c>ycsb</c> or <c>sweep</c> wrote with <c>--json</c>: every
/// workload run in it (a single run, a list of them, or the runs inside a scale sweep's points) gives its throughput and
/// its p99 over the run's timeline of one-second intervals.
/// </summary>
public static class ResultCells
{
    private static readonly CultureInfo s_numbers = CultureInfo.InvariantCulture;

    /// <summary>Reads the cells of the results file at <paramref name="path"/>.</summary>
    /// <exception cref="ResultsFileException">The file cannot be read, is not JSON, or holds no workload run.</exception>
    public static IReadOnlyList<ResultCell> Read(string path)
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
            var cells = new List<ResultCell>();
            foreach (JsonElement run in Runs(document.RootElement))
            {
                cells.AddRange(Cells(run));
            }

            return cells.Count > 0
                ? cells
                : throw new ResultsFileException(path, "holds no workload run; give a file that run, ycsb or sweep wrote with --json");
        }
    }

    /// <summary>Every object shaped as a workload run, wherever it sits in the document.</summary>
    private static IEnumerable<JsonElement> Runs(JsonElement element)
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

    private static IEnumerable<ResultCell> Cells(JsonElement run)
    {
        JsonElement workload = run.GetProperty("Workload");
        string name = string.Create(
            s_numbers,
            $"{run.GetProperty("Store").GetString()} / {workload.GetProperty("Name").GetString()} / " +
                $"{workload.GetProperty("RecordCount").GetInt64():N0} records / " +
                $"{run.GetProperty("Settings").GetProperty("Threads").GetInt32()} threads");
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
        double[] sorted = [.. samples.Order()];
        double median = sorted.Length % 2 == 1
            ? sorted[sorted.Length / 2]
            : (sorted[(sorted.Length / 2) - 1] + sorted[sorted.Length / 2]) / 2;
        return new ResultCell(run, metric, unit, better, median, sorted[0], sorted[^1], sorted.Length);
    }
}
