using KvBench.Stores;

namespace KvBench.Tests;

/// <summary>
/// What the suite's rows need running (<see cref="StoreRow.CreateHost"/>), started once before the suite's first case
/// and stopped after its last, also when cases fail: xUnit creates a class fixture once per test class and disposes it
/// after the class's last test.
/// </summary>
public class RowHostsFixture : IAsyncLifetime
{
    private readonly IReadOnlyList<string> _names;
    private RowHostGroup? _hosts;

    /// <summary>The hosts of every embedded and strategy row available here.</summary>
    public RowHostsFixture()
        : this([.. StoreCatalog.AvailableNames, .. StoreCatalog.AvailableStrategyNames])
    {
    }

    /// <summary>The hosts of the rows <paramref name="names"/>.</summary>
    protected RowHostsFixture(IReadOnlyList<string> names) => _names = names;

    public async ValueTask InitializeAsync() => _hosts = await StoreCatalog.StartHostsAsync(_names);

    public async ValueTask DisposeAsync()
    {
        if (_hosts is not null)
        {
            await _hosts.DisposeAsync();
        }
    }
}

/// <summary>
/// The servers of every server row available here (<see cref="StoreCatalog.AvailableServerNames"/>), installed from
/// Debian's packages when missing, started once per test class and stopped after it; a class shares them with any
/// other class that runs at the same time.
/// </summary>
public sealed class ServerHostsFixture() : RowHostsFixture(StoreCatalog.AvailableServerNames);
