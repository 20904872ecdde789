using System.Diagnostics;

using KvBench.Core;
using KvBench.Stores;

namespace KvBench.Tests.Stores;

/// <summary>
/// What a row needs running, with real child processes (<c>sh</c>, <c>sleep</c>): started once and ready before a suite
/// uses it, and always stopped, also when a start or the suite fails.
/// </summary>
public sealed class RowHostTests
{
    private static readonly TimeSpan s_readyTimeout = TimeSpan.FromSeconds(30);

    [Fact]
    public async Task A_server_host_returns_once_its_server_is_ready_and_leaves_no_process_once_disposed()
    {
        using var directory = new TempDirectory();
        string ready = directory.Combine("ready");

        // The server says it is ready only after a while, as a real one does after opening its files.
        ProcessRowHost host = Server($"sleep 0.3; touch '{ready}'; exec sleep 600", ready);
        int pid;
        await using (host)
        {
            await host.StartAsync();

            Assert.True(File.Exists(ready));
            pid = Assert.NotNull(host.ProcessId);
            Assert.True(IsRunning(pid));
        }

        Assert.Null(host.ProcessId);
        Assert.False(IsRunning(pid));
    }

    [Fact]
    public async Task A_server_that_exits_before_it_is_ready_fails_the_start_with_the_typed_error()
    {
        using var directory = new TempDirectory();
        ProcessRowHost host = Server("echo cannot bind the port >&2; exit 3", directory.Combine("never"));

        StoreUnavailableException error = await Assert.ThrowsAsync<StoreUnavailableException>(() => host.StartAsync());

        Assert.Equal("TestServer", error.StoreName);
        Assert.Contains("exited with code 3", error.Reason, StringComparison.Ordinal);
        Assert.Contains("cannot bind the port", error.Reason, StringComparison.Ordinal);
        Assert.Null(host.ProcessId);
    }

    [Fact]
    public async Task A_server_that_is_not_ready_in_time_is_stopped_and_fails_the_start()
    {
        ProcessRowHost? host = null;
        int? pid = null;
        Task<bool> NotReady(CancellationToken cancellationToken)
        {
            pid ??= host!.ProcessId;
            return Task.FromResult(false);
        }

        host = new ProcessRowHost("TestServer", Shell("exec sleep 600"), NotReady, TimeSpan.FromMilliseconds(200));

        StoreUnavailableException error = await Assert.ThrowsAsync<StoreUnavailableException>(() => host.StartAsync());

        Assert.Contains("was not ready within", error.Reason, StringComparison.Ordinal);
        Assert.False(IsRunning(Assert.NotNull(pid)));
    }

    [Fact]
    public async Task A_group_that_fails_to_start_a_member_stops_the_members_it_started()
    {
        using var directory = new TempDirectory();
        string ready = directory.Combine("ready");
        ProcessRowHost first = Server($"touch '{ready}'; exec sleep 600", ready);
        ProcessRowHost second = Server("exit 1", directory.Combine("never"));
        int? firstPid = null;
        var watcher = new ObservingHost(() => firstPid = first.ProcessId);
        var group = new RowHostGroup([first, watcher, second]);

        await Assert.ThrowsAsync<StoreUnavailableException>(() => group.StartAsync());

        Assert.False(IsRunning(Assert.NotNull(firstPid)));
        Assert.Null(first.ProcessId);
    }

    [Fact]
    public async Task A_suite_that_fails_after_its_hosts_started_still_stops_every_one()
    {
        using var directory = new TempDirectory();
        string[] ready = [directory.Combine("a"), directory.Combine("b")];
        ProcessRowHost[] servers = [.. ready.Select(file => Server($"touch '{file}'; exec sleep 600", file))];
        int[] pids = [];

        async Task Suite()
        {
            await using var hosts = new RowHostGroup(servers);
            await hosts.StartAsync();
            pids = [.. servers.Select(server => server.ProcessId!.Value)];
            throw new InvalidOperationException("a case failed");
        }

        await Assert.ThrowsAsync<InvalidOperationException>(Suite);

        Assert.Equal(2, pids.Length);
        Assert.All(pids, pid => Assert.False(IsRunning(pid)));
    }

