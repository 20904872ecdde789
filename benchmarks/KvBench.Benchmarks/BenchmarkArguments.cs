using KvBench.Stores;
using KvBench.Stores.Faster;
using KvBench.Stores.Memory;

namespace KvBench.Benchmarks;

/// <summary>
/// KvBench's own arguments to the benchmarks' program, beside BenchmarkDotNet's: no argument runs the evaluation,
/// <see cref="FullSwitch"/> the same at full precision, <see cref="ServersSwitch"/> either with the server rows' section,
/// <see cref="PairedSwitch"/> the paired measurement alone, and
/// <see cref="RowsSwitch"/> keeps some rows. Anything else is BenchmarkDotNet's (<c>--filter</c>, <c>--job</c>, ...).
/// </summary>
internal static class BenchmarkArguments
{
    /// <summary>The switch for a full-precision evaluation run.</summary>
    public const string FullSwitch = "--full";

    /// <summary>
    /// The evaluation (or, with <see cref="FullSwitch"/>, the full one) with the server rows' section after the others:
    /// <c>--servers</c>. The default evaluation stays embedded only.
    /// </summary>
    public const string ServersSwitch = "--servers";

    /// <summary>Only the paired adapter ÷ raw measurement and its goals (with <see cref="RowsSwitch"/>, of those rows): <c>--paired</c>.</summary>
    public const string PairedSwitch = "--paired";

    /// <summary>
    /// The profile an evaluation decides for, <c>--profile FILE</c>; without it, the desktop profile
    /// (<see cref="Evaluation.Decision.DecisionProfiles.Default"/>).
    /// </summary>
    public const string ProfileSwitch = "--profile";

    /// <summary><paramref name="args"/> without <see cref="ProfileSwitch"/> and its value, and the file it named, or <see langword="null"/>.</summary>
    /// <exception cref="ArgumentException"><see cref="ProfileSwitch"/> has no value.</exception>
    public static string[] WithoutProfile(string[] args, out string? profile)
    {
        ArgumentNullException.ThrowIfNull(args);
        int at = Array.IndexOf(args, ProfileSwitch);
        if (at < 0)
        {
            profile = null;
            return args;
        }

        if (at + 1 == args.Length)
        {
            throw new ArgumentException($"{ProfileSwitch} needs a profile file, e.g. {ProfileSwitch} docs/profiles/read-heavy-cache.json.", nameof(args));
        }

        profile = args[at + 1];
        return [.. args[..at], .. args[(at + 2)..]];
    }

    /// <summary>KvBench's one argument beside BenchmarkDotNet's: <c>--rows FASTER,Memory</c> keeps the cases of those rows and their variants.</summary>
    public const string RowsSwitch = "--rows";

    /// <summary>
    /// <paramref name="args"/> without <see cref="RowsSwitch"/> and its value (BenchmarkDotNet's <c>--filter</c> sees only
    /// class and method names, never a parameter), and the rows it named, or <see langword="null"/> when it is absent.
    /// </summary>
    /// <exception cref="ArgumentException"><see cref="RowsSwitch"/> has no value, or names a row the catalog does not have.</exception>
    public static string[] WithoutRows(string[] args, out IReadOnlyList<string>? rows)
    {
        ArgumentNullException.ThrowIfNull(args);
        int at = Array.IndexOf(args, RowsSwitch);
        if (at < 0)
        {
            rows = null;
            return args;
        }

        if (at + 1 == args.Length)
        {
            throw new ArgumentException(
                $"{RowsSwitch} needs a comma-separated list of rows, e.g. {RowsSwitch} {FasterRow.RowName},{MemoryRow.RowName}.",
                nameof(args));
        }

        rows = args[at + 1].Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
        foreach (string row in rows.Where(row => !StoreCatalog.Names.Contains(row)))
        {
            throw new ArgumentException($"{RowsSwitch}: no row is named '{row}'; the rows are {string.Join(", ", StoreCatalog.Names)}.", nameof(args));
        }

        return [.. args[..at], .. args[(at + 2)..]];
    }
}
