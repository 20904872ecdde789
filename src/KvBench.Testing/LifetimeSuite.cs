using System.Buffers;

using KvBench.Core;

namespace KvBench.Testing;

/// <summary>
/// <c>Dispose</c> racing calls on other threads: each call either completes or throws
/// <see cref="ObjectDisposedException"/> (never another exception, a native crash or a hang), <c>Dispose</c> returns,
/// and a store that keeps its data reopens with every record intact. KvBench runs it over its rows; a team derives
/// <see cref="LifetimeSuite{TDefinition}"/>.
/// </summary>
public abstract class LifetimeSuite : StoreSuite
{
    private const int Records = 200;
    private const int Rounds = 3;
    private const int Callers = 3;

    /// <summary>Calls each caller makes before Dispose starts, so Dispose lands among calls in flight.</summary>
    private const int CallsBeforeDispose = 300;

    [Theory]
    [MemberData(RowsMember)]
    public void Dispose_waits_for_calls_in_flight_and_later_calls_get_ObjectDisposedException(string name)
    {
        using var directory = new TempDirectory();
        var options = new StoreOptions { Directory = directory.Path };
        for (int round = 0; round < Rounds; round++)
        {
            IKeyValueStore store = Open(name, options);
            bool persistent = store.Capabilities.Durability != DurabilityTiers.None;
            store.PutMany(Enumerable.Range(0, Records).Select(Record));
            store.Flush();

            using var callsMade = new CountdownEvent(Callers);
            var stoppedBy = new Exception?[Callers];
            Thread[] callers = [
                .. Enumerable.Range(0, Callers).Select(caller =>
                    new Thread(() => stoppedBy[caller] = CallUntilDisposed(store, caller, callsMade)))];
            Array.ForEach(callers, thread => thread.Start());

            Assert.True(callsMade.Wait(TimeSpan.FromSeconds(60)), "The callers did not get going.");
            store.Dispose();
            Assert.All(callers, thread => Assert.True(thread.Join(TimeSpan.FromSeconds(60)), "A call did not return after Dispose."));
            Assert.All(stoppedBy, error => Assert.IsType<ObjectDisposedException>(error));

            if (persistent)
            {
                using IKeyValueStore reopened = Open(name, options);
                Assert.All(Enumerable.Range(0, Records).Select(Record), record => Assert.Equal(record.Value, reopened.Get(record.Key)));
            }
        }
    }

    /// <summary>Calls every kind of operation until one throws; the exception that stopped the caller.</summary>
    private static Exception? CallUntilDisposed(IKeyValueStore store, int caller, CountdownEvent callsMade)
    {
        var buffer = new ArrayBufferWriter<byte>();
        for (int call = 0; ; call++)
        {
            if (call == CallsBeforeDispose)
            {
                callsMade.Signal();
            }

            KeyValuePair<byte[], byte[]> record = Record(((call * Callers) + caller) % Records);
            try
            {
                switch (call % 8)
                {
                    case 0: store.Put(record.Key, record.Value); break;
                    case 1: buffer.ResetWrittenCount(); store.TryGet(record.Key, buffer); break;
                    case 2: store.Get(record.Key); break;
                    case 3: store.ContainsKey(record.Key); break;
                    case 4: _ = store.ScanFrom(record.Key, 10).Count(); break;
                    case 5: _ = store.ScanPrefix(record.Key.AsMemory(0, 2)).Take(5).Count(); break;
                    case 6: store.PutMany([record, Record((record.Key[1] + 1) % Records)]); break;
                    default: if (call % 64 == 7) { store.Flush(); } break;
                }
            }
            catch (Exception e)
            {
                if (call < CallsBeforeDispose)
                {
                    callsMade.Signal();
                }

                return e;
            }
        }
    }

    /// <summary>Record <paramref name="index"/>: every write of a key writes the same bytes, so any interleaving leaves them.</summary>
    private static KeyValuePair<byte[], byte[]> Record(int index) => new(TestData.Key(index), TestData.Bytes(64, stream: index));
}

/// <summary>The lifetime suite over a team's row, <typeparamref name="TDefinition"/>: derive it with no members.</summary>
/// <typeparam name="TDefinition">The row's definition, as the team's assembly declares it to kvbench.</typeparam>
public abstract class LifetimeSuite<TDefinition> : LifetimeSuite
    where TDefinition : KeyValueStoreDefinition, new()
{
    /// <summary>The row.</summary>
    public static TheoryData<string> RowsUnderTest => DefinitionRows<TDefinition>.Rows;

    /// <inheritdoc/>
    protected override IKeyValueStore Open(string name, StoreOptions options) => DefinitionRows<TDefinition>.Open(options);
}
