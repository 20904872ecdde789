using System.Reflection;
using System.Text.Json.Nodes;
using System.Text.Json.Schema;

using KvBench.Evaluation.Reports.Sections;

namespace KvBench.Evaluation.Reports.Results;

/// <summary>
/// The JSON Schema of a results file (<see cref="RunResults"/>), drawn from the types the file is written from: the
/// envelope, and for each section of <see cref="AdrSections.Names"/> the state its <see cref="InResultsFileAttribute"/>
/// properties hold. docs/results-file.schema.json is this, checked in; a test fails when a change to a result type
/// makes them differ, so the documented layout cannot drift from the written one.
/// </summary>
public static class ResultsSchema
{
    /// <summary>Non-nullable reference types are required to be present: the file never writes null where C# forbids it.</summary>
    private static readonly JsonSchemaExporterOptions s_exporter = new() { TreatNullObliviousAsNonNullable = true };

    /// <summary>The schema, as JSON.</summary>
    public static JsonObject Generate()
    {
        JsonObject schema = ResultsJson.Options.GetJsonSchemaAsNode(typeof(RunResults), s_exporter).AsObject();
        var sections = new JsonArray();
        foreach (string name in AdrSections.Names)
        {
            var state = new JsonObject();
            foreach (PropertyInfo property in SectionState.Properties(AdrSections.Named(name).GetType()))
            {
                state[property.Name] = SectionState.IsSections(property.PropertyType)
                    ? new JsonObject { ["type"] = "array", ["items"] = new JsonObject { ["$ref"] = "#/$defs/workloads" } }
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

        JsonObject envelope = new()
        {
            ["$schema"] = "https://json-schema.org/draft/2020-12/schema",
            ["$id"] = $"https://kvbench.dev/schemas/{RunResults.SchemaName}-{RunResults.CurrentVersion}.json",
            ["title"] = "KvBench results file",
            ["description"] = "Everything one run of kvbench adr or the evaluation measured; see docs/results-file.md.",
        };
        foreach ((string key, JsonNode? value) in schema)
        {
            envelope[key] = value?.DeepClone();
        }

        envelope["properties"]!["Schema"] = new JsonObject { ["const"] = RunResults.SchemaName };
        envelope["properties"]!["Version"] = new JsonObject { ["const"] = RunResults.CurrentVersion };
        envelope["properties"]!["Sections"]!["items"] = new JsonObject { ["oneOf"] = sections };
        envelope["$defs"] = new JsonObject { ["workloads"] = WorkloadsState() };
        return envelope;
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
