using System.Reflection;

using BenchmarkDotNet.Running;

namespace KvBench.Benchmarks;

/// <summary>
/// Marks a benchmark method that changes the preloaded dataset it runs on (a Put rewrites values, and the engine's files
/// grow with every rewrite: LSM levels, copy-on-write pages, log tails, WAL frames). <see cref="ReadsBeforeWritesOrderer"/>
/// runs such cases after every case that only reads.
/// </summary>
[AttributeUsage(AttributeTargets.Method, AllowMultiple = false)]
internal sealed class WritesDatasetAttribute : Attribute
{
    /// <summary>Whether <paramref name="benchmarkCase"/>'s method is marked.</summary>
    public static bool IsOn(BenchmarkCase benchmarkCase) =>
        benchmarkCase.Descriptor.WorkloadMethod.GetCustomAttribute<WritesDatasetAttribute>() is not null;
}
