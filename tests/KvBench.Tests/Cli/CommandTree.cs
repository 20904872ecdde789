using System.CommandLine;
using System.CommandLine.Help;

using KvBench.Cli;

namespace KvBench.Tests.Cli;

/// <summary>The commands <see cref="KvBenchCommand.Create"/> builds, walked for the tests that check every one.</summary>
internal static class CommandTree
{
    /// <summary>Every command below the root with the words that reach it, hidden ones too.</summary>
    public static IEnumerable<(string Path, Command Command)> All() => Below(KvBenchCommand.Create(), string.Empty, withHidden: true);

    /// <summary>The commands a user sees: neither hidden nor below a hidden one.</summary>
    public static IEnumerable<(string Path, Command Command)> Visible() => Below(KvBenchCommand.Create(), string.Empty, withHidden: false);

    /// <summary>A command's own options, without the library's help and version options.</summary>
    public static IEnumerable<Option> Options(Command command) =>
        command.Options.Where(option => option is not (HelpOption or VersionOption));

    private static IEnumerable<(string Path, Command Command)> Below(Command command, string path, bool withHidden) =>
        command.Subcommands.Where(sub => withHidden || !sub.Hidden).SelectMany(sub =>
        {
            string subPath = path.Length == 0 ? sub.Name : $"{path} {sub.Name}";
            return Below(sub, subPath, withHidden).Prepend((subPath, sub));
        });
}