    [Fact]
    public async Task A_started_servers_endpoint_reaches_child_processes_through_the_environment_until_its_group_stops()
    {
        using var directory = new TempDirectory();
        string variable = "KVBENCH_TEST_ENDPOINT_" + Guid.NewGuid().ToString("N");
        Environment.SetEnvironmentVariable(variable, "before");
        try
        {
            (ProcessRowHost server, string endpoint) = HttpServer(directory.Path, variable);
            Assert.Empty(server.Published);
            int pid;
            await using (var group = new RowHostGroup([server]))
            {
                await group.StartAsync();

                Assert.Equal(endpoint, Assert.Contains(variable, group.Published));
                Assert.Equal(endpoint, Environment.GetEnvironmentVariable(variable));

                // A child given no environment of its own finds the server through the variable it inherited.
                Assert.Equal(
                    "200",
                    await RunAsync(
                        "python3",
                        "-c",
                        $"import os, urllib.request; print(urllib.request.urlopen('http://' + os.environ['{variable}'] + '/').status)"));
                pid = Assert.NotNull(server.ProcessId);
            }

            Assert.Empty(server.Published);
            Assert.Equal("before", Environment.GetEnvironmentVariable(variable));
            Assert.False(IsRunning(pid));
        }
        finally
        {
            Environment.SetEnvironmentVariable(variable, null);
        }
    }

    [Fact]
    public void A_server_that_would_publish_a_variable_without_a_name_or_a_value_is_refused_up_front()
    {
        Assert.Throws<ArgumentException>(() =>
            new ProcessRowHost(
                "TestServer", Shell("exit 0"), _ => Task.FromResult(true), s_readyTimeout, new Dictionary<string,
                string>
                { ["A=B"] = "x" }));
        Assert.Throws<ArgumentException>(() =>
            new ProcessRowHost(
                "TestServer", Shell("exit 0"), _ => Task.FromResult(true), s_readyTimeout, new Dictionary<string,
                string>
                { ["KVBENCH_TEST"] = string.Empty }));
    }

    [Fact]
    public async Task Every_catalog_row_gets_its_hosts_started_once_per_suite()
    {
        // Every embedded row lives in the caller's process: its host is None, and starting the suite's hosts starts one each.
        string[] embedded = [.. StoreCatalog.Names, .. StoreCatalog.StrategyNames];
        await using RowHostGroup hosts = await StoreCatalog.StartHostsAsync([.. embedded, .. embedded]);

        Assert.Equal(embedded.Length, hosts.Members.Count);
        Assert.All(StoreCatalog.Rows.Concat(StoreCatalog.StrategyRows), row => Assert.Same(RowHost.None, row.CreateHost()));
    }

    /// <summary>
    /// Python's HTTP server on a free loopback port, ready once it accepts a connection, publishing
    /// <c>127.0.0.1:port</c> as <paramref name="variable"/>.
    /// </summary>
    internal static (ProcessRowHost Server, string Endpoint) HttpServer(string root, string variable)
    {
        int port = FreeLoopbackPort();
        string endpoint = $"127.0.0.1:{port}";
        var startInfo = new ProcessStartInfo(
            "python3",
            [
                "-m",
                "http.server",
                port.ToString(System.Globalization.CultureInfo.InvariantCulture),
                "--bind",
                "127.0.0.1",
                "--directory",
                root]);
        async Task<bool> Accepts(CancellationToken cancellationToken)
        {
            using var client = new System.Net.Sockets.TcpClient();
            try
            {
                await client.ConnectAsync(System.Net.IPAddress.Loopback, port, cancellationToken);
                return true;
            }
            catch (System.Net.Sockets.SocketException)
            {
                return false;
            }
        }

        return (new ProcessRowHost("TestServer", startInfo, Accepts, s_readyTimeout, new Dictionary<string, string> { [variable] = endpoint }), endpoint);
    }

    private static int FreeLoopbackPort()
    {
        var listener = new System.Net.Sockets.TcpListener(System.Net.IPAddress.Loopback, 0);
        listener.Start();
        int port = ((System.Net.IPEndPoint)listener.LocalEndpoint).Port;
        listener.Stop();
        return port;
    }

    private static async Task<string> RunAsync(string fileName, params string[] arguments)
    {
        using Process child = Process.Start(new ProcessStartInfo(fileName, arguments) { RedirectStandardOutput = true })!;
        string output = await child.StandardOutput.ReadToEndAsync();
        await child.WaitForExitAsync();
        return output.Trim();
    }

    private static ProcessRowHost Server(string script, string readyFile) =>
        new("TestServer", Shell(script), _ => Task.FromResult(File.Exists(readyFile)), s_readyTimeout);

    private static ProcessStartInfo Shell(string script) => new("sh", ["-c", script]);

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

    /// <summary>A member that notes what ran before it, then starts nothing.</summary>
    private sealed class ObservingHost(Action onStart) : RowHost
    {
        public override Task StartAsync(CancellationToken cancellationToken = default)
        {
            onStart();
            return Task.CompletedTask;
        }

        public override ValueTask DisposeAsync() => ValueTask.CompletedTask;
    }
}
