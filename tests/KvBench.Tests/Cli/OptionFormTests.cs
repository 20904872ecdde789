using System.Collections;
using System.CommandLine;
using System.CommandLine.Parsing;
using System.Globalization;

using KvBench.Cli;
using KvBench.Stores.Redis;

using static KvBench.Tests.Cli.InProcessCli;

namespace KvBench.Tests.Cli;

/// <summary>Every option of one concept takes one form on every command: lists, bounds, names and defaults.</summary>
public sealed class OptionFormTests
{
    /// <summary>Two good values of every list option, by its name; a new list option fails the test until it has a pair.</summary>
    private static readonly Dictionary<string, (string First, string Second)> s_listSamples = new()
    {
        ["--stores"] = (RedisRow.RowName, GarnetRow.RowName),
        ["--workloads"] = ("A", "C"),
        ["--mix"] = ("read=0.5", "update=0.5"),
        ["--thread-counts"] = ("1", "4"),
        ["--record-counts"] = ("1000", "10000"),
        ["--faults"] = ("Kill", "Pause"),
        ["--members"] = ("Leader", "Follower"),
        ["--sections"] = ("benchmarks", "sqlite"),
    };

    /// <summary>Numeric options whose every value of their type is a good one.</summary>
    private static readonly string[] s_unbounded = ["--record-set", "--kill-moments", "--value-version"];

    public static TheoryData<string, string> ListOptions
    {
        get
        {
            var data = new TheoryData<string, string>();
            foreach ((string path, Command command) in CommandTree.All())
            {
                foreach (Option option in CommandTree.Options(command).Where(option => option.ValueType.IsArray))
                {
                    data.Add(path, option.Name);
                }
            }

            return data;
        }
    }

    [Theory]
    [MemberData(nameof(ListOptions))]
    public void A_list_option_takes_values_separated_by_spaces_or_commas_or_repeated(string command, string option)
    {
        Assert.True(s_listSamples.TryGetValue(option, out (string First, string Second) values), $"{option} of `kvbench {command}` has no sample values here.");
        string[] path = command.Split(' ');

        string[] spaces = Values(path, option, [option, values.First, values.Second]);
        string[] commas = Values(path, option, [option, $"{values.First},{values.Second}"]);
        string[] repeated = Values(path, option, [option, values.First, option, values.Second]);

        Assert.Equal(2, spaces.Length);
        Assert.Equal(spaces, commas);
        Assert.Equal(spaces, repeated);
    }

    [Fact]
    public void Every_numeric_option_has_a_bound_or_takes_every_value_of_its_type()
    {
        string[] unbounded = [.. CommandTree.All().SelectMany(entry => CommandTree.Options(entry.Command)
            .Where(option => IsNumeric(option.ValueType) && option.Validators.Count == 0 && !s_unbounded.Contains(option.Name))
            .Select(option => $"kvbench {entry.Path} {option.Name}"))];

        Assert.Empty(unbounded);
    }

