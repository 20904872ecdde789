using System.Buffers;

using KvBench.Core;

namespace KvBench.Stores;

/// <summary>
/// What every adapter owes the contract, done once: the checks (read-only, empty and oversized keys and values, negative
/// scan limits), the lifetime (a call racing <see cref="Dispose"/> finishes before the engine is closed, and a call after
/// it gets <see cref="ObjectDisposedException"/>), and the errors (an engine's exception becomes the contract's typed
/// error, through its row's <see cref="StoreRow.Classify"/>, the classifier an open goes through too).
/// Adapters implement the <c>*Core</c> methods, see only valid input, and are never called during or after
/// <see cref="DisposeCore"/>.
/// </summary>
internal abstract class StoreAdapter : IKeyValueStore
{
    private readonly LifetimeGate _gate = new();
    private readonly StoreRow _row;
    private FreeSpaceReserve? _freeSpaceReserve;

    protected StoreAdapter(StoreRow row, StoreOptions options)
    {
        ArgumentNullException.ThrowIfNull(row);
        ArgumentNullException.ThrowIfNull(options);
        _row = row;
        Name = row.Name;
        Capabilities = row.Declared;
        Access = options.Access;
        StoreDirectory = Path.GetFullPath(options.Directory);
    }

    public string Name { get; }

    public StoreCapabilities Capabilities { get; }

    protected StoreAccess Access { get; }

    /// <summary>The free space below which this store refuses writes (see <see cref="KeepFreeSpace"/>); 0 when it keeps none.</summary>
    internal long FreeSpaceReserveBytes => _freeSpaceReserve?.ReserveBytes ?? 0;

    /// <summary>The store's directory as a full path, as the typed errors name it.</summary>
    protected string StoreDirectory { get; }

    public void Put(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        LifetimeGate.Call call = EnterWritable();
        try
        {
            ValidateEntry(key, value.Length);
            _freeSpaceReserve?.Claim(key.Length + (long)value.Length);
            PutCore(key, value);
        }
        catch (Exception error) when (Translate(error) is { } typed)
        {
            throw typed;
        }
        finally
        {
            LifetimeGate.Exit(call);
        }
    }

    public bool TryGet(ReadOnlySpan<byte> key, IBufferWriter<byte> destination)
    {
        ArgumentNullException.ThrowIfNull(destination);
        LifetimeGate.Call call = _gate.Enter(this);
        try
        {
            return IsStorableKey(key) && TryGetCore(key, destination);
        }
        catch (Exception error) when (Translate(error) is { } typed)
        {
            throw typed;
        }
        finally
        {
            LifetimeGate.Exit(call);
        }
    }

    public byte[]? Get(ReadOnlySpan<byte> key)
    {
        LifetimeGate.Call call = _gate.Enter(this);
        try
        {
            return IsStorableKey(key) ? GetCore(key) : null;
        }
        catch (Exception error) when (Translate(error) is { } typed)
        {
            throw typed;
        }
        finally
        {
            LifetimeGate.Exit(call);
        }
    }

    public bool ContainsKey(ReadOnlySpan<byte> key)
    {
        LifetimeGate.Call call = _gate.Enter(this);
        try
        {
            return IsStorableKey(key) && ContainsKeyCore(key);
        }
        catch (Exception error) when (Translate(error) is { } typed)
        {
            throw typed;
        }
        finally
        {
            LifetimeGate.Exit(call);
        }
    }

    public bool Delete(ReadOnlySpan<byte> key)
    {
        LifetimeGate.Call call = EnterWritable();
        try
        {
            return IsStorableKey(key) && DeleteCore(key);
        }
        catch (Exception error) when (Translate(error) is { } typed)
        {
            throw typed;
        }
        finally
        {
            LifetimeGate.Exit(call);
        }
    }

    public IEnumerable<KeyValuePair<byte[], byte[]>> ScanPrefix(ReadOnlyMemory<byte> prefix)
    {
        ThrowIfDisposed();
        return Gated(() => ScanPrefixCore(prefix));
    }

