using LightningDB;

namespace KvBench.Stores.Lmdb;

/// <summary>Ordered scans with a LightningDB cursor, one page at a time.</summary>
/// <remarks>
/// Each page is read in its own read transaction and copied out: no transaction stays open while the caller holds the
/// enumerator, so a slow caller neither pins old pages nor blocks a map resize.
/// </remarks>
internal static class LmdbCursorScan
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
    private static MDBResultCode ReadPage(
        LightningTransaction txn, LightningDatabase db, byte[] prefix, byte[] from, byte[]? resumeAfter, int maxEntries,
        List<KeyValuePair<byte[], byte[]>> page, out bool more)
    {
        more = false;
        LightningCursor cursor;
        try
        {
            cursor = txn.CreateCursor(db);
        }
        catch (LightningException error)
        {
            return LmdbException.CodeOf(error);
        }

        // LightningDB's finalizer throws for a cursor of a read-only transaction left undisposed.
        using (cursor)
        {
            MDBResultCode rc;
            MDBValue key = default;
            MDBValue value = default;

            // Resuming after a key, not from its successor (the key and 0x00): that would be one byte over the longest
            // key after a key of the longest length, which MDB_SET_RANGE refuses.
            byte[]? seek = resumeAfter ?? (from.Length > 0 ? from : null);
            if (seek is null)
            {
                (rc, key, value) = cursor.First();
            }
            else
            {
                // SetRange returns only the code; the entry it landed on is read with GetCurrent.
                rc = cursor.SetRange(seek);
                if (rc == MDBResultCode.Success)
                {
                    (rc, key, value) = cursor.GetCurrent();
                }

                // Resuming after the last key seen: SET_RANGE lands on it again when it still exists.
                if (rc == MDBResultCode.Success && resumeAfter is not null && key.AsSpan().SequenceEqual(resumeAfter))
                {
                    (rc, key, value) = cursor.Next();
                }
            }

            int pageEntries = Math.Min(PageEntries, maxEntries);
            int pageBytes = 0;
            while (rc == MDBResultCode.Success)
            {
                ReadOnlySpan<byte> keySpan = key.AsSpan();
                if (!keySpan.StartsWith(prefix))
                {
                    return MDBResultCode.Success;
                }

                ReadOnlySpan<byte> valueSpan = value.AsSpan();
                page.Add(new(keySpan.ToArray(), valueSpan.ToArray()));
                pageBytes += keySpan.Length + valueSpan.Length;
                if (page.Count == pageEntries || pageBytes >= PageBytes)
                {
                    more = true;
                    return MDBResultCode.Success;
                }

                (rc, key, value) = cursor.Next();
            }

            return rc == MDBResultCode.NotFound ? MDBResultCode.Success : rc;
        }
    }

    private readonly struct PageRead(byte[] prefix, byte[] from, byte[]? resumeAfter, int maxEntries, List<KeyValuePair<byte[], byte[]>> page) : ILmdbRead<bool>
    {
        public MDBResultCode Run(LightningTransaction txn, LightningDatabase db, out bool more)
        {
            MDBResultCode rc = ReadPage(txn, db, prefix, from, resumeAfter, maxEntries, page, out more);
            if (rc != MDBResultCode.Success)
            {
                // A page cut short by an error is read again from the start.
                page.Clear();
            }

            return rc;
        }
    }
}
