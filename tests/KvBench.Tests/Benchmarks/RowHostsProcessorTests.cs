using System.Collections.Concurrent;
using System.Diagnostics;

using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Columns;
using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Jobs;
using BenchmarkDotNet.Loggers;
using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Running;
using BenchmarkDotNet.Toolchains.InProcess.Emit;

using KvBench.Benchmarks;
using KvBench.Stores;
using KvBench.Stores.FileSystem;
using KvBench.Stores.Memory;
using KvBench.Tests.Stores;

namespace KvBench.Tests.Benchmarks;

/// <summary>
/// <see cref="RowHostsProcessor"/> in a real BenchmarkDotNet run, on BenchmarkDotNet's in-process toolchain so the cases
/// run in this process and what they saw can be read here: the run's rows get their hosts (a real HTTP server on
/// loopback) started once before the first case, every case finds the server through the variable it publishes, and the
/// server is stopped after the last case, also when a case fails.
/// </summary>
public sealed class RowHostsProcessorTests
{
    [Fact]
    public void The_hosts_start_once_before_the_first_case_serve_every_case_and_stop_after_the_last()
    {
        using var directory = new TempDirectory();
        var hosts = new StartedHosts(directory.Path);

        Summary summary = Run<HostedCases>(hosts, directory.Combine("artifacts"));

        Assert.Equal(4, summary.Reports.Length);
        Assert.All(summary.Reports, report => Assert.True(report.Success, $"{report.BenchmarkCase.DisplayInfo} failed."));
        Assert.Equal(1, hosts.Starts);
        Assert.Equal([FileSystemRow.RowName, MemoryRow.RowName], hosts.Rows.Order(StringComparer.Ordinal));
        Assert.Equal([hosts.Endpoint], HostedCases.Seen.Distinct());
        Assert.Equal(4, HostedCases.Cases.Count);
        hosts.AssertStopped();
    }

    [Fact]
    public void A_case_that_fails_still_stops_the_hosts_after_the_run()
    {
        using var directory = new TempDirectory();
        var hosts = new StartedHosts(directory.Path);

        Summary summary = Run<FailingHostedCases>(hosts, directory.Combine("artifacts"));

        Assert.Contains(summary.Reports, report => !report.Success);
        Assert.Equal(1, hosts.Starts);
        hosts.AssertStopped();
    }

    private static Summary Run<TBenchmark>(StartedHosts hosts, string artifacts)
    {
        HostedCases.Seen.Clear();
        HostedCases.Cases.Clear();
        IConfig config = ManualConfig.CreateEmpty()
            .AddJob(Job.Dry.WithToolchain(InProcessEmitToolchain.DontLogOutput))
            .AddLogger(NullLogger.Instance)
            .AddColumnProvider(DefaultColumnProviders.Instance)
            .AddEventProcessor(new RowHostsProcessor(hosts.StartAsync))
            .WithArtifactsPath(artifacts)
            // This test assembly is a Debug build; the run measures nothing, so its optimizations do not matter.
            .WithOptions(ConfigOptions.DisableOptimizationsValidator | ConfigOptions.StopOnFirstError);
        return BenchmarkRunner.Run<TBenchmark>(config);
    }

    /// <summary>The hosts the processor starts: one HTTP server per start, counted, publishing <see cref="HostedCases.Variable"/>.</summary>
    private sealed class StartedHosts(string root)
    {
        private ProcessRowHost? _server;
        private int? _pid;

        public int Starts { get; private set; }

        public IReadOnlyList<string> Rows { get; private set; } = [];

        public string? Endpoint { get; private set; }

        public async Task<RowHostGroup> StartAsync(IReadOnlyList<string> rows, CancellationToken cancellationToken)
        {
            Starts++;
            Rows = rows;
            (_server, string endpoint) = RowHostTests.HttpServer(root, HostedCases.Variable);
            Endpoint = endpoint;
            var group = new RowHostGroup([_server]);
            await group.StartAsync(cancellationToken);
            _pid = _server.ProcessId;
            return group;
        }

        public void AssertStopped()
        {
            Assert.NotNull(_server);
            Assert.Null(_server.ProcessId);
            Assert.False(IsRunning(Assert.NotNull(_pid)));
            Assert.Null(Environment.GetEnvironmentVariable(HostedCases.Variable));
        }

        private static bool IsRunning(int pid)
        {
            try
            {
                using var process = Process.GetProcessById(pid);
                return !process.HasExited;
            }
            catch (ArgumentException)
            {
                return false;
            }
        }
    }
}

/// <summary>Cases of two rows that note the endpoint they find in their environment.</summary>
public class HostedCases
{
    /// <summary>The variable the test's server publishes.</summary>
    public const string Variable = "KVBENCH_TEST_HOSTED_ENDPOINT";

    /// <summary>What every call found in <see cref="Variable"/>.</summary>
    public static ConcurrentBag<string?> Seen { get; } = [];

    /// <summary>The cases that ran, by row and method.</summary>
    public static ConcurrentDictionary<string, bool> Cases { get; } = new();

    /// <summary>The row, named as the point-operation benchmarks name it, which the processor reads.</summary>
    [Params(MemoryRow.RowName, FileSystemRow.RowName)]
    public string Type { get; set; } = string.Empty;

    [Benchmark]
    public void First() => Note(nameof(First));

    [Benchmark]
    public void Second() => Note(nameof(Second));

    protected void Note(string method)
    {
        Seen.Add(Environment.GetEnvironmentVariable(Variable));
        Cases[$"{Type}.{method}"] = true;
    }
}

/// <summary>The same cases, but the first throws.</summary>
public class FailingHostedCases
{
    [Params(MemoryRow.RowName)]
    public string Type { get; set; } = string.Empty;

    [Benchmark]
    public void Fails() => throw new InvalidOperationException("a case failed");
}
