using System.Buffers;

namespace KvBench.Stores.Faster;

/// <summary>
/// Where a read puts the value it finds. FASTER carries it through a pending read and hands it to
/// <see cref="ReadFunctions"/> when the record arrives from the device, so the value is copied once, straight to the
/// caller's buffer or a new array, whichever path the read took.
/// </summary>
internal struct ReadTarget
{
    /// <summary>Receives the value; <see langword="null"/> when the read only asks whether the key exists or wants an array.</summary>
    public IBufferWriter<byte>? Destination;

    /// <summary>Whether to copy the value into <see cref="Array"/>.</summary>
    public bool WantsArray;

    /// <summary>The value's copy when <see cref="WantsArray"/> is set.</summary>
    public byte[]? Array;

    public static ReadTarget Into(IBufferWriter<byte> destination) => new() { Destination = destination };

    public static ReadTarget IntoArray() => new() { WantsArray = true };

    public static ReadTarget ExistenceOnly() => default;

    public void Receive(ReadOnlySpan<byte> value)
    {
        if (Destination is not null)
        {
            value.CopyTo(Destination.GetSpan(value.Length));
            Destination.Advance(value.Length);
        }
        else if (WantsArray)
        {
            Array = value.ToArray();
        }
    }
}
