using System.Reflection;

namespace KvBench.Stores;

/// <summary>The version a package was built as, read from its assembly so a report names what actually ran.</summary>
internal static class PackageVersion
{
    public static string Of(Type typeInPackage)
    {
        Assembly assembly = typeInPackage.Assembly;
        string? informational = assembly.GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion;

        // Informational versions often carry "+<commit>"; the package version is the part before it.
        return informational?.Split('+')[0] ?? assembly.GetName().Version?.ToString() ?? "unknown";
    }
}
