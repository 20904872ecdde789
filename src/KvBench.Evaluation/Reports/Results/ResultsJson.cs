using System.Text.Encodings.Web;
using System.Text.Json;
using System.Text.Json.Serialization;
using System.Text.Json.Serialization.Metadata;

namespace KvBench.Evaluation.Reports.Results;

/// <summary>How a results file writes its JSON, in one place so what writes it and what reads it back agree.</summary>
internal static class ResultsJson
{
    public static JsonSerializerOptions Options { get; } = new()
    {
        // People read and diff the file; the cost of the whitespace does not matter beside a run's minutes.
        WriteIndented = true,
        // Enum values by name: a reader needs no table of numbers, and a new value does not shift the old ones. A row
        // by its name: the catalog holds its definition.
        Converters = { new JsonStringEnumConverter(), new StoreRowNameConverter() },
        // A few results are value tuples, whose parts are fields.
        IncludeFields = true,
        // A rate over an empty window is NaN and a ratio to zero is infinite; both must survive the round trip.
        NumberHandling = JsonNumberHandling.AllowNamedFloatingPointLiterals,
        // The markdown cells the file keeps (µs, ×, ÷) stay readable rather than \u-escaped.
        Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping,
        // Named, so the schema exporter (ResultsSchema) can read the same contract the serializer writes.
        TypeInfoResolver = new DefaultJsonTypeInfoResolver(),
    };
}
