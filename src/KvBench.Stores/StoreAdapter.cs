using System.Buffers;

using KvBench.Core;

namespace KvBench.Stores;

/// <summary>
/// The checks every adapter owes the contract, done once: disposed, read-only, empty and oversized keys and values,
/// negative scan limits.
/// Adapters implement the <c>*Core</c> methods and see only valid input.
/// </summary>
internal abstract class StoreAdapter : IKeyValueStore
{
    private volatile bool _disposed;

    protected StoreAdapter(string name, StoreCapabilities capabilities, StoreAccess access)
    {
        Name = name;
        Capabilities = capabilities;
        Access = access;
    }

    public string Name { get; }

    public StoreCapabilities Capabilities { get; }

    protected StoreAccess Access { get; }

    public void Put(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        ThrowIfNotWritable();
        ValidateEntry(key, value.Length);
        PutCore(key, value);
    }

    public bool TryGet(ReadOnlySpan<byte> key, IBufferWriter<byte> destination)
    {
        ArgumentNullException.ThrowIfNull(destination);
        return IsReadableKey(key) && TryGetCore(key, destination);
    }

    public byte[]? Get(ReadOnlySpan<byte> key) => IsReadableKey(key) ? GetCore(key) : null;

    public bool ContainsKey(ReadOnlySpan<byte> key) => IsReadableKey(key) && ContainsKeyCore(key);

    public bool Delete(ReadOnlySpan<byte> key)
    {
        ThrowIfNotWritable();
        return IsReadableKey(key) && DeleteCore(key);
    }

    public IEnumerable<KeyValuePair<byte[], byte[]>> ScanPrefix(ReadOnlyMemory<byte> prefix)
    {
        ThrowIfDisposed();
        return ScanPrefixCore(prefix);
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
            return ScanFromCore(startKey, limit);
        }

        // Some stores cannot seek with a key longer than they store (LMDB's MDB_SET_RANGE refuses one over 511 bytes),
        // so they seek with its first MaxKeyBytes bytes instead. No stored key is longer than that, so the one stored
        // key that can sort between the truncated bound and the real one is the truncated bound itself: one entry more
        // is asked for, and skipped when it is there.
        // The start is copied because the skip runs as the caller enumerates, when its buffer may hold other bytes.
        byte[] start = startKey.ToArray();
        return ScanFromCore(startKey[..maxKeyBytes], limit == int.MaxValue ? limit : limit + 1)
            .SkipWhile(entry => entry.Key.AsSpan().SequenceCompareTo(start) < 0)
            .Take(limit);
    }

    public void PutMany(IEnumerable<KeyValuePair<byte[], byte[]>> items)
    {
        ArgumentNullException.ThrowIfNull(items);
        ThrowIfNotWritable();
        IReadOnlyList<KeyValuePair<byte[], byte[]>> list = items as IReadOnlyList<KeyValuePair<byte[], byte[]>> ?? items.ToList();
        foreach (KeyValuePair<byte[], byte[]> item in list)
        {
            ArgumentNullException.ThrowIfNull(item.Key, nameof(items));
            ArgumentNullException.ThrowIfNull(item.Value, nameof(items));
            ValidateEntry(item.Key, item.Value.Length);
        }

        if (list.Count > 0)
        {
            PutManyCore(list);
        }
    }

    public void Flush()
    {
        ThrowIfDisposed();
        FlushCore();
    }

    public void Dispose()
    {
        if (_disposed)
        {
            return;
        }

        _disposed = true;
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

    protected void ThrowIfDisposed() => ObjectDisposedException.ThrowIf(_disposed, this);

    /// <summary>Copies <paramref name="value"/> into <paramref name="destination"/>.</summary>
    protected static void CopyTo(ReadOnlySpan<byte> value, IBufferWriter<byte> destination)
    {
        value.CopyTo(destination.GetSpan(value.Length));
        destination.Advance(value.Length);
    }

    private void ThrowIfNotWritable()
    {
        ThrowIfDisposed();
        if (Access != StoreAccess.ReadWrite)
        {
            throw new StoreReadOnlyException(Name, Access);
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
    private bool IsReadableKey(ReadOnlySpan<byte> key)
    {
        ThrowIfDisposed();
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
