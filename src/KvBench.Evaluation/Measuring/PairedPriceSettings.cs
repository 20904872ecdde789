using KvBench.Stores;
using KvBench.Stores.Baselines;

namespace KvBench.Evaluation.Measuring;

/// <summary>
/// How the paired measurement of adapter ÷ raw driver runs (a row and its raw driver in one process, alternating
/// blocks of the same operations); <see cref="Default"/> is the evaluation's.
/// </summary>
public sealed record PairedPriceSettings
{
    /// <summary>The evaluation's settings.</summary>
    public static PairedPriceSettings Default { get; } = new();

    /// <summary>
    /// Processes per row, each loading and measuring every cell again, taking turns at loading the raw driver first: 3
    /// by default. What differs between processes (code layout, the heap's pages, the JIT's choices) moves
    /// single-process ratios by more than the 10% goal, even between runs of one build, and only more processes let the
    /// interval see it: with 2, two default runs of one build gave intervals for the same cell that barely overlapped,
    /// and different verdicts for many cells. Three, not four: four do not fit the default evaluation's 15 minutes.
    /// </summary>
    public int Processes { get; init; } = 3;

    /// <summary>
    /// The most processes a cell is measured in: 6 by default. After <see cref="Processes"/>, a cell whose goal is still
    /// inconclusive (its interval straddles the goal) is measured again, alone with the row's other undecided cells, in
    /// one more process per pass, until it is decided, has this many processes, or <see cref="ExtraTime"/> has passed.
    /// Student's t at six processes makes an interval about 2.4 times narrower than at three for the same spread; with
    /// three processes alone, two default runs of one build can disagree on cells near 1.0, one run calling a goal met
    /// and the other inconclusive.
    /// </summary>
    public int MaxProcesses { get; init; } = 6;

    /// <summary>
    /// How long the extra processes of undecided cells may take in all: 20 s by default, what the default evaluation's
    /// 15 minutes leave; no worker starts after it, so a pass may leave some rows out. A longer budget brings the default
    /// evaluation too close to its 15 minutes on a slower machine, whose build, BenchmarkDotNet cases and probes all take
    /// longer.
    /// </summary>
    public TimeSpan ExtraTime { get; init; } = TimeSpan.FromSeconds(20);

    /// <summary>
    /// Rounds per cell and process, each two blocks of the adapter and two of the raw driver in ABBA order: 10 by default,
    /// the forty blocks that twenty rounds of one block a side took.
    /// </summary>
    public int Rounds { get; init; } = 10;

    /// <summary>
    /// About how long one block of the slower side runs: 2 ms by default. Short, so both sides of a round see the same
    /// machine (another process's burst lasts longer), and long against the clock's resolution.
    /// </summary>
    public TimeSpan Block { get; init; } = TimeSpan.FromMilliseconds(2);

    /// <summary>
    /// How long both sides alternate at least before a cell's rounds are measured: 100 ms by default. They go on until
    /// the JIT has compiled nothing for several pairs of blocks (up to three times this), so both sides run optimized code
    /// (the child process asks for no call-counting delay).
    /// </summary>
    public TimeSpan Warmup { get; init; } = TimeSpan.FromMilliseconds(100);

    /// <summary>
    /// The threads Get and Put are also measured from, at <see cref="ManyThreadsValueBytes"/>, where the raw driver
    /// serves many threads: 4 by default, as the thread sweep's upper count (on a 2-core machine, twice the cores: what
    /// the contract's gate and per-thread state cost when threads contend and are switched out).
    /// </summary>
    public int ManyThreads { get; init; } = 4;

    /// <summary>
    /// About how long one block of the slower side runs when <see cref="ManyThreads"/> threads call: 20 ms by default.
    /// With more threads than cores, which thread the scheduler runs when (time slices of milliseconds) moves a short
    /// block's wall time: measured against itself (the method's null, <see cref="NullRows"/>), a raw driver's Get and Put
    /// at four threads spread several times as much between processes with 2 ms blocks as with 10 ms or 20 ms ones,
    /// and 20 ms still keeps a cell's forty blocks under a second.
    /// </summary>
    public TimeSpan ManyThreadsBlock { get; init; } = TimeSpan.FromMilliseconds(20);

    /// <summary>The value size the many-thread cells are measured at: 128 bytes, the size the goals are set at.</summary>
    public int ManyThreadsValueBytes { get; init; } = 128;

    /// <summary>
    /// The method's null: raw drivers measured against a second copy of themselves exactly as a row is against its raw
    /// driver, in the same passes, whenever their row is measured; <c>Memory_raw</c> by default, the fastest calls, where
    /// the method's own noise weighs most. The ratio is 1 in truth, so its intervals show what the method alone makes of
    /// no difference, at one thread and at <see cref="ManyThreads"/>, and one without 1 in it would say the method
    /// favours a side. Raw drivers measured so by hand against themselves spread less between processes than the
    /// adapters against their raw drivers, so the null's intervals bound what the method's noise alone can explain. One
    /// row, and only its cells of the thread table (Get and Put at <see cref="ManyThreadsValueBytes"/>, at one thread and
    /// at <see cref="ManyThreads"/>): every cell of a null row costs the evaluation's 15 minutes a process's time.
    /// </summary>
    public IReadOnlyList<string> NullRows { get; init; } = [RowVariants.Name(StoreCatalog.Floor.Name, RowVariantKind.Raw)];

    /// <summary>How long one process may take before it is killed and its row reported as failed: 5 minutes by default.</summary>
    public TimeSpan ProcessTimeout { get; init; } = TimeSpan.FromMinutes(5);
}

/// <summary>Adapter ÷ raw-driver ratios measured paired, with the settings they were measured with.</summary>
/// <param name="Ratios">One per row, method, value size and thread count.</param>
/// <param name="Settings">How they were measured.</param>
/// <param name="Null">
/// The method's null (<see cref="PairedPriceSettings.NullRows"/>): a raw driver against itself, one per method, value
/// size and thread count.
/// </param>
public sealed record PairedRatios(IReadOnlyList<RowRatio> Ratios, PairedPriceSettings Settings, IReadOnlyList<RowRatio>? Null = null);
