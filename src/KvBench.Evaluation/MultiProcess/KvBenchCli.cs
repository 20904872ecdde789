using System.Diagnostics;

using KvBench.Stores;

namespace KvBench.Evaluation.MultiProcess;

/// <summary>
/// The <c>kvbench</c> command line, started as a child process: the second process of every multi-process check, and
/// what the CLI and tool tests drive. Either a <c>kvbench.dll</c> run by the <c>dotnet</c> host, or a <c>kvbench</c>
/// executable (the installed tool's command, or a build's apphost) run directly.
/// </summary>
public sealed class KvBenchCli
{
    /// <summary>The CLI's assembly file name.</summary>
    public const string AssemblyFileName = "kvbench.dll";

    /// <summary>The command's name: the tool's command and the apphost's file name (without ".exe").</summary>
    public const string CommandName = "kvbench";

    /// <summary>The program a start runs: the <c>dotnet</c> host for an assembly, the executable itself otherwise.</summary>
    private readonly string _program;

    /// <summary>Arguments that come before the command line: the assembly when the host is <c>dotnet</c>, none for an executable.</summary>
    private readonly string[] _leadingArguments;

    private KvBenchCli(string path, string program, string[] leadingArguments)
    {
        Location = path;
        _program = program;
        _leadingArguments = leadingArguments;
    }

    /// <summary>The full path of the <c>kvbench.dll</c> or <c>kvbench</c> executable that is started.</summary>
    public string Location { get; }

    /// <summary>Uses the <c>kvbench.dll</c> at <paramref name="assemblyPath"/>, run by the <c>dotnet</c> host of this process.</summary>
    /// <exception cref="FileNotFoundException">There is no file at that path.</exception>
    public static KvBenchCli FromAssembly(string assemblyPath)
    {
        string path = Existing(assemblyPath);
        return new KvBenchCli(path, DotnetHost.Path, [path]);
    }

    /// <summary>Uses the <c>kvbench</c> executable at <paramref name="executablePath"/>, run directly.</summary>
    /// <exception cref="FileNotFoundException">There is no file at that path.</exception>
    public static KvBenchCli FromExecutable(string executablePath)
    {
        string path = Existing(executablePath);
        return new KvBenchCli(path, path, []);
    }

    /// <summary>
    /// The one place that decides which <c>kvbench</c> this process starts as its second process, so a check runs the
    /// same way from a build, from the benchmarks, from the tests and from the installed tool.
    /// </summary>
    public static KvBenchCli Locate()
    {
        // kvbench started through its own executable (the installed tool's command, a build's bin/.../kvbench, and
        // `dotnet run`, which starts that apphost) starts that executable again: it finds the runtime exactly as the
        // user's command did, and needs no `dotnet` on the PATH, which a tool installed by someone else does not promise.
        if (Environment.ProcessPath is { } processPath && Path.GetFileNameWithoutExtension(processPath) == CommandName)
        {
            return FromExecutable(processPath);
        }

        // Everything else runs on a dotnet host: kvbench itself under `dotnet kvbench.dll` (its assembly is the
        // application), and the tests and benchmarks, whose reference to KvBench.Cli copies kvbench.dll beside them.
        // The child runs on the same host, hence the same runtime, as this process.
        return FromAssembly(Path.Combine(AppContext.BaseDirectory, AssemblyFileName));
    }

    /// <summary>Starts the CLI with <paramref name="arguments"/>, every stream redirected.</summary>
    public CliProcess Start(IEnumerable<string> arguments) => new(StartInfo(arguments));

    /// <summary>Runs the CLI to its end and returns what it printed.</summary>
    /// <param name="arguments">The command line, without the program name.</param>
    /// <param name="timeout">How long the run may take; past it the process tree is killed.</param>
    /// <param name="workingDirectory">The directory it runs in; this process's when <see langword="null"/>.</param>
    /// <exception cref="TimeoutException">The run overran <paramref name="timeout"/> and was killed.</exception>
    public Task<CliRunResult> RunAsync(IEnumerable<string> arguments, TimeSpan timeout, string? workingDirectory = null)
    {
        ProcessStartInfo startInfo = StartInfo(arguments);
        startInfo.WorkingDirectory = workingDirectory ?? string.Empty;
        return CliProcess.RunAsync(startInfo, timeout);
    }

    /// <summary>
    /// Runs the CLI under <paramref name="wrapper"/> (a tracer such as strace, given its own
    /// <paramref name="wrapperArguments"/> first) to its end and returns what it printed.
    /// </summary>
    /// <exception cref="TimeoutException">The run overran <paramref name="timeout"/> and was killed.</exception>
    public Task<CliRunResult> RunUnderAsync(string wrapper, IEnumerable<string> wrapperArguments, IEnumerable<string> arguments, TimeSpan timeout)
    {
        ArgumentException.ThrowIfNullOrEmpty(wrapper);
        ArgumentNullException.ThrowIfNull(wrapperArguments);
        ArgumentNullException.ThrowIfNull(arguments);
        ProcessStartInfo startInfo = StartInfo(arguments);
        ProcessStartInfo wrapped = CliProcess.RedirectedStartInfo(wrapper, [.. wrapperArguments, startInfo.FileName, .. startInfo.ArgumentList]);
        foreach ((string name, string? value) in startInfo.Environment)
        {
            wrapped.Environment[name] = value;
        }

        return CliProcess.RunAsync(wrapped, timeout);
    }

    private ProcessStartInfo StartInfo(IEnumerable<string> arguments)
    {
        ArgumentNullException.ThrowIfNull(arguments);
        ProcessStartInfo startInfo = CliProcess.RedirectedStartInfo(_program, _leadingArguments.Concat(arguments));

        // A progress bar or colours would only garble output that is read by a program.
        startInfo.Environment["NO_COLOR"] = "1";

        // The child opens rows by name as this process does, rows from teams' assemblies included: it loads the same files.
        if (RowAssemblies.Loaded is { Count: > 0 } loaded)
        {
            startInfo.Environment[RowAssemblies.EnvironmentVariable] = string.Join(Path.PathSeparator, loaded);
        }

        return startInfo;
    }

    private static string Existing(string path)
    {
        ArgumentException.ThrowIfNullOrEmpty(path);
        string fullPath = Path.GetFullPath(path);
        return File.Exists(fullPath)
            ? fullPath
            : throw new FileNotFoundException(
                $"The kvbench CLI is not at '{fullPath}'; build src/KvBench.Cli, reference it from this project, or install the tool.",
                fullPath);
    }
}
