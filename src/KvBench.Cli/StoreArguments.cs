using System.CommandLine;
using System.CommandLine.Parsing;
using System.Text;

using KvBench.Core;
using KvBench.Stores;
using KvBench.Stores.Servers;
using KvBench.Stores.Sqlite;

namespace KvBench.Cli;

/// <summary>The options every store command takes, and how they become a store, bytes and text.</summary>
internal static class StoreArguments
{
    public static Option<string> Store { get; } = CreateStoreOption();

    public static Option<string> Directory { get; } = new("--dir", "-d")
    {
        Description = "The store's directory, created when missing (a server row: the store's name).",
        Required = true,
    };

    public static Option<Durability> Durability { get; } = new("--durability")
    {
        Description = "Buffered: survives a killed process; Synced: also power loss.",
        HelpName = "tier",
        DefaultValueFactory = static _ => Core.Durability.Buffered,
    };

    public static Option<StoreAccess> Access { get; } = new("--access")
    {
        Description = "How the store is opened: ReadWrite, ReadOnly or Secondary.",
        HelpName = "mode",
        DefaultValueFactory = static _ => StoreAccess.ReadWrite,
    };

    public static Option<string> Endpoint { get; } = new("--endpoint")
    {
        Description = "A server row's server (host:port); default: its KVBENCH_*_ENDPOINT variable.",
        HelpName = "host:port",
    };

    public static Option<int?> WalAutoCheckpoint { get; } = new Option<int?>("--wal-autocheckpoint")
    {
        Description = "SQLite's PRAGMA wal_autocheckpoint, in WAL frames; 0 never checkpoints (default 1000).",
        HelpName = "n",
    }.AtLeast(0);

    public static Option<bool> Hex { get; } = new("--hex", "-x")
    {
        Description = "Keys and values, given and printed, are hexadecimal (any bytes) instead of UTF-8 text.",
    };

    /// <summary>Adds <c>--store</c>, <c>--dir</c> and <c>--durability</c>, and <c>--access</c> for commands that only read.</summary>
    public static void AddTo(Command command, bool readsOnly = false)
    {
        command.Options.Add(Store);
        command.Options.Add(Directory);
        command.Options.Add(Durability);
        if (readsOnly)
        {
            command.Options.Add(Access);
        }
    }

    /// <summary>Adds <c>--endpoint</c> to a command that opens its store with <see cref="Open"/>; given with an embedded row, it is a usage error.</summary>
    public static void AddEndpointTo(Command command) => AddRowOption(
        command,
        Endpoint,
        static row => row is ServerRow,
        store => $"--endpoint points a server row ({string.Join(", ", StoreCatalog.ServerNames)}) at its server; {store} keeps its data in --dir.");

    /// <summary>
    /// Adds <c>--wal-autocheckpoint</c> to a command that opens its store with <see cref="Open"/>; given with a row not
    /// SQLite's, it is a usage error.
    /// </summary>
    public static void AddWalAutoCheckpointTo(Command command) => AddRowOption(
        command,
        WalAutoCheckpoint,
        static row => row is SqliteRow,
        store => $"--wal-autocheckpoint sets a SQLite row's WAL checkpoint; {store} is not a SQLite row.");

    /// <summary>An argument of bytes: UTF-8 text, or hexadecimal with <c>--hex</c>; bad hexadecimal is a usage error.</summary>
    public static Argument<byte[]> Bytes(string name, string description, bool optional = false)
    {
        var argument = new Argument<byte[]>(name) { Description = description, Arity = ArgumentArity.ExactlyOne, CustomParser = ParseBytes };
        if (optional)
        {
            // With no token the same parser runs and gives the empty byte string.
            argument.Arity = ArgumentArity.ZeroOrOne;
            argument.DefaultValueFactory = ParseBytes;
        }

        return argument;
    }

    public static IKeyValueStore Open(ParseResult parseResult, StoreAccess access = StoreAccess.ReadWrite, Durability? durability = null)
    {
        var options = new StoreOptions
        {
            Directory = parseResult.GetRequiredValue(Directory),
            Durability = durability ?? parseResult.GetValue(Durability),
            Access = access,
        };
        if (parseResult.GetResult(WalAutoCheckpoint)?.GetValueOrDefault<int?>() is { } frames)
        {
            options = new SqliteStoreOptions(options) { AutoCheckpointFrames = frames };
        }

        string? endpoint = parseResult.GetValue(Endpoint);
        return StoreCatalog.Open(parseResult.GetRequiredValue(Store), endpoint is null ? options : new ServerStoreOptions(options) { Endpoint = endpoint });
    }

