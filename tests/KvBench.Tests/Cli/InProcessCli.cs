using System.CommandLine;

using KvBench.Cli;

namespace KvBench.Tests.Cli;

/// <summary><c>kvbench</c> run in this process, as a test calls it: the exit code and what it wrote to each stream.</summary>
internal static class InProcessCli
{
    public static (int ExitCode, string Output, string Error) Invoke(params string[] args)
    {
        var output = new StringWriter();
        var error = new StringWriter();
        int exitCode = KvBenchCommand.Invoke(args, new InvocationConfiguration { Output = output, Error = error });
        return (exitCode, output.ToString(), error.ToString());
    }
}
