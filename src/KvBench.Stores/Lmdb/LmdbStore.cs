using System.Buffers;

using KvBench.Core;

using LightningDB;

namespace KvBench.Stores.Lmdb;

/// <summary>
/// LMDB through the LightningDB package (over the library <see cref="LmdbNativeLibrary"/> chose): one
/// <see cref="LmdbEnvironment"/> per store directory, its unnamed main database, a write transaction per
/// <c>Put</c>/<c>Delete</c>/<c>PutMany</c>, and pooled read-only transactions (<see cref="LmdbReaderPool"/>) for reads.
/// The environment grows the map and guards against a second open in this process; this class maps the contract onto it.
/// </summary>
/// <remarks>
/// A <c>Get</c>, <c>TryGet</c> or <c>ContainsKey</c> allocates nothing managed beyond what the contract asks for (the
/// array <c>Get</c> returns): <c>tx.Get(db, span)</c> hands back an <see cref="MDBValue"/> over the map, and the read
/// transaction is a pooled one, renewed. A <c>Put</c> or <c>Delete</c> allocates one <see cref="LightningTransaction"/>
/// (a finalizable object, whose allocation <c>LmdbStoreTests</c> measure), because LMDB cannot reuse a
/// write transaction and LightningDB makes an object for every transaction it begins.
/// </remarks>
internal sealed class LmdbStore : StoreAdapter
{
    /// <summary>
    /// LMDB 0.9's compiled-in key limit (MDB_MAXKEYSIZE), which mdb_env_get_maxkeysize reports; checked at open. LMDB
    /// 1.0.1 is built with MDB_MAXKEYSIZE 0, which derives a larger limit from the page size: the row declares 511 over
    /// either library, so its capabilities do not depend on which one loaded.
    /// </summary>
    internal const int MaxKeyBytes = 511;

    /// <summary>
    /// The longest value that survives a commit. A value over about two kilobytes is one run of overflow pages, and
    /// LMDB writes a run with a single pwrite, which Linux caps at 0x7FFFF000 bytes; a short write fails the commit
    /// with EIO. So the run (16-byte page header plus the value) must fit in 0x7FFFF000 bytes.
    /// </summary>
    internal const int MaxValueBytes = 0x7FFF_F000 - 16;

    /// <summary>
    /// The map when <see cref="LmdbStoreOptions.InitialMapBytes"/> is not given. Without MDB_WRITEMAP the map is address
    /// space only: the file grows with the data, not with the map. So a map far larger than a small store costs
    /// nothing, and 1 GiB lets the benchmarks' preloaded datasets fit without a resize during a measured phase.
    /// </summary>
    internal const long DefaultInitialMapBytes = 1L << 30;

    internal const string DataFileName = "data.mdb";

    private readonly LmdbEnvironment _environment;
    private readonly bool _flushSyncs;

    /// <summary>Whether <paramref name="directory"/> holds an LMDB environment: its data file.</summary>
    internal static bool HoldsStore(string directory) => File.Exists(Path.Combine(directory, DataFileName));

    public LmdbStore(StoreRow row, StoreOptions options)
        : base(row, options)
    {
        long initialMapBytes = LmdbStoreOptions.From(options).InitialMapBytes ?? DefaultInitialMapBytes;
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(initialMapBytes, nameof(LmdbStoreOptions.InitialMapBytes));
        bool readOnly = options.Access != StoreAccess.ReadWrite;

        // Buffered: MDB_NOSYNC writes every commit's pages and meta page to the file (the OS page cache) and skips the
        // fdatasync, so a killed process loses nothing. MDB_NOMETASYNC would still flush the data pages at every
        // commit, which is the device flush Buffered exists to avoid. Without MDB_WRITEMAP a machine crash can lose
        // the last commits but not corrupt the file. Synced: LMDB's default, data and meta page flushed per commit.
        bool buffered = options.Durability == Durability.Buffered;
        _flushSyncs = buffered && !readOnly;
        EnvironmentOpenFlags flags = EnvironmentOpenFlags.NoThreadLocalStorage
            | (readOnly ? EnvironmentOpenFlags.ReadOnly : EnvironmentOpenFlags.None)
            | (buffered ? EnvironmentOpenFlags.NoSync : EnvironmentOpenFlags.None);
        _environment = new LmdbEnvironment(options.Directory, flags, initialMapBytes);

        int maxKeyBytes = _environment.MaxKeyBytes;
        if (maxKeyBytes < MaxKeyBytes)
        {
            _environment.Dispose();
            throw new InvalidOperationException(
                $"This LMDB ({LmdbNativeLibrary.Description}) accepts keys of at most {maxKeyBytes} bytes; the LMDB " +
                    $"row declares {MaxKeyBytes}.");
        }
    }

