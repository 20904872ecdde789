using System.CommandLine;
using System.Globalization;
using System.Reflection;
using System.Text.RegularExpressions;

using KvBench.Cli;
using KvBench.Core;

namespace KvBench.Tests.Cli;

/// <summary>
/// How a store's typed errors become exit codes. The locked-store code is checked here in-process; the multi-process
/// tests check it again through a real second process for every row that declares one writer or one process.
/// </summary>
public sealed partial class ExitCodeTests
{
    public static TheoryData<Exception, int?> Errors => new()
    {
        { new StoreLockedException("Row", "/data"), ExitCodes.StoreLocked },
        { new StoreUnavailableException("Row", "its package is not served here"), ExitCodes.StoreUnavailable },
        { new StoreNotFoundException("Row", "/data", StoreAccess.ReadOnly), ExitCodes.StoreNotFound },
        { new StoreDamagedException("Row", "/data", new IOException("checksum mismatch")), ExitCodes.StoreDamaged },
        { new StoreFullException("Row", "/data", new IOException("No space left on device")), ExitCodes.StoreFull },
        { new StoreReadOnlyException("Row", StoreAccess.ReadOnly), ExitCodes.Error },
        { new KeyTooLargeException("Row", 512, 511), ExitCodes.Error },
        { new EmptyKeyException("key"), ExitCodes.Error },
        { new InvalidOperationException("a bug"), null },
    };

    [Theory]
    [MemberData(nameof(Errors))]
    public void A_store_error_maps_to_its_own_exit_code_and_anything_else_to_none(Exception error, int? expected) =>
        Assert.Equal(expected, ExitCodes.For(error));

    [Fact]
    public void A_locked_store_prints_one_clear_line_and_exits_with_the_locked_code()
    {
        var command = new RootCommand();
        StoreArguments.SetGuardedAction(command, _ => throw new StoreLockedException("Row", "/data"));
        var output = new StringWriter();
        var error = new StringWriter();

        int exitCode = command.Parse([]).Invoke(new InvocationConfiguration { Output = output, Error = error });

        Assert.Equal(ExitCodes.StoreLocked, exitCode);
        Assert.Equal($"kvbench: {new StoreLockedException("Row", "/data").Message}{Environment.NewLine}", error.ToString());
        Assert.Equal(string.Empty, output.ToString());
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void An_unexpected_error_is_one_line_naming_its_type_and_verbose_adds_the_stack_trace(bool verbose)
    {
        var error = new StringWriter();
        var output = new StringWriter();
        var configuration = new InvocationConfiguration { Output = output, Error = error };
        var command = new RootCommand { StoreArguments.Verbose };
        StoreArguments.SetGuardedAction(command, _ => throw new InvalidOperationException("first line\nsecond line"));

        int exitCode = command.Parse(verbose ? ["--verbose"] : []).Invoke(configuration);

        Assert.Equal(ExitCodes.Error, exitCode);
        string[] lines = error.ToString().Split(Environment.NewLine, StringSplitOptions.RemoveEmptyEntries);
        Assert.Equal("kvbench: first line second line (InvalidOperationException)", lines[0]);
        Assert.Equal(verbose, lines.Length > 1);
        Assert.Equal(verbose, error.ToString().Contains(" at ", StringComparison.Ordinal));
    }

    [Fact]
    public void Exit_codes_are_distinct()
    {
        int[] codes = [.. Declared().Select(code => code.Value)];

        Assert.Equal(codes.Length, codes.Distinct().Count());
    }

    [Fact]
    public void Help_lists_exactly_the_declared_exit_codes_once_each()
    {
        int[] listed = [.. ExitCodes.Help
            .Split('\n')
            .Select(line => ListedCode().Match(line))
            .Where(match => match.Success)
            .Select(match => int.Parse(match.Groups[1].Value, CultureInfo.InvariantCulture))];

        Assert.Equal(Declared().Select(code => code.Value).Order(), listed.Order());
    }

    /// <summary>Every exit code <see cref="ExitCodes"/> declares, by name, found by reflection so a new one cannot be left out.</summary>
    internal static IReadOnlyList<(string Name, int Value)> Declared() =>
        [.. typeof(ExitCodes).GetFields(BindingFlags.Public | BindingFlags.Static)
            .Where(field => field is { IsLiteral: true } && field.FieldType == typeof(int))
            .Select(field => (field.Name, (int)field.GetRawConstantValue()!))];

    /// <summary>A line of the exit-code table: the code, right-aligned, then two spaces and its meaning.</summary>
    [GeneratedRegex(@"^\s+(\d+)  \S")]
    private static partial Regex ListedCode();
}
