namespace KvBench.Evaluation.Comparison;

/// <summary>A results file that cannot be compared: it cannot be read, is not JSON, or holds no workload run.</summary>
public sealed class ResultsFileException : Exception
{
    /// <summary>Names the file and what is wrong with it.</summary>
    public ResultsFileException(string path, string problem, Exception? inner = null)
        : base($"{path} {problem}.", inner) => Path = path;

    /// <summary>The file.</summary>
    public string Path { get; }
}
