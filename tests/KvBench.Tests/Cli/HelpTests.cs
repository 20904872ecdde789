using System.CommandLine;
using System.Text.RegularExpressions;

using KvBench.Cli;

namespace KvBench.Tests.Cli;

/// <summary>Every command's help reads in a 120-column terminal.</summary>
public sealed partial class HelpTests
{
    /// <summary>
    /// The widest an option's name column may be: the help puts descriptions beside the widest name, so a name of 60
    /// columns leaves 60 of a 120-column terminal for every description.
    /// </summary>
    private const int MaxNameColumn = 60;

    public static TheoryData<string> Commands => new(Paths(KvBenchCommand.Create(), []).Select(path => string.Join(' ', path)));

    [Theory]
    [MemberData(nameof(Commands))]
    public void Every_option_name_leaves_room_for_its_description_in_120_columns(string command)
    {
        var output = new StringWriter();
        int exitCode = KvBenchCommand.Invoke([.. command.Split(' ', StringSplitOptions.RemoveEmptyEntries), "--help"], new InvocationConfiguration { Output = output });

        Assert.Equal(ExitCodes.Ok, exitCode);
        List<string> names = [.. output.ToString().Split('\n')
            .SkipWhile(line => !line.StartsWith("Options:", StringComparison.Ordinal))
            .Skip(1)
            .TakeWhile(line => line.StartsWith("  ", StringComparison.Ordinal))
            .Select(line => NameColumn().Match(line).Value)];
        Assert.NotEmpty(names);
        Assert.All(names, name => Assert.True(name.Length <= MaxNameColumn, $"`kvbench {command} --help` shows an option as '{name}' ({name.Length} columns)"));
    }

    private static IEnumerable<string[]> Paths(Command command, string[] path) =>
        command.Subcommands.Where(sub => !sub.Hidden).SelectMany(sub => Paths(sub, [.. path, sub.Name])).Prepend(path);

    /// <summary>An option line's name column: up to the first run of two spaces after the indent.</summary>
    [GeneratedRegex(@"^  \S.*?(?=  |$)")]
    private static partial Regex NameColumn();
}
