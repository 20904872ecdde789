using System.CommandLine;

namespace KvBench.Cli;

/// <summary>The <c>kvbench</c> root command: every subcommand, and the exit code of a run.</summary>
public static class KvBenchCommand
{
    /// <summary>Builds the command tree.</summary>
    public static RootCommand Create()
    {
        var root = new RootCommand($"""
            kvbench: open any KvBench store by name, read and write it, measure it, and write decision records.
            Every command and option is described in docs/cli.md.

            {ExitCodes.Help}
            """)
        {
            StoresCommand.Create(),
            ServersCommand.Create(),
            ClusterCommand.Create(),
            KeyValueCommands.Put(),
            KeyValueCommands.Get(),
            KeyValueCommands.Delete(),
            KeyValueCommands.Scan(),
            RecordCommands.Load(),
            RecordCommands.Verify(),
            AdrCommand.Create(),
            DecideCommand.Create(),
            ProfileCommand.Create(),
            ProbeCommand.Create(),
            WorkloadCommands.Run(),
            WorkloadCommands.Ycsb(),
            WorkloadCommands.Sweep(),
            CompareCommand.Create(),
            ContendCommand.Create(),
            SqliteCommands.Create(),
            WorkerCommand.Create(),
            WorkerCommand.CreateContention(),
            CrashCommands.Crash(),
            CrashCommands.Writer(),
            StoreArguments.Verbose,
            StoreArguments.RowAssemblies,
        };
        VersionAction.ReplaceOn(root);
        return root;
    }

    /// <summary>Parses and runs <paramref name="args"/>; a command line that does not parse exits with <see cref="ExitCodes.Usage"/>.</summary>
    public static int Invoke(string[] args, InvocationConfiguration? configuration = null)
    {
        RootCommand root = Create();
        ParseResult parseResult = root.Parse(args);

        // Commands that do not guard their own action (adr, stores, worker) still print one line, not the library's
        // stack trace.
        configuration ??= new InvocationConfiguration();
        configuration.EnableDefaultExceptionHandler = false;
        int exitCode;
        try
        {
            // Rows from teams' assemblies join the catalog before the command line is checked against it (--store names
            // a row), so a line that names one is parsed again once they are in.
            if (RowAssemblyArguments.Load(parseResult))
            {
                parseResult = root.Parse(args);
            }

            // The library prints the errors and the command's help; only its exit code (1) is made distinct from a failed store call.
            exitCode = parseResult.Invoke(configuration);
        }
        catch (Exception e)
        {
            return ExitCodes.Report(e, configuration.Error, parseResult.GetValue(StoreArguments.Verbose));
        }

        return parseResult.Errors.Count > 0 ? ExitCodes.Usage : exitCode;
    }
}
