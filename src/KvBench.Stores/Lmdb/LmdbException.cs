using KvBench.Core;

namespace KvBench.Stores.Lmdb;

/// <summary>An LMDB call failed with a code the adapter does not recover from; the message carries LMDB's own text.</summary>
internal sealed class LmdbException : KeyValueStoreException
{
    public LmdbException(string operation, int code)
        : base($"LMDB {operation} failed: {LmdbNative.ErrorText(code)} ({code}).")
    {
        Code = code;
    }

    /// <summary>The MDB_* code or errno value that LMDB returned.</summary>
    public int Code { get; }
}
