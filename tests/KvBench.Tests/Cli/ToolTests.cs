using System.IO.Compression;

using KvBench.Cli;
using KvBench.Evaluation.MultiProcess;
using KvBench.Stores;
using KvBench.Tests.Stores.Conformance;


namespace KvBench.Tests.Cli;

/// <summary>kvbench as a user gets it: packed, installed with <c>dotnet tool install</c>, and called by its name.</summary>
[Trait("Category", "Tool")]
public sealed class ToolTests(InstalledTool tool, ITestOutputHelper log) : IClassFixture<InstalledTool>, IDisposable
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromSeconds(60);

    private readonly TempDirectory _workingDirectory = new();

    [Fact]
    public void The_package_carries_sqlites_native_library_for_linux_x64()
    {
        log.WriteLine($"Packed and installed in {tool.Elapsed.TotalSeconds:0.0} s.");
        using ZipArchive package = ZipFile.OpenRead(tool.Package);

        Assert.Contains(package.Entries, entry => entry.FullName.EndsWith("/any/runtimes/linux-x64/native/libe_sqlite3.so", StringComparison.Ordinal));
    }

    [Fact]
    public async Task Version_prints_kvbenchs_version_then_every_rows_engine_one_line_each()
    {
        CliRunResult version = await Run(["--version"]);

        Assert.Equal(ExitCodes.Ok, version.ExitCode);
        Assert.Equal(
            [$"kvbench {VersionAction.KvBenchVersion}", .. StoreCatalog.Names.Select(name => $"{name}: {StoreCatalog.Engine(name)}")],
            version.Output.Split('\n'));
    }

    [Fact]
    public async Task Stores_lists_every_row_with_its_declared_multi_process_level() =>
        CliTests.AssertListsEveryRowWithItsMultiProcessLevel(await Run(["stores"]));

    [Theory]
    [MemberData(nameof(Rows.Persistent), MemberType = typeof(Rows))]
    public async Task Put_then_get_round_trips_through_the_installed_command(string name)
    {
        using var directory = new TempDirectory();
        string[] store = ["--store", name, "--dir", directory.Path];

        Assert.Equal((ExitCodes.Ok, string.Empty), Outcome(await Run(["put", .. store, "user:1", "Ada Lovelace"])));
        Assert.Equal((ExitCodes.Ok, "Ada Lovelace"), Outcome(await Run(["get", .. store, "user:1"])));
        Assert.Equal(ExitCodes.NotFound, (await Run(["get", .. store, "user:2"])).ExitCode);
    }

    public void Dispose() => _workingDirectory.Dispose();

    /// <summary>
    /// Runs the installed command in a directory of its own, as from a user's shell: the RocksDB package loads a
    /// librocksdb it finds under the working directory before its own, and this test's output folder holds the
    /// package's runtimes folder too, so run from there the RocksDB row would name that copy as its engine.
    /// </summary>
    private Task<CliRunResult> Run(string[] arguments) => tool.Command.RunAsync(arguments, s_timeout, _workingDirectory.Path);

    private static (int ExitCode, string Output) Outcome(CliRunResult run) => (run.ExitCode, $"{run.Output}{run.Error}");
}
