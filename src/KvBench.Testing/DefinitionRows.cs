using KvBench.Core;

namespace KvBench.Testing;

/// <summary>
/// A team's row, <typeparamref name="TDefinition"/>, as the suites see it: its name as theory data, its store opened
/// in this process with the checks <c>kvbench</c> makes before it calls <see cref="KeyValueStoreDefinition.Open"/>,
/// and the argument that makes a <c>kvbench</c> process load it.
/// </summary>
/// <typeparam name="TDefinition">The row's definition, as the team's assembly declares it to kvbench.</typeparam>
public static class DefinitionRows<TDefinition>
    where TDefinition : KeyValueStoreDefinition, new()
{
    /// <summary>The one definition of this test process.</summary>
    public static TDefinition Definition { get; } = new();

    /// <summary>The row's name.</summary>
    public static TheoryData<string> Rows => [Definition.Name];

    /// <summary>The row with every tier it declares.</summary>
    public static TheoryData<string, Durability> Tiers
    {
        get
        {
            var data = new TheoryData<string, Durability>();
            foreach (Durability durability in Enum.GetValues<Durability>().Where(durability => Definition.Capabilities.Durability.Offers(durability)))
            {
                data.Add(Definition.Name, durability);
            }

            return data;
        }
    }

    /// <summary>The row when it keeps its data past a dispose (declares a tier), else nothing.</summary>
    public static TheoryData<string> PersistentRows =>
        Definition.Capabilities.Durability == DurabilityTiers.None ? [] : [Definition.Name];

    /// <summary>What a <c>kvbench</c> process needs to load the row: the assembly that declares it.</summary>
    public static IReadOnlyList<string> KvBenchArguments => ["--rows-from", typeof(TDefinition).Assembly.Location];

    /// <summary>
    /// Opens the store as <c>kvbench</c> does: the row must be available here and declare the tier, and a read-only or
    /// secondary open of a directory that holds no store fails with <see cref="StoreNotFoundException"/> before the
    /// team's code runs, so such an open creates nothing.
    /// </summary>
    public static IKeyValueStore Open(StoreOptions options)
    {
        Definition.CheckOpen(options);
        return Definition.Open(options);
    }
}
