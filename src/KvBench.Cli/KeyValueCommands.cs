using System.CommandLine;

using KvBench.Core;

namespace KvBench.Cli;

/// <summary><c>put</c>, <c>get</c>, <c>delete</c> and <c>scan</c>: one store call each, through the catalog.</summary>
internal static class KeyValueCommands
{
    public static Command Put()
    {
        Argument<byte[]> key = StoreArguments.Bytes("key", "The key.");
        Argument<byte[]> value = StoreArguments.Bytes("value", "The value; may be empty.");
        var command = new Command("put", "Writes a value under a key and flushes it to the chosen durability.") { key, value };
        StoreArguments.AddTo(command);
        StoreArguments.AddEndpointTo(command);
        command.Options.Add(StoreArguments.Hex);
        StoreArguments.SetGuardedAction(command, parseResult =>
        {
            using IKeyValueStore store = StoreArguments.Open(parseResult);
            store.Put(parseResult.GetRequiredValue(key), parseResult.GetRequiredValue(value));
            store.Flush();
            return ExitCodes.Ok;
        });
        return command;
    }

    public static Command Get()
    {
        Argument<byte[]> key = StoreArguments.Bytes("key", "The key.");
        var command = new Command("get", $"Prints the value of a key; exit code {ExitCodes.NotFound} when there is none.") { key };
        StoreArguments.AddTo(command, readsOnly: true);
        StoreArguments.AddEndpointTo(command);
        command.Options.Add(StoreArguments.Hex);
        StoreArguments.SetGuardedAction(command, parseResult =>
        {
            using IKeyValueStore store = StoreArguments.OpenForReading(parseResult);
            if (store.Get(parseResult.GetRequiredValue(key)) is not { } value)
            {
                parseResult.InvocationConfiguration.Error.WriteLine("kvbench: no such key.");
                return ExitCodes.NotFound;
            }

            parseResult.InvocationConfiguration.Output.WriteLine(StoreArguments.Format(value, parseResult));
            return ExitCodes.Ok;
        });
        return command;
    }

    public static Command Delete()
    {
        Argument<byte[]> key = StoreArguments.Bytes("key", "The key.");
        var command = new Command("delete", $"Removes a key; exit code {ExitCodes.NotFound} when there was none.") { key };
        StoreArguments.AddTo(command);
        StoreArguments.AddEndpointTo(command);
        command.Options.Add(StoreArguments.Hex);
        StoreArguments.SetGuardedAction(command, parseResult =>
        {
            using IKeyValueStore store = StoreArguments.Open(parseResult);
            bool removed = store.Delete(parseResult.GetRequiredValue(key));
            store.Flush();
            if (!removed)
            {
                parseResult.InvocationConfiguration.Error.WriteLine("kvbench: no such key.");
            }

            return removed ? ExitCodes.Ok : ExitCodes.NotFound;
        });
        return command;
    }

    public static Command Scan()
    {
        Argument<byte[]> prefix = StoreArguments.Bytes("prefix", "Only keys that start with it; every key when left out.", optional: true);
        var command = new Command("scan", "Prints every entry whose key starts with a prefix, one `key<TAB>value` line each, in key order.") { prefix };
        StoreArguments.AddTo(command, readsOnly: true);
        StoreArguments.AddEndpointTo(command);
        command.Options.Add(StoreArguments.Hex);
        StoreArguments.SetGuardedAction(command, parseResult =>
        {
            using IKeyValueStore store = StoreArguments.OpenForReading(parseResult);
            TextWriter output = parseResult.InvocationConfiguration.Output;
            foreach ((byte[] entryKey, byte[] entryValue) in store.ScanPrefix(parseResult.GetRequiredValue(prefix)))
            {
                output.WriteLine($"{StoreArguments.Format(entryKey, parseResult)}\t{StoreArguments.Format(entryValue, parseResult)}");
            }

            return ExitCodes.Ok;
        });
        return command;
    }
}
