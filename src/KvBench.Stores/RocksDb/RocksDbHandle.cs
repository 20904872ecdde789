using System.Runtime.InteropServices;

using static KvBench.Stores.RocksDb.RocksDbNative;

namespace KvBench.Stores.RocksDb;

/// <summary>
/// An open <c>rocksdb_t*</c> with the read and write options every call on it uses. RocksDB must not be closed while
/// another thread is inside a call on it (RocksDB FAQ), nor before the iterators and pinned values it handed out are
/// destroyed, so every use holds a reference (<see cref="Use"/>) and <see cref="SafeHandle.Dispose()"/> closes the
/// database only when the last use has ended.
/// </summary>
internal sealed class RocksDbHandle : SafeHandle
{
    private readonly nint _readOptions;
    private readonly nint _writeOptions;

    /// <param name="db">The database RocksDB opened; this handle owns it from here.</param>
    /// <param name="syncWrites">Whether every write waits for the WAL to reach the device (<c>WriteOptions.sync</c>).</param>
    public RocksDbHandle(nint db, bool syncWrites)
        : base(invalidHandleValue: 0, ownsHandle: true)
    {
        SetHandle(db);
        _readOptions = rocksdb_readoptions_create();
        _writeOptions = rocksdb_writeoptions_create();
        rocksdb_writeoptions_set_sync(_writeOptions, syncWrites ? (byte)1 : (byte)0);
    }

    public override bool IsInvalid => handle == 0;

    /// <summary>Holds the database open until the returned lease is disposed.</summary>
    /// <exception cref="ObjectDisposedException">The handle was disposed.</exception>
    public Lease Use()
    {
        bool added = false;
        DangerousAddRef(ref added);
        return new Lease(this);
    }

    protected override bool ReleaseHandle()
    {
        rocksdb_close(handle);
        rocksdb_readoptions_destroy(_readOptions);
        rocksdb_writeoptions_destroy(_writeOptions);
        return true;
    }

    /// <summary>One use of the database: its pointers stay valid until <see cref="Dispose"/>.</summary>
    internal readonly ref struct Lease
    {
        private readonly RocksDbHandle _owner;

        public Lease(RocksDbHandle owner) => _owner = owner;

        public nint Db => _owner.handle;

        public nint ReadOptions => _owner._readOptions;

        public nint WriteOptions => _owner._writeOptions;

        public void Dispose() => _owner.DangerousRelease();
    }
}
