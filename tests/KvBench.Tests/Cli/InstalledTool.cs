using System.Diagnostics;

using KvBench.Evaluation.MultiProcess;
using KvBench.Stores;

namespace KvBench.Tests.Cli;

/// <summary>
/// kvbench packed with <c>dotnet pack</c> and installed with <c>dotnet tool install</c> into a temporary tool path, as
/// the README tells a user to, once for every test that uses it.
/// </summary>
public sealed class InstalledTool : IAsyncLifetime
{
    private static readonly TimeSpan s_packTimeout = TimeSpan.FromMinutes(5);
    private static readonly TimeSpan s_installTimeout = TimeSpan.FromMinutes(2);

    private readonly TempDirectory _directory = new();

    /// <summary>The installed <c>kvbench</c> command.</summary>
    public KvBenchCli Command { get; private set; } = null!;

    /// <summary>The tool package <c>dotnet pack</c> made.</summary>
    public string Package { get; private set; } = null!;

    /// <summary>How long packing and installing took.</summary>
    public TimeSpan Elapsed { get; private set; }

    public async ValueTask InitializeAsync()
    {
        var clock = Stopwatch.StartNew();
        string packages = _directory.Combine("nupkg");

        // The pack builds KvBench.Cli and its references again, in Release as a user's `dotnet pack` does, but into an
        // artifacts folder of its own (ArtifactsPath gives every project its own obj/ and bin/ under it): `dotnet test`
        // may still be building the same projects' obj/ and bin/ folders, and a pack with --no-build would depend on
        // which configuration and layout that build used.
        await Run(
            s_packTimeout,
            packageCache: null,
            "pack",
            Path.Combine(Repository.Root(), "src", "KvBench.Cli", "KvBench.Cli.csproj"),
            "--output", packages,
            $"-p:ArtifactsPath={_directory.Combine("artifacts")}",
            "-nodeReuse:false");
        Package = Assert.Single(Directory.GetFiles(packages, "kvbench.*.nupkg"));

        // A configuration whose only source is the folder just packed into: the install must not need nuget.org.
        string configuration = _directory.Combine("nuget.config");
        await File.WriteAllTextAsync(configuration, $"""
            <?xml version="1.0" encoding="utf-8"?>
            <configuration>
              <packageSources>
                <clear />
                <add key="kvbench" value="{packages}" />
              </packageSources>
            </configuration>
            """);
        string toolPath = _directory.Combine("tools");
        // NuGet keys its package cache by id and version, so a kvbench packed from other source under the same version
        // would be installed from the user's cache instead of from the package just made; a cache of its own also
        // leaves the user's without a test's kvbench in it.
        await Run(
            s_installTimeout,
            packageCache: _directory.Combine("nuget-packages"),
            "tool", "install", "kvbench",
            "--tool-path", toolPath,
            "--configfile", configuration);
        Command = KvBenchCli.FromExecutable(Path.Combine(toolPath, OperatingSystem.IsWindows() ? KvBenchCli.CommandName + ".exe" : KvBenchCli.CommandName));
        Elapsed = clock.Elapsed;
    }

    public ValueTask DisposeAsync()
    {
        _directory.Dispose();
        return ValueTask.CompletedTask;
    }

    /// <param name="timeout">How long the command may take.</param>
    /// <param name="packageCache">NuGet's package folder for the command, or <see langword="null"/> for the user's.</param>
    /// <param name="arguments">The <c>dotnet</c> command line.</param>
    private static async Task Run(TimeSpan timeout, string? packageCache, params string[] arguments)
    {
        ProcessStartInfo startInfo = CliProcess.RedirectedStartInfo(DotnetHost.Path, arguments);

        // `dotnet test` hands its MSBuild and VSTest settings to its children through the environment; the commands
        // here must run as a user types them.
        foreach (string name in startInfo.Environment.Keys.Where(IsInheritedBuildSetting).ToList())
        {
            startInfo.Environment.Remove(name);
        }

        if (packageCache is not null)
        {
            startInfo.Environment["NUGET_PACKAGES"] = packageCache;
        }

        CliRunResult run = await CliProcess.RunAsync(startInfo, timeout);
        Assert.True(run.ExitCode == 0, $"dotnet {string.Join(' ', arguments)} exited with {run.ExitCode}.\n{run.Output}\n{run.Error}");
    }

    private static bool IsInheritedBuildSetting(string name) =>
        name.StartsWith("MSBuild", StringComparison.OrdinalIgnoreCase) || name.StartsWith("VSTest", StringComparison.OrdinalIgnoreCase);
}
