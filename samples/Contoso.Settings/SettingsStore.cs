using System.Buffers;
using System.Text.Json;

using KvBench.Core;

using Microsoft.Data.Sqlite;

namespace Contoso.Settings;

/// <summary>
/// Contoso's settings store: one SQLite file, <c>settings.db</c>, with a <c>settings</c> table that keeps each value as a
/// small JSON document (the bytes in base64) and the time it was last written. Shared by the desktop app and its CLI, so
/// several processes write it at once; SQLite's write lock keeps them apart.
/// </summary>
/// <remarks>One connection, used under a lock: the store is safe to call from several threads, one call at a time.</remarks>
public sealed class SettingsStore : IKeyValueStore
{
    /// <summary>The file the store keeps its table in, inside the directory it is opened on.</summary>
    public const string FileName = "settings.db";

    /// <summary>The longest key the store accepts: a setting's name, with room to spare.</summary>
    public const int MaxKeyBytes = 1024;

    /// <summary>The longest value the store accepts: settings are small, and each is read whole.</summary>
    public const int MaxValueBytes = 1024 * 1024;

    /// <summary>How long a write waits for another process's write before SQLite gives up with SQLITE_BUSY.</summary>
    private const int BusyTimeoutMilliseconds = 10_000;

    private const int SqliteFull = 13;
    private const int SqliteCorrupt = 11;
    private const int SqliteNotADatabase = 26;

    private readonly Lock _gate = new();
    private readonly SqliteConnection _connection;
    private readonly SettingsFault _fault;
    private readonly string _directory;
    private readonly Dictionary<string, byte[]>? _warmCache;
    private long _puts;
    private bool _disposed;

    internal SettingsStore(string name, StoreOptions options, SettingsFault fault)
    {
        Name = name;
        _fault = fault;
        _directory = Path.GetFullPath(options.Directory);
        Access = options.Access;
        Capabilities = SettingsCapabilities.Declared;
        bool readOnly = options.Access != StoreAccess.ReadWrite;
        if (!readOnly)
        {
            Directory.CreateDirectory(_directory);
        }

        var builder = new SqliteConnectionStringBuilder
        {
            // The connection is this store's for its whole life; a pooled one would keep the file open after Dispose.
            Pooling = false,
            Mode = readOnly ? SqliteOpenMode.ReadOnly : SqliteOpenMode.ReadWriteCreate,
            DataSource = Path.Combine(_directory, FileName),
        };
        if (fault == SettingsFault.NoLock)
        {
            // The broken variant's "fix" for SQLITE_BUSY: SQLite takes no file locks at all (a URI parameter), and the
            // rollback journal needs none of WAL's shared memory, so two processes write the same pages unguarded.
            builder.DataSource = $"file:{Path.Combine(_directory, FileName)}?nolock=1";
        }

        _connection = new SqliteConnection(builder.ToString());
        try
        {
            _connection.Open();
            Execute($"PRAGMA busy_timeout = {BusyTimeoutMilliseconds}");
            if (!readOnly)
            {
                Execute(fault == SettingsFault.NoLock ? "PRAGMA journal_mode = DELETE" : "PRAGMA journal_mode = WAL");

                // In WAL, NORMAL survives a killed process (the commit is in the log, in the OS cache); FULL also power loss.
                Execute(options.Durability == Durability.Synced ? "PRAGMA synchronous = FULL" : "PRAGMA synchronous = NORMAL");
                Execute("""
                    CREATE TABLE IF NOT EXISTS settings (
                        key BLOB PRIMARY KEY NOT NULL,
                        value TEXT NOT NULL CHECK (json_valid(value)),
                        updated_at INTEGER NOT NULL
                    ) WITHOUT ROWID
                    """);
            }

            if (fault == SettingsFault.StaleAfterReopen)
            {
                _warmCache = WarmCache.For(_directory, () => Run(ReadAll));
            }
        }
        catch (SqliteException error)
        {
            _connection.Dispose();
            throw Typed(error);
        }
        catch
        {
            _connection.Dispose();
            throw;
        }
    }

    /// <inheritdoc/>
    public string Name { get; }

    /// <inheritdoc/>
    public StoreCapabilities Capabilities { get; }

    /// <summary>How the store was opened.</summary>
    public StoreAccess Access { get; }

    /// <inheritdoc/>
    public void Put(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        Validate(key, value.Length);
        byte[] keyBytes = key.ToArray();
        byte[] valueBytes = value.ToArray();
        lock (_gate)
        {
            ThrowIfNotWritable();
            if (_fault == SettingsFault.DropsEverySeventhPut && ++_puts % 7 == 0)
            {
                // The broken variant acknowledges the write and keeps nothing.
                return;
            }

            Run(() => Upsert(keyBytes, valueBytes, transaction: null));
            _warmCache?[Convert.ToHexString(keyBytes)] = valueBytes;
        }
    }

