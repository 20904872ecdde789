using System.CommandLine;
using System.Diagnostics;

using KvBench.Core;
using KvBench.Evaluation.Workload;

namespace KvBench.Cli;

/// <summary><c>load</c> and <c>verify</c>: numbered records written by one command and checked, byte for byte, by another.</summary>
internal static class RecordCommands
{
    private static readonly Option<long> s_records = new Option<long>("--records", "-n")
    {
        Description = "How many records.",
        Required = true,
        HelpName = "count",
    }.AtLeast(1);

    /// <summary>One length, not a distribution as on the workload commands: these records have no version stamp to hold.</summary>
    private static readonly Option<int> s_valueBytes = new Option<int>("--value-bytes")
    {
        Description = "The length of every value, in bytes.",
        DefaultValueFactory = static _ => WorkloadSpec.DefaultValueBytes,
        HelpName = "bytes",
    }.AtLeast(0);

    private static readonly Option<ulong> s_recordSet = new("--record-set")
    {
        Description = "Which records: the same number gives the same bytes.",
        DefaultValueFactory = static _ => RecordSet.DefaultNumber,
        HelpName = "number",
    };

    private static readonly Option<ulong> s_valueVersion = new("--value-version")
    {
        Description = "Which version of every value; each version has other bytes.",
        DefaultValueFactory = static _ => 0,
        HelpName = "number",
    };

    public static Command Load()
    {
        Option<int> batch = new Option<int>("--batch")
        {
            Description = "Records per PutMany call; 1 writes each record with its own Put.",
            DefaultValueFactory = static _ => 1000,
            HelpName = "records",
        }.AtLeast(1);
        var command = new Command("load", "Writes records 0 to N-1 of a numbered record set, then flushes.")
        {
            s_records, s_valueBytes, s_recordSet, s_valueVersion, batch,
        };
        StoreArguments.AddTo(command);
        StoreArguments.AddEndpointTo(command);
        StoreArguments.SetGuardedAction(command, parseResult =>
        {
            long count = parseResult.GetValue(s_records);
            RecordSet records = Records(parseResult);
            using IKeyValueStore store = StoreArguments.Open(parseResult);
            var clock = Stopwatch.StartNew();
            LoadProgress.Run(progress =>
            {
                records.Load(store, count, parseResult.GetValue(batch), LoadStatus.Relay(progress, "Loading", 0, count), parseResult.GetValue(s_valueVersion));
                store.Flush();
                return count;
            });
            parseResult.InvocationConfiguration.Output.WriteLine(
                $"Loaded {count:N0} records of {records.ValueBytes:N0} bytes (record set {records.Number}) into " +
                    $"{store.Name} in {clock.Elapsed.TotalSeconds:0.00} s.");
            return ExitCodes.Ok;
        });
        return command;
    }

    public static Command Verify()
    {
        Option<long?> sample = new Option<long?>("--sample")
        {
            Description = "Read back only this many records, spread evenly; all of them when left out.",
            HelpName = "count",
        }.AtLeast(1);
        var command = new Command(
            "verify",
            $"Reads back the records `load` wrote and compares every byte; exit code {ExitCodes.VerificationFailed} when any differs.")
        {
            s_records, s_valueBytes, s_recordSet, s_valueVersion, sample,
        };
        StoreArguments.AddTo(command, readsOnly: true);
        StoreArguments.AddEndpointTo(command);
        StoreArguments.SetGuardedAction(command, parseResult =>
        {
            long count = parseResult.GetValue(s_records);
            using IKeyValueStore store = StoreArguments.OpenForReading(parseResult);
            long sampleSize = parseResult.GetValue(sample) ?? long.MaxValue;
            VerificationResult result = Records(parseResult).Verify(store, count, sampleSize, parseResult.GetValue(s_valueVersion));
            if (!result.Ok)
            {
                parseResult.InvocationConfiguration.Error.WriteLine(
                    $"kvbench: {store.Name}: {result.Missing:N0} of {result.Checked:N0} records missing and " +
                        $"{result.Wrong:N0} wrong (first bad index {result.FirstBadIndex}).");
                return ExitCodes.VerificationFailed;
            }

            parseResult.InvocationConfiguration.Output.WriteLine($"Verified {result.Checked:N0} of {count:N0} records in {store.Name}: every byte matches.");
            return ExitCodes.Ok;
        });
        return command;
    }

    private static RecordSet Records(ParseResult parseResult) =>
        new(parseResult.GetValue(s_valueBytes), parseResult.GetValue(s_recordSet));
}
