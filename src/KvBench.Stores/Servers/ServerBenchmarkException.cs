namespace KvBench.Stores.Servers;

/// <summary>A server's own benchmark tool failed, or printed what is not its report.</summary>
public sealed class ServerBenchmarkException : Exception
{
    /// <summary>Creates the error for <paramref name="tool"/>, saying what went wrong.</summary>
    public ServerBenchmarkException(string tool, string problem)
        : base($"{tool}: {problem}")
    {
        Tool = tool;
    }

    /// <summary>The tool.</summary>
    public string Tool { get; }
}
