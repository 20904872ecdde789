using System.Buffers;

using KvBench.Core;

namespace KvBench.Stores.Memory;

/// <summary>
/// The floor: a hash table in this process's memory, no I/O. Not a candidate; it shows the fastest any store could
/// answer through this contract. Lookups take spans without copying (an alternate lookup on the key comparer).
/// </summary>
internal sealed class MemoryStore : StoreAdapter
{
    private readonly Lock _gate = new();
    private readonly Dictionary<byte[], byte[]> _entries = new(ByteArrayEqualityComparer.Instance);
    private readonly Dictionary<byte[], byte[]>.AlternateLookup<ReadOnlySpan<byte>> _lookup;

    public MemoryStore(string name, StoreOptions options)
        : base(name, Declared, options.Access) => _lookup = _entries.GetAlternateLookup<ReadOnlySpan<byte>>();

    internal static StoreCapabilities Declared { get; } = new()
    {
        MaxKeyBytes = Array.MaxLength,
        MaxValueBytes = Array.MaxLength,
        GrowsWithoutRestart = true,
        MultiProcess = MultiProcessLevel.InProcess,
        OrderedPrefixScan = false,
        Durability = DurabilityTiers.None,
    };

    internal static string Engine() => $"Dictionary<byte[], byte[]> on {System.Runtime.InteropServices.RuntimeInformation.FrameworkDescription}";

    protected override void PutCore(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        lock (_gate)
        {
            // Overwriting with a value of the same length reuses the array: values handed out are always copies.
            if (_lookup.TryGetValue(key, out byte[]? existing) && existing.Length == value.Length)
            {
                value.CopyTo(existing);
            }
            else
            {
                _lookup[key] = value.ToArray();
            }
        }
    }

    protected override bool TryGetCore(ReadOnlySpan<byte> key, IBufferWriter<byte> destination)
    {
        lock (_gate)
        {
            if (!_lookup.TryGetValue(key, out byte[]? value))
            {
                return false;
            }

            CopyTo(value, destination);
            return true;
        }
    }

    protected override byte[]? GetCore(ReadOnlySpan<byte> key)
    {
        lock (_gate)
        {
            return _lookup.TryGetValue(key, out byte[]? value) ? value.AsSpan().ToArray() : null;
        }
    }

    protected override bool ContainsKeyCore(ReadOnlySpan<byte> key)
    {
        lock (_gate)
        {
            return _lookup.ContainsKey(key);
        }
    }

    protected override bool DeleteCore(ReadOnlySpan<byte> key)
    {
        lock (_gate)
        {
            return _lookup.Remove(key);
        }
    }

    protected override IEnumerable<KeyValuePair<byte[], byte[]>> ScanPrefixCore(ReadOnlyMemory<byte> prefix)
    {
        List<KeyValuePair<byte[], byte[]>> matches;
        lock (_gate)
        {
            matches = _entries
                .Where(entry => entry.Key.AsSpan().StartsWith(prefix.Span))
                .Select(entry => new KeyValuePair<byte[], byte[]>(entry.Key.AsSpan().ToArray(), entry.Value.AsSpan().ToArray()))
                .ToList();
        }

        matches.Sort(static (x, y) => ByteKeys.Comparer.Compare(x.Key, y.Key));
        return matches;
    }

    protected override void PutManyCore(IReadOnlyList<KeyValuePair<byte[], byte[]>> items)
    {
        lock (_gate)
        {
            foreach (KeyValuePair<byte[], byte[]> item in items)
            {
                PutCore(item.Key, item.Value);
            }
        }
    }

    protected override void FlushCore()
    {
    }

    protected override void DisposeCore()
    {
        lock (_gate)
        {
            _entries.Clear();
        }
    }
}
