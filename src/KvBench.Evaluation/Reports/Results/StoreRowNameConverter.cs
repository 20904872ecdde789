using System.Text.Json;
using System.Text.Json.Serialization;

using KvBench.Stores;

namespace KvBench.Evaluation.Reports.Results;

/// <summary>
/// A row in a results file is its name, read back through the catalog: a row is a definition this build holds, not
/// data, and its name is what every table prints.
/// </summary>
internal sealed class StoreRowNameConverter : JsonConverterFactory
{
    public override bool CanConvert(Type typeToConvert) => typeof(StoreRow).IsAssignableFrom(typeToConvert);

    public override JsonConverter CreateConverter(Type typeToConvert, JsonSerializerOptions options) =>
        (JsonConverter)Activator.CreateInstance(typeof(ByName<>).MakeGenericType(typeToConvert))!;

    private sealed class ByName<TRow> : JsonConverter<TRow>
        where TRow : StoreRow
    {
        public override TRow Read(ref Utf8JsonReader reader, Type typeToConvert, JsonSerializerOptions options)
        {
            string name = reader.GetString() ?? throw new JsonException("A row's name is null.");
            try
            {
                return StoreCatalog.Row(name) as TRow ?? throw new JsonException($"{name} is not a {typeof(TRow).Name}.");
            }
            catch (ArgumentException e)
            {
                throw new JsonException(e.Message, e);
            }
        }

        public override void Write(Utf8JsonWriter writer, TRow value, JsonSerializerOptions options) => writer.WriteStringValue(value.Name);
    }
}
