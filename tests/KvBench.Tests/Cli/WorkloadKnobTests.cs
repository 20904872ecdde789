using KvBench.Cli;
using KvBench.Stores.Memory;
using KvBench.Stores.Sqlite;

using static KvBench.Tests.Cli.InProcessCli;

namespace KvBench.Tests.Cli;

/// <summary><c>run</c>, <c>ycsb</c> and <c>sweep</c> with a team's own key and value lengths and key shape, in process.</summary>
public sealed class WorkloadKnobTests
{
    [Fact]
    public void Run_takes_lengths_a_key_shape_and_deletes_and_checks_every_read()
    {
        using var directory = new TempDirectory();

        (int exitCode, string output, string error) = Invoke(
            "run", "--store", SqliteRow.WalName, "--dir", directory.Path, "--load", "--records", "400", "--threads", "2",
            "--mix", "read=0.4,update=0.2,delete=0.2,haskey=0.1,scan=0.1", "--distribution", "uniform",
            "--key-bytes", "16..40", "--key-shape", "prefixed:8", "--value-bytes", "80%:64,20%:2KiB", "--durability", "Synced",
            "--duration", "0.3", "--warmup", "0.05");

        Assert.True(exitCode == ExitCodes.Ok, error);
        Assert.Contains("Delete", output, StringComparison.Ordinal);
        Assert.Contains("HasKey", output, StringComparison.Ordinal);
    }

    [Fact]
    public void Run_sets_a_SQLite_rows_checkpoint_and_refuses_it_for_another_row()
    {
        using var directory = new TempDirectory();

        (int exitCode, _, string error) = Invoke(
            "run", "--store", SqliteRow.WalName, "--dir", directory.Combine("sqlite"), "--load", "--records", "100", "--threads", "1",
            "--mix", "update=1", "--wal-autocheckpoint", "0", "--duration", "0.2", "--warmup", "0.05");
        (int otherExitCode, _, string otherError) = Invoke(
            "run", "--store", MemoryRow.RowName, "--dir", directory.Combine("memory"), "--load", "--records", "100",
            "--wal-autocheckpoint", "0", "--duration", "0.2", "--warmup", "0.05");

        Assert.True(exitCode == ExitCodes.Ok, error);
        Assert.Equal(ExitCodes.Usage, otherExitCode);
        Assert.Contains("--wal-autocheckpoint", otherError, StringComparison.Ordinal);
    }

    [Fact]
    public void Ycsb_takes_lengths_a_key_shape_and_a_durability()
    {
        (int exitCode, _, string error) = Invoke(
            "ycsb", "--stores", MemoryRow.RowName, "--workloads", "A,E", "--records", "300", "--threads", "1",
            "--key-bytes", "20", "--key-shape", "prefixed:4", "--value-bytes", "100..300", "--durability", "Synced",
            "--duration", "0.2", "--warmup", "0.05");

        Assert.True(exitCode == ExitCodes.Ok, error);
    }

    [Fact]
    public void Run_takes_the_workload_of_a_profile_and_an_option_given_wins_over_it()
    {
        using var directory = new TempDirectory();
        string profile = directory.Combine("profile.json");
        File.WriteAllText(profile, """
            {
              "title": "A profile's workload",
              "workload": { "keyBytes": 24, "keyShape": { "prefixes": 4 }, "valueBytes": { "min": 64, "max": 256 }, "records": 300,
                            "mix": { "get": 0.5, "delete": 0.25, "hasKey": 0.25 }, "popularity": "uniform", "threads": 2, "durability": "Synced" },
              "drivers": [{ "throughput": "workload", "atLeast": "1/s", "must": true }]
            }
            """);

        (int exitCode, string output, string error) = Invoke(
            "run", "--store", SqliteRow.WalName, "--dir", directory.Combine("store"), "--load", "--profile", profile, "--threads", "1",
            "--duration", "0.3", "--warmup", "0.05", "--json", directory.Combine("run.json"));

        Assert.True(exitCode == ExitCodes.Ok, error);
        Assert.Contains("Delete", output, StringComparison.Ordinal);
        Assert.Contains("HasKey", output, StringComparison.Ordinal);
        string json = File.ReadAllText(directory.Combine("run.json"));
        Assert.Contains("\"KeyBytes\": \"24\"", json, StringComparison.Ordinal);
        Assert.Contains("\"ValueLength\": \"64..256\"", json, StringComparison.Ordinal);
        Assert.Contains("\"Prefixes\": 4", json, StringComparison.Ordinal);
        Assert.Contains("\"RecordCount\": 300", json, StringComparison.Ordinal);

        // --threads 1 was given, so it wins over the profile's 2.
        Assert.Contains("\"Threads\": 1", json, StringComparison.Ordinal);
    }

    [Fact]
    public void A_bad_profile_on_a_workload_command_is_a_usage_error_naming_its_place()
    {
        using var directory = new TempDirectory();
        string profile = directory.Combine("profile.json");
        File.WriteAllText(
            profile,
            """{ "title": "t", "workload": { "records": 0 }, "drivers": [{ "throughput": "workload", "atLeast": "1/s", "must": true }] }""");

        (int exitCode, _, string error) = Invoke("ycsb", "--stores", MemoryRow.RowName, "--profile", profile);

        Assert.Equal(ExitCodes.Usage, exitCode);
        Assert.Contains("$.workload.records", error, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("run", "--value-bytes", "12Q", "'12Q' is not a size")]
    [InlineData("run", "--value-bytes", "4", "at least 8 bytes")]
    [InlineData("run", "--value-bytes", "900..100", "ends below its start")]
    [InlineData("run", "--key-bytes", "8", "at least 9 bytes")]
    [InlineData("run", "--key-shape", "hashed", "is not a key shape")]
    [InlineData("ycsb", "--value-bytes", "50%:100,x", "'x' is not a bucket")]
    [InlineData("sweep", "--key-bytes", "1GB", "'1GB' is not a size")]
    public void A_bad_length_or_shape_is_a_usage_error_with_its_reason(string command, string option, string value, string reason)
    {
        using var directory = new TempDirectory();
        string[] arguments = command switch
        {
            "run" => ["run", "--store", MemoryRow.RowName, "--dir", directory.Path, option, value],
            "sweep" => ["sweep", "threads", option, value],
            _ => [command, option, value],
        };

        (int exitCode, _, string error) = Invoke(arguments);

        Assert.Equal(ExitCodes.Usage, exitCode);
        Assert.Contains(reason, error, StringComparison.Ordinal);
    }

    [Fact]
    public void A_key_too_short_for_its_prefix_is_a_usage_error_naming_the_minimum()
    {
        (int exitCode, _, string error) = Invoke("sweep", "scale", "--key-shape", "prefixed:64", "--key-bytes", "11");

        Assert.Equal(ExitCodes.Usage, exitCode);
        Assert.Contains("at least 12 bytes", error, StringComparison.Ordinal);
    }
}
