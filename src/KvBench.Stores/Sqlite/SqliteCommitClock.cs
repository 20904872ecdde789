using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

using SQLitePCL;

namespace KvBench.Stores.Sqlite;

/// <summary>What a SQLite writer did at one commit, on <see cref="Stopwatch.GetTimestamp"/>'s clock.</summary>
/// <param name="VisibleAt">
/// When SQLite called the connection's WAL hook: the commit is in the WAL and other connections (of any process) already
/// see it; 0 when no commit was timed yet.
/// </param>
/// <param name="CheckpointTicks">How long the committing connection then spent in its auto-checkpoint; 0 when the commit ran none.</param>
/// <param name="WalFrames">The frames in the WAL after the commit, which decide whether the commit checkpoints.</param>
public readonly record struct SqliteCommitTiming(long VisibleAt, long CheckpointTicks, int WalFrames);

/// <summary>A SQLite store whose writer times its commits (<c>Sqlite_WAL</c>, <c>Sqlite_Scalar</c>).</summary>
public interface ISqliteCommitClock
{
    /// <summary>The writer's last commit: read it on the thread whose write it was, after that write returned.</summary>
    SqliteCommitTiming LastCommit { get; }

    /// <summary>The WAL frames at which a commit of the writer checkpoints (its <c>wal_autocheckpoint</c>); 0 for a store that cannot write.</summary>
    int AutoCheckpointFrames { get; }
}

/// <summary>
/// A WAL hook on one connection that does SQLite's own auto-checkpoint and times the commit around it. A commit becomes
/// visible to other connections before <c>sqlite3_step</c> of its COMMIT returns: SQLite then calls the WAL hook, whose
/// default (<c>sqlite3WalDefaultHook</c>) runs a passive checkpoint, syncs included, in the committing connection once
/// the WAL holds <c>wal_autocheckpoint</c> frames. Installing a hook replaces that default, so this one does the same
/// with the same threshold, and notes when it was called and how long the checkpoint took.
/// </summary>
/// <remarks>
/// <para>SQLitePCLRaw has no binding for <c>sqlite3_wal_hook</c>; this binds the same e_sqlite3 library it loaded.</para>
/// <para>
/// Where it differs from the default: SQLite's <c>PRAGMA wal_autocheckpoint</c> reads the threshold from the default
/// hook only, so on this connection it reads 0 once the hook is in, and setting it would put the default hook back
/// (nothing in the adapter does either). The default hook also wraps its checkpoint in SQLite's benign-malloc markers,
/// which only SQLite's own fault-injection tests look at. The hook adds no system call to a commit: the clock is read
/// through the vDSO.
/// </para>
/// </remarks>
internal sealed unsafe partial class SqliteCommitClock : IDisposable
{
    private const string LibraryName = "e_sqlite3";

    private readonly int _checkpointFrames;
    private GCHandle _self;

    // The checkpoint is bound here, through the same search as a P/Invoke of this assembly: a LibraryImport binds at its
    // first call and allocates there, inside the first write that checkpoints.
    private static readonly delegate* unmanaged[Cdecl]<nint, byte*, int> s_checkpoint =
        (delegate* unmanaged[Cdecl]<nint, byte*, int>)NativeLibrary.GetExport(
            NativeLibrary.Load(LibraryName, typeof(SqliteCommitClock).Assembly, searchPath: null), "sqlite3_wal_checkpoint");

    private SqliteCommitClock(int checkpointFrames) => _checkpointFrames = checkpointFrames;

    /// <summary>The connection's last commit; written by the committing thread inside its COMMIT.</summary>
    public SqliteCommitTiming LastCommit { get; private set; }

    /// <summary>The threshold the hook checkpoints at: the connection's <c>wal_autocheckpoint</c> when it was installed.</summary>
    public int CheckpointFrames => _checkpointFrames;

    /// <summary>Installs the hook on <paramref name="db"/>, which must be in WAL mode already, keeping its <c>wal_autocheckpoint</c>.</summary>
    /// <param name="db">The connection.</param>
    /// <param name="checkpointFrames">The connection's <c>PRAGMA wal_autocheckpoint</c>; 0 or less checkpoints never.</param>
    public static SqliteCommitClock Install(sqlite3 db, int checkpointFrames)
    {
        var clock = new SqliteCommitClock(checkpointFrames);
        clock._self = GCHandle.Alloc(clock);
        _ = sqlite3_wal_hook(db.DangerousGetHandle(), &OnCommit, GCHandle.ToIntPtr(clock._self));
        return clock;
    }

    /// <summary>Lets the hook's object go; call it once the connection is closed, so SQLite can no longer call the hook.</summary>
    public void Dispose()
    {
        if (_self.IsAllocated)
        {
            _self.Free();
        }
    }

    [UnmanagedCallersOnly(CallConvs = [typeof(CallConvCdecl)])]
    private static int OnCommit(nint state, nint db, byte* schema, int frames)
    {
        long visible = Stopwatch.GetTimestamp();
        var clock = (SqliteCommitClock)GCHandle.FromIntPtr(state).Target!;
        long checkpointTicks = 0;
        if (clock._checkpointFrames > 0 && frames >= clock._checkpointFrames)
        {
            // As sqlite3WalDefaultHook: a failed or partial checkpoint is not the commit's error, it is tried again at the next commit.
            _ = s_checkpoint(db, schema);
            checkpointTicks = Stopwatch.GetTimestamp() - visible;
        }

        clock.LastCommit = new SqliteCommitTiming(visible, checkpointTicks, frames);
        return raw.SQLITE_OK;
    }

    [LibraryImport(LibraryName)]
    private static partial nint sqlite3_wal_hook(nint db, delegate* unmanaged[Cdecl]<nint, nint, byte*, int, int> callback, nint state);
}
