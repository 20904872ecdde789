using System.Globalization;

using KvBench.Core;


namespace KvBench.Evaluation.Reports.Sections.Claims;

/// <summary>One claim of the write-up, what was measured for it, and whether it held.</summary>
/// <param name="Claim">The claim, in the write-up's words where it has them.</param>
/// <param name="Measured">The measured figures, per tier.</param>
/// <param name="Verdict">holds, does not hold, or holds only at the conditions named.</param>
public sealed record ClaimVerdict(string Claim, string Measured, string Verdict);

/// <summary>The write-up's claims held against <see cref="PublishedClaimResults"/>: every figure from a measured cell, none typed in.</summary>
public static class PublishedClaimVerdicts
{
    /// <summary>Within this factor either way, the pool and the synchronous runs count as "very little difference".</summary>
    public const double LittleDifference = 1.25;

    /// <summary>The write-up's lower bound for INSERT ... ON DUPLICATE KEY UPDATE over REPLACE.</summary>
    public const double UpsertOverReplace = 2;

    private static readonly CultureInfo s_numbers = CultureInfo.InvariantCulture;

    /// <summary>Every claim, in the order of the write-up's conclusions.</summary>
    public static IReadOnlyList<ClaimVerdict> Of(PublishedClaimResults results)
    {
        ArgumentNullException.ThrowIfNull(results);
        var cells = new Cells(results);
        PublishedClaims.Contenders contenders = PublishedClaims.ContendersOf(results.Settings);
        int low = results.Settings.Volumes.Min();
        int high = results.Settings.Volumes.Max();
        IReadOnlyList<Durability> tiers = results.Settings.Tiers;
        var verdicts = new List<ClaimVerdict>();

        // Every comparison of the two rows' own statements: sparse rounds, each volume, synchronous and pooled.
        var comparisons = tiers.SelectMany(tier => cells.OwnComparisons(tier)
            .Select(pair => (Tier: tier, pair.Label, Held: Speed(pair.MariaDb) > Speed(pair.Sqlite)))).ToList();
        verdicts.Add(new(
            "\"MySQL outperforms SQLite in basically all cases\"",
            string.Join("; ", tiers.Select(tier => string.Create(
                s_numbers,
                $"{tier}: MariaDB faster in {comparisons.Count(c => c.Tier == tier && c.Held)} of {comparisons.Count(c => c.Tier == tier)} comparisons"))),
            Verdict(tiers.Select(tier => ($"{tier}", comparisons.Where(c => c.Tier == tier).All(c => c.Held))))));

        verdicts.Add(new(
            string.Create(
                s_numbers,
                $"A local MySQL is faster than SQLite at sparse single writes (\"9k rounds inserting just around 10 entries\"), " +
                    $"\"by a factor of about 7x\"; here {results.Settings.SparseRounds:N0} rounds of {PublishedClaimSettings.RowsPerRound} " +
                    $"(the write-up's {PublishedClaimSettings.WriteUpRounds:N0} / {results.Settings.RoundsDivisor})"),
            string.Join("; ", tiers.Select(tier =>
                $"{tier}: {Compare(cells.Sparse(contenders.Sqlite, tier), cells.Sparse(contenders.MariaDb, tier))}")),
            Verdict(tiers.Select(tier =>
                ($"{tier}", Speed(cells.Sparse(contenders.MariaDb, tier)) > Speed(cells.Sparse(contenders.Sqlite, tier)))))));

        verdicts.Add(new(
            string.Create(
                s_numbers,
                $"\"MySQL scales significantly better than SQLite, being up to 5x faster than SQLite for 300 insertions\" (here {high} writes)"),
            string.Join("; ", tiers.SelectMany(tier => Modes.Select(mode =>
                $"{tier} {Label(mode, results)}: " +
                    $"{Compare(cells.Volume(contenders.Sqlite, tier, high, mode), cells.Volume(contenders.MariaDb, tier, high, mode))}"))),
            Verdict(tiers.SelectMany(tier => Modes.Select(mode => (
                $"{tier} {Label(mode, results)}",
                Speed(cells.Volume(contenders.MariaDb, tier, high, mode)) > Speed(cells.Volume(contenders.Sqlite, tier, high, mode))))))));

        verdicts.Add(new(
            string.Create(
                s_numbers,
                $"\"Even at low volume of insertions, INSERT INTO … ON DUPLICATE KEY UPDATE still has a lower performance footprint " +
                    $"than an SQLite UPDATE\" ({low} writes, synchronous)"),
            string.Join("; ", tiers.Select(tier =>
                $"{tier}: {Compare(
                    cells.Volume(contenders.Sqlite, tier, low, WriteMode.Synchronous),
                    cells.Volume(contenders.MariaDb, tier, low, WriteMode.Synchronous))}")),
            Verdict(tiers.Select(tier => (
                $"{tier}",
                Speed(cells.Volume(contenders.MariaDb, tier, low, WriteMode.Synchronous))
                    > Speed(cells.Volume(contenders.Sqlite, tier, low, WriteMode.Synchronous)))))));

        var replace = tiers.SelectMany(tier => results.Settings.Volumes.Select(volume => (Tier: tier, Volume: volume,
            Factor: Speed(cells.Volume(contenders.MariaDb, tier, volume, WriteMode.Synchronous))
                / Speed(cells.Volume(contenders.MariaDbReplace, tier, volume, WriteMode.Synchronous))))).ToList();
        string replaceFaster = replace.Any(r => r.Factor < 1)
            ? $" REPLACE measured faster at {string.Join(", ", replace.Where(r => r.Factor < 1).Select(r => $"{r.Tier} {r.Volume}"))}: " +
                $"the MariaDB row writes with INSERT ... ON DUPLICATE KEY UPDATE."
            : " The MariaDB row writes with INSERT ... ON DUPLICATE KEY UPDATE, the faster here.";
        verdicts.Add(new(
            string.Create(
                s_numbers,
                $"On MySQL, INSERT ... ON DUPLICATE KEY UPDATE makes \"a 2x-8x magnitude increase in insertions\" over REPLACE " +
                    $"\"at lower volume\" ({low} writes, synchronous)"),
            string.Join("; ", replace.Select(r => string.Create(s_numbers, $"{r.Tier} {r.Volume}: {r.Factor:0.00}x")))
                + " (writes/s of INSERT ... ON DUPLICATE KEY UPDATE ÷ REPLACE)." + replaceFaster,
            Verdict(replace.Where(r => r.Volume == low).Select(r => ($"{r.Tier}", r.Factor >= UpsertOverReplace)))));

        verdicts.Add(new(
            "SQLite has no equivalent of INSERT ... ON DUPLICATE KEY UPDATE (the write-up tested it on MySQL only)",
            string.Join("; ", tiers.SelectMany(tier => results.Settings.Volumes.Select(volume => string.Create(s_numbers,
                $"{tier} {volume}: INSERT ... ON CONFLICT DO UPDATE " +
                    $"{Speed(cells.Volume(contenders.Sqlite, tier, volume, WriteMode.Synchronous)):N0} writes/s, INSERT OR REPLACE " +
                    $"{Speed(cells.Volume(contenders.SqliteReplace, tier, volume, WriteMode.Synchronous)):N0} writes/s")))),
            "does not hold: SQLite's INSERT ... ON CONFLICT DO UPDATE (SQLite 3.24 and later) ran every write above"));

        verdicts.Add(new(
            string.Create(
                s_numbers,
                $"\"MySQL scales well with async requests\": MySQL queries \"consistently faster async than sync, except when at low volume\" " +
                    $"(a pool of {results.Settings.PoolThreads} against one thread, at {high} writes)"),
            string.Join("; ", tiers.SelectMany(tier => results.Settings.Volumes.Select(volume =>
                $"{tier} {volume}: {ComparePool(cells, contenders.MariaDb, tier, volume, results)}"))),
            Verdict(tiers.Select(tier => ($"{tier}", PoolFactor(cells, contenders.MariaDb, tier, high) > 1)))));

        verdicts.Add(new(
            string.Create(
                s_numbers,
                $"On MySQL, \"between 30 and 300 entries, async experiences only a 2x slowdown while sync experiences an 8x slowdown\" " +
                    $"(here {low} and {high} writes; it holds where the pool's time grows less than one thread's)"),
            string.Join("; ", tiers.Select(tier => string.Create(s_numbers,
                $"{tier}: pool {Growth(cells, contenders.MariaDb, tier, low, high, WriteMode.Pool):0.0}x, " +
                    $"synchronous {Growth(cells, contenders.MariaDb, tier, low, high, WriteMode.Synchronous):0.0}x the time"))),
            Verdict(tiers.Select(tier => (
                $"{tier}",
                Growth(cells, contenders.MariaDb, tier, low, high, WriteMode.Pool)
                    < Growth(cells, contenders.MariaDb, tier, low, high, WriteMode.Synchronous))))));

        verdicts.Add(new(
            string.Create(
                s_numbers,
                $"\"Async and sync makes very little difference on SQLite\" (here: the pool within {LittleDifference:0.00}x of one thread either way)"),
            string.Join("; ", tiers.SelectMany(tier => results.Settings.Volumes.Select(volume =>
                $"{tier} {volume}: {ComparePool(cells, contenders.Sqlite, tier, volume, results)}"))),
            Verdict(tiers.SelectMany(tier => results.Settings.Volumes.Select(volume => (
                $"{tier} {volume}",
                PoolFactor(cells, contenders.Sqlite, tier, volume) is var factor && factor <= LittleDifference && factor >= 1 / LittleDifference))))));

        return verdicts;
    }

