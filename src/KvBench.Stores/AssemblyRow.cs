using KvBench.Core;

namespace KvBench.Stores;

/// <summary>
/// A row a team defined in its own assembly (<see cref="KeyValueStoreDefinition"/>), loaded by <see cref="RowAssemblies"/>:
/// every command, suite and table treats it as any row. <see cref="StoreRow.Open"/> checks the open's arguments as for
/// every row, then hands back the team's store itself, not wrapped in KvBench's adapter: its calls, and its contract
/// bugs, are the team's own, and a check that finds one finds the team's.
/// </summary>
internal sealed class AssemblyRow(KeyValueStoreDefinition definition, string assemblyPath) : StoreRow(definition.Name, definition.Capabilities)
{
    /// <summary>The team's definition.</summary>
    public KeyValueStoreDefinition Definition { get; } = definition;

    /// <inheritdoc/>
    public override string LoadedFrom { get; } = assemblyPath;

    private protected override IKeyValueStore OpenAdapter(StoreOptions options) => Definition.Open(options);

    private protected override bool HoldsStore(string directory) => Definition.HoldsStore(directory);

    private protected override string? CheckAvailability() => Definition.CheckAvailability();

    private protected override string DescribeEngine() => Definition.Engine;
}
