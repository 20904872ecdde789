namespace KvBench.Evaluation.Measuring;

/// <summary>The point-operation benchmark methods, named as a decision record's table names them.</summary>
public static class PointMethods
{
    /// <summary>Insert or overwrite one key.</summary>
    public const string Put = "Put";

    /// <summary>Read one value into a reused buffer (<see cref="Core.IKeyValueStore.TryGet"/>).</summary>
    public const string Get = "Get";

    /// <summary>Read one value as a new array (<see cref="Core.IKeyValueStore.Get"/>).</summary>
    public const string GetArray = "GetArray";

    /// <summary>Whether one key exists (<see cref="Core.IKeyValueStore.ContainsKey"/>).</summary>
    public const string HaveKey = "HaveKey";

    /// <summary>Every method, in table order.</summary>
    public static IReadOnlyList<string> All { get; } = [Put, Get, GetArray, HaveKey];
}
