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

    /// <summary>The terminal width every help line, name column and description together, fits in.</summary>
    private const int MaxColumns = 120;

    public static TheoryData<string> Commands => new(Paths(KvBenchCommand.Create(), []).Select(path => string.Join(' ', path)));

    [Theory]
    [MemberData(nameof(Commands))]
    public void Every_option_name_leaves_room_for_its_description_in_120_columns(string command)
    {
        var output = new StringWriter();
        int exitCode = KvBenchCommand.Invoke(
            [.. command.Split(' ', StringSplitOptions.RemoveEmptyEntries), "--help"],
            new InvocationConfiguration { Output = output });

        Assert.Equal(ExitCodes.Ok, exitCode);
        List<string> names = [.. output.ToString().Split('\n')
            .SkipWhile(line => !line.StartsWith("Options:", StringComparison.Ordinal))
            .Skip(1)
            .TakeWhile(line => line.StartsWith("  ", StringComparison.Ordinal))
            .Select(line => NameColumn().Match(line).Value)];
        Assert.NotEmpty(names);
        Assert.All(names, name => Assert.True(name.Length <= MaxNameColumn, $"`kvbench {command} --help` shows an option as '{name}' ({name.Length} columns)"));
    }

    [Theory]
    [MemberData(nameof(Commands))]
    public void Every_help_line_fits_in_120_columns(string command)
    {
        var output = new StringWriter();
        int exitCode = KvBenchCommand.Invoke(
            [.. command.Split(' ', StringSplitOptions.RemoveEmptyEntries), "--help"],
            new InvocationConfiguration { Output = output });

        Assert.Equal(ExitCodes.Ok, exitCode);
        Assert.All(output.ToString().ReplaceLineEndings("\n").Split('\n'), line =>
            Assert.True(line.Length <= MaxColumns, $"`kvbench {command} --help` prints a line of {line.Length} columns: {line}"));
    }

    [Fact]
    public void Root_help_lists_every_command_a_user_types_and_no_internal_one()
    {
        (int exitCode, string output, _) = InProcessCli.Invoke("--help");

        Assert.Equal(ExitCodes.Ok, exitCode);
        foreach (Command command in KvBenchCommand.Create().Subcommands)
        {
            Assert.Equal(!command.Hidden, CommandLine(command.Name).IsMatch(output));
        }
    }

    [Theory]
    [InlineData("mp-worker")]
    [InlineData("contend-worker")]
    [InlineData("crash-writer")]
    public void An_internal_worker_is_hidden_and_still_runs(string name)
    {
        Assert.True(KvBenchCommand.Create().Subcommands.Single(command => command.Name == name).Hidden);

        Assert.Equal(ExitCodes.Ok, InProcessCli.Invoke(name, "--help").ExitCode);
    }

    private static Regex CommandLine(string name) => new($@"\n  {Regex.Escape(name)}( <[^>]+>)* +\S", RegexOptions.None, TimeSpan.FromSeconds(1));

    private static IEnumerable<string[]> Paths(Command command, string[] path) =>
        command.Subcommands.Where(sub => !sub.Hidden).SelectMany(sub => Paths(sub, [.. path, sub.Name])).Prepend(path);

    /// <summary>An option line's name column: up to the first run of two spaces after the indent.</summary>
    [GeneratedRegex(@"^  \S.*?(?=  |$)")]
    private static partial Regex NameColumn();
}