    /// <inheritdoc/>
    public bool TryGet(ReadOnlySpan<byte> key, IBufferWriter<byte> destination)
    {
        ArgumentNullException.ThrowIfNull(destination);
        byte[]? value = Get(key);
        if (value is null)
        {
            return false;
        }

        destination.Write(value);
        return true;
    }

    /// <inheritdoc/>
    public byte[]? Get(ReadOnlySpan<byte> key)
    {
        if (key.IsEmpty)
        {
            throw new EmptyKeyException("key");
        }

        if (key.Length > MaxKeyBytes)
        {
            ThrowIfDisposed();
            return null;
        }

        byte[] keyBytes = key.ToArray();
        lock (_gate)
        {
            ThrowIfDisposed();
            if (_warmCache is not null)
            {
                return _warmCache.TryGetValue(Convert.ToHexString(keyBytes), out byte[]? cached) ? [.. cached] : null;
            }

            return Run(() =>
            {
                using SqliteCommand command = Command("SELECT value FROM settings WHERE key = $key");
                command.Parameters.AddWithValue("$key", keyBytes);
                return command.ExecuteScalar() is string document ? SettingDocument.Read(document) : null;
            });
        }
    }

    /// <inheritdoc/>
    public bool ContainsKey(ReadOnlySpan<byte> key) => Get(key) is not null;

    /// <inheritdoc/>
    public bool Delete(ReadOnlySpan<byte> key)
    {
        if (key.IsEmpty)
        {
            throw new EmptyKeyException("key");
        }

        byte[] keyBytes = key.ToArray();
        lock (_gate)
        {
            ThrowIfNotWritable();
            if (keyBytes.Length > MaxKeyBytes)
            {
                return false;
            }

            _warmCache?.Remove(Convert.ToHexString(keyBytes));
            return Run(() =>
            {
                using SqliteCommand command = Command("DELETE FROM settings WHERE key = $key");
                command.Parameters.AddWithValue("$key", keyBytes);
                return command.ExecuteNonQuery() > 0;
            });
        }
    }

    /// <inheritdoc/>
    public IEnumerable<KeyValuePair<byte[], byte[]>> ScanPrefix(ReadOnlyMemory<byte> prefix)
    {
        byte[] low = prefix.ToArray();
        byte[]? high = ByteKeys.PrefixUpperBound(prefix.Span);
        lock (_gate)
        {
            ThrowIfDisposed();
            return Run(() =>
            {
                using SqliteCommand command = Command(high is null
                    ? "SELECT key, value FROM settings WHERE key >= $low ORDER BY key"
                    : "SELECT key, value FROM settings WHERE key >= $low AND key < $high ORDER BY key");
                command.Parameters.AddWithValue("$low", low);
                if (high is not null)
                {
                    command.Parameters.AddWithValue("$high", high);
                }

                return ReadEntries(command);
            });
        }
    }

