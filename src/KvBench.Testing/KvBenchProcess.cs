using System.Diagnostics;

namespace KvBench.Testing;

/// <summary>
/// The <c>kvbench</c> command, run as a process of its own: the second process of the multi-process suite and the
/// writer and checker of the crash rounds. It loads a team's row from its assembly (<c>--rows-from</c>), so it
/// runs the team's store, not a copy of it.
/// </summary>
public sealed class KvBenchProcess
{
    /// <summary>
    /// The variable that names the <c>kvbench</c> to run: a <c>kvbench.dll</c> (run by the <c>dotnet</c> host) or a
    /// <c>kvbench</c> executable. Without it, a <c>kvbench.dll</c> beside the test assembly, then <c>kvbench</c> on the
    /// PATH (the tool installed with <c>dotnet tool install</c>).
    /// </summary>
    public const string Variable = "KVBENCH_CLI";

    private readonly string _program;
    private readonly string[] _leadingArguments;

    private KvBenchProcess(string program, string[] leadingArguments)
    {
        _program = program;
        _leadingArguments = leadingArguments;
    }

    /// <summary>kvbench's exit code for a command that did what it was asked.</summary>
    public const int Ok = 0;

    /// <summary>kvbench's exit code when another process holds the store.</summary>
    public const int StoreLocked = 3;

    /// <summary>kvbench's exit code when <c>verify</c> read records that are not what was written.</summary>
    public const int VerificationFailed = 5;

    /// <summary>kvbench's exit code when the store's files are damaged (<see cref="Core.StoreDamagedException"/>).</summary>
    public const int StoreDamaged = 8;

    /// <summary>The <c>kvbench</c> this test process runs (see <see cref="Variable"/>).</summary>
    public static KvBenchProcess Locate()
    {
        if (Environment.GetEnvironmentVariable(Variable) is { Length: > 0 } named)
        {
            return For(Path.GetFullPath(named));
        }

        string beside = Path.Combine(AppContext.BaseDirectory, "kvbench.dll");
        return File.Exists(beside) ? For(beside) : new KvBenchProcess("kvbench", []);
    }

    /// <summary>Runs <c>kvbench</c> with <paramref name="arguments"/> to its end, killing it past <paramref name="timeout"/>.</summary>
    /// <returns>Its exit code and everything it printed.</returns>
    /// <exception cref="TimeoutException">It ran longer than <paramref name="timeout"/> and was killed.</exception>
    public async Task<KvBenchRun> RunAsync(IEnumerable<string> arguments, TimeSpan timeout)
    {
        var start = new ProcessStartInfo(_program)
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        foreach (string argument in _leadingArguments.Concat(arguments))
        {
            start.ArgumentList.Add(argument);
        }

        string commandLine = string.Join(' ', start.ArgumentList);
        using Process process = Process.Start(start) ?? throw new InvalidOperationException($"`{_program}` did not start.");
        Task<string> output = process.StandardOutput.ReadToEndAsync();
        Task<string> error = process.StandardError.ReadToEndAsync();
        using var deadline = new CancellationTokenSource(timeout);
        try
        {
            await process.WaitForExitAsync(deadline.Token);
        }
        catch (OperationCanceledException)
        {
            process.Kill(entireProcessTree: true);
            await process.WaitForExitAsync();
            throw new TimeoutException($"`kvbench {commandLine}` ran longer than {timeout.TotalSeconds:0} s and was killed: {await error}");
        }

        return new KvBenchRun(commandLine, process.ExitCode, await output, await error);
    }

    private static KvBenchProcess For(string path) =>
        path.EndsWith(".dll", StringComparison.OrdinalIgnoreCase) ? new KvBenchProcess(DotnetHost(), [path]) : new KvBenchProcess(path, []);

    /// <summary>The <c>dotnet</c> host the SDK started this process under, or the one on the PATH.</summary>
    private static string DotnetHost() =>
        Environment.GetEnvironmentVariable("DOTNET_HOST_PATH") is { Length: > 0 } host && File.Exists(host) ? host : "dotnet";
}

/// <summary>One finished <c>kvbench</c> run.</summary>
/// <param name="CommandLine">Its arguments, for messages.</param>
/// <param name="ExitCode">Its exit code.</param>
/// <param name="Output">What it printed on standard output.</param>
/// <param name="Error">What it printed on standard error.</param>
public sealed record KvBenchRun(string CommandLine, int ExitCode, string Output, string Error)
{
    /// <inheritdoc/>
    public override string ToString() => $"`kvbench {CommandLine}` exited {ExitCode}: {Output.Trim()} {Error.Trim()}";
}
