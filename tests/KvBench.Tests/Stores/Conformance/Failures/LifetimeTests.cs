using KvBench.Core;
using KvBench.Stores;


namespace KvBench.Tests.Stores.Conformance.Failures;

/// <summary>KvBench.Testing's lifetime suite over every embedded row, what they need running started once for the class.</summary>
public sealed class LifetimeTests : LifetimeSuite, IClassFixture<RowHostsFixture>
{
    public static TheoryData<string> RowsUnderTest => Rows.Available;

    protected override IKeyValueStore Open(string name, StoreOptions options) => StoreCatalog.Open(name, options);
}

/// <summary>The lifetime suite over the server rows, their servers started once for the class.</summary>
[Trait("Category", "Servers")]
public sealed class ServerLifetimeTests : LifetimeSuite, IClassFixture<ServerHostsFixture>
{
    public static TheoryData<string> RowsUnderTest => Rows.Servers;

    protected override IKeyValueStore Open(string name, StoreOptions options) => StoreCatalog.Open(name, options);
}
