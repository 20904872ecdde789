using System.CommandLine;
using System.CommandLine.Parsing;
using System.Globalization;

namespace KvBench.Cli;

/// <summary>
/// The one form every list option takes: values separated by spaces, by commas, or both, and the option may be
/// repeated, so <c>--stores LMDB,RocksDB</c>, <c>--stores LMDB RocksDB</c> and <c>--stores LMDB --stores RocksDB</c>
/// are the same list.
/// </summary>
internal static class ListOptions
{
    /// <summary>A list of names, each checked by <paramref name="check"/> (its message, or <see langword="null"/> when the name is good).</summary>
    public static Option<string[]> Names(string name, string description, Func<string, string?>? check = null) =>
        Create<string>(name, description, value => check?.Invoke(value) is { } error ? (default, error) : (value, null));

    /// <summary>A list of whole numbers.</summary>
    public static Option<T[]> Numbers<T>(string name, string description)
        where T : struct, IParsable<T> =>
        Create<T>(name, description, value => T.TryParse(value, CultureInfo.InvariantCulture, out T number)
            ? (number, null)
            : (default, $"{name}: '{value}' is not a whole number."));

    /// <summary>A list of <typeparamref name="T"/>'s names, in any case.</summary>
    public static Option<T[]> Enums<T>(string name, string description)
        where T : struct, Enum =>
        Create<T>(name, description, value => Enum.GetNames<T>().FirstOrDefault(known => known.Equals(value, StringComparison.OrdinalIgnoreCase)) is { } known
            ? (Enum.Parse<T>(known), null)
            : (default, $"{name}: '{value}' is not one of {string.Join(", ", Enum.GetNames<T>())}."));

    private static Option<T[]> Create<T>(string name, string description, Func<string, (T? Value, string? Error)> parse)
        where T : notnull =>
        new(name)
        {
            Description = description,
            AllowMultipleArgumentsPerToken = true,
            Arity = ArgumentArity.OneOrMore,
            CustomParser = result => Parse(result, parse),
        };

    private static T[] Parse<T>(ArgumentResult result, Func<string, (T? Value, string? Error)> parse)
        where T : notnull
    {
        var values = new List<T>();
        foreach (string value in Split(result.Tokens.Select(token => token.Value)))
        {
            (T? parsed, string? error) = parse(value);
            if (error is not null)
            {
                result.AddError(error);
            }
            else
            {
                values.Add(parsed!);
            }
        }

        return [.. values];
    }

    /// <summary>The values of a list's tokens, each token split at its commas.</summary>
    private static IEnumerable<string> Split(IEnumerable<string> tokens) =>
        tokens.SelectMany(token => token.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries));
}
