using System.CommandLine;
using System.Runtime.InteropServices;

using KvBench.Evaluation.Reports.Sections;
using KvBench.Evaluation.Reports.Sections.Claims;
using KvBench.Stores;
using KvBench.Stores.Servers;

namespace KvBench.Cli;

/// <summary>
/// <c>kvbench servers up|down|status</c>: KvBench's own servers for the server rows, for commands run by hand. <c>up</c>
/// installs (when missing) and starts them and stays in the foreground until <c>down</c> or Ctrl+C, and every kvbench
/// command of the machine finds them without <c>--endpoint</c>.
/// </summary>
internal static class ServersCommand
{
    private static readonly TimeSpan s_downTimeout = TimeSpan.FromSeconds(60);

    public static Command Create() => new("servers", "Starts, stops and lists KvBench's own servers for the server rows, for commands run by hand.")
    {
        Up(), Down(), Status(), Claims(),
    };

    private static Command Up()
    {
        Option<string[]> stores = WorkloadCommands.StoreList(
            "The server rows to start; every one available here when left out.",
            static name => StoreCatalog.ServerNames.Contains(name, StringComparer.OrdinalIgnoreCase)
                ? null
                : $"'{name}' is not a server row; the server rows are {string.Join(", ", StoreCatalog.ServerNames)}.");
        var command = new Command("up", "Installs and starts the servers and runs until `kvbench servers down` or Ctrl+C, then stops them.")
        {
            stores,
        };
        StoreArguments.SetGuardedAction(command, parseResult =>
        {
            string[] names = parseResult.GetValue(stores) is { Length: > 0 } chosen
                ? [.. chosen.Select(StoreArguments.CanonicalName)]
                : [.. StoreCatalog.AvailableServerNames];
            var stopped = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
            void Stop(PosixSignalContext context)
            {
                // The servers are stopped below, not by the runtime's default exit.
                context.Cancel = true;
                stopped.TrySetResult();
            }

            using PosixSignalRegistration terminate = PosixSignalRegistration.Create(PosixSignal.SIGTERM, Stop);
            using PosixSignalRegistration interrupt = PosixSignalRegistration.Create(PosixSignal.SIGINT, Stop);
            IAsyncDisposable servers = PublishedServers.UpAsync(names).GetAwaiter().GetResult();
            try
            {
                TextWriter output = parseResult.InvocationConfiguration.Output;
                PrintServers(output);
                output.WriteLine("kvbench: servers up until `kvbench servers down` or Ctrl+C.");
                output.Flush();
                stopped.Task.GetAwaiter().GetResult();
            }
            finally
            {
                servers.DisposeAsync().AsTask().GetAwaiter().GetResult();
            }

            parseResult.InvocationConfiguration.Output.WriteLine("kvbench: servers stopped, their data deleted.");
            return ExitCodes.Ok;
        });
        return command;
    }

    private static Command Down()
    {
        var command = new Command("down", "Stops the servers `kvbench servers up` runs and waits until they are gone.");
        StoreArguments.SetGuardedAction(command, parseResult =>
        {
            bool wereUp = PublishedServers.DownAsync(s_downTimeout).GetAwaiter().GetResult();
            parseResult.InvocationConfiguration.Output.WriteLine(wereUp ? "kvbench: servers stopped." : "kvbench: no servers are up.");
            return ExitCodes.Ok;
        });
        return command;
    }

    private static Command Status()
    {
        var command = new Command("status", "Lists the servers `kvbench servers up` runs: row, durability, endpoint, process id.");
        StoreArguments.SetGuardedAction(command, parseResult =>
        {
            PrintServers(parseResult.InvocationConfiguration.Output);
            return ExitCodes.Ok;
        });
        return command;
    }

    private static Command Claims()
    {
        Option<int> divisor = new Option<int>("--rounds-divisor")
        {
            Description = $"Runs the write-up's {PublishedClaimSettings.WriteUpRounds:N0} sparse rounds divided by this (1: all of them).",
            DefaultValueFactory = static _ => new PublishedClaimSettings().RoundsDivisor,
            HelpName = "divisor",
        }.AtLeast(1);
        Option<int> repeats = new Option<int>("--repeats")
        {
            Description = "Measured batches per volume, after one of warm-up; the median is reported.",
            DefaultValueFactory = static _ => new PublishedClaimSettings().Repeats,
            HelpName = "count",
        }.AtLeast(1);
        Option<DirectoryInfo?> workDirectory = WorkloadCommands.WorkDirectory("Scratch directory for Sqlite_WAL's stores");
        var command = new Command("claims", "Measures the MineSaga write-up's claims (SQLite against MySQL) at equal durability on this machine.")
        {
            divisor, repeats, workDirectory,
        };
        StoreArguments.SetGuardedAction(command, parseResult =>
        {
            var settings = new PublishedClaimSettings { RoundsDivisor = parseResult.GetValue(divisor), Repeats = parseResult.GetValue(repeats) };
            RanAlone<PublishedClaimResults?> ran = PublishedClaimsSection.RunAloneAsync(
                settings,
                parseResult.GetValue(workDirectory)?.FullName,
                parseResult.InvocationConfiguration.Error.WriteLine).GetAwaiter().GetResult();
            parseResult.InvocationConfiguration.Output.WriteLine(ran.Markdown.TrimEnd());
            IReadOnlyList<string> problems = ran.Problems;
            foreach (string problem in problems)
            {
                parseResult.InvocationConfiguration.Error.WriteLine($"kvbench: {problem}");
            }

            return problems.Count == 0 ? ExitCodes.Ok : ExitCodes.CheckFailed;
        });
        return command;
    }

    /// <summary>One line per server, <c>row durability endpoint pid</c>, or one line saying none is up.</summary>
    private static void PrintServers(TextWriter output)
    {
        if (PublishedServers.Read() is not { } running)
        {
            output.WriteLine("kvbench: no servers are up.");
            return;
        }

        foreach (PublishedServer server in running.Servers)
        {
            output.WriteLine($"{server.Row}\t{server.Durability}\t{server.Endpoint}\t{server.ProcessId}");
        }
    }
}
