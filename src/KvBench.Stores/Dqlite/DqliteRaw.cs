using System.Buffers;

using KvBench.Stores.Baselines;

using KvBench.Stores.Servers;

namespace KvBench.Stores.Dqlite;

/// <summary>
/// <c>dqlite_raw</c>: go-dqlite's shell used directly on the dqlite row's cluster, one shell process held for the target's
/// life, the adapter's lines (an upsert, a SELECT of the value's hex, a SELECT of a constant) on the store's table,
/// without the contract around them: no pool of shells, no retry of a busy write, no check of a row's shape. One thread
/// only: a shell serves one request at a time.
/// </summary>
internal sealed class DqliteRaw : IPointTarget
{
    private readonly DqliteShell _shell;
    private readonly string _table;

    public DqliteRaw(string directory)
    {
        ServerRawStore store = ServerRawStore.For(DqliteRow.RowName, directory);
        _table = store.StoreName;
        _shell = new DqliteShell(DqliteRow.RowName, DqliteEndpoints.Parse(store.Endpoint), DqliteRow.Database, DqliteStoreOptions.DefaultRequestTimeout);
    }

    public void Put(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value) =>
        _shell.Run(
            [
                DqliteSql.Upsert(_table, [KeyValuePair.Create(key.ToArray(), value.ToArray())])
                    ?? throw new ArgumentException("A key and value too large for one line of the shell.", nameof(value))]);

    public bool TryGet(ReadOnlySpan<byte> key, IBufferWriter<byte> destination)
    {
        if (Get(key) is not { } value)
        {
            return false;
        }

        destination.Write(value);
        return true;
    }

    public byte[]? Get(ReadOnlySpan<byte> key) =>
        _shell.Run([DqliteSql.Select(_table, key)]) is [string row] ? Convert.FromHexString(row.AsSpan(1)) : null;

    public bool ContainsKey(ReadOnlySpan<byte> key) => _shell.Run([DqliteSql.Exists(_table, key)]).Count > 0;

    public void Dispose() => _shell.Dispose();
}
