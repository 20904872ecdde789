using KvBench.Core;


namespace KvBench.Tests.Evaluation.Probes;

/// <summary>
/// A real store whose every <paramref name="every"/>th single Put is acknowledged and dropped, to show a probe that
/// measures writes catches a lost one.
/// </summary>
internal sealed class ForgetfulStore(IKeyValueStore inner, int every) : DelegatingStore(inner)
{
    private long _puts;

    public override void Put(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        if (++_puts % every != 0)
        {
            base.Put(key, value);
        }
    }
}
