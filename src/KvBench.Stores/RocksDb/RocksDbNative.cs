using System.Runtime.InteropServices;

namespace KvBench.Stores.RocksDb;

/// <summary>
/// The part of RocksDB's C API (<c>rocksdb/c.h</c>) KvBench uses, bound to Debian's <c>librocksdb7.8</c>: the RocksDB
/// NuGet packages are not served here. Every <c>char** errptr</c> must point at a null pointer; on failure RocksDB
/// leaves a malloc'ed message there, which <see cref="TakeError"/> reads and frees with <c>rocksdb_free</c>.
/// </summary>
/// <remarks>
/// No call is marked <c>SuppressGCTransition</c>: any of them may take a mutex, wait for a write group or sync a file.
/// </remarks>
internal static unsafe partial class RocksDbNative
{
    /// <summary>The soname of the Debian package's library, so the binding never meets another RocksDB's ABI.</summary>
    internal const string LibraryName = "librocksdb.so.7.8";

    /// <summary>Why the RocksDB row cannot be had on this machine, or <see langword="null"/> when the library loads.</summary>
    internal static string? CheckAvailability()
    {
        if (!NativeLibrary.TryLoad(LibraryName, out nint library))
        {
            return $"{LibraryName} (RocksDB 7.8, Debian package librocksdb7.8) cannot be loaded; install it with `apt-get install librocksdb7.8`.";
        }

        NativeLibrary.Free(library);
        return null;
    }

    /// <summary>The library that runs, as the loader mapped it: Debian's package carries no version call in the C API.</summary>
    internal static string Engine() => $"{NativeLibraryFile.Describe(LibraryName)} (Debian librocksdb7.8), bound by KvBench's own P/Invoke";

    /// <summary>The message RocksDB left in an errptr, or <see langword="null"/> when the call succeeded; frees it.</summary>
    internal static string? TakeError(nint error)
    {
        if (error == 0)
        {
            return null;
        }

        try
        {
            return Marshal.PtrToStringUTF8(error) ?? string.Empty;
        }
        finally
        {
            rocksdb_free(error);
        }
    }

    [LibraryImport(LibraryName)]
    internal static partial void rocksdb_free(nint ptr);

    [LibraryImport(LibraryName)]
    internal static partial nint rocksdb_options_create();

    [LibraryImport(LibraryName)]
    internal static partial void rocksdb_options_destroy(nint options);

    [LibraryImport(LibraryName)]
    internal static partial void rocksdb_options_set_create_if_missing(nint options, byte value);

    [LibraryImport(LibraryName)]
    internal static partial void rocksdb_options_set_max_open_files(nint options, int value);

    [LibraryImport(LibraryName)]
    internal static partial void rocksdb_options_set_keep_log_file_num(nint options, nuint value);

    [LibraryImport(LibraryName, StringMarshalling = StringMarshalling.Utf8)]
    internal static partial nint rocksdb_open(nint options, string name, nint* errptr);

    [LibraryImport(LibraryName, StringMarshalling = StringMarshalling.Utf8)]
    internal static partial nint rocksdb_open_for_read_only(nint options, string name, byte errorIfWalFileExists, nint* errptr);

    [LibraryImport(LibraryName, StringMarshalling = StringMarshalling.Utf8)]
    internal static partial nint rocksdb_open_as_secondary(nint options, string name, string secondaryPath, nint* errptr);

    [LibraryImport(LibraryName)]
    internal static partial void rocksdb_try_catch_up_with_primary(nint db, nint* errptr);

    [LibraryImport(LibraryName)]
    internal static partial void rocksdb_close(nint db);

    [LibraryImport(LibraryName)]
    internal static partial nint rocksdb_writeoptions_create();

    [LibraryImport(LibraryName)]
    internal static partial void rocksdb_writeoptions_destroy(nint options);

    [LibraryImport(LibraryName)]
    internal static partial void rocksdb_writeoptions_set_sync(nint options, byte value);

    [LibraryImport(LibraryName)]
    internal static partial nint rocksdb_readoptions_create();

    [LibraryImport(LibraryName)]
    internal static partial void rocksdb_readoptions_destroy(nint options);

    /// <summary>Keeps a pointer to <paramref name="key"/>, not a copy: the bytes must stay put while the options are used.</summary>
    [LibraryImport(LibraryName)]
    internal static partial void rocksdb_readoptions_set_iterate_upper_bound(nint options, byte* key, nuint keyLength);

    [LibraryImport(LibraryName)]
    internal static partial void rocksdb_put(nint db, nint writeOptions, byte* key, nuint keyLength, byte* value, nuint valueLength, nint* errptr);

    [LibraryImport(LibraryName)]
    internal static partial void rocksdb_delete(nint db, nint writeOptions, byte* key, nuint keyLength, nint* errptr);

    /// <summary>Null when the key is absent; otherwise a slice that pins the value in RocksDB's memory until destroyed.</summary>
    [LibraryImport(LibraryName)]
    internal static partial nint rocksdb_get_pinned(nint db, nint readOptions, byte* key, nuint keyLength, nint* errptr);

    [LibraryImport(LibraryName)]
    internal static partial byte* rocksdb_pinnableslice_value(nint slice, nuint* valueLength);

    [LibraryImport(LibraryName)]
    internal static partial void rocksdb_pinnableslice_destroy(nint slice);

    [LibraryImport(LibraryName)]
    internal static partial nint rocksdb_writebatch_create();

    [LibraryImport(LibraryName)]
    internal static partial void rocksdb_writebatch_destroy(nint batch);

    [LibraryImport(LibraryName)]
    internal static partial void rocksdb_writebatch_put(nint batch, byte* key, nuint keyLength, byte* value, nuint valueLength);

    [LibraryImport(LibraryName)]
    internal static partial void rocksdb_write(nint db, nint writeOptions, nint batch, nint* errptr);

    [LibraryImport(LibraryName)]
    internal static partial void rocksdb_flush_wal(nint db, byte sync, nint* errptr);

    [LibraryImport(LibraryName)]
    internal static partial nint rocksdb_create_iterator(nint db, nint readOptions);

    [LibraryImport(LibraryName)]
    internal static partial void rocksdb_iter_destroy(nint iterator);

    [LibraryImport(LibraryName)]
    internal static partial void rocksdb_iter_seek(nint iterator, byte* key, nuint keyLength);

    [LibraryImport(LibraryName)]
    internal static partial byte rocksdb_iter_valid(nint iterator);

    [LibraryImport(LibraryName)]
    internal static partial void rocksdb_iter_next(nint iterator);

    [LibraryImport(LibraryName)]
    internal static partial byte* rocksdb_iter_key(nint iterator, nuint* keyLength);

    [LibraryImport(LibraryName)]
    internal static partial byte* rocksdb_iter_value(nint iterator, nuint* valueLength);

    [LibraryImport(LibraryName)]
    internal static partial void rocksdb_iter_get_error(nint iterator, nint* errptr);
}
