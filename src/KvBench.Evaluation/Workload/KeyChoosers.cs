namespace KvBench.Evaluation.Workload;

/// <summary>How a workload picks the record an operation touches, as YCSB's <c>requestdistribution</c> does.</summary>
public enum KeyDistribution
{
    /// <summary>Every record equally likely.</summary>
    Uniform,

    /// <summary>
    /// A few records are hot: YCSB's scrambled zipfian (constant 0.99 unless the workload sets another), the hot
    /// records spread over the key space.
    /// </summary>
    Zipfian,

    /// <summary>The most recently inserted records are hottest (YCSB's skewed latest, workload D).</summary>
    Latest,
}

/// <summary>
/// YCSB's zipfian generator (Gray et al., "Quickly generating billion-record synthetic databases", SIGMOD 1994): item
/// <c>i</c> (0-based) of <c>n</c> is drawn with probability (1 / (i + 1)^θ) / ζ(n, θ). Item 0 is the most popular.
/// </summary>
/// <remarks>Not thread-safe: each thread draws with a generator and a <see cref="Random"/> of its own.</remarks>
public sealed class ZipfianGenerator
{
    /// <summary>YCSB's zipfian constant.</summary>
    public const double DefaultTheta = 0.99;

    /// <summary>Terms of ζ summed one by one before the integral takes over (see <see cref="Zeta(long, double)"/>).</summary>
    private const long ExactZetaTerms = 1_000_000;

    private readonly double _theta;
    private readonly double _alpha;
    private readonly double _zeta2;
    private long _items;
    private double _zetaN;
    private double _eta;

    /// <summary>A generator over <paramref name="items"/> items.</summary>
    public ZipfianGenerator(long items, double theta = DefaultTheta)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(items, 1);
        _theta = theta;
        _alpha = 1 / (1 - theta);
        _zeta2 = Zeta(0, 2, theta, 0);
        _items = items;
        _zetaN = Zeta(items, theta);
        _eta = Eta();
    }

    /// <summary>How many items are drawn from.</summary>
    public long Items => _items;

    /// <summary>ζ(n, θ) for the current item count.</summary>
    public double ZetaN => _zetaN;

    /// <summary>The probability of item <paramref name="rank"/> (0-based) under the formula the generator follows.</summary>
    public double Probability(long rank) => 1 / Math.Pow(rank + 1, _theta) / _zetaN;

    /// <summary>Draws an item in [0, <see cref="Items"/>).</summary>
    public long Next(Random random)
    {
        ArgumentNullException.ThrowIfNull(random);
        double u = random.NextDouble();
        double uz = u * _zetaN;
        if (uz < 1)
        {
            return 0;
        }

        if (uz < 1 + Math.Pow(0.5, _theta))
        {
            return 1;
        }

        return Math.Min(_items - 1, (long)(_items * Math.Pow((_eta * u) - _eta + 1, _alpha)));
    }

    /// <summary>
    /// Grows the item count to <paramref name="items"/> (inserts made more records), extending ζ incrementally as YCSB
    /// does rather than recomputing it.
    /// </summary>
    public void Grow(long items)
    {
        if (items <= _items)
        {
            return;
        }

        _zetaN = Zeta(_items, items, _theta, _zetaN);
        _items = items;
        _eta = Eta();
    }

    /// <summary>
    /// ζ(n, θ) = Σ 1/i^θ for i in 1..n: summed term by term up to <see cref="ExactZetaTerms"/>, and beyond by the midpoint
    /// rule, ∫ x^-θ dx from the last summed term + ½ to n + ½, whose error for this smooth, slowly varying function is far
    /// below a double's precision of the sum. So YCSB's 10^10-item space costs a million terms, not ten billion.
    /// </summary>
    public static double Zeta(long items, double theta)
    {
        long summed = Math.Min(items, ExactZetaTerms);
        double sum = Zeta(0, summed, theta, 0);
        return items == summed
            ? sum
            : sum + ((Math.Pow(items + 0.5, 1 - theta) - Math.Pow(summed + 0.5, 1 - theta)) / (1 - theta));
    }

    /// <summary>ζ(n, θ) = Σ 1/i^θ for i in 1..n, continued from <paramref name="initialSum"/> over the first <paramref name="from"/> terms.</summary>
    internal static double Zeta(long from, long to, double theta, double initialSum)
    {
        double sum = initialSum;
        for (long i = from; i < to; i++)
        {
            sum += 1 / Math.Pow(i + 1, theta);
        }

        return sum;
    }

    private double Eta() => (1 - Math.Pow(2.0 / _items, 1 - _theta)) / (1 - (_zeta2 / _zetaN));
}

