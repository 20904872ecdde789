using KvBench.Core;
using KvBench.Evaluation.Decision;
using KvBench.Stores;

namespace KvBench.Cli;

/// <summary>What kvbench's exit code means. Listed in <c>kvbench --help</c> and the README.</summary>
public static class ExitCodes
{
    /// <summary>The command did what it was asked.</summary>
    public const int Ok = 0;

    /// <summary>A store call failed, or KvBench itself did; the message says why.</summary>
    public const int Error = 1;

    /// <summary>
    /// The command line could not be parsed (the message and the command's help are printed), a decision profile it
    /// names could not be read (the message names the file, the place in it and the problem), or an assembly of rows it
    /// names could not be loaded (the message names the file and the problem).
    /// </summary>
    public const int Usage = 2;

    /// <summary>Another process holds the store in a way that excludes this open.</summary>
    public const int StoreLocked = 3;

    /// <summary><c>get</c> or <c>delete</c> found no such key.</summary>
    public const int NotFound = 4;

    /// <summary><c>verify</c> found records missing or with other bytes.</summary>
    public const int VerificationFailed = 5;

    /// <summary>The store's package or native library cannot be had on this machine.</summary>
    public const int StoreUnavailable = 6;

    /// <summary>A read-only or secondary open found no store in the directory; nothing was created.</summary>
    public const int StoreNotFound = 7;

    /// <summary>The store's files are damaged: the engine found bytes it did not write.</summary>
    public const int StoreDamaged = 8;

    /// <summary>The disk that holds the store is full; the write that failed was not stored, earlier ones are kept.</summary>
    public const int StoreFull = 9;

    /// <summary>
    /// A measuring command finished and found something wrong: a run read wrong bytes or had failed operations, a
    /// linearizable read was stale, or its report lists a problem.
    /// </summary>
    public const int CheckFailed = 10;

    /// <summary>A kill or fault lost or tore acknowledged writes, or the store did not reopen after it.</summary>
    public const int WritesLost = 11;

    /// <summary><c>compare</c> found a cell slower than the base run past the threshold, with intervals that do not overlap.</summary>
    public const int Regressed = 12;

    /// <summary>The exit codes as <c>--help</c> shows them, one meaning each.</summary>
    internal const string Help = """
        Exit codes:
          0  ok
          1  error: a store call failed, or KvBench itself did (the message says why)
          2  usage: the command line could not be parsed, or a profile or row assembly could not be read (the line
             names where)
          3  store locked: another process holds the store; nothing was read or written. Stores that allow
             one writer (see `kvbench stores`) can still be read with --access ReadOnly or Secondary.
          4  not found: get or delete found no such key
          5  verification failed: verify found records missing or with other bytes
          6  store unavailable: its package or native library cannot be had on this machine
          7  store not found: --access ReadOnly or Secondary found no store in --dir; nothing was created
          8  store damaged: the store's files hold bytes its engine did not write
          9  store full: the disk is full; the failed write was not stored, earlier writes are kept
         10  check failed: a measuring command found a wrong read, a failed operation or a problem it lists
         11  writes lost: a kill or fault lost or tore acknowledged writes, or the store did not reopen
         12  regressed: compare found a cell slower than the base run past the threshold

        Every error is one line on standard error; --verbose adds its stack trace.
        """;

    /// <summary>
    /// The exit code for an error a store raised about itself or its input, or <see langword="null"/> for any other
    /// error, which is not the store's (a bug, or the machine: a file KvBench itself writes, say) and exits with
    /// <see cref="Error"/>, its type named in the line.
    /// </summary>
    public static int? For(Exception error) => error switch
    {
        // A profile is input the user wrote, as a command line is: its problems are the user's to fix, not KvBench's.
        ProfileException => Usage,

        // So is an assembly of rows it names: the file, not the store or KvBench, is what is wrong.
        RowAssemblyException => Usage,
        StoreLockedException => StoreLocked,
        StoreUnavailableException => StoreUnavailable,
        StoreNotFoundException => StoreNotFound,
        StoreDamagedException => StoreDamaged,
        StoreFullException => StoreFull,
        KeyValueStoreException or EmptyKeyException or SizeLimitExceededException => Error,
        _ => null,
    };

    /// <summary>
    /// Writes <paramref name="error"/> as one line on <paramref name="console"/> (its stack trace after it when
    /// <paramref name="verbose"/>) and returns the exit code it means.
    /// </summary>
    public static int Report(Exception error, TextWriter console, bool verbose)
    {
        int? code = For(error);
        string message = error.Message.ReplaceLineEndings(" ");
        if (error is ProfileException { JsonPath.Length: > 0 } profileError)
        {
            // The path says where in the file; the file itself is named once, before it.
            message = $"{profileError.SourceName}: {message}";
        }

        console.WriteLine(code is null ? $"kvbench: {message} ({error.GetType().Name})" : $"kvbench: {message}");
        if (verbose)
        {
            console.WriteLine(error.ToString());
        }

        return code ?? Error;
    }
}
