using System.CommandLine;

using KvBench.Evaluation.Servers;
using KvBench.Stores;
using KvBench.Stores.Servers;

namespace KvBench.Cli;

/// <summary><c>kvbench cluster fault</c>: a member of a cluster row faulted under load (<see cref="ClusterFault"/>).</summary>
internal static class ClusterCommand
{
    public static Command Create() => new("cluster", "Faults in the replicated rows' clusters (and the one-server rows beside them), on servers of KvBench's own.")
    {
        Fault(),
    };

    private static Command Fault()
    {
        string[] clusterRows = [.. StoreCatalog.ServerRows.Where(row => !row.IsOneProcess).Select(row => row.Name)];
        var store = new Option<string>("--store", "-s")
        {
            Description = $"The server row: a cluster row ({string.Join(", ", clusterRows)}), or a row of one server ({string.Join(", ", StoreCatalog.ServerRows.Where(row => row.IsOneProcess).Select(row => row.Name))}) to set beside them, whose one member is its leader.",
            Required = true,
            HelpName = "row",
        };
        store.Validators.Add(result =>
        {
            if (result.Tokens.Count > 0 && !StoreCatalog.ServerNames.Contains(result.Tokens[0].Value, StringComparer.OrdinalIgnoreCase))
            {
                result.AddError($"'{result.Tokens[0].Value}' is not a server row; the server rows are {string.Join(", ", StoreCatalog.ServerNames)}.");
            }
        });
        var defaults = new ClusterFaultSettings();
        var fault = new Option<MemberFault[]>("--fault")
        {
            Description = "How the member is faulted: Kill (SIGKILL, then started again on its data), Pause (SIGSTOP, then SIGCONT), or both, one run each.",
            DefaultValueFactory = static _ => [MemberFault.Kill],
            AllowMultipleArgumentsPerToken = true,
        };
        var member = new Option<FaultTarget[]>("--member")
        {
            Description = "Which member: Leader, Follower, or both, one run each.",
            DefaultValueFactory = static _ => [FaultTarget.Leader],
            AllowMultipleArgumentsPerToken = true,
        };
        var relaxedReads = new Option<bool>("--relaxed-reads") { Description = "Reads without a quorum, where the row offers them (etcd's serializable reads), in place of its own linearizable ones." };
        var rate = new Option<int>("--rate") { Description = "Operations sent per second, open loop.", DefaultValueFactory = _ => defaults.Rate };
        var before = new Option<double>("--before") { Description = "Seconds of load before the fault.", DefaultValueFactory = _ => defaults.Before.TotalSeconds };
        var during = new Option<double>("--during") { Description = "Seconds the member stays faulted.", DefaultValueFactory = _ => defaults.During.TotalSeconds };
        var after = new Option<double>("--after") { Description = "Seconds of load after the member is back.", DefaultValueFactory = _ => defaults.After.TotalSeconds };
        var command = new Command("fault", "Sends YCSB workload A's mix at a fixed rate through the row's adapter to a new cluster of KvBench's own (a server, for a row of one), faults one member in the middle, and prints what the client saw: updates acknowledged, lost after the run, stale reads, errors, the time until updates were acknowledged again, and p99 and max latency before, during and after the fault.")
        {
            store, fault, member, relaxedReads, rate, before, during, after,
        };
        command.Validators.Add(result =>
        {
            if (result.GetValue(store) is { } name
                && StoreCatalog.ServerRows.FirstOrDefault(row => row.Name.Equals(name, StringComparison.OrdinalIgnoreCase)) is { IsOneProcess: true } single
                && result.GetValue(member)?.Contains(FaultTarget.Follower) == true)
            {
                result.AddError($"{single.Name} runs one server, which has no follower: --member Leader faults the server itself.");
            }
        });
        StoreArguments.SetGuardedAction(command, parseResult =>
        {
            string row = StoreCatalog.ServerNames.First(name => name.Equals(parseResult.GetValue(store), StringComparison.OrdinalIgnoreCase));
            var results = new List<ClusterFaultResult>();
            foreach (MemberFault kind in parseResult.GetValue(fault)!)
            {
                foreach (FaultTarget target in parseResult.GetValue(member)!)
                {
                    var settings = defaults with
                    {
                        Fault = kind,
                        Target = target,
                        RelaxedReads = parseResult.GetValue(relaxedReads),
                        Rate = parseResult.GetValue(rate),
                        Before = TimeSpan.FromSeconds(parseResult.GetValue(before)),
                        During = TimeSpan.FromSeconds(parseResult.GetValue(during)),
                        After = TimeSpan.FromSeconds(parseResult.GetValue(after)),
                    };
                    results.Add(ClusterFault.RunAsync(row, settings).GetAwaiter().GetResult());
                }
            }

            parseResult.InvocationConfiguration.Output.Write(ClusterFaultTable.ToMarkdown(results));
            // A lost acknowledged update fails the command, and so does a stale read from the row's own (linearizable) reads.
            return results.All(result => result.LostAfterRun == 0 && (result.StaleReads == 0 || result.Settings.RelaxedReads)) ? ExitCodes.Ok : ExitCodes.VerificationFailed;
        });
        return command;
    }
}
