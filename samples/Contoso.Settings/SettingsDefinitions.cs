using System.Reflection;

using Contoso.Settings;

using KvBench.Core;

using Microsoft.Data.Sqlite;

[assembly: KeyValueStoreDefinition(typeof(ContosoSettingsDefinition))]
[assembly: KeyValueStoreDefinition(typeof(DropsEverySeventhPutDefinition))]
[assembly: KeyValueStoreDefinition(typeof(StaleAfterReopenDefinition))]
[assembly: KeyValueStoreDefinition(typeof(NoLockDefinition))]

namespace Contoso.Settings;

/// <summary>The settings store as kvbench sees it: the row <c>ContosoSettings</c>.</summary>
public sealed class ContosoSettingsDefinition() : SettingsDefinition("ContosoSettings", SettingsFault.None);

/// <summary>Broken on purpose: <c>ContosoSettings_DropsPuts</c> acknowledges every seventh <c>Put</c> and stores nothing.</summary>
public sealed class DropsEverySeventhPutDefinition() : SettingsDefinition("ContosoSettings_DropsPuts", SettingsFault.DropsEverySeventhPut);

/// <summary>
/// Broken on purpose: <c>ContosoSettings_Stale</c> reads from a cache the process took at its first open, so a reopen in
/// the same process serves values as they were then.
/// </summary>
public sealed class StaleAfterReopenDefinition() : SettingsDefinition("ContosoSettings_Stale", SettingsFault.StaleAfterReopen);

/// <summary>
/// Broken on purpose: <c>ContosoSettings_NoLock</c> turns SQLite's file locks off, so two processes writing at once lose
/// each other's writes, while it still claims several processes may write.
/// </summary>
public sealed class NoLockDefinition() : SettingsDefinition("ContosoSettings_NoLock", SettingsFault.NoLock);

/// <summary>What every variant of the settings store shares: its capabilities, its file and its engine.</summary>
public abstract class SettingsDefinition : KeyValueStoreDefinition
{
    private readonly SettingsFault _fault;

    private protected SettingsDefinition(string name, SettingsFault fault)
    {
        Name = name;
        _fault = fault;
    }

    /// <inheritdoc/>
    public override string Name { get; }

    /// <inheritdoc/>
    public override StoreCapabilities Capabilities => SettingsCapabilities.Declared;

    /// <inheritdoc/>
    public override string Engine =>
        $"Contoso.Settings {Version(typeof(SettingsStore).Assembly)} over Microsoft.Data.Sqlite {Version(typeof(SqliteConnection).Assembly)}";

    /// <inheritdoc/>
    public override IKeyValueStore Open(StoreOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        return new SettingsStore(Name, options, _fault);
    }

    /// <inheritdoc/>
    public override bool HoldsStore(string directory) => File.Exists(Path.Combine(directory, SettingsStore.FileName));

    /// <summary>The database and, if a writer left one, its write-ahead log; SQLite's shared-memory index holds no data.</summary>
    public override IReadOnlyList<string> DataFiles(string directory) =>
        [.. new[] { SettingsStore.FileName, $"{SettingsStore.FileName}-wal" }.Select(name => Path.Combine(directory, name)).Where(File.Exists)];

    private static string Version(Assembly assembly) =>
        assembly.GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion.Split('+')[0]
            ?? assembly.GetName().Version?.ToString()
            ?? "unknown";
}
