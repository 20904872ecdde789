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

    /// <summary>ENOSPC, which LMDB returns as it is when a commit's write finds the disk full.</summary>
    internal const int NoSpaceErrno = 28;

    /// <summary>The MDB_* code or errno value that LMDB returned.</summary>
    public int Code { get; }

    /// <summary>Throws for any code but MDB_SUCCESS: the one place a failed LMDB call becomes an exception.</summary>
    internal static void Check(int rc, string operation)
    {
        if (rc != LmdbNative.MDB_SUCCESS)
        {
            throw new LmdbException(operation, rc);
        }
    }
}
