using System.Text.Json;
using System.Text.Json.Serialization;

namespace KvBench.Evaluation.Workload;

/// <summary>
/// A <see cref="LengthDistribution"/> as the text <see cref="LengthDistribution.Parse"/> reads: a workload travels to
/// worker processes as JSON, and the distribution has no settable properties to serialise.
/// </summary>
internal sealed class LengthDistributionJsonConverter : JsonConverter<LengthDistribution>
{
    public override LengthDistribution Read(ref Utf8JsonReader reader, Type typeToConvert, JsonSerializerOptions options) =>
        LengthDistribution.Parse(reader.GetString() ?? throw new JsonException("A length distribution is a string such as \"128\" or \"100..4096\"."));

    public override void Write(Utf8JsonWriter writer, LengthDistribution value, JsonSerializerOptions options)
    {
        ArgumentNullException.ThrowIfNull(writer);
        ArgumentNullException.ThrowIfNull(value);
        writer.WriteStringValue(value.ToSpecification());
    }
}
