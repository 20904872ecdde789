using System.Diagnostics;
using System.Globalization;
using System.Text.Json;
using System.Xml.Linq;

using KvBench.Core;

namespace KvBench.Stores.Servers;

/// <summary>
/// A server that is a .NET tool of KvBench's tool manifest (the repository's <c>.config/dotnet-tools.json</c>, copied
/// beside KvBench's assemblies as <see cref="ManifestPath"/>): restored with <c>dotnet tool restore</c> when the row's
/// server is first needed, and run as <c>dotnet &lt;entry point&gt;</c> straight from NuGet's global packages folder,
/// so the server is the process KvBench holds (<c>dotnet tool run</c> would put a host process of its own in between,
/// and a kill or a trace of that process would miss the server).
/// </summary>
internal sealed class DotnetServerTool : ServerInstall
{
    /// <summary>Restoring downloads the tool's package: minutes on a slow source.</summary>
    private static readonly TimeSpan s_restoreTimeout = TimeSpan.FromMinutes(10);

    private static readonly TimeSpan s_localsTimeout = TimeSpan.FromMinutes(1);

    private readonly string _package;
    private readonly Lazy<string?> _version;
    private readonly Lock _restoreLock = new();
    private Task? _restore;
    private string[]? _packagesFolders;

    public DotnetServerTool(string package)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(package);
        _package = package;
        _version = new(ReadManifestVersion);
    }

    /// <summary>KvBench's tool manifest as the build copies it beside KvBench's assemblies.</summary>
    public static string ManifestPath { get; } = Path.Combine(AppContext.BaseDirectory, "ServerTools", "dotnet-tools.json");

    public override string Package => _package;

    /// <summary>The version the manifest pins, or <see langword="null"/> when the manifest or the tool is missing.</summary>
    public string? Version => _version.Value;

    public override string? WhyNotInstallable() => Version is null
        ? $"the .NET tool {_package} is not in KvBench's tool manifest, {ManifestPath} (the build copies it from the repository's .config/dotnet-tools.json)"
        : null;

    public override Task EnsureInstalledAsync(string rowName)
    {
        lock (_restoreLock)
        {
            // A failed restore is not remembered, so a later suite tries again (a source that was down).
            if (_restore is null || _restore.IsFaulted)
            {
                _restore = Task.Run(() => Restore(rowName));
            }

            return _restore;
        }
    }

    public override string Describe() => $"{_package} {Version} (.NET tool)";

    /// <summary>The command that runs the restored tool with <paramref name="arguments"/>.</summary>
    /// <exception cref="StoreUnavailableException">The tool is not restored, or its package has no entry point for this runtime.</exception>
    public ProcessStartInfo StartInfo(string rowName, IEnumerable<string> arguments) =>
        new(
            DotnetHost.Path,
            [
                EntryPoint(rowName)
                    ?? throw new StoreUnavailableException(
                        rowName,
                        $"the .NET tool {_package} {Version} is not restored: `dotnet tool restore --tool-manifest {ManifestPath}`"),
                .. arguments]);

    private void Restore(string rowName)
    {
        if (WhyNotInstallable() is { } reason)
        {
            throw new StoreUnavailableException(rowName, $"its server cannot be installed here: {reason}");
        }

        if (EntryPoint(rowName) is not null)
        {
            return;
        }

        Console.Error.WriteLine($"KvBench: restoring the .NET tool {_package} {Version} from KvBench's tool manifest for the {rowName} row");
        (int exitCode, string output) = ServerCommand.Run(
            new ProcessStartInfo(DotnetHost.Path, ["tool", "restore", "--tool-manifest", ManifestPath]),
            s_restoreTimeout);
        if (exitCode != 0 || EntryPoint(rowName) is null)
        {
            throw new StoreUnavailableException(
                rowName,
                $"its server cannot be installed here: `dotnet tool restore --tool-manifest {ManifestPath}` exited " +
                    $"with code {exitCode}: {ServerCommand.LastLines(output, 1)}");
        }
    }

    /// <summary>
    /// The restored tool's entry point for the newest target framework this runtime runs, as the package's
    /// DotnetToolSettings.xml names it, or <see langword="null"/> when no packages folder holds the package.
    /// </summary>
    private string? EntryPoint(string rowName)
    {
        _packagesFolders ??= PackagesFolders(rowName);
        string? packageDirectory = _packagesFolders
            .Select(folder => Path.Combine(folder, _package.ToLowerInvariant(), Version!.ToLowerInvariant(), "tools"))
            .FirstOrDefault(Directory.Exists);
        if (packageDirectory is null)
        {
            return null;
        }

        string? framework = Directory.EnumerateDirectories(packageDirectory)
            .Select(Path.GetFileName)
            .Select(name => (Name: name!, Major: FrameworkMajor(name!)))
            .Where(framework => framework.Major is { } major && major <= Environment.Version.Major)
            .OrderByDescending(framework => framework.Major)
            .Select(framework => framework.Name)
            .FirstOrDefault();
        string settings = Path.Combine(packageDirectory, framework ?? string.Empty, "any", "DotnetToolSettings.xml");
        if (framework is null || !File.Exists(settings))
        {
            return null;
        }

        string? entryPoint = XDocument.Load(settings).Descendants("Command").Select(command => (string?)command.Attribute("EntryPoint")).FirstOrDefault();
        return entryPoint is null ? null : Path.Combine(Path.GetDirectoryName(settings)!, entryPoint);
    }

    /// <summary>The major version of a <c>netX.Y</c> target framework folder, or <see langword="null"/> for any other name.</summary>
    private static int? FrameworkMajor(string name) =>
        name.StartsWith("net", StringComparison.Ordinal) && name.Split('.') is [string major, _]
        && int.TryParse(major.AsSpan(3), NumberStyles.None, CultureInfo.InvariantCulture, out int value) ? value : null;

    /// <summary>
    /// Where <c>dotnet tool restore</c> may have put the package: the global packages folder as the SDK names it (a
    /// NuGet.Config or NUGET_PACKAGES may move it), then NuGet's default one, where the SDK's tool restore put it here
    /// even with NUGET_PACKAGES set elsewhere.
    /// </summary>
    private static string[] PackagesFolders(string rowName)
    {
        (int exitCode, string output) = ServerCommand.Run(
            new ProcessStartInfo(DotnetHost.Path, ["nuget", "locals", "global-packages", "--list"]),
            s_localsTimeout);
        const string Prefix = "global-packages:";
        string? line = output.Split('\n').Select(line => line.Trim()).FirstOrDefault(line => line.StartsWith(Prefix, StringComparison.Ordinal));
        return exitCode == 0 && line is not null
            ? [line[Prefix.Length..].Trim(), Path.Combine(Environment.GetFolderPath(Environment.SpecialFolder.UserProfile), ".nuget", "packages")]
            : throw new StoreUnavailableException(
                rowName,
                $"`dotnet nuget locals global-packages --list` did not name the global packages folder (exit code " +
                    $"{exitCode}): {ServerCommand.LastLines(output, 1)}");
    }

    private string? ReadManifestVersion()
    {
        if (!File.Exists(ManifestPath))
        {
            return null;
        }

        using JsonDocument manifest = JsonDocument.Parse(File.ReadAllBytes(ManifestPath));
        return manifest.RootElement.TryGetProperty("tools", out JsonElement tools)
            && tools.TryGetProperty(_package, out JsonElement tool)
            && tool.TryGetProperty("version", out JsonElement version)
                ? version.GetString()
                : null;
    }
}