/// <summary>Picks record indexes for one thread of a workload.</summary>
public abstract class KeyChooser
{
    /// <summary>
    /// A chooser for <paramref name="distribution"/> over the records that exist: <c>existing()</c> is read at every
    /// draw, so inserts made by any thread become eligible.
    /// </summary>
    /// <param name="distribution">How records are picked.</param>
    /// <param name="initialRecords">The records loaded before the run.</param>
    /// <param name="existing">The records that exist now.</param>
    /// <param name="zipfianConstant">
    /// The zipfian constant of <see cref="KeyDistribution.Zipfian"/> and <see cref="KeyDistribution.Latest"/>, above 0
    /// and below 1.
    /// </param>
    public static KeyChooser Create(
        KeyDistribution distribution, long initialRecords, Func<long> existing,
        double zipfianConstant = ZipfianGenerator.DefaultTheta)
    {
        if (distribution is KeyDistribution.Zipfian or KeyDistribution.Latest && !(zipfianConstant is > 0 and < 1))
        {
            // The generator's closed form divides by 1 - θ and holds only between 0 and 1.
            throw new ArgumentOutOfRangeException(nameof(zipfianConstant), zipfianConstant, "The zipfian constant must be above 0 and below 1.");
        }

        return distribution switch
        {
            KeyDistribution.Uniform => new UniformChooser(existing),
            KeyDistribution.Zipfian => new ScrambledZipfianChooser(existing, ScrambledZipfianChooser.Ranks(zipfianConstant)),
            KeyDistribution.Latest => new LatestChooser(initialRecords, existing, zipfianConstant),
            _ => throw new ArgumentOutOfRangeException(nameof(distribution), distribution, "Unknown key distribution."),
        };
    }

    /// <summary>The next record index.</summary>
    public abstract long Next(Random random);

    private sealed class UniformChooser(Func<long> existing) : KeyChooser
    {
        public override long Next(Random random) => random.NextInt64(existing());
    }

    /// <summary>
    /// YCSB's scrambled zipfian: draws a rank from a zipfian over a fixed, very large item space (10 billion, whose ζ
    /// YCSB hard-codes; <see cref="ZipfianGenerator.Zeta(long, double)"/> computes it) and hashes it
    /// (FNV-1a 64) onto the records, so the popular records are
    /// spread over the key space instead of being the first ones, and the popularity does not change as inserts add records.
    /// </summary>
    private sealed class ScrambledZipfianChooser(Func<long> existing, ZipfianGenerator ranks) : KeyChooser
    {
        private const long ItemSpace = 10_000_000_000;

        /// <summary>Shared by every thread: after construction it is only read (<see cref="ZipfianGenerator.Next"/> changes nothing).</summary>
        private static readonly ZipfianGenerator s_ranks = new(ItemSpace);

        /// <summary>Generators of other constants, made once each: ζ over the item space costs a million terms.</summary>
        private static readonly System.Collections.Concurrent.ConcurrentDictionary<double, ZipfianGenerator> s_otherRanks = new();

        /// <summary>The shared generator of <paramref name="theta"/>.</summary>
        public static ZipfianGenerator Ranks(double theta) =>
            theta == ZipfianGenerator.DefaultTheta ? s_ranks : s_otherRanks.GetOrAdd(theta, static theta => new ZipfianGenerator(ItemSpace, theta));

        public override long Next(Random random) => (long)(Fnv1a64((ulong)ranks.Next(random)) % (ulong)existing());

        private static ulong Fnv1a64(ulong value)
        {
            ulong hash = 0xCBF29CE484222325;
            for (int i = 0; i < 8; i++)
            {
                hash ^= (value >> (8 * i)) & 0xFF;
                hash *= 0x100000001B3;
            }

            return hash;
        }
    }

    /// <summary>YCSB's skewed latest: a zipfian rank counted back from the newest record, so the newest are hottest.</summary>
    private sealed class LatestChooser(long initialRecords, Func<long> existing, double theta) : KeyChooser
    {
        private readonly ZipfianGenerator _ranks = new(Math.Max(1, initialRecords), theta);

        public override long Next(Random random)
        {
            long count = existing();
            _ranks.Grow(count);
            return Math.Max(0, count - 1 - (_ranks.Next(random) % count));
        }
    }
}
