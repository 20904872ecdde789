using System.Runtime.InteropServices;

using KvBench.Core;

using LightningDB;

using LmdbApi = LightningDB.Native.Lmdb;

namespace KvBench.Stores.Lmdb;

/// <summary>An LMDB call failed with a code the adapter does not recover from; the message carries LMDB's own text.</summary>
/// <remarks>
/// LightningDB returns <see cref="MDBResultCode"/> from <c>Put</c>, <c>Get</c>, <c>Delete</c> and <c>Commit</c>, and
/// throws <see cref="LightningException"/> (code in <see cref="LightningException.StatusCode"/>) from the calls that
/// create something: opening the environment or the database, beginning or renewing a transaction, sizing the map.
/// Both become this exception, so <see cref="LmdbRow"/> reads one code. The enum's names for errno values
/// are Windows error names (5 is "AccessDenied", 28 "OutOfPaper"); on Linux those are EIO and ENOSPC, so the codes here
/// are compared by number.
/// </remarks>
internal sealed class LmdbException : KeyValueStoreException
{
    public LmdbException(string operation, MDBResultCode code, Exception? innerException = null)
        : base(MessageFor(operation, code), innerException)
    {
        Code = code;
    }

    /// <summary>ENOSPC, which LMDB returns as it is when a commit's write finds the disk full.</summary>
    internal const MDBResultCode NoSpaceErrno = (MDBResultCode)28;

    /// <summary>EIO, which LMDB makes of a short write.</summary>
    internal const MDBResultCode IoErrno = (MDBResultCode)5;

    /// <summary>ENOENT: a read-only open found no environment.</summary>
    internal const MDBResultCode NoEntryErrno = (MDBResultCode)2;

    /// <summary>The MDB_* code or errno value that LMDB returned.</summary>
    public MDBResultCode Code { get; }

    /// <summary>Throws for any code but MDB_SUCCESS: the one place a failed LMDB return code becomes an exception.</summary>
    internal static void Check(MDBResultCode rc, string operation)
    {
        if (rc != MDBResultCode.Success)
        {
            throw new LmdbException(operation, rc);
        }
    }

    /// <summary>
    /// The LMDB code behind an exception LightningDB threw: its status code, or the inner exception's for an environment
    /// that failed to open (LightningDB wraps that one in a second <see cref="LightningException"/> whose own code is 0).
    /// </summary>
    internal static MDBResultCode CodeOf(LightningException error) =>
        error is { StatusCode: 0, InnerException: LightningException inner } ? (MDBResultCode)inner.StatusCode : (MDBResultCode)error.StatusCode;

    /// <summary>The same failure as this exception, for a call LightningDB made throw.</summary>
    internal static LmdbException From(LightningException error, string operation) => new(operation, CodeOf(error), error);

    private static string MessageFor(string operation, MDBResultCode code)
    {
        string message = $"LMDB {operation} failed: {Marshal.PtrToStringUTF8(LmdbApi.mdb_strerror((int)code)) ?? $"error {(int)code}"} ({(int)code}).";

        // Checked with LMDB 0.9.24 and 1.0.1: each answers the other's file with MDB_INVALID at open (see LmdbNativeLibrary).
        return code == MDBResultCode.Invalid
            ? $"{message} So is any file of the other LMDB line to this LMDB {LmdbNativeLibrary.LmdbVersion} (0.9 " +
                $"writes data format 1, 1.0 format 3): such a store can be opened only where that line runs."
            : message;
    }
}
