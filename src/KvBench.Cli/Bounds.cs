using System.CommandLine;
using System.CommandLine.Parsing;
using System.Globalization;
using System.Numerics;

namespace KvBench.Cli;

/// <summary>
/// The bounds of numeric options, checked while the command line is parsed: a value out of bounds is a usage error
/// (exit code 2) of one line naming the option, the bound and the value given, the same wording on every command.
/// </summary>
internal static class Bounds
{
    /// <summary>Makes a value below <paramref name="minimum"/> a usage error.</summary>
    public static Option<T> AtLeast<T>(this Option<T> option, T minimum)
        where T : struct, INumber<T> =>
        Checked(option, One<T>, value => value >= minimum, Text($"at least {minimum}"));

    /// <summary>Makes a value below <paramref name="minimum"/> a usage error; leaving the option out is not one.</summary>
    public static Option<T?> AtLeast<T>(this Option<T?> option, T minimum)
        where T : struct, INumber<T> =>
        Checked(option, Given<T>, value => value >= minimum, Text($"at least {minimum}"));

    /// <summary>Makes any value of the list below <paramref name="minimum"/> a usage error.</summary>
    public static Option<T[]> AtLeast<T>(this Option<T[]> option, T minimum)
        where T : struct, INumber<T> =>
        Checked(option, Each<T>, value => value >= minimum, Text($"at least {minimum}"));

    /// <summary>Makes a value at or below <paramref name="minimum"/> a usage error.</summary>
    public static Option<T> Above<T>(this Option<T> option, T minimum)
        where T : struct, INumber<T> =>
        Checked(option, One<T>, value => value > minimum, Text($"above {minimum}"));

    /// <summary>Makes a value at or below <paramref name="minimum"/> a usage error; leaving the option out is not one.</summary>
    public static Option<T?> Above<T>(this Option<T?> option, T minimum)
        where T : struct, INumber<T> =>
        Checked(option, Given<T>, value => value > minimum, Text($"above {minimum}"));

    /// <summary>Makes a value outside <paramref name="minimum"/> to <paramref name="maximum"/> (both allowed) a usage error.</summary>
    public static Option<T> Between<T>(this Option<T> option, T minimum, T maximum)
        where T : struct, INumber<T> =>
        Checked(option, One<T>, value => value >= minimum && value <= maximum, Text($"{minimum} to {maximum}"));

    /// <summary>The bound as the message shows it, in the invariant culture so 0.5 reads the same on every machine.</summary>
    private static string Text(FormattableString bound) => bound.ToString(CultureInfo.InvariantCulture);

    private static TOption Checked<TOption, T>(TOption option, Func<OptionResult, IEnumerable<T>> values, Func<T, bool> allowed, string bound)
        where TOption : Option
        where T : struct, INumber<T>
    {
        option.Validators.Add(result =>
        {
            T[] given;
            try
            {
                given = [.. values(result)];
            }
            catch (InvalidOperationException)
            {
                // The library's error for a value that did not parse is already there; reading the value throws it.
                return;
            }

            foreach (T value in given.Where(value => !allowed(value)).Take(1))
            {
                result.AddError(string.Create(CultureInfo.InvariantCulture, $"{option.Name} must be {bound} (got {value})."));
            }
        });
        return option;
    }

    private static IEnumerable<T> One<T>(OptionResult result) => [result.GetValueOrDefault<T>()];

    private static IEnumerable<T> Given<T>(OptionResult result)
        where T : struct => result.GetValueOrDefault<T?>() is { } value ? [value] : [];

    private static IEnumerable<T> Each<T>(OptionResult result) => result.GetValueOrDefault<T[]>() ?? [];
}
