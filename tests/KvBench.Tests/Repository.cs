namespace KvBench.Tests;

/// <summary>The clone the tests were built from, for tests that read its checked-in files or pack it.</summary>
internal static class Repository
{
    /// <summary>The nearest folder above the test binaries holding KvBench.sln.</summary>
    public static string Root()
    {
        for (DirectoryInfo? folder = new(AppContext.BaseDirectory); folder is not null; folder = folder.Parent)
        {
            if (File.Exists(Path.Combine(folder.FullName, "KvBench.sln")))
            {
                return folder.FullName;
            }
        }

        throw new DirectoryNotFoundException($"No KvBench.sln above {AppContext.BaseDirectory}: the tests read the clone they were built from.");
    }

    /// <summary>docs/profiles of the clone.</summary>
    public static string Profiles() => Path.Combine(Root(), "docs", "profiles");
}
