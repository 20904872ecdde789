using System.Buffers;

namespace KvBench.Stores.Baselines;

/// <summary>
/// What a point-operation benchmark drives: an adapter, a raw-driver baseline or a naive usage. One interface for all
/// three, so every row pays the same call into the benchmark and a ratio between rows measures only what is behind it.
/// </summary>
public interface IPointTarget : IDisposable
{
    /// <summary>Writes <paramref name="value"/> under <paramref name="key"/>, replacing what it held.</summary>
    void Put(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value);

    /// <summary>Writes the value of <paramref name="key"/> into <paramref name="destination"/>, if there is one.</summary>
    bool TryGet(ReadOnlySpan<byte> key, IBufferWriter<byte> destination);

    /// <summary>The value of <paramref name="key"/> as a new array, or <see langword="null"/>.</summary>
    byte[]? Get(ReadOnlySpan<byte> key);

    /// <summary>Whether <paramref name="key"/> holds a value.</summary>
    bool ContainsKey(ReadOnlySpan<byte> key);

    /// <summary>
    /// The handle through which one more thread calls while others call too: the target itself (the default) when it
    /// is safe to call from many threads, a handle of its own when the driver's way is a handle per thread (FASTER's
    /// sessions). Called on the thread that will use it, and only for targets that serve many threads
    /// (<see cref="PointBaseline.ManyThreads"/>, every adapter). A handle other than the target is disposed by its thread.
    /// </summary>
    IPointTarget ForAnotherThread() => this;

    /// <summary>Writes <paramref name="records"/> before measuring; a target with a bulk path uses it.</summary>
    void Load(IEnumerable<KeyValuePair<byte[], byte[]>> records)
    {
        ArgumentNullException.ThrowIfNull(records);
        foreach (KeyValuePair<byte[], byte[]> record in records)
        {
            Put(record.Key, record.Value);
        }
    }

    /// <summary>
    /// TryGet for a target whose read returns an array (a naive usage, or a package whose read does): writes
    /// <paramref name="value"/> into <paramref name="destination"/> when there is one.
    /// </summary>
    static bool CopyFound(byte[]? value, IBufferWriter<byte> destination)
    {
        ArgumentNullException.ThrowIfNull(destination);
        if (value is null)
        {
            return false;
        }

        destination.Write(value);
        return true;
    }
}
