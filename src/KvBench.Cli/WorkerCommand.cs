using System.CommandLine;

using KvBench.Evaluation.MultiProcess;

namespace KvBench.Cli;

/// <summary><c>mp-worker</c>: one side of a two-process check, run by the multi-process tests and probes.</summary>
internal static class WorkerCommand
{
    public static Command Create()
    {
        var name = new Option<string>("--name") { Description = "This worker's name; it writes that name's fixed-seed records.", Required = true };
        var peer = new Option<string>("--peer") { Description = "The other worker's name, whose records this one reads.", Required = true };
        var pause = new Option<int>("--pause-ms") { Description = "Pause after each write and read; 0 writes as fast as the store allows.", DefaultValueFactory = static _ => 5 };
        var minimumWrites = new Option<int>("--min-writes") { Description = "Records to write before a stop request is honoured." };
        var noFlush = new Option<bool>("--no-flush") { Description = "Do not flush after each write (the kill probe: what does an acknowledged, unflushed write survive?)." };
        var initialSize = new Option<long?>("--initial-size") { Description = "Open the store asking for this initial size in bytes (LMDB's map), to make it grow while both processes write." };
        var maxSeconds = new Option<int>("--max-seconds") { Description = "Ends the worker after this long even without a stop request.", DefaultValueFactory = static _ => 120 };
        var command = new Command(
            WorkerOptions.CommandName,
            "Used by the multi-process tests and probes: opens a store, writes its own records (or tries one write when it cannot write), "
            + "reads the peer's, and prints JSON lines on standard output (ready, saw-peer, result) until it reads `stop` or its input ends.")
        {
            name, peer, pause, minimumWrites, maxSeconds, noFlush, initialSize,
        };
        StoreArguments.AddTo(command, readsOnly: true);
        command.SetAction(parseResult =>
        {
            var options = new WorkerOptions
            {
                Store = parseResult.GetRequiredValue(StoreArguments.Store),
                Directory = parseResult.GetRequiredValue(StoreArguments.Directory),
                Durability = parseResult.GetValue(StoreArguments.Durability),
                Access = parseResult.GetValue(StoreArguments.Access),
                Name = parseResult.GetRequiredValue(name),
                Peer = parseResult.GetRequiredValue(peer),
                Pause = TimeSpan.FromMilliseconds(parseResult.GetValue(pause)),
                MinimumWrites = parseResult.GetValue(minimumWrites),
                MaxDuration = TimeSpan.FromSeconds(parseResult.GetValue(maxSeconds)),
                FlushEachWrite = !parseResult.GetValue(noFlush),
                InitialSizeBytes = parseResult.GetValue(initialSize),
            };
            WorkerOutcome outcome = MultiProcessWorker.Run(options, Console.In, parseResult.InvocationConfiguration.Output);
            return outcome switch
            {
                { OpenFailure: { } failure } => ExitCodes.For(failure) ?? ExitCodes.Error,
                { Succeeded: true } => ExitCodes.Ok,
                _ => ExitCodes.Error,
            };
        });
        return command;
    }
}