    /// <summary>Opens the store with the access <c>--access</c> asks for.</summary>
    public static IKeyValueStore OpenForReading(ParseResult parseResult) => Open(parseResult, parseResult.GetValue(Access));

    public static string Format(ReadOnlySpan<byte> bytes, ParseResult parseResult) =>
        parseResult.GetValue(Hex) ? Convert.ToHexStringLower(bytes) : Encoding.UTF8.GetString(bytes);

    /// <summary>
    /// Assemblies whose rows join the catalog before the command line is checked (<see cref="RowAssemblies"/>); an option
    /// of every command, so a row from a team's assembly is named wherever a row is.
    /// </summary>
    public static Option<string[]> RowAssemblies { get; } = CreateRowAssembliesOption();

    /// <summary>On an error, its stack trace after the one-line message; an option of every command.</summary>
    public static Option<bool> Verbose { get; } = new("--verbose")
    {
        Description = "On an error, print its stack trace after the one-line message.",
        Recursive = true,
    };

    /// <summary>
    /// Runs a command's action; any error becomes one line on standard error and the exit code
    /// <see cref="ExitCodes.Report"/> gives it, with its stack trace only under <c>--verbose</c>.
    /// </summary>
    public static void SetGuardedAction(Command command, Func<ParseResult, int> action) =>
        command.SetAction(parseResult =>
        {
            try
            {
                return action(parseResult);
            }
            catch (Exception e)
            {
                return ExitCodes.Report(e, parseResult.InvocationConfiguration.Error, parseResult.GetValue(Verbose));
            }
        });

    // An option that only some rows take: given with another row, a usage error naming the row.
    private static void AddRowOption<T>(Command command, Option<T> option, Func<StoreRow, bool> takesIt, Func<string, string> error)
    {
        command.Options.Add(option);
        command.Validators.Add(result =>
        {
            if (result.GetValue(option) is not null
                && result.GetValue(Store) is { } store
                && UnknownStore(store) is null
                && !takesIt(StoreCatalog.Row(store)))
            {
                result.AddError(error(CanonicalName(store)));
            }
        });
    }

    private static byte[] ParseBytes(ArgumentResult result)
    {
        string text = result.Tokens.Count > 0 ? result.Tokens[0].Value : string.Empty;
        if (!result.GetValue(Hex))
        {
            return Encoding.UTF8.GetBytes(text);
        }

        try
        {
            return Convert.FromHexString(text);
        }
        catch (FormatException)
        {
            result.AddError($"'{text}' is not hexadecimal: give pairs of the digits 0-9 and a-f.");
            return [];
        }
    }

    private static Option<string[]> CreateRowAssembliesOption()
    {
        Option<string[]> option = ListOptions.Names(
            "--rows-from",
            "Built assemblies of your own rows, as paths (docs/extending.md).");
        option.HelpName = "dll";
        option.Recursive = true;
        option.Arity = ArgumentArity.ZeroOrMore;
        return option;
    }

    private static Option<string> CreateStoreOption()
    {
        var option = new Option<string>("--store", "-s")
        {
            Description = "The store (row) to open; `kvbench stores` lists them.",
            Required = true,
            // Without a name of its own, help would print every row as the option's value (<FASTER|FileSystem|...>), about
            // 200 columns wide, which wraps every line of the help; the rows are in `kvbench stores` and in completion.
            HelpName = "row",
        };
        option.CompletionSources.Add([.. StoreCatalog.AllNames]);
        option.Validators.Add(static result =>
        {
            if (result.Tokens.Count > 0 && UnknownStore(result.Tokens[0].Value) is { } error)
            {
                result.AddError(error);
            }
        });
        return option;
    }

    /// <summary>The catalog's spelling of <paramref name="name"/>, which a validator has already found (names match in any case).</summary>
    public static string CanonicalName(string name) => StoreCatalog.AllNames.First(row => row.Equals(name, StringComparison.OrdinalIgnoreCase));

    /// <summary>The usage error for a name no row has, or <see langword="null"/> for a known one.</summary>
    public static string? UnknownStore(string name) =>
        StoreCatalog.AllNames.Contains(name, StringComparer.OrdinalIgnoreCase)
            ? null
            : $"No store is named '{name}'. Known stores: {string.Join(", ", StoreCatalog.AllNames)}.";
}
