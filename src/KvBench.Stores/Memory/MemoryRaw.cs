using System.Buffers;
using System.Runtime.InteropServices;

using KvBench.Stores.Baselines;

namespace KvBench.Stores.Memory;

/// <summary>
/// <c>Memory_raw</c>: a <see cref="Dictionary{TKey, TValue}"/> searched with spans through an alternate lookup.
/// It takes a lock, as the adapter does: the contract promises thread safety, and any dictionary shared between
/// threads pays for one, so the ratio charges the adapter only for what it adds.
/// </summary>
internal sealed class MemoryRaw : IPointTarget
{
    private readonly Lock _gate = new();
    private readonly Dictionary<byte[], byte[]>.AlternateLookup<ReadOnlySpan<byte>> _lookup =
        new Dictionary<byte[], byte[]>(ByteArrayEqualityComparer.Instance).GetAlternateLookup<ReadOnlySpan<byte>>();

    // The directory is unused: nothing of this row lives in files.
    public MemoryRaw(string directory) => _ = directory;

    public void Put(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        lock (_gate)
        {
            ref byte[]? slot = ref CollectionsMarshal.GetValueRefOrAddDefault(_lookup, key, out bool exists);
            if (exists && slot!.Length == value.Length)
            {
                value.CopyTo(slot);
            }
            else
            {
                slot = value.ToArray();
            }
        }
    }

    public bool TryGet(ReadOnlySpan<byte> key, IBufferWriter<byte> destination)
    {
        lock (_gate)
        {
            if (!_lookup.TryGetValue(key, out byte[]? value))
            {
                return false;
            }

            destination.Write(value);
            return true;
        }
    }

    public byte[]? Get(ReadOnlySpan<byte> key)
    {
        lock (_gate)
        {
            return _lookup.TryGetValue(key, out byte[]? value) ? value.AsSpan().ToArray() : null;
        }
    }

    public bool ContainsKey(ReadOnlySpan<byte> key)
    {
        lock (_gate)
        {
            return _lookup.ContainsKey(key);
        }
    }

    public void Dispose()
    {
    }
}
