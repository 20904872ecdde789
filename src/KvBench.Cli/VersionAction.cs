using System.CommandLine;
using System.CommandLine.Invocation;
using System.Reflection;

using KvBench.Stores;

namespace KvBench.Cli;

/// <summary>
/// <c>--version</c>: KvBench's version, then one line per row naming the engine behind it, because a result is only
/// reproducible with both (the library's own action would print KvBench's version alone).
/// </summary>
internal sealed class VersionAction : SynchronousCommandLineAction
{
    /// <summary>KvBench's version as built, the commit after the '+'.</summary>
    public static string KvBenchVersion { get; } =
        typeof(VersionAction).Assembly.GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion ?? "unknown version";

    /// <summary>Puts this action in place of the library's on <paramref name="root"/>'s version option.</summary>
    public static void ReplaceOn(RootCommand root) => root.Options.OfType<VersionOption>().Single().Action = new VersionAction();

    public override int Invoke(ParseResult parseResult)
    {
        TextWriter output = parseResult.InvocationConfiguration.Output;
        output.WriteLine($"kvbench {KvBenchVersion}");
        foreach (string name in StoreCatalog.Names)
        {
            output.WriteLine($"{name}: {StoreCatalog.Engine(name)}");
        }

        return ExitCodes.Ok;
    }
}
