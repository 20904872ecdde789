using System.Runtime.InteropServices;

namespace KvBench.Stores.Lmdb;

/// <summary>
/// The part of LMDB's C API (lmdb.h, 0.9.x) that the LMDB row uses, bound to Debian's liblmdb0.
/// Names and constants mirror lmdb.h so its documentation applies unchanged; handles are raw pointers because
/// <see cref="LmdbEnvironment"/> owns their lifetimes explicitly (an environment must close only after every transaction
/// in it has ended).
/// </summary>
internal static unsafe partial class LmdbNative
{
    /// <summary>The soname of Debian's liblmdb0, the only LMDB binary this machine's package sources offer.</summary>
    internal const string LibraryName = "liblmdb.so.0";

    // Environment flags for mdb_env_open.
    internal const uint MDB_NOSYNC = 0x10000;
    internal const uint MDB_RDONLY = 0x20000;
    internal const uint MDB_NOMETASYNC = 0x40000;
    internal const uint MDB_WRITEMAP = 0x80000;
    internal const uint MDB_NOTLS = 0x200000;

    // Return codes.
    internal const int MDB_SUCCESS = 0;
    internal const int MDB_NOTFOUND = -30798;
    internal const int MDB_MAP_FULL = -30792;
    internal const int MDB_MAP_RESIZED = -30785;

    // The codes by which LMDB says its file is not what it wrote: not an LMDB file, another format version, a page that
    // fails its checks, a page number past the end of the file.
    internal const int MDB_INVALID = -30793;
    internal const int MDB_VERSION_MISMATCH = -30794;
    internal const int MDB_CORRUPTED = -30796;
    internal const int MDB_PAGE_NOTFOUND = -30797;

    // MDB_cursor_op values.
    internal const int MDB_FIRST = 0;
    internal const int MDB_NEXT = 8;
    internal const int MDB_SET_RANGE = 17;

    [LibraryImport(LibraryName)]
    internal static partial byte* mdb_version(out int major, out int minor, out int patch);

    [LibraryImport(LibraryName)]
    internal static partial byte* mdb_strerror(int err);

    [LibraryImport(LibraryName)]
    internal static partial int mdb_env_create(out nint env);

    [LibraryImport(LibraryName, StringMarshalling = StringMarshalling.Utf8)]
    internal static partial int mdb_env_open(nint env, string path, uint flags, uint mode);

    [LibraryImport(LibraryName)]
    internal static partial void mdb_env_close(nint env);

    [LibraryImport(LibraryName)]
    internal static partial int mdb_env_set_mapsize(nint env, nuint size);

    [LibraryImport(LibraryName)]
    internal static partial int mdb_env_set_maxreaders(nint env, uint readers);

    [LibraryImport(LibraryName)]
    internal static partial int mdb_env_info(nint env, out MDB_envinfo info);

    [LibraryImport(LibraryName)]
    internal static partial int mdb_env_get_flags(nint env, out uint flags);

    [LibraryImport(LibraryName)]
    internal static partial int mdb_env_get_maxkeysize(nint env);

    [LibraryImport(LibraryName)]
    internal static partial int mdb_env_sync(nint env, int force);

    [LibraryImport(LibraryName)]
    internal static partial int mdb_reader_check(nint env, out int dead);

    [LibraryImport(LibraryName)]
    internal static partial int mdb_txn_begin(nint env, nint parent, uint flags, out nint txn);

    [LibraryImport(LibraryName)]
    internal static partial int mdb_txn_commit(nint txn);

    [LibraryImport(LibraryName)]
    internal static partial void mdb_txn_abort(nint txn);

    [LibraryImport(LibraryName)]
    internal static partial void mdb_txn_reset(nint txn);

    [LibraryImport(LibraryName)]
    internal static partial int mdb_txn_renew(nint txn);

    [LibraryImport(LibraryName, StringMarshalling = StringMarshalling.Utf8)]
    internal static partial int mdb_dbi_open(nint txn, string? name, uint flags, out uint dbi);

    [LibraryImport(LibraryName)]
    internal static partial int mdb_get(nint txn, uint dbi, MDB_val* key, MDB_val* data);

    [LibraryImport(LibraryName)]
    internal static partial int mdb_put(nint txn, uint dbi, MDB_val* key, MDB_val* data, uint flags);

    [LibraryImport(LibraryName)]
    internal static partial int mdb_del(nint txn, uint dbi, MDB_val* key, MDB_val* data);

    [LibraryImport(LibraryName)]
    internal static partial int mdb_cursor_open(nint txn, uint dbi, out nint cursor);

    [LibraryImport(LibraryName)]
    internal static partial int mdb_cursor_get(nint cursor, MDB_val* key, MDB_val* data, int op);

    [LibraryImport(LibraryName)]
    internal static partial void mdb_cursor_close(nint cursor);

    /// <summary>"LMDB 0.9.24: (July 24, 2019)" for Debian's liblmdb0.</summary>
    internal static string Version => Marshal.PtrToStringUTF8((nint)mdb_version(out _, out _, out _))!;

    /// <summary>LMDB's text for a return code: its own for MDB_* codes, strerror for errno values.</summary>
    internal static string ErrorText(int rc) => Marshal.PtrToStringUTF8((nint)mdb_strerror(rc)) ?? $"error {rc}";

    /// <summary>A key or value: a length and a pointer, into caller memory for input and into the map for output.</summary>
    [StructLayout(LayoutKind.Sequential)]
    internal struct MDB_val
    {
        public nuint mv_size;
        public byte* mv_data;

        public MDB_val(byte* data, int length)
        {
            mv_data = data;
            mv_size = (nuint)length;
        }

        /// <summary>The bytes; valid only until the transaction that produced them ends or writes.</summary>
        public readonly ReadOnlySpan<byte> AsSpan() => new(mv_data, checked((int)mv_size));
    }

    [StructLayout(LayoutKind.Sequential)]
    internal struct MDB_envinfo
    {
        public nint me_mapaddr;
        public nuint me_mapsize;
        public nuint me_last_pgno;
        public nuint me_last_txnid;
        public uint me_maxreaders;
        public uint me_numreaders;
    }
}
