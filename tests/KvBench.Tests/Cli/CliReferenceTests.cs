using KvBench.Evaluation.Reports.Sections;

namespace KvBench.Tests.Cli;

/// <summary>docs/cli.md, the command line's reference page, names everything a user can type and reads in 120 columns.</summary>
public sealed class CliReferenceTests
{
    private static readonly Lazy<string> s_reference = new(() => File.ReadAllText(Path.Combine(Repository.Root(), "docs", "cli.md")));

    [Fact]
    public void Every_command_a_user_sees_has_its_own_heading()
    {
        string[] missing = [.. CommandTree.Visible()
            .Where(entry => !s_reference.Value.Contains($"\n### `kvbench {entry.Path}", StringComparison.Ordinal))
            .Select(entry => $"kvbench {entry.Path}")];

        Assert.Empty(missing);
    }

    [Fact]
    public void Every_option_of_a_visible_command_is_named()
    {
        string[] missing = [.. CommandTree.Visible()
            .SelectMany(entry => CommandTree.Options(entry.Command).Where(option => !option.Hidden).Select(option => (entry.Path, option.Name)))
            .Where(pair => !s_reference.Value.Contains($"`{pair.Name}", StringComparison.Ordinal))
            .Select(pair => $"kvbench {pair.Path} {pair.Name}")];

        Assert.Empty(missing);
    }

    [Fact]
    public void Every_adr_section_is_named() =>
        Assert.All(AdrSections.Names, name => Assert.Contains($"`{name}`", s_reference.Value, StringComparison.Ordinal));

    [Fact]
    public void Every_exit_code_is_in_its_table() =>
        Assert.All(ExitCodeTests.Declared(), code => Assert.Contains($"\n| {code.Value} |", s_reference.Value, StringComparison.Ordinal));

    [Fact]
    public void Every_line_fits_in_120_columns() =>
        Assert.All(s_reference.Value.ReplaceLineEndings("\n").Split('\n'), line => Assert.True(line.Length <= 120, $"{line.Length} columns: {line}"));
}