    private static WriteMode[] Modes => [WriteMode.Synchronous, WriteMode.Pool];

    /// <summary>"holds" when every condition held, "does not hold" when none did, else "holds only at" those that did.</summary>
    private static string Verdict(IEnumerable<(string Condition, bool Held)> conditions)
    {
        var all = conditions.ToList();
        return all.All(c => c.Held) ? "holds"
            : all.Any(c => c.Held) ? $"holds only at {string.Join(", ", all.Where(c => c.Held).Select(c => c.Condition))}"
            : "does not hold";
    }

    /// <summary>Writes per second: over every batch for the sparse rounds, over the median batch for a volume.</summary>
    private static double Speed(WriteCell cell) => cell.Sparse ? cell.WritesPerSecond : cell.WritesPerBatch / cell.Median.TotalSeconds;

    /// <summary>Both rows' writes per second and which was faster, by how much.</summary>
    private static string Compare(WriteCell sqlite, WriteCell mariaDb)
    {
        double ratio = Speed(mariaDb) / Speed(sqlite);
        string faster = ratio >= 1 ? string.Create(s_numbers, $"MariaDB {ratio:0.0}x faster") : string.Create(s_numbers, $"Sqlite_WAL {1 / ratio:0.0}x faster");
        return string.Create(s_numbers, $"Sqlite_WAL {Speed(sqlite):N0}, MariaDB {Speed(mariaDb):N0} writes/s, {faster}");
    }

