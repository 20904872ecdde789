using FASTER.core;

namespace KvBench.Stores.Faster;

/// <summary>
/// FASTER's callbacks for <see cref="FasterStore"/>: upserts and deletes as <see cref="SpanByteFunctions{Key, Output, Context}"/>
/// does them; reads hand the value to the <see cref="ReadTarget"/> the caller chose.
/// </summary>
internal sealed class ReadFunctions : SpanByteFunctions<SpanByte, ReadTarget, Empty>
{
    public override bool SingleReader(ref SpanByte key, ref SpanByte input, ref SpanByte value, ref ReadTarget dst, ref ReadInfo readInfo)
    {
        dst.Receive(value.AsReadOnlySpan());
        return true;
    }

    public override bool ConcurrentReader(ref SpanByte key, ref SpanByte input, ref SpanByte value, ref ReadTarget dst, ref ReadInfo readInfo)
    {
        dst.Receive(value.AsReadOnlySpan());
        return true;
    }
}