    public IEnumerable<KeyValuePair<byte[], byte[]>> ScanFrom(ReadOnlyMemory<byte> startKey, int limit)
    {
        ThrowIfDisposed();
        ArgumentOutOfRangeException.ThrowIfNegative(limit);
        if (limit == 0)
        {
            return [];
        }

        int maxKeyBytes = Capabilities.MaxKeyBytes;
        if (startKey.Length <= maxKeyBytes)
        {
            return Gated(() => ScanFromCore(startKey, limit));
        }

        // Some stores cannot seek with a key longer than they store (LMDB's MDB_SET_RANGE refuses one over 511 bytes),
        // so they seek with its first MaxKeyBytes bytes instead. No stored key is longer than that, so the one stored
        // key that can sort between the truncated bound and the real one is the truncated bound itself: one entry more
        // is asked for, and skipped when it is there.
        // The start is copied because the skip runs as the caller enumerates, when its buffer may hold other bytes.
        byte[] start = startKey.ToArray();
        return Gated(() => ScanFromCore(startKey[..maxKeyBytes], limit == int.MaxValue ? limit : limit + 1))
            .SkipWhile(entry => entry.Key.AsSpan().SequenceCompareTo(start) < 0)
            .Take(limit);
    }

    public void PutMany(IEnumerable<KeyValuePair<byte[], byte[]>> items)
    {
        ArgumentNullException.ThrowIfNull(items);
        LifetimeGate.Call call = EnterWritable();
        try
        {
            IReadOnlyList<KeyValuePair<byte[], byte[]>> list = items as IReadOnlyList<KeyValuePair<byte[], byte[]>> ?? items.ToList();
            foreach (KeyValuePair<byte[], byte[]> item in list)
            {
                ArgumentNullException.ThrowIfNull(item.Key, nameof(items));
                ArgumentNullException.ThrowIfNull(item.Value, nameof(items));
                ValidateEntry(item.Key, item.Value.Length);
            }

            if (list.Count > 0)
            {
                _freeSpaceReserve?.Claim(list.Sum(static item => item.Key.Length + (long)item.Value.Length));
                PutManyCore(list);
            }
        }
        catch (Exception error) when (Translate(error) is { } typed)
        {
            throw typed;
        }
        finally
        {
            LifetimeGate.Exit(call);
        }
    }

    public void Flush()
    {
        LifetimeGate.Call call = _gate.Enter(this);
        try
        {
            if (Access == StoreAccess.ReadWrite)
            {
                _freeSpaceReserve?.Claim(0);
            }

            FlushCore();
        }
        catch (Exception error) when (Translate(error) is { } typed)
        {
            throw typed;
        }
        finally
        {
            LifetimeGate.Exit(call);
        }
    }

    /// <summary>Refuses new calls, waits for the calls in flight, then closes the engine; later calls throw <see cref="ObjectDisposedException"/>.</summary>
    public void Dispose()
    {
        if (!_gate.Close())
        {
            return;
        }

        DisposeCore();
        GC.SuppressFinalize(this);
    }

    protected abstract void PutCore(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value);

    protected abstract bool TryGetCore(ReadOnlySpan<byte> key, IBufferWriter<byte> destination);

    protected abstract byte[]? GetCore(ReadOnlySpan<byte> key);

    protected abstract bool ContainsKeyCore(ReadOnlySpan<byte> key);

    protected abstract bool DeleteCore(ReadOnlySpan<byte> key);

    protected abstract IEnumerable<KeyValuePair<byte[], byte[]>> ScanPrefixCore(ReadOnlyMemory<byte> prefix);

    /// <summary>Scans from a <paramref name="startKey"/> no longer than the declared key limit, with a positive <paramref name="limit"/>.</summary>
    protected abstract IEnumerable<KeyValuePair<byte[], byte[]>> ScanFromCore(ReadOnlyMemory<byte> startKey, int limit);

    /// <summary>Writes validated items; the default puts them one by one.</summary>
    protected virtual void PutManyCore(IReadOnlyList<KeyValuePair<byte[], byte[]>> items)
    {
        foreach (KeyValuePair<byte[], byte[]> item in items)
        {
            PutCore(item.Key, item.Value);
        }
    }

    protected abstract void FlushCore();

    protected abstract void DisposeCore();

