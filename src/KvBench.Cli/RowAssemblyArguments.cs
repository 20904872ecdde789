using System.CommandLine;
using System.CommandLine.Parsing;

using KvBench.Evaluation.Decision;
using KvBench.Stores;

namespace KvBench.Cli;

/// <summary>
/// Where a command's rows from teams' assemblies come from, loaded before the command runs: the variable the parent
/// kvbench sets for the processes it starts (<see cref="RowAssemblies.EnvironmentVariable"/>), <c>--rows-from</c>,
/// and the <c>rowAssemblies</c> of the profile <c>--profile</c> names.
/// </summary>
internal static class RowAssemblyArguments
{
    /// <summary>Loads them all; whether any row joined the catalog, so the command line is to be checked again.</summary>
    /// <exception cref="RowAssemblyException">An assembly named by the variable or the option cannot be loaded.</exception>
    /// <exception cref="ProfileException">An assembly the profile names cannot be loaded.</exception>
    public static bool Load(ParseResult parseResult)
    {
        int before = StoreCatalog.LoadedRows.Count;
        RowAssemblies.LoadFromEnvironment();
        foreach (string path in parseResult.GetValue(StoreArguments.RowAssemblies) ?? [])
        {
            _ = RowAssemblies.Load(path);
        }

        // Every command's --profile is a decision profile; its other fields are read, and their problems reported, by
        // the command itself.
        if (parseResult.CommandResult.Children.OfType<OptionResult>().FirstOrDefault(result => result.Option.Name == "--profile") is
            { Tokens: [{ Value: { Length: > 0 } profile }] })
        {
            ProfileReader.LoadRowAssemblies(profile);
        }

        return StoreCatalog.LoadedRows.Count > before;
    }
}
