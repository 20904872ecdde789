using System.Collections.Concurrent;
using System.Diagnostics;

using KvBench.Core;

namespace KvBench.Stores.Servers;

/// <summary>
/// The Debian packages that hold the servers of the server rows: whether one is installed, whether it could be, and
/// installing it when a row's server is first needed (never as a side effect of a build: a team that never measures a
/// server gets none installed). The one place that runs apt-get at run time.
/// </summary>
internal static class DebianPackages
{
    private const string AptGet = "/usr/bin/apt-get";

    private const string DpkgQuery = "/usr/bin/dpkg-query";

    /// <summary>The lock build/install-debian-packages.sh takes too, so a build and a server row never run dpkg at once.</summary>
    private const string InstallLock = "/tmp/kvbench-install-debian-packages.lock";

    /// <summary>An install downloads and configures a server: minutes on a slow mirror.</summary>
    private static readonly TimeSpan s_installTimeout = TimeSpan.FromMinutes(15);

    /// <summary>One install per package and process, however many suites ask for it at once.</summary>
    private static readonly ConcurrentDictionary<string, Lazy<Task>> s_installs = new(StringComparer.Ordinal);

    /// <summary>Whether dpkg has <paramref name="package"/> installed.</summary>
    public static bool IsInstalled(string package)
    {
        if (!File.Exists(DpkgQuery))
        {
            return false;
        }

        (int exitCode, string output) = Run(DpkgQuery, ["-W", "-f=${Status}", package], TimeSpan.FromSeconds(30));
        return exitCode == 0 && output.Contains("install ok installed", StringComparison.Ordinal);
    }

    /// <summary>The installed version of <paramref name="package"/> as dpkg names it, or <see langword="null"/> when it is not installed.</summary>
    public static string? InstalledVersion(string package)
    {
        if (!IsInstalled(package))
        {
            return null;
        }

        (int exitCode, string output) = Run(DpkgQuery, ["-W", "-f=${Version}", package], TimeSpan.FromSeconds(30));
        return exitCode == 0 ? output.Trim() : null;
    }

    /// <summary>
    /// Why <paramref name="package"/> is neither installed nor installable here (one line, with the command that
    /// installs it), or <see langword="null"/> when it is installed or KvBench can install it (root, with apt-get).
    /// </summary>
    public static string? WhyNotInstallable(string package)
    {
        if (IsInstalled(package))
        {
            return null;
        }

        if (!OperatingSystem.IsLinux() || !File.Exists(AptGet))
        {
            return $"{package} is not installed and this machine has no apt-get to install it";
        }

        return Environment.IsPrivilegedProcess
            ? null
            : $"{package} is not installed, and KvBench installs it only when it runs as root; install it with: sudo apt-get install {package}";
    }

    /// <summary>Installs <paramref name="package"/> unless it is installed, saying so in one line on standard error.</summary>
    /// <exception cref="StoreUnavailableException">It cannot be installed here, or apt-get failed.</exception>
    public static Task EnsureInstalledAsync(string rowName, string package)
    {
        if (IsInstalled(package))
        {
            return Task.CompletedTask;
        }

        Task install = s_installs.GetOrAdd(package, name => new Lazy<Task>(() => Task.Run(() => Install(rowName, name)))).Value;

        // A failed install is not remembered, so a later suite tries again (a mirror that was down, a dpkg lock held too long).
        _ = install.ContinueWith(
            _ => s_installs.TryRemove(package, out Lazy<Task>? _),
            CancellationToken.None,
            TaskContinuationOptions.OnlyOnFaulted,
            TaskScheduler.Default);
        return install;
    }

    private static void Install(string rowName, string package)
    {
        if (WhyNotInstallable(package) is { } reason)
        {
            throw new StoreUnavailableException(rowName, $"its server is not installed and cannot be installed here: {reason}");
        }

        Console.Error.WriteLine($"KvBench: installing {package} from Debian's packages for the {rowName} row");

        // dpkg allows one installer at a time: flock waits for a build's install, DPkg::Lock::Timeout for anyone else's.
        string[] install = [InstallLock, AptGet, "install", "-y", "--no-install-recommends", "-o", "DPkg::Lock::Timeout=600", package];
        (int exitCode, string output) = Run("flock", install, s_installTimeout);
        if (exitCode != 0)
        {
            // A fresh machine may have no package lists yet, or stale ones that name files the mirror no longer has.
            (int updateCode, string updateOutput) = Run("flock", [InstallLock, AptGet, "update", "-o", "DPkg::Lock::Timeout=600"], s_installTimeout);
            (exitCode, output) = updateCode == 0 ? Run("flock", install, s_installTimeout) : (updateCode, updateOutput);
        }

        if (exitCode != 0 || !IsInstalled(package))
        {
            throw new StoreUnavailableException(
                rowName,
                $"its server is not installed and cannot be installed here: apt-get install {package} exited with " +
                    $"code {exitCode}: {ServerCommand.LastLines(output, 1)}");
        }
    }

    private static (int ExitCode, string Output) Run(string program, IEnumerable<string> arguments, TimeSpan timeout)
    {
        var startInfo = new ProcessStartInfo(program, arguments);
        startInfo.Environment["DEBIAN_FRONTEND"] = "noninteractive";
        return ServerCommand.Run(startInfo, timeout);
    }

}
