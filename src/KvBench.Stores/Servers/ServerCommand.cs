using System.Diagnostics;

using KvBench.Core;

namespace KvBench.Stores.Servers;

/// <summary>A command a server row runs to its end: installing a package, initialising a data directory.</summary>
internal static class ServerCommand
{
    /// <summary>
    /// Runs <paramref name="startInfo"/> to its end (killed, with its children, past <paramref name="timeout"/>) and
    /// returns its exit code and output.
    /// </summary>
    public static (int ExitCode, string Output) Run(ProcessStartInfo startInfo, TimeSpan timeout)
    {
        startInfo.RedirectStandardOutput = true;
        startInfo.RedirectStandardError = true;
        startInfo.RedirectStandardInput = true;
        startInfo.UseShellExecute = false;
        using Process process = Process.Start(startInfo) ?? throw new InvalidOperationException($"{startInfo.FileName} did not start.");
        process.StandardInput.Close();
        Task<string> output = process.StandardOutput.ReadToEndAsync();
        Task<string> error = process.StandardError.ReadToEndAsync();
        if (!process.WaitForExit(timeout))
        {
            process.Kill(entireProcessTree: true);
            process.WaitForExit();
            return (-1, $"{startInfo.FileName} did not finish within {timeout.TotalSeconds:0} s");
        }

        return (process.ExitCode, output.GetAwaiter().GetResult() + error.GetAwaiter().GetResult());
    }

    /// <summary>Runs <paramref name="startInfo"/> to its end; a failure makes the row unavailable, quoting what the command said of it.</summary>
    /// <exception cref="StoreUnavailableException">The command failed or overran <paramref name="timeout"/>.</exception>
    public static void RunOrThrow(string rowName, ProcessStartInfo startInfo, TimeSpan timeout)
    {
        (int exitCode, string output) = Run(startInfo, timeout);
        if (exitCode != 0)
        {
            throw new StoreUnavailableException(
                rowName,
                $"`{Path.GetFileName(startInfo.FileName)} {string.Join(' ', startInfo.ArgumentList)}` exited with " +
                    $"code {exitCode}: {Failure(output)}");
        }
    }

    /// <summary>
    /// The first lines of <paramref name="output"/> that name an error, or its last lines when none does: a command's last
    /// words are often a generic "Aborting" after its cause (mariadb-install-db prints the cause to standard output and
    /// its last words to standard error, which come after it here).
    /// </summary>
    public static string Failure(string output)
    {
        string[] errors = [.. output.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)
            .Where(line => line.Contains("error", StringComparison.OrdinalIgnoreCase)).Take(3)];
        return errors.Length == 0 ? LastLines(output, 3) : string.Join(" / ", errors);
    }

    /// <summary>The last <paramref name="count"/> non-empty lines of <paramref name="output"/>, on one line.</summary>
    public static string LastLines(string output, int count)
    {
        string[] lines = output.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
        return lines.Length == 0 ? "no output" : string.Join(" / ", lines[^Math.Min(count, lines.Length)..]);
    }
}
