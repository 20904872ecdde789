using System.Text.Json.Serialization;

namespace KvBench.Evaluation.MultiProcess;

/// <summary>The worker's JSON lines, serialised without reflection.</summary>
[
    JsonSourceGenerationOptions(
        PropertyNamingPolicy = JsonKnownNamingPolicy.CamelCase,
        UseStringEnumConverter = true,
        DefaultIgnoreCondition = JsonIgnoreCondition.WhenWritingNull)]
[JsonSerializable(typeof(WorkerMessage))]
[JsonSerializable(typeof(ImportContentionSettings))]
internal sealed partial class WorkerJsonContext : JsonSerializerContext;
