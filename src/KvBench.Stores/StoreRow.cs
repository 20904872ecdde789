using KvBench.Core;
using KvBench.Stores.Baselines;

namespace KvBench.Stores;

/// <summary>
/// Everything one row is, in one place: its name, what its adapter claims, whether it can be had here and why not, how
/// it opens, what it needs running while a suite uses it, what its engine's errors mean, and which benchmark variants
/// stand beside it. Each row's definition lives in its store's folder (<c>Lmdb/LmdbRow.cs</c>, ...);
/// <see cref="StoreCatalog"/> lists the definitions, and tests, probes, suites, benchmarks and commands enumerate it.
/// </summary>
/// <remarks>
/// Only this assembly derives from it: a row's adapter derives from the internal <see cref="StoreAdapter"/>. A team's own
/// store becomes a row through <see cref="KeyValueStoreDefinition"/> in its own assembly, which <see cref="RowAssemblies"/>
/// loads.
/// </remarks>
public abstract class StoreRow
{
    private readonly Lazy<string?> _unavailableReason;

    private protected StoreRow(string name, StoreCapabilities declared)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(name);
        ArgumentNullException.ThrowIfNull(declared);
        Name = name;
        Declared = declared;

        // Asked on first use, not while the catalog's type initializer runs: a native library that fails to load then
        // fails one row's question instead of the catalog.
        _unavailableReason = new(CheckAvailability);
    }

    /// <summary>The row name, as tables print it.</summary>
    public string Name { get; }

    /// <summary>What the row's adapter claims, without opening it; the conformance suite and the probes check each claim.</summary>
    public StoreCapabilities Declared { get; }

    /// <summary>
    /// Whether <see cref="Open"/> takes <paramref name="durability"/>: a tier the row declares, or any tier for a row that
    /// keeps nothing (the Memory floor), whose capabilities already say it offers none.
    /// </summary>
    public bool OpensAt(Durability durability) =>
        Declared.Durability is var offered && (offered == DurabilityTiers.None || offered.Offers(durability));

    /// <summary>Why the row cannot be had on this machine, or <see langword="null"/> when it can. Asked once.</summary>
    public string? UnavailableReason => _unavailableReason.Value;

    /// <summary>Whether the row can be opened here.</summary>
    public bool IsAvailable => UnavailableReason is null;

    /// <summary>The package and native library versions behind the row, or "not available" when it cannot be had here.</summary>
    public string Engine => IsAvailable ? DescribeEngine() : "not available";

    /// <summary>
    /// The assembly file a row defined outside KvBench was loaded from (<see cref="RowAssemblies"/>), as a full path;
    /// <see langword="null"/> for the rows KvBench ships.
    /// </summary>
    public virtual string? LoadedFrom => null;

    /// <summary>
    /// What the point-operation benchmarks measure beside the row, each named <c>&lt;Row&gt;_raw</c> or
    /// <c>&lt;Row&gt;_naive</c> (<see cref="RowVariants"/>): its raw-driver baseline, the same operations written against
    /// the store's package directly, and its naive usage, a common but slow way of using the store. Default: none.
    /// </summary>
    public virtual IReadOnlyList<PointBaseline> Baselines => [];

    /// <summary>
    /// Whether the row is the in-process floor: what KvBench's own runner costs, set beside the candidates and never one
    /// of them. Default: no.
    /// </summary>
    public virtual bool IsFloor => false;

    /// <summary>
    /// The row this one is another way of using (a connection strategy, journal or cache of the same store), which a
    /// strategy table sets first; <see langword="null"/> (the default) for a row of its own.
    /// </summary>
    public virtual string? StrategyOf => null;

    /// <summary>
    /// The tier a benchmark that measures at <paramref name="measuredAt"/> measures this row at: that tier where the row
    /// opens at it, so no row pays a device flush that another does not; else the other tier.
    /// </summary>
    public Durability MeasuredTier(Durability measuredAt) =>
        OpensAt(measuredAt) ? measuredAt : measuredAt == Durability.Buffered ? Durability.Synced : Durability.Buffered;

    /// <summary>
    /// Whether a fault inside the engine's own reads of damaged files may take the process down (a signal) instead of
    /// raising an error KvBench can type. Default: no.
    /// </summary>
    internal virtual bool MayCrashOnDamagedFiles => false;

    /// <summary>
    /// Whether the engine keeps a disk-full write error for the rest of the open, so writes resume only after a reopen
    /// (as <see cref="StoreFullException"/> allows). Default: no, writes resume once space is freed.
    /// </summary>
    internal virtual bool KeepsDiskFullErrorUntilReopen => false;

    /// <summary>
    /// Whether every operation of the row's adapter builds a whole engine (and a naive usage of it likewise), so each
    /// costs about a millisecond: the benchmarks preload fewer records for such a row. Default: no.
    /// </summary>
    internal virtual bool BuildsEnginePerOperation => false;

    /// <summary>
    /// Whether the row keeps every record in a file of its own, so each record loaded is a file created, far slower
    /// than a record in any other row: the benchmarks preload fewer records for such a row. Default: no.
    /// </summary>
    internal virtual bool FilePerRecord => false;

    /// <summary>
    /// <paramref name="options"/> asking the store to start at <paramref name="initialBytes"/>, for a row whose store
    /// preallocates (LMDB's map), as the growth probe and the two-process contention check ask for a small start that
    /// makes the store grow under them. A store that grows from nothing has no start to ask for: the default returns
    /// <paramref name="options"/> itself, so a caller can tell by equality whether the row took the size.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="initialBytes"/> is not positive.</exception>
    public StoreOptions WithInitialSize(StoreOptions options, long initialBytes)
    {
        ArgumentNullException.ThrowIfNull(options);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(initialBytes);
        return SizedOptions(options, initialBytes);
    }

    /// <summary>
    /// What the row needs running while a suite uses it, not yet started: <see cref="RowHost.None"/> (the default) for a
    /// store that lives in the caller's process. A suite starts it once before its first case and disposes it after its
    /// last (see <see cref="StoreCatalog.StartHostsAsync"/>).
    /// </summary>
    public virtual RowHost CreateHost() => RowHost.None;

    /// <summary>Opens the row with <paramref name="options"/>.</summary>
    /// <exception cref="StoreUnavailableException">The row's store cannot be had on this machine.</exception>
    /// <exception cref="DurabilityNotOfferedException">The row persists data but cannot reach the tier asked for.</exception>
    /// <exception cref="StoreLockedException">Another process holds the store.</exception>
    /// <exception cref="StoreNotFoundException">A read-only or secondary open found no such store in the directory (nothing is created).</exception>
    /// <exception cref="StoreDamagedException">The store's files are damaged.</exception>
    /// <exception cref="StoreFullException">The disk had no room for what the open writes.</exception>
    /// <exception cref="KeyValueStoreException">The engine failed to open the store for another reason.</exception>
    public IKeyValueStore Open(StoreOptions options)
    {
        // Checked before any adapter runs, so an open that was asked only to read never creates a directory or a file,
        // and every row, KvBench's or a team's, answers a bad open with the same error.
        OpenChecks.Check(Name, options, UnavailableReasonFor(options), Declared.Durability, HoldsStore);

        try
        {
            IKeyValueStore opened = OpenAdapter(options);
            try
            {
                StoreDirectorySync.AfterOpen(this, options);
            }
            catch
            {
                opened.Dispose();
                throw;
            }

            return opened;
        }
        catch (Exception error) when (StoreFailures.Translate(Name, Path.GetFullPath(options.Directory), Classify(error), error) is { } typed)
        {
            throw typed;
        }
    }

    /// <inheritdoc/>
    public override string ToString() => Name;

    /// <summary>
    /// What an exception raised by an open or a call means: the errors every engine shares first, then the row's own
    /// <see cref="ClassifyEngineError"/>. The one classifier both <see cref="Open"/> and the adapter's calls use.
    /// </summary>
    internal StoreFailure Classify(Exception error) => StoreFailures.Common(error) ?? ClassifyEngineError(error);

    /// <summary>Opens the row's adapter; called by <see cref="Open"/> after its checks, whose errors it types.</summary>
    private protected abstract IKeyValueStore OpenAdapter(StoreOptions options);

    /// <summary>
    /// Whether a directory (full path) holds a store of this row's kind, looked at before a read-only or secondary open,
    /// which must not create one.
    /// </summary>
    private protected abstract bool HoldsStore(string directory);

    /// <summary>
    /// What an exception the engine raised means: its own exception types, its codes for damaged files and a full disk.
    /// Asked only for exceptions no engine shares (see <see cref="StoreFailures.Common"/>). The default passes .NET I/O
    /// errors on as failures of the store and anything else unchanged.
    /// </summary>
    private protected virtual StoreFailure ClassifyEngineError(Exception error) => StoreFailures.DotNetIo(error);

    /// <summary>
    /// <see cref="WithInitialSize"/> for a row whose store preallocates: the row's own options with its start size.
    /// Default: <paramref name="options"/> unchanged.
    /// </summary>
    private protected virtual StoreOptions SizedOptions(StoreOptions options, long initialBytes) => options;

    /// <summary>
    /// Says why the store cannot be had here (its package is not served, its native library does not load), or returns
    /// <see langword="null"/>. Default: always available.
    /// </summary>
    private protected virtual string? CheckAvailability() => null;

    /// <summary>
    /// Why the row cannot be opened with <paramref name="options"/>, or <see langword="null"/>. Default:
    /// <see cref="UnavailableReason"/> (a server row given the endpoint of a server of the user's own needs nothing here).
    /// </summary>
    private protected virtual string? UnavailableReasonFor(StoreOptions options) => UnavailableReason;

    /// <summary>Names the package and native library versions behind the row; asked only when the row is available.</summary>
    private protected abstract string DescribeEngine();
}