    /// <summary>The size of this process's map of the environment.</summary>
    internal long MapBytes => _environment.MapBytes;

    /// <summary>How often this instance remapped: grown on MDB_MAP_FULL or adopted on MDB_MAP_RESIZED.</summary>
    internal int MapResizes => _environment.MapResizes;

    /// <summary>The environment's flags as LMDB reports them (NoSync, ReadOnly, ...).</summary>
    internal EnvironmentOpenFlags EnvironmentFlags => _environment.Flags;

    protected override void PutCore(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        var put = new LmdbPut(key, value);
        _environment.Write(ref put);
    }

    protected override void PutManyCore(IReadOnlyList<KeyValuePair<byte[], byte[]>> items)
    {
        var put = new LmdbPutAll(items);
        _environment.Write(ref put);
    }

    protected override bool DeleteCore(ReadOnlySpan<byte> key)
    {
        var delete = new LmdbDelete(key);
        _environment.Write(ref delete);
        return delete.Removed;
    }

    protected override bool TryGetCore(ReadOnlySpan<byte> key, IBufferWriter<byte> destination) =>
        Read<CopyToWriter, bool>(key, new CopyToWriter(destination));

    protected override byte[]? GetCore(ReadOnlySpan<byte> key) => Read<CopyToArray, byte[]?>(key, default);

    protected override bool ContainsKeyCore(ReadOnlySpan<byte> key) => Read<Exists, bool>(key, default);

    protected override IEnumerable<KeyValuePair<byte[], byte[]>> ScanPrefixCore(ReadOnlyMemory<byte> prefix)
    {
        // No stored key is longer than MaxKeyBytes, so none starts with a longer prefix; MDB_SET_RANGE would refuse it.
        byte[] prefixBytes = prefix.ToArray();
        return prefixBytes.Length > MaxKeyBytes ? [] : LmdbCursorScan.Scan(_environment, prefixBytes, prefixBytes, int.MaxValue);
    }

    // StoreAdapter has already cut a longer start key to MaxKeyBytes, the longest MDB_SET_RANGE takes.
    protected override IEnumerable<KeyValuePair<byte[], byte[]>> ScanFromCore(ReadOnlyMemory<byte> startKey, int limit) =>
        LmdbCursorScan.Scan(_environment, [], startKey.ToArray(), limit);

    protected override void FlushCore()
    {
        // Synced commits are already on the device, and a read-only environment has nothing of its own to flush.
        if (_flushSyncs)
        {
            _environment.Sync();
        }
    }

    // StoreAdapter's gate has already waited for the calls in flight and lets no more in.
    protected override void DisposeCore() => _environment.Dispose();

    /// <summary>Looks <paramref name="key"/> up in a pooled read transaction and hands the mapped value to <paramref name="found"/>.</summary>
    private TResult Read<TFound, TResult>(ReadOnlySpan<byte> key, TFound found)
        where TFound : struct, ILmdbFound<TResult>
    {
        var lookup = new LmdbGet<TFound, TResult>(key, found);
        return _environment.Read<LmdbGet<TFound, TResult>, TResult>(ref lookup, "mdb_get");
    }

    private readonly struct CopyToWriter(IBufferWriter<byte> destination) : ILmdbFound<bool>
    {
        public bool Found(ReadOnlySpan<byte> value)
        {
            CopyTo(value, destination);
            return true;
        }

        public bool Absent() => false;
    }

    private readonly struct CopyToArray : ILmdbFound<byte[]?>
    {
        public byte[]? Found(ReadOnlySpan<byte> value) => value.ToArray();

        public byte[]? Absent() => null;
    }

    private readonly struct Exists : ILmdbFound<bool>
    {
        public bool Found(ReadOnlySpan<byte> value) => true;

        public bool Absent() => false;
    }
}
