using System.Reflection;
using System.Text.Json.Nodes;
using System.Text.Json.Schema;

using KvBench.Evaluation.MultiProcess;
using KvBench.Evaluation.Reports.Sections;
using KvBench.Evaluation.Reports.Sections.Sqlite;
using KvBench.Evaluation.Workload;

namespace KvBench.Evaluation.Reports.Results;

/// <summary>
/// The JSON Schema of a results file (<see cref="ResultsFile"/>), drawn from the types the file is written from: the
/// envelope and each kind's measurements, and for each section of an adr run (<see cref="AdrSections.Names"/>) the state
/// its <see cref="InResultsFileAttribute"/> properties hold. docs/results-file.schema.json is this, checked in; a test fails when a change to a result type
/// makes them differ, so the documented layout cannot drift from the written one.
/// </summary>
public static class ResultsSchema
{
    /// <summary>Non-nullable reference types are required to be present: the file never writes null where C# forbids it.</summary>
    private static readonly JsonSchemaExporterOptions s_exporter = new() { TreatNullObliviousAsNonNullable = true };

    /// <summary>The name under <c>$defs</c> of a workload section's state, which the server section holds per tier.</summary>
    private const string WorkloadsSection = "workloads-section";

    /// <summary>The schema, as JSON.</summary>
    public static JsonObject Generate()
    {
        var defs = new JsonObject
        {
            [RunResults.AdrKind] = Adr(),
            [DecisionResults.DecideKind] = Kind<DecisionResults>(DecisionResults.DecideKind),
            [CommandResults.WorkloadsKind] =
                Kind<CommandResults<IReadOnlyList<WorkloadResult>>>(
                    CommandResults.WorkloadsKind, CommandResults.ThreadSweepKind, CommandResults.SqliteSweepKind),
            [CommandResults.ScaleSweepKind] = Kind<CommandResults<IReadOnlyList<ScalePoint>>>(CommandResults.ScaleSweepKind),
            [CommandResults.ContentionKind] = Kind<CommandResults<IReadOnlyList<ImportContentionResult>>>(CommandResults.ContentionKind),
            [CommandResults.SqliteBusyKind] = Kind<CommandResults<IReadOnlyList<BusyTrapResult>>>(CommandResults.SqliteBusyKind),
        };
        string[] kinds = [.. defs.Select(kind => kind.Key)];
        defs[WorkloadsSection] = WorkloadsState();
        return new JsonObject
        {
            ["$schema"] = "https://json-schema.org/draft/2020-12/schema",
            // Relative: the schema lives beside the documentation of the file, wherever the repository is.
            ["$id"] = "results-file.schema.json",
            ["title"] = "KvBench results file",
            ["description"] = "Everything one run of kvbench adr, decide, run, ycsb, sweep, contend, sqlite or the evaluation measured; " +
                "see docs/results-file.md. Kind says which run; a file without it holds an adr run.",
            ["type"] = "object",
            ["properties"] = new JsonObject
            {
                ["Schema"] = new JsonObject { ["const"] = ResultsFile.SchemaName },
                ["Version"] = new JsonObject { ["const"] = ResultsFile.CurrentVersion },
                ["Kind"] = new JsonObject { ["enum"] = new JsonArray([.. ResultsFile.Kinds.Select(kind => (JsonNode)kind)]) },
            },
            ["required"] = new JsonArray("Schema", "Version"),
            ["oneOf"] = new JsonArray([.. kinds.Select(kind => (JsonNode)new JsonObject { ["$ref"] = $"#/$defs/{kind}" })]),
            ["$defs"] = defs,
        };
    }

    /// <summary>The schema of a file of <typeparamref name="TResults"/>, whose <c>Kind</c> is one of <paramref name="kinds"/>.</summary>
    private static JsonObject Kind<TResults>(params string[] kinds)
        where TResults : ResultsFile
    {
        JsonObject schema = ResultsJson.Options.GetJsonSchemaAsNode(typeof(TResults), s_exporter).AsObject();
        schema["properties"]!["Kind"] = kinds.Length == 1
            ? new JsonObject { ["const"] = kinds[0] }
            : new JsonObject { ["enum"] = new JsonArray([.. kinds.Select(kind => (JsonNode)kind)]) };
        schema["required"]!.AsArray().Add("Kind");
        return schema;
    }

    /// <summary>The schema of an adr or evaluation run's file: its sections, each with the state its name says.</summary>
    private static JsonObject Adr()
    {
        JsonObject schema = ResultsJson.Options.GetJsonSchemaAsNode(typeof(RunResults), s_exporter).AsObject();
        var sections = new JsonArray();
        foreach (string name in AdrSections.Names)
        {
            var state = new JsonObject();
            foreach (PropertyInfo property in SectionState.Properties(AdrSections.Named(name).GetType()))
            {
                state[property.Name] = SectionState.IsSections(property.PropertyType)
                    ? new JsonObject { ["type"] = "array", ["items"] = new JsonObject { ["$ref"] = $"#/$defs/{WorkloadsSection}" } }
                    : ResultsJson.Options.GetJsonSchemaAsNode(property.PropertyType, s_exporter);
            }

            sections.Add(new JsonObject
            {
                ["properties"] = new JsonObject
                {
                    ["Name"] = new JsonObject { ["const"] = name },
                    ["State"] = new JsonObject
                    {
                        ["type"] = "object",
                        ["properties"] = state,
                        ["required"] = new JsonArray([.. state.Select(property => (JsonNode)property.Key)]),
                    },
                },
            });
        }

        // A file written before files had kinds has none: it is an adr run's.
        schema["properties"]!["Kind"] = new JsonObject { ["const"] = RunResults.AdrKind };
        schema["properties"]!["Sections"]!["items"] = new JsonObject { ["oneOf"] = sections };
        return schema;
    }

    /// <summary>The state of a workload section, which the server section holds one of per tier.</summary>
    private static JsonObject WorkloadsState()
    {
        JsonObject state = new();
        foreach (PropertyInfo property in SectionState.Properties(AdrSections.Named("workloads").GetType()))
        {
            state[property.Name] = ResultsJson.Options.GetJsonSchemaAsNode(property.PropertyType, s_exporter);
        }

        return new JsonObject { ["type"] = "object", ["properties"] = state };
    }
}
