using KvBench.Stores;

namespace KvBench.Tests;

/// <summary>
/// What the suite's rows need running (<see cref="StoreRow.CreateHost"/>), started once before the suite's first case
/// and stopped after its last, also when cases fail: xUnit creates a class fixture once per test class and disposes it
/// after the class's last test.
/// </summary>
public sealed class RowHostsFixture : IAsyncLifetime
{
    private RowHostGroup? _hosts;

    public async Task InitializeAsync() =>
        _hosts = await StoreCatalog.StartHostsAsync([.. StoreCatalog.AvailableNames, .. StoreCatalog.AvailableStrategyNames]);

    public async Task DisposeAsync()
    {
        if (_hosts is not null)
        {
            await _hosts.DisposeAsync();
        }
    }
}