    /// <summary>
    /// Refuses writes (and a writer's <c>Flush</c>) with <see cref="StoreFullException"/> while the store's file system
    /// has less than <paramref name="reserveBytes"/> free; for an engine that a full disk crashes or hangs instead of
    /// failing the write. Called once, from the adapter's constructor.
    /// </summary>
    /// <param name="reserveBytes">What the engine may still write on its own after acknowledging.</param>
    /// <param name="reason">Why, completing "KvBench keeps ... free because ...".</param>
    protected void KeepFreeSpace(long reserveBytes, string reason) =>
        _freeSpaceReserve = new FreeSpaceReserve(Name, StoreDirectory, reserveBytes, reason);

    protected void ThrowIfDisposed() => ObjectDisposedException.ThrowIf(_gate.IsClosed, this);

    /// <summary>
    /// <see cref="TryGetCore"/> for a store whose client hands a value back only as a new array (LiteDB, the SQL
    /// servers' readers, a server's shell client): <see cref="GetCore"/>, copied into <paramref name="destination"/>.
    /// </summary>
    protected bool TryGetThroughArray(ReadOnlySpan<byte> key, IBufferWriter<byte> destination)
    {
        if (GetCore(key) is not { } value)
        {
            return false;
        }

        CopyTo(value, destination);
        return true;
    }

    /// <summary>Copies <paramref name="value"/> into <paramref name="destination"/>.</summary>
    protected static void CopyTo(ReadOnlySpan<byte> value, IBufferWriter<byte> destination)
    {
        value.CopyTo(destination.GetSpan(value.Length));
        destination.Advance(value.Length);
    }

    /// <summary>Enters the gate for a write: refused on a store opened read-only or as a secondary.</summary>
    private LifetimeGate.Call EnterWritable()
    {
        if (Access != StoreAccess.ReadWrite)
        {
            ThrowIfDisposed();
            throw new StoreReadOnlyException(Name, Access);
        }

        return _gate.Enter(this);
    }

    /// <summary>The typed error for an exception raised inside a call, or <see langword="null"/> to let it pass unchanged.</summary>
    private Exception? Translate(Exception error) =>
        StoreFailures.Translate(Name, StoreDirectory, _row.Classify(error), error);

    /// <summary>
    /// A scan whose every step runs inside the gate, so a store disposed while a caller enumerates fails that caller's
    /// next step with <see cref="ObjectDisposedException"/>. The scan itself starts at the first step: an eager scan
    /// (one that collects its entries when called) then runs inside the gate too.
    /// </summary>
    private IEnumerable<KeyValuePair<byte[], byte[]>> Gated(Func<IEnumerable<KeyValuePair<byte[], byte[]>>> scan)
    {
        IEnumerator<KeyValuePair<byte[], byte[]>>? entries = null;
        try
        {
            while (true)
            {
                KeyValuePair<byte[], byte[]> entry;
                bool more;
                LifetimeGate.Call call = _gate.Enter(this);
                try
                {
                    entries ??= scan().GetEnumerator();
                    more = entries.MoveNext();
                    entry = more ? entries.Current : default;
                }
                catch (Exception error) when (Translate(error) is { } typed)
                {
                    throw typed;
                }
                finally
                {
                    LifetimeGate.Exit(call);
                }

                if (!more)
                {
                    yield break;
                }

                yield return entry;
            }
        }
        finally
        {
            entries?.Dispose();
        }
    }

    private void ValidateEntry(ReadOnlySpan<byte> key, int valueLength)
    {
        ThrowIfEmpty(key);
        if (key.Length > Capabilities.MaxKeyBytes)
        {
            throw new KeyTooLargeException(Name, key.Length, Capabilities.MaxKeyBytes);
        }

        if (valueLength > Capabilities.MaxValueBytes)
        {
            throw new ValueTooLargeException(Name, valueLength, Capabilities.MaxValueBytes);
        }
    }

    /// <summary>A key longer than the limit cannot be stored, so reads answer "absent" without asking the store.</summary>
    private bool IsStorableKey(ReadOnlySpan<byte> key)
    {
        ThrowIfEmpty(key);
        return key.Length <= Capabilities.MaxKeyBytes;
    }

    private static void ThrowIfEmpty(ReadOnlySpan<byte> key)
    {
        if (key.IsEmpty)
        {
            throw new EmptyKeyException(nameof(key));
        }
    }
}