    private static double PoolFactor(Cells cells, PublishedClaims.Contender contender, Durability tier, int volume) =>
        Speed(cells.Volume(contender, tier, volume, WriteMode.Pool)) / Speed(cells.Volume(contender, tier, volume, WriteMode.Synchronous));

    private static string ComparePool(Cells cells, PublishedClaims.Contender contender, Durability tier, int volume, PublishedClaimResults results) =>
        string.Create(s_numbers, $"{Label(WriteMode.Pool, results)} {PoolFactor(cells, contender, tier, volume):0.00}x the writes/s of one thread");

    /// <summary>How many times longer the high volume's median batch took than the low one's.</summary>
    private static double Growth(Cells cells, PublishedClaims.Contender contender, Durability tier, int low, int high, WriteMode mode) =>
        cells.Volume(contender, tier, high, mode).Median / cells.Volume(contender, tier, low, mode).Median;

    private static string Label(WriteMode mode, PublishedClaimResults results) =>
        mode == WriteMode.Pool ? $"pool of {results.Settings.PoolThreads}" : "synchronous";

    /// <summary>The measured cells, found by what they measured.</summary>
    private sealed class Cells(PublishedClaimResults results)
    {
        private readonly PublishedClaims.Contenders _contenders = PublishedClaims.ContendersOf(results.Settings);

        public WriteCell Sparse(PublishedClaims.Contender contender, Durability tier) =>
            Find(cell => cell.Sparse && cell.Row == contender.Row && cell.Statement == contender.Statement && cell.Durability == tier);

        public WriteCell Volume(PublishedClaims.Contender contender, Durability tier, int volume, WriteMode mode) =>
            Find(cell => !cell.Sparse && cell.Row == contender.Row && cell.Statement == contender.Statement && cell.Durability == tier
                && cell.WritesPerBatch == volume && cell.Mode == mode);

        /// <summary>Every pair of cells in which the two rows' own statements ran the same writes at <paramref name="tier"/>.</summary>
        public IEnumerable<(string Label, WriteCell Sqlite, WriteCell MariaDb)> OwnComparisons(Durability tier)
        {
            yield return ("sparse", Sparse(_contenders.Sqlite, tier), Sparse(_contenders.MariaDb, tier));
            foreach (int volume in results.Settings.Volumes)
            {
                foreach (WriteMode mode in Modes)
                {
                    yield return ($"{volume} {mode}", Volume(_contenders.Sqlite, tier, volume, mode), Volume(_contenders.MariaDb, tier, volume, mode));
                }
            }
        }

        private WriteCell Find(Func<WriteCell, bool> match) =>
            results.Cells.FirstOrDefault(match)
                ?? throw new InvalidOperationException(
                    "The published claims' results lack a cell they need; they were not measured by PublishedClaims.Measure.");
    }
}
