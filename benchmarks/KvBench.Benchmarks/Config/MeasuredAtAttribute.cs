using System.Reflection;

using KvBench.Core;

namespace KvBench.Benchmarks;

/// <summary>The durability tier a benchmark class opens every row at, printed by <see cref="AcknowledgedColumn"/>.</summary>
[AttributeUsage(AttributeTargets.Class, AllowMultiple = false)]
internal sealed class MeasuredAtAttribute(Durability tier) : Attribute
{
    public Durability Tier { get; } = tier;

    /// <summary>The tier <paramref name="benchmark"/> declares; a class without the attribute measures nothing durable and is a bug.</summary>
    public static Durability Of(Type benchmark) =>
        benchmark.GetCustomAttribute<MeasuredAtAttribute>()?.Tier
        ?? throw new InvalidOperationException($"{benchmark.Name} does not say which durability tier it measures at ([MeasuredAt]).");
}
