namespace KvBench.Benchmarks;

/// <summary>A fresh data directory for one benchmark case, on the system temp directory's file system, deleted at cleanup.</summary>
internal sealed class BenchmarkDirectory : IDisposable
{
    public BenchmarkDirectory(string row) =>
        Path = Directory.CreateDirectory(System.IO.Path.Combine(System.IO.Path.GetTempPath(), "kvbench-benchmarks", $"{row}-{Guid.NewGuid():N}")).FullName;

    public string Path { get; }

    public void Dispose() => Directory.Delete(Path, recursive: true);
}
