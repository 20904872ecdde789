using System.Text;

using KvBench.Cli;
using KvBench.Core;
using KvBench.Evaluation.MultiProcess;
using KvBench.Stores;
using KvBench.Stores.Memory;
using KvBench.Stores.Sqlite;
using KvBench.Tests.Stores.Conformance;

namespace KvBench.Tests.Cli;

/// <summary>The built <c>kvbench</c> run as a real process, as a user would run it.</summary>
public sealed class CliTests
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromSeconds(60);

    [Theory]
    [MemberData(nameof(Rows.Persistent), MemberType = typeof(Rows))]
    public async Task Put_get_scan_and_delete_round_trip_through_the_cli_with_text_and_hex(string name)
    {
        using var directory = new TempDirectory();
        string[] store = ["--store", name, "--dir", directory.Path];
        string textValueHex = Convert.ToHexStringLower(Encoding.UTF8.GetBytes("Ada Lovelace"));

        // A real process writes, another reads in hex, a third finds the deleted key gone: what one process stored, the
        // next one opens. The steps between run the same commands in this process, which opens the store afresh for
        // each as a process would, and spares a process start per step.
        Assert.Equal(ExitCodes.Ok, (await Run(["put", .. store, "user:1", "Ada Lovelace"])).ExitCode);
        Assert.Equal(ExitCodes.Ok, InProcess(["put", .. store, "--hex", "757365723a00ff", "00ff0a"]).ExitCode);
        Assert.Equal(ExitCodes.Ok, InProcess(["put", .. store, "other", "x"]).ExitCode);

        Assert.Equal((ExitCodes.Ok, "Ada Lovelace"), Outcome(InProcess(["get", .. store, "user:1"])));
        Assert.Equal((ExitCodes.Ok, "00ff0a"), Outcome(await Run(["get", .. store, "--hex", "757365723a00ff"])));
        Assert.Equal(
            (ExitCodes.Ok, $"757365723a00ff\t00ff0a\n757365723a31\t{textValueHex}"),
            Outcome(InProcess(["scan", .. store, "--hex", "757365723a"])));

        Assert.Equal(ExitCodes.Ok, InProcess(["delete", .. store, "user:1"]).ExitCode);
        CliRunResult gone = await Run(["get", .. store, "user:1"]);
        Assert.Equal(ExitCodes.NotFound, gone.ExitCode);
        Assert.Contains("no such key", gone.Error, StringComparison.Ordinal);
        Assert.Equal(ExitCodes.NotFound, InProcess(["delete", .. store, "user:1"]).ExitCode);
        Assert.Equal((ExitCodes.Ok, "other\tx"), Outcome(InProcess(["scan", .. store, "o"])));
    }

    [Theory]
    [MemberData(nameof(Rows.Persistent), MemberType = typeof(Rows))]
    public async Task Reading_a_store_that_is_not_there_prints_one_line_exits_with_its_code_and_creates_nothing(string name)
    {
        using var directory = new TempDirectory();
        string missing = directory.Combine("nothing-here");

        CliRunResult get = await Run(["get", "--store", name, "--dir", missing, "--access", "ReadOnly", "user:1"]);

        Assert.Equal(ExitCodes.StoreNotFound, get.ExitCode);
        Assert.Equal($"kvbench: {new StoreNotFoundException(name, missing, StoreAccess.ReadOnly).Message}", get.Error.Trim());
        Assert.False(Directory.Exists(missing));
    }

    [Theory]
    [InlineData("ycsb", "--stores", "Nope", "No store is named 'Nope'")]
    [InlineData("ycsb", "--workloads", "Z", "No YCSB workload is named 'Z'")]
    [InlineData("run", "--mix", "read=0.5,bogus=1", "'bogus' is not an operation")]
    public async Task A_wrong_workload_argument_is_a_usage_error_with_its_reason_and_no_stack_trace(string command, string option, string value, string reason)
    {
        using var directory = new TempDirectory();
        string[] arguments = command == "run" ? ["run", "--store", MemoryRow.RowName, "--dir", directory.Path, option, value] : [command, option, value];

        CliRunResult result = await Run(arguments);

        Assert.Equal(ExitCodes.Usage, result.ExitCode);
        Assert.Contains(reason, result.Error, StringComparison.Ordinal);
        Assert.DoesNotContain("Unhandled", result.Error, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Load_then_verify_checks_every_byte_and_a_mismatch_has_its_own_exit_code()
    {
        using var directory = new TempDirectory();
        string[] store = ["--store", SqliteRow.WalName, "--dir", directory.Path];

        CliRunResult load = await Run(["load", .. store, "--records", "2000", "--value-bytes", "64"]);
        Assert.Equal(ExitCodes.Ok, load.ExitCode);
        Assert.Contains("2,000", load.Output, StringComparison.Ordinal);

        Assert.Equal(ExitCodes.Ok, (await Run(["verify", .. store, "--records", "2000", "--value-bytes", "64"])).ExitCode);
        Assert.Equal(
            ExitCodes.Ok,
            (
                await Run(
                    ["verify", .. store, "--records", "2000", "--value-bytes", "64", "--sample", "10", "--access", "ReadOnly"])).ExitCode);
        CliRunResult otherRecordSet = await Run(["verify", .. store, "--records", "2000", "--value-bytes", "64", "--record-set", "1"]);
        Assert.Equal(ExitCodes.VerificationFailed, otherRecordSet.ExitCode);
        Assert.Contains("2,000 of 2,000 records missing", otherRecordSet.Error, StringComparison.Ordinal);
        Assert.Equal(ExitCodes.VerificationFailed, (await Run(["verify", .. store, "--records", "2000", "--value-bytes", "65"])).ExitCode);
    }

    [Fact]
    public async Task Stores_lists_every_row_with_its_declared_multi_process_level()
    {
        AssertListsEveryRowWithItsMultiProcessLevel(await Run(["stores"]));
    }

    /// <summary>What <c>kvbench stores</c> must print, however kvbench was started.</summary>
    internal static void AssertListsEveryRowWithItsMultiProcessLevel(CliRunResult stores)
    {
        Assert.Equal(ExitCodes.Ok, stores.ExitCode);
        string[] lines = stores.Output.Split('\n');
        foreach (string name in StoreCatalog.Names)
        {
            // The first cell names the row; a wrapped reason in the last cell may mention another row's name.
            string line = Assert.Single(lines, line => line.Split('│') is [_, var first, ..] && first.Trim() == name);
            Assert.Contains($" {StoreCatalog.DeclaredCapabilities(name).MultiProcess} ", line, StringComparison.Ordinal);
        }
    }

    [Theory]
    [InlineData("get", "--store", "NoSuchStore", "--dir", ".", "key")]
    [InlineData("get", "--store", "Memory", "--dir", ".", "--hex", "zz")]
    [InlineData("put", "--store", "Memory", "key", "value")]
    [InlineData("load", "--store", "Memory", "--dir", ".", "--records", "-1")]
    [InlineData("adr", "--quick", "--full")]
    [InlineData("contend", "--stores", "Memory")]
    [InlineData("contend", "--rate", "0")]
    [InlineData("contend", "--threads", "8", "--records", "4")]
    [InlineData("contend", "--write-share", "1.5")]
    [InlineData("no-such-command")]
    public async Task A_command_line_that_does_not_parse_exits_with_the_usage_code_and_says_why(params string[] arguments)
    {
        CliRunResult run = await Run(arguments);

        Assert.Equal(ExitCodes.Usage, run.ExitCode);
        Assert.NotEqual(string.Empty, run.Error.Trim());
    }

    [Fact]
    public async Task Help_documents_every_exit_code()
    {
        CliRunResult help = await Run(["--help"]);

        Assert.Equal(ExitCodes.Ok, help.ExitCode);
        foreach ((_, int code) in ExitCodeTests.Declared())
        {
            Assert.Matches($@"\n +{code}  \S", help.Output);
        }

        Assert.Contains("store locked", help.Output, StringComparison.Ordinal);
    }

    [Fact]
    public void From_a_build_the_second_process_is_the_kvbench_dll_beside_the_application() =>
        Assert.Equal(Path.Combine(AppContext.BaseDirectory, KvBenchCli.AssemblyFileName), KvBenchCli.Locate().Location);

    private static Task<CliRunResult> Run(string[] arguments) => KvBenchCli.Locate().RunAsync(arguments, s_timeout);

    private static (int ExitCode, string Output) Outcome(CliRunResult run) => (run.ExitCode, run.Output);

    /// <summary>The command run in this process, its output in the form a process's has: lines joined, no last newline.</summary>
    private static CliRunResult InProcess(string[] arguments)
    {
        (int exitCode, string output, string error) = InProcessCli.Invoke(arguments);
        return new CliRunResult(exitCode, output.ReplaceLineEndings("\n").TrimEnd('\n'), error);
    }
}
