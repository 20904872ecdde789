using System.Diagnostics;

namespace KvBench.Evaluation.MultiProcess;

/// <summary>
/// The built <c>kvbench</c> command line, started as a child process with <c>dotnet kvbench.dll</c>: the second process of
/// every multi-process check, and what the CLI tests drive.
/// </summary>
public sealed class KvBenchCli
{
    /// <summary>The CLI's assembly file name.</summary>
    public const string AssemblyFileName = "kvbench.dll";

    /// <summary>Uses the CLI at <paramref name="assemblyPath"/>.</summary>
    /// <exception cref="FileNotFoundException">There is no file at that path.</exception>
    public KvBenchCli(string assemblyPath)
    {
        ArgumentException.ThrowIfNullOrEmpty(assemblyPath);
        AssemblyPath = Path.GetFullPath(assemblyPath);
        if (!File.Exists(AssemblyPath))
        {
            throw new FileNotFoundException($"The kvbench CLI is not at '{AssemblyPath}'; build src/KvBench.Cli or reference it from this project.", AssemblyPath);
        }
    }

    /// <summary>The full path of <c>kvbench.dll</c>.</summary>
    public string AssemblyPath { get; }

    /// <summary>
    /// The CLI next to the running application: a project that references KvBench.Cli gets <c>kvbench.dll</c> copied
    /// into its output, and the CLI finds itself there too.
    /// </summary>
    public static KvBenchCli NextToApplication() => new(Path.Combine(AppContext.BaseDirectory, AssemblyFileName));

    /// <summary>Starts the CLI with <paramref name="arguments"/>, every stream redirected.</summary>
    public CliProcess Start(IEnumerable<string> arguments)
    {
        ArgumentNullException.ThrowIfNull(arguments);
        var startInfo = new ProcessStartInfo(DotnetHost())
        {
            RedirectStandardInput = true,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        startInfo.ArgumentList.Add(AssemblyPath);
        foreach (string argument in arguments)
        {
            startInfo.ArgumentList.Add(argument);
        }

        // A progress bar or colours would only garble output that is read by a program.
        startInfo.Environment["NO_COLOR"] = "1";
        return new CliProcess(startInfo);
    }

    /// <summary>Runs the CLI to its end and returns what it printed.</summary>
    /// <param name="arguments">The command line, without the program name.</param>
    /// <param name="timeout">How long the run may take; past it the process tree is killed.</param>
    /// <exception cref="TimeoutException">The run overran <paramref name="timeout"/> and was killed.</exception>
    public async Task<CliRunResult> RunAsync(IEnumerable<string> arguments, TimeSpan timeout)
    {
        await using CliProcess process = Start(arguments);
        process.CloseInput();
        int exitCode = await process.WaitForExitAsync(timeout).ConfigureAwait(false)
            ?? throw new TimeoutException($"kvbench {string.Join(' ', arguments)} ran longer than {timeout.TotalSeconds:0.#} s and was killed. Its error output: {process.StandardError}");
        return new CliRunResult(exitCode, string.Join('\n', await process.ReadAllOutputLinesAsync().ConfigureAwait(false)), process.StandardError);
    }

    /// <summary>The <c>dotnet</c> host that runs this process, so the child runs on the same runtime.</summary>
    private static string DotnetHost()
    {
        // Set by the SDK for everything it starts (dotnet test, dotnet run).
        if (Environment.GetEnvironmentVariable("DOTNET_HOST_PATH") is { Length: > 0 } hostPath && File.Exists(hostPath))
        {
            return hostPath;
        }

        string? processPath = Environment.ProcessPath;
        return processPath is not null && Path.GetFileNameWithoutExtension(processPath) == "dotnet" ? processPath : "dotnet";
    }
}
