using System.CommandLine;
using System.Diagnostics;

using KvBench.Core;
using KvBench.Evaluation.Workload;

namespace KvBench.Cli;

/// <summary><c>load</c> and <c>verify</c>: fixed-seed records written by one command and checked, byte for byte, by another.</summary>
internal static class RecordCommands
{
    private static readonly Option<long> s_count = NonNegative(new Option<long>("--count", "-n") { Description = "How many records.", Required = true });

    private static readonly Option<long> s_valueBytes = NonNegative(new Option<long>("--value-bytes")
    {
        Description = "The length of every value.",
        DefaultValueFactory = static _ => 128,
    });

    private static readonly Option<ulong> s_seed = new("--seed")
    {
        Description = "Which records: load and verify agree on every byte when given the same seed, count and value length.",
        DefaultValueFactory = static _ => RecordSet.DefaultSeed,
    };

    private static readonly Option<ulong> s_valueVersion = new("--value-version")
    {
        Description = "Which version of every value: a load at a new version overwrites each record with bytes that differ from every other version's.",
        DefaultValueFactory = static _ => 0,
    };

    public static Command Load()
    {
        Option<long> batch = NonNegative(new Option<long>("--batch") { Description = "Records written per PutMany call; 1 writes each record with its own Put.", DefaultValueFactory = static _ => 1000 });
        var command = new Command("load", "Writes records 0 to N-1 of a fixed-seed record set (9-byte keys), then flushes; shows a progress bar when it takes long.")
        {
            s_count, s_valueBytes, s_seed, s_valueVersion, batch,
        };
        StoreArguments.AddTo(command);
        StoreArguments.AddEndpointTo(command);
        StoreArguments.SetGuardedAction(command, parseResult =>
        {
            long count = parseResult.GetValue(s_count);
            RecordSet records = Records(parseResult);
            using IKeyValueStore store = StoreArguments.Open(parseResult);
            var clock = Stopwatch.StartNew();
            LoadProgress.Run(progress =>
            {
                records.Load(store, count, (int)Math.Clamp(parseResult.GetValue(batch), 1, int.MaxValue), LoadStatus.Relay(progress, "Loading", 0, count), parseResult.GetValue(s_valueVersion));
                store.Flush();
                return count;
            });
            parseResult.InvocationConfiguration.Output.WriteLine(
                $"Loaded {count:N0} records of {records.ValueBytes:N0} bytes (seed {records.Seed}) into {store.Name} in {clock.Elapsed.TotalSeconds:0.00} s.");
            return ExitCodes.Ok;
        });
        return command;
    }

    public static Command Verify()
    {
        Option<long> sample = NonNegative(new Option<long>("--sample") { Description = "Read back only this many records, spread evenly; all of them when left out." });
        var command = new Command("verify", $"Reads back records written by `load` with the same --count, --value-bytes, --seed and --value-version and compares every byte; exit code {ExitCodes.VerificationFailed} when any is missing or wrong.")
        {
            s_count, s_valueBytes, s_seed, s_valueVersion, sample,
        };
        StoreArguments.AddTo(command, readsOnly: true);
        StoreArguments.AddEndpointTo(command);
        StoreArguments.SetGuardedAction(command, parseResult =>
        {
            long count = parseResult.GetValue(s_count);
            using IKeyValueStore store = StoreArguments.OpenForReading(parseResult);
            long sampleSize = parseResult.GetResult(sample) is null ? long.MaxValue : parseResult.GetValue(sample);
            VerificationResult result = Records(parseResult).Verify(store, count, sampleSize, parseResult.GetValue(s_valueVersion));
            if (!result.Ok)
            {
                parseResult.InvocationConfiguration.Error.WriteLine(
                    $"kvbench: {store.Name}: {result.Missing:N0} of {result.Checked:N0} records missing and {result.Wrong:N0} wrong (first bad index {result.FirstBadIndex}).");
                return ExitCodes.VerificationFailed;
            }

            parseResult.InvocationConfiguration.Output.WriteLine($"Verified {result.Checked:N0} of {count:N0} records in {store.Name}: every byte matches.");
            return ExitCodes.Ok;
        });
        return command;
    }

    private static RecordSet Records(ParseResult parseResult) =>
        new((int)Math.Min(parseResult.GetValue(s_valueBytes), Array.MaxLength), parseResult.GetValue(s_seed));

    private static Option<long> NonNegative(Option<long> option)
    {
        option.Validators.Add(result =>
        {
            if (result.GetValueOrDefault<long>() < 0)
            {
                result.AddError($"{option.Name} must not be negative.");
            }
        });
        return option;
    }
}
