namespace KvBench.Evaluation.Workload;

/// <summary>
/// How a workload's keys look. <see cref="Random"/>: spread over the key space in no useful order (YCSB's hashed keys).
/// Prefixed: each key starts with one of <see cref="Prefixes"/> prefixes, and the keys under one prefix are ordered
/// by record index, as real keys are ("user/42/…", a table id before a row id), so a prefix scan returns neighbours.
/// </summary>
/// <param name="Prefixes">How many prefixes the records are spread over; 0 for random keys.</param>
public sealed record KeyShape(int Prefixes = 0)
{
    /// <summary>Keys spread over the key space in no useful order.</summary>
    public static KeyShape Random { get; } = new();

    /// <summary>Whether keys carry a prefix and are ordered under it.</summary>
    public bool IsPrefixed => Prefixes > 0;

    /// <summary>"random", or "prefixed:64" for 64 prefixes: the forms the command line and a profile take.</summary>
    /// <exception cref="FormatException">The text is neither, or asks for fewer than one prefix.</exception>
    public static KeyShape Parse(string text)
    {
        ArgumentNullException.ThrowIfNull(text);
        string trimmed = text.Trim();
        if (trimmed.Equals("random", StringComparison.OrdinalIgnoreCase))
        {
            return Random;
        }

        const string Prefixed = "prefixed:";
        if (trimmed.StartsWith(Prefixed, StringComparison.OrdinalIgnoreCase)
            && int.TryParse(
                trimmed.AsSpan(Prefixed.Length),
                System.Globalization.NumberStyles.None,
                System.Globalization.CultureInfo.InvariantCulture,
                out int prefixes)
            && prefixes > 0)
        {
            return new KeyShape(prefixes);
        }

        throw new FormatException($"'{trimmed}' is not a key shape: write random, or prefixed:N for N prefixes (N at least 1).");
    }

    /// <summary>"random" or "64 prefixes, ordered under each".</summary>
    public override string ToString() => IsPrefixed ? $"{Prefixes:N0} prefixes, ordered under each" : "random";
}