    [Theory]
    [InlineData("--records must be at least 1 (got 0).", "run", "--store", "Memory", "--dir", ".", "--records", "0")]
    [InlineData("--rate must be above 0 (got 0).", "run", "--store", "Memory", "--dir", ".", "--rate", "0")]
    [InlineData("--value-bytes: Values need at least 8 bytes", "run", "--store", "Memory", "--dir", ".", "--value-bytes", "0")]
    [InlineData("--threads must be at least 1 (got 0).", "ycsb", "--threads", "0")]
    [InlineData("--thread-counts must be at least 1 (got 0).", "sweep", "threads", "--thread-counts", "1,0")]
    [InlineData("--record-counts must be at least 1 (got 0).", "sweep", "scale", "--record-counts", "0")]
    [InlineData("--records must be at least 1 (got 0).", "load", "--store", "Memory", "--dir", ".", "--records", "0")]
    [InlineData("--value-bytes must be at least 0 (got -1).", "load", "--store", "Memory", "--dir", ".", "--records", "1", "--value-bytes", "-1")]
    [InlineData("--batch must be at least 1 (got 0).", "load", "--store", "Memory", "--dir", ".", "--records", "1", "--batch", "0")]
    [InlineData("--sample must be at least 1 (got 0).", "verify", "--store", "Memory", "--dir", ".", "--records", "1", "--sample", "0")]
    [InlineData("--write-share must be 0 to 1 (got 1.5).", "contend", "--write-share", "1.5")]
    [InlineData("--rounds must be 1 to 100 (got 0).", "decide", "--profile", "p.json", "--rounds", "0")]
    [InlineData("--rounds must be at least 1 (got 0).", "crash", "--store", "Memory", "--dir", ".", "--rounds", "0")]
    [InlineData("--repeats must be at least 1 (got 0).", "probe", "scan", "--store", "Memory", "--repeats", "0")]
    [InlineData("--before must be above 0 (got 0).", "cluster", "fault", "--store", "etcd", "--before", "0")]
    [InlineData("--repeats must be at least 1 (got 0).", "servers", "claims", "--repeats", "0")]
    [InlineData("--pool must be at least 1 (got 0).", "sqlite", "busy", "--pool", "0")]
    public void A_number_out_of_bounds_is_a_usage_error_of_one_line_naming_the_option_and_the_bound(string message, params string[] arguments)
    {
        (int exitCode, _, string error) = Invoke(arguments);

        Assert.Equal(ExitCodes.Usage, exitCode);
        Assert.Contains(message, error.Split('\n')[0], StringComparison.Ordinal);
    }

    [Fact]
    public void A_number_that_does_not_parse_is_a_usage_error_not_a_crash()
    {
        (int exitCode, _, string error) = Invoke("ycsb", "--threads", "many");

        Assert.Equal(ExitCodes.Usage, exitCode);
        Assert.Contains("many", error, StringComparison.Ordinal);
    }

    [Fact]
    public void An_option_name_means_one_thing_its_short_alias_included()
    {
        var aliases = new Dictionary<string, HashSet<string>>();
        foreach (Option option in CommandTree.All().SelectMany(entry => CommandTree.Options(entry.Command)))
        {
            foreach (string alias in option.Aliases)
            {
                aliases.TryAdd(alias, []);
                aliases[alias].Add(option.Name);
            }
        }

        Assert.Empty(aliases.Where(alias => alias.Value.Count > 1).Select(alias => $"{alias.Key}: {string.Join(", ", alias.Value)}"));
    }

    [Fact]
    public void Run_ycsb_and_contend_default_to_the_same_threads()
    {
        int[] defaults = [.. new[] { "run", "ycsb", "contend" }.Select(command =>
        {
            RootCommand root = KvBenchCommand.Create();
            var threads = (Option<int>)CommandTree.Options(root.Subcommands.Single(sub => sub.Name == command)).Single(option => option.Name == "--threads");
            return root.Parse([command]).GetValue(threads);
        })];

        Assert.Single(defaults.Distinct());
    }

    private static string[] Values(string[] path, string optionName, string[] arguments)
    {
        RootCommand root = KvBenchCommand.Create();
        Command command = root;
        foreach (string word in path)
        {
            command = command.Subcommands.Single(sub => sub.Name == word);
        }

        Option option = CommandTree.Options(command).Single(option => option.Name == optionName);
        OptionResult result = root.Parse([.. path, .. arguments]).GetResult(option) ?? throw new InvalidOperationException($"{optionName} did not parse.");
        object? value = typeof(OptionResult).GetMethod(nameof(OptionResult.GetValueOrDefault))!.MakeGenericMethod(option.ValueType).Invoke(result, null);
        return [.. ((IEnumerable)value!).Cast<object>().Select(item => Convert.ToString(item, CultureInfo.InvariantCulture)!)];
    }

    private static bool IsNumeric(Type type)
    {
        Type element = type.IsArray ? type.GetElementType()! : Nullable.GetUnderlyingType(type) ?? type;
        return element == typeof(int) || element == typeof(long) || element == typeof(double) || element == typeof(ulong);
    }
}