    /// <inheritdoc/>
    public IEnumerable<KeyValuePair<byte[], byte[]>> ScanFrom(ReadOnlyMemory<byte> startKey, int limit)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(limit);
        byte[] start = startKey.ToArray();
        lock (_gate)
        {
            ThrowIfDisposed();
            if (limit == 0)
            {
                return [];
            }

            return Run(() =>
            {
                using SqliteCommand command = Command("SELECT key, value FROM settings WHERE key >= $start ORDER BY key LIMIT $limit");
                command.Parameters.AddWithValue("$start", start);
                command.Parameters.AddWithValue("$limit", limit);
                return ReadEntries(command);
            });
        }
    }

    /// <inheritdoc/>
    public void PutMany(IEnumerable<KeyValuePair<byte[], byte[]>> items)
    {
        ArgumentNullException.ThrowIfNull(items);
        List<KeyValuePair<byte[], byte[]>> list = [.. items];
        foreach (KeyValuePair<byte[], byte[]> item in list)
        {
            ArgumentNullException.ThrowIfNull(item.Key, nameof(items));
            ArgumentNullException.ThrowIfNull(item.Value, nameof(items));
            Validate(item.Key, item.Value.Length);
        }

        lock (_gate)
        {
            ThrowIfNotWritable();
            Run(() =>
            {
                using SqliteTransaction transaction = _connection.BeginTransaction();
                foreach (KeyValuePair<byte[], byte[]> item in list)
                {
                    Upsert(item.Key, item.Value, transaction);
                }

                transaction.Commit();
            });
            foreach (KeyValuePair<byte[], byte[]> item in list)
            {
                _warmCache?[Convert.ToHexString(item.Key)] = [.. item.Value];
            }
        }
    }

    /// <inheritdoc/>
    /// <remarks>
    /// Every write is its own committed transaction, which already reached the tier the store was opened at (FULL
    /// flushes each commit at Synced), so there is nothing left to flush.
    /// </remarks>
    public void Flush()
    {
        lock (_gate)
        {
            ThrowIfDisposed();
        }
    }

    /// <inheritdoc/>
    public void Dispose()
    {
        lock (_gate)
        {
            if (_disposed)
            {
                return;
            }

            _disposed = true;
            _connection.Dispose();
        }
    }

    private void Upsert(byte[] key, byte[] value, SqliteTransaction? transaction)
    {
        using SqliteCommand command = Command("""
            INSERT INTO settings (key, value, updated_at) VALUES ($key, $value, $updatedAt)
            ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at
            """);
        command.Transaction = transaction;
        command.Parameters.AddWithValue("$key", key);
        command.Parameters.AddWithValue("$value", SettingDocument.Write(value));
        command.Parameters.AddWithValue("$updatedAt", DateTimeOffset.UtcNow.ToUnixTimeMilliseconds());
        command.ExecuteNonQuery();
    }

    private Dictionary<string, byte[]> ReadAll()
    {
        using SqliteCommand command = Command("SELECT key, value FROM settings ORDER BY key");
        return ReadEntries(command).ToDictionary(entry => Convert.ToHexString(entry.Key), entry => entry.Value);
    }

    private static List<KeyValuePair<byte[], byte[]>> ReadEntries(SqliteCommand command)
    {
        var entries = new List<KeyValuePair<byte[], byte[]>>();
        using SqliteDataReader reader = command.ExecuteReader();
        while (reader.Read())
        {
            entries.Add(new(reader.GetFieldValue<byte[]>(0), SettingDocument.Read(reader.GetString(1))));
        }

        return entries;
    }

    private SqliteCommand Command(string text)
    {
        SqliteCommand command = _connection.CreateCommand();
        command.CommandText = text;
        return command;
    }

    private void Execute(string text)
    {
        using SqliteCommand command = Command(text);
        command.ExecuteNonQuery();
    }

    private void Run(Action operation) => Run(() =>
    {
        operation();
        return true;
    });

    private T Run<T>(Func<T> operation)
    {
        try
        {
            return operation();
        }
        catch (Exception error) when (error is SqliteException or JsonException or InvalidDataException)
        {
            throw Typed(error);
        }
    }

    /// <summary>What SQLite's error means to a caller of the contract: damaged files and a full disk are typed.</summary>
    private KeyValueStoreException Typed(Exception error) => error switch
    {
        SqliteException { SqliteErrorCode: SqliteCorrupt or SqliteNotADatabase } => new StoreDamagedException(Name, _directory, error),
        SqliteException { SqliteErrorCode: SqliteFull } => new StoreFullException(Name, _directory, error),
        SqliteException => new KeyValueStoreException($"{Name} at '{_directory}' failed: {error.Message}", error),

        // A value that is not the document this store writes was damaged in the file, where SQLite keeps no checksum.
        _ => new StoreDamagedException(Name, _directory, error),
    };

    private void Validate(ReadOnlySpan<byte> key, int valueBytes)
    {
        if (key.IsEmpty)
        {
            throw new EmptyKeyException("key");
        }

        if (key.Length > MaxKeyBytes)
        {
            throw new KeyTooLargeException(Name, key.Length, MaxKeyBytes);
        }

        if (valueBytes > MaxValueBytes)
        {
            throw new ValueTooLargeException(Name, valueBytes, MaxValueBytes);
        }
    }

    private void ThrowIfNotWritable()
    {
        ThrowIfDisposed();
        if (Access != StoreAccess.ReadWrite)
        {
            throw new StoreReadOnlyException(Name, Access);
        }
    }

    private void ThrowIfDisposed() => ObjectDisposedException.ThrowIf(_disposed, this);

    /// <summary>A value as the <c>settings</c> table keeps it: <c>{"encoding":"base64","data":"..."}</c>.</summary>
    private sealed record SettingDocument(string Encoding, byte[] Data)
    {
        private static readonly JsonSerializerOptions s_json = new(JsonSerializerDefaults.Web);

        public static string Write(byte[] value) => JsonSerializer.Serialize(new SettingDocument("base64", value), s_json);

        public static byte[] Read(string document) =>
            JsonSerializer.Deserialize<SettingDocument>(document, s_json) is { Encoding: "base64", Data: { } data }
                ? data
                : throw new InvalidDataException($"A settings value is not a base64 document: {document}");
    }
}
