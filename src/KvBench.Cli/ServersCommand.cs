using System.CommandLine;
using System.Runtime.InteropServices;

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

    public static Command Create() => new("servers", $"KvBench's own servers for the server rows ({string.Join(", ", StoreCatalog.ServerNames)}) on loopback ports, for commands run by hand.")
    {
        Up(), Down(), Status(),
    };

    private static Command Up()
    {
        var stores = new Option<string[]>("--stores")
        {
            Description = $"The server rows to start, of {string.Join(", ", StoreCatalog.ServerNames)} (default: every one available here).",
            AllowMultipleArgumentsPerToken = true,
            HelpName = "rows",
        };
        stores.Validators.Add(static result =>
        {
            foreach (string name in result.Tokens.Select(token => token.Value).Where(name => !StoreCatalog.ServerNames.Contains(name, StringComparer.OrdinalIgnoreCase)))
            {
                result.AddError($"'{name}' is not a server row; the server rows are {string.Join(", ", StoreCatalog.ServerNames)}.");
            }
        });
        var command = new Command("up", "Installs (from Debian's packages, as root, or KvBench's .NET tool manifest) and starts the servers, prints where each listens, and runs until `kvbench servers down` or Ctrl+C, then stops them and deletes their data.")
        {
            stores,
        };
        StoreArguments.SetGuardedAction(command, parseResult =>
        {
            string[] names = parseResult.GetValue(stores) is { Length: > 0 } chosen ? [.. chosen.Select(StoreArguments.CanonicalName)] : [.. StoreCatalog.AvailableServerNames];
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
