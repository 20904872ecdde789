using System.Collections;
using System.Reflection;
using System.Text.Json;
using System.Text.Json.Nodes;

using KvBench.Evaluation.Reports.Sections;

namespace KvBench.Evaluation.Reports.Results;

/// <summary>
/// A section's <see cref="InResultsFileAttribute"/> properties to and from JSON. Sections a section holds (the server
/// section's workload sections, made from its settings) are read back after the settings, into the instances the
/// section makes from them.
/// </summary>
internal static class SectionState
{
    private const BindingFlags InstanceProperties = BindingFlags.Instance | BindingFlags.Public | BindingFlags.NonPublic;

    public static JsonObject Save(AdrSection section)
    {
        var state = new JsonObject();
        foreach (PropertyInfo property in Properties(section.GetType()))
        {
            state[property.Name] = property.GetValue(section) switch
            {
                IEnumerable<AdrSection> nested => new JsonArray([.. nested.Select(Save)]),
                object value => JsonSerializer.SerializeToNode(value, property.PropertyType, ResultsJson.Options),
                null => null,
            };
        }

        return state;
    }

    /// <exception cref="JsonException">A property's JSON does not fit its type.</exception>
    public static void Load(AdrSection section, JsonObject state)
    {
        List<PropertyInfo> properties = Properties(section.GetType());
        // Held sections last: they are made from the settings the others set.
        foreach (PropertyInfo property in properties.OrderBy(property => IsSections(property.PropertyType)))
        {
            if (!state.TryGetPropertyValue(property.Name, out JsonNode? node))
            {
                throw new JsonException($"The {section.Name} section has no '{property.Name}'.");
            }

            if (IsSections(property.PropertyType))
            {
                var held = (IEnumerable<AdrSection>)property.GetValue(section)!;
                JsonArray saved = node?.AsArray() ?? throw new JsonException($"The {section.Name} section's '{property.Name}' is null.");
                AdrSection[] sections = [.. held];
                if (sections.Length != saved.Count)
                {
                    throw new JsonException(
                        $"The {section.Name} section's '{property.Name}' holds {saved.Count} sections where its settings make {sections.Length}.");
                }

                for (int i = 0; i < sections.Length; i++)
                {
                    Load(sections[i], saved[i]?.AsObject() ?? throw new JsonException($"The {section.Name} section's '{property.Name}' has a null."));
                }

                continue;
            }

            MethodInfo setter = property.DeclaringType!.GetProperty(property.Name, InstanceProperties)!.GetSetMethod(nonPublic: true)
                ?? throw new InvalidOperationException($"{property.DeclaringType.Name}.{property.Name} is in the results file but has no setter.");
            setter.Invoke(section, [node?.Deserialize(property.PropertyType, ResultsJson.Options)]);
        }
    }

    public static List<PropertyInfo> Properties(Type type) =>
        [.. type.GetProperties(InstanceProperties).Where(property => property.IsDefined(typeof(InResultsFileAttribute), inherit: true))];

    public static bool IsSections(Type type) =>
        type != typeof(string) && typeof(IEnumerable).IsAssignableFrom(type) && typeof(IEnumerable<AdrSection>).IsAssignableFrom(type);
}
