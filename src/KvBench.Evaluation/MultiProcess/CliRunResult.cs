namespace KvBench.Evaluation.MultiProcess;

/// <summary>What one finished run of the CLI returned and printed.</summary>
/// <param name="ExitCode">The process's exit code.</param>
/// <param name="Output">Standard output, lines joined with <c>\n</c>.</param>
/// <param name="Error">Standard error.</param>
public sealed record CliRunResult(int ExitCode, string Output, string Error);
