namespace KvBench.Stores.Servers;

/// <summary>
/// Where a server row's server comes from and how KvBench gets it when the row's server is first needed (never as a
/// side effect of a build): a Debian package (<see cref="DebianServerPackage"/>) or a .NET tool of KvBench's tool
/// manifest (<see cref="DotnetServerTool"/>).
/// </summary>
internal abstract class ServerInstall
{
    /// <summary>The package's name, as the row's engine names it: <c>redis-server</c>, <c>garnet-server</c>.</summary>
    public abstract string Package { get; }

    /// <summary>
    /// Why the server is neither installed nor installable here (one line, with the command that installs it), or
    /// <see langword="null"/> when it is, or KvBench can install it.
    /// </summary>
    public abstract string? WhyNotInstallable();

    /// <summary>Installs the server unless it is installed, saying so in one line on standard error.</summary>
    /// <exception cref="KvBench.Core.StoreUnavailableException">It cannot be installed here, or installing failed.</exception>
    public abstract Task EnsureInstalledAsync(string rowName);

    /// <summary>The package and the version KvBench starts (installed, or to be installed when first needed).</summary>
    public abstract string Describe();
}

/// <summary>A server from one of Debian's packages (<see cref="DebianPackages"/>), installed with apt-get as root.</summary>
internal sealed class DebianServerPackage : ServerInstall
{
    private readonly string _package;

    public DebianServerPackage(string package)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(package);
        _package = package;
    }

    public override string Package => _package;

    public override string? WhyNotInstallable() => DebianPackages.WhyNotInstallable(_package);

    public override Task EnsureInstalledAsync(string rowName) => DebianPackages.EnsureInstalledAsync(rowName, _package);

    public override string Describe() => $"{_package} " + (DebianPackages.InstalledVersion(_package) ?? "(installed when first needed)");
}
