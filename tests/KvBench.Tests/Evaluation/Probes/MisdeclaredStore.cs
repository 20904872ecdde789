using KvBench.Core;


namespace KvBench.Tests.Evaluation.Probes;

/// <summary>A real store that claims capabilities it does not have, to show the probes catch a wrong claim.</summary>
internal sealed class MisdeclaredStore(IKeyValueStore inner, StoreCapabilities claimed) : DelegatingStore(inner)
{
    public override StoreCapabilities Capabilities => claimed;
}
