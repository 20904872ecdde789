namespace KvBench.Evaluation.Decision;

/// <summary>
/// A decision profile that cannot be read: the file is missing, is not JSON, or states something the format does not
/// allow. The message is one line that names the place (<see cref="JsonPath"/>) and the problem, so a team can fix the
/// file from the message alone.
/// </summary>
public sealed class ProfileException : Exception
{
    /// <summary>A problem at <paramref name="jsonPath"/> of the profile <paramref name="sourceName"/>.</summary>
    /// <param name="sourceName">The file (or other source) the profile came from.</param>
    /// <param name="jsonPath">Where the problem is, such as <c>$.workload.mix</c>; empty for a file that could not be read.</param>
    /// <param name="problem">What is wrong and, where it helps, how to fix it.</param>
    /// <param name="innerException">The parser's or file system's error behind this one, if any.</param>
    public ProfileException(string sourceName, string jsonPath, string problem, Exception? innerException = null)
        : base(jsonPath.Length == 0 ? problem : $"{jsonPath}: {problem}", innerException)
    {
        SourceName = sourceName;
        JsonPath = jsonPath;
        Problem = problem;
    }

    /// <summary>The file (or other source) the profile came from.</summary>
    public string SourceName { get; }

    /// <summary>Where the problem is, as a JSON path such as <c>$.workload.valueBytes.buckets[1].bytes</c>; empty when the file could not be read.</summary>
    public string JsonPath { get; }

    /// <summary>The problem without its path.</summary>
    public string Problem { get; }
}
