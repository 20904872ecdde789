using System.Text.Json;

namespace KvBench.Stores;

/// <summary>
/// The NuGet package version the running application resolved, read from its deps.json so a report names what
/// actually ran (assembly versions do not follow package versions: FASTER.core 2.6.5 calls itself 1.0.0).
/// </summary>
internal static class PackageVersion
{
    private static readonly Lazy<IReadOnlyDictionary<string, string>> s_resolved = new(ReadDepsFiles);

    public static string Of(string packageId) => s_resolved.Value.GetValueOrDefault(packageId, "unknown version");

    private static Dictionary<string, string> ReadDepsFiles()
    {
        var versions = new Dictionary<string, string>(StringComparer.OrdinalIgnoreCase);
        string depsFiles = AppContext.GetData("APP_CONTEXT_DEPS_FILES") as string ?? string.Empty;
        foreach (string path in depsFiles.Split(';', StringSplitOptions.RemoveEmptyEntries).Where(File.Exists))
        {
            using JsonDocument deps = JsonDocument.Parse(File.ReadAllBytes(path));
            if (!deps.RootElement.TryGetProperty("libraries", out JsonElement libraries))
            {
                continue;
            }

            foreach (JsonProperty library in libraries.EnumerateObject())
            {
                // Keys read "Id/Version".
                string[] parts = library.Name.Split('/');
                if (parts.Length == 2)
                {
                    versions.TryAdd(parts[0], parts[1]);
                }
            }
        }

        return versions;
    }
}
