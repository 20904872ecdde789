using static KvBench.Stores.Lmdb.LmdbNative;

namespace KvBench.Stores.Lmdb;

/// <summary>Ordered scans with an LMDB cursor, one page at a time.</summary>
/// <remarks>
/// Each page is read in its own read transaction and copied out: no transaction stays open while the caller holds the
/// enumerator, so a slow caller neither pins old pages nor blocks a map resize.
/// </remarks>
internal static unsafe class LmdbCursorScan
{
    private const int PageEntries = 256;

    /// <summary>A page also stops at this many bytes, so large values do not pile up in one page.</summary>
    private const int PageBytes = 1 << 20;

    /// <summary>Up to <paramref name="limit"/> entries under <paramref name="prefix"/>, from <paramref name="from"/> (the first key when empty).</summary>
    /// <remarks>Neither may be longer than the keys LMDB stores: MDB_SET_RANGE refuses such a key.</remarks>
    public static IEnumerable<KeyValuePair<byte[], byte[]>> Scan(LmdbEnvironment environment, byte[] prefix, byte[] from, int limit) =>
        Scans.InPages(limit, (after, maxEntries, page) =>
        {
            var read = new PageRead(prefix, from, after, maxEntries, page);
            return environment.Read<PageRead, bool>(ref read, "cursor scan");
        });

    /// <summary>
    /// Reads up to one page of at most <paramref name="maxEntries"/> entries under <paramref name="prefix"/>, from
    /// <paramref name="from"/>, or after <paramref name="resumeAfter"/> when given.
    /// </summary>
    private static int ReadPage(nint txn, uint dbi, byte[] prefix, byte[] from, byte[]? resumeAfter, int maxEntries, List<KeyValuePair<byte[], byte[]>> page, out bool more)
    {
        more = false;
        int rc = mdb_cursor_open(txn, dbi, out nint cursor);
        if (rc != MDB_SUCCESS)
        {
            return rc;
        }

        try
        {
            MDB_val key;
            MDB_val value;
            // Resuming after a key, not from its successor (the key and 0x00): that would be one byte over the longest
            // key after a key of the longest length, which MDB_SET_RANGE refuses.
            byte[]? seek = resumeAfter ?? (from.Length > 0 ? from : null);
            if (seek is null)
            {
                rc = mdb_cursor_get(cursor, &key, &value, MDB_FIRST);
            }
            else
            {
                fixed (byte* seekBytes = seek)
                {
                    key = new MDB_val(seekBytes, seek.Length);
                    rc = mdb_cursor_get(cursor, &key, &value, MDB_SET_RANGE);
                }

                // Resuming after the last key seen: SET_RANGE lands on it again when it still exists.
                if (rc == MDB_SUCCESS && resumeAfter is not null && key.AsSpan().SequenceEqual(resumeAfter))
                {
                    rc = mdb_cursor_get(cursor, &key, &value, MDB_NEXT);
                }
            }

            int pageEntries = Math.Min(PageEntries, maxEntries);
            int pageBytes = 0;
            while (rc == MDB_SUCCESS)
            {
                ReadOnlySpan<byte> keySpan = key.AsSpan();
                if (!keySpan.StartsWith(prefix))
                {
                    return MDB_SUCCESS;
                }

                ReadOnlySpan<byte> valueSpan = value.AsSpan();
                page.Add(new(keySpan.ToArray(), valueSpan.ToArray()));
                pageBytes += keySpan.Length + valueSpan.Length;
                if (page.Count == pageEntries || pageBytes >= PageBytes)
                {
                    more = true;
                    return MDB_SUCCESS;
                }

                rc = mdb_cursor_get(cursor, &key, &value, MDB_NEXT);
            }

            return rc == MDB_NOTFOUND ? MDB_SUCCESS : rc;
        }
        finally
        {
            mdb_cursor_close(cursor);
        }
    }

    private readonly struct PageRead(byte[] prefix, byte[] from, byte[]? resumeAfter, int maxEntries, List<KeyValuePair<byte[], byte[]>> page) : ILmdbRead<bool>
    {
        public int Run(nint txn, uint dbi, out bool more)
        {
            int rc = ReadPage(txn, dbi, prefix, from, resumeAfter, maxEntries, page, out more);
            if (rc != MDB_SUCCESS)
            {
                // A page cut short by an error is read again from the start.
                page.Clear();
            }

            return rc;
        }
    }
}
