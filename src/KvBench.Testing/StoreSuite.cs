using KvBench.Core;

namespace KvBench.Testing;

/// <summary>
/// What every suite of KvBench.Testing asks of the class that runs it: how to open a row's store, and how a
/// <c>kvbench</c> process finds the same row. A team derives the suites' generic forms (for example
/// <see cref="ConformanceSuite{TDefinition}"/>), which answer both from its <see cref="KeyValueStoreDefinition"/>.
/// </summary>
public abstract class StoreSuite
{
    /// <summary>The rows every theory runs over: a static <c>TheoryData&lt;string&gt;</c> of the test class.</summary>
    protected const string RowsMember = "RowsUnderTest";

    /// <summary>Every (row, tier) the rows offer: a static <c>TheoryData&lt;string, Durability&gt;</c> of the test class.</summary>
    protected const string TiersMember = "TiersUnderTest";

    /// <summary>The rows that keep data past a dispose: a static <c>TheoryData&lt;string&gt;</c> of the test class.</summary>
    protected const string PersistentRowsMember = "PersistentRowsUnderTest";

    /// <summary>Opens row <paramref name="name"/>'s store with <paramref name="options"/>.</summary>
    /// <param name="name">A row the test class's members name.</param>
    /// <param name="options">Directory, tier and access.</param>
    protected abstract IKeyValueStore Open(string name, StoreOptions options);

    /// <summary>
    /// The arguments a <c>kvbench</c> process needs to open row <paramref name="name"/> as this class does: none for a
    /// row KvBench ships, <c>--rows-from PATH</c> for a team's row.
    /// </summary>
    protected virtual IReadOnlyList<string> KvBenchRowArguments(string name) => [];

    /// <summary>Opens <paramref name="name"/> read-write at the Buffered tier in <paramref name="directory"/>.</summary>
    protected IKeyValueStore Open(string name, TempDirectory directory)
    {
        ArgumentNullException.ThrowIfNull(directory);
        return Open(name, new StoreOptions { Directory = directory.Path });
    }
}
