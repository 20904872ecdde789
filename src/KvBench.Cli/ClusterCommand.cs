using System.CommandLine;

using KvBench.Evaluation.Reports.Sections.ClusterFaults;
using KvBench.Stores;
using KvBench.Stores.Servers;

namespace KvBench.Cli;

/// <summary><c>kvbench cluster fault</c>: a member of a cluster row faulted under load (<see cref="ClusterFaultSection.RunAloneAsync"/>).</summary>
internal static class ClusterCommand
{
    public static Command Create() => new("cluster", "Faults a member of a server row's cluster under load, on servers of KvBench's own.")
    {
        Fault(),
    };

    private static Command Fault()
    {
        string[] clusterRows = [.. StoreCatalog.ServerRows.Where(row => !row.IsOneProcess).Select(row => row.Name)];
        var store = new Option<string>("--store", "-s")
        {
            Description = $"The server row: a cluster row ({string.Join(", ", clusterRows)}), or a row of one server, its leader.",
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
        Option<MemberFault[]> faults = ListOptions.Enums<MemberFault>("--faults", "How the member is faulted: Kill, Pause, or both, one run each.");
        faults.DefaultValueFactory = static _ => [MemberFault.Kill];
        faults.HelpName = "kinds";
        Option<FaultTarget[]> members = ListOptions.Enums<FaultTarget>("--members", "Which member is faulted: Leader, Follower, or both, one run each.");
        members.DefaultValueFactory = static _ => [FaultTarget.Leader];
        members.HelpName = "members";
        var relaxedReads = new Option<bool>("--relaxed-reads") { Description = "Read without a quorum where the row offers it, not linearizably." };
        Option<int> rate = new Option<int>("--rate")
        {
            Description = "Operations sent per second, open loop.",
            DefaultValueFactory = _ => defaults.Rate,
            HelpName = "per-second",
        }.AtLeast(1);
        Option<double> before = Seconds("--before", "Seconds of load before the fault.", defaults.Before);
        Option<double> during = Seconds("--during", "Seconds the member stays faulted.", defaults.During);
        Option<double> after = Seconds("--after", "Seconds of load after the member is back.", defaults.After);
        var command = new Command("fault", "Sends YCSB-A's mix at a fixed rate to a new cluster, faults one member, prints what the client saw.")
        {
            store, faults, members, relaxedReads, rate, before, during, after,
        };
        command.Validators.Add(result =>
        {
            if (result.GetValue(store) is { } name
                && StoreCatalog.ServerRows.FirstOrDefault(row => row.Name.Equals(name, StringComparison.OrdinalIgnoreCase)) is { IsOneProcess: true } single
                && result.GetValue(members)?.Contains(FaultTarget.Follower) == true)
            {
                result.AddError($"{single.Name} runs one server, which has no follower: --members Leader faults the server itself.");
            }
        });
        StoreArguments.SetGuardedAction(command, parseResult =>
        {
            string row = StoreCatalog.ServerNames.First(name => name.Equals(parseResult.GetValue(store), StringComparison.OrdinalIgnoreCase));
            var runs = new List<ClusterFaultSettings>();
            foreach (MemberFault kind in parseResult.GetValue(faults)!)
            {
                foreach (FaultTarget target in parseResult.GetValue(members)!)
                {
                    runs.Add(defaults with
                    {
                        Fault = kind,
                        Target = target,
                        RelaxedReads = parseResult.GetValue(relaxedReads),
                        Rate = parseResult.GetValue(rate),
                        Before = TimeSpan.FromSeconds(parseResult.GetValue(before)),
                        During = TimeSpan.FromSeconds(parseResult.GetValue(during)),
                        After = TimeSpan.FromSeconds(parseResult.GetValue(after)),
                    });
                }
            }

            ClusterFaultsAlone found = ClusterFaultSection.RunAloneAsync(row, runs).GetAwaiter().GetResult();
            parseResult.InvocationConfiguration.Output.Write(found.Markdown);
            // A lost acknowledged update fails the command, and so does a stale read from the row's own (linearizable) reads.
            return found.LostWrites ? ExitCodes.WritesLost : found.StaleOwnReads ? ExitCodes.CheckFailed : ExitCodes.Ok;
        });
        return command;
    }

    private static Option<double> Seconds(string name, string description, TimeSpan defaultValue) =>
        new Option<double>(name) { Description = description, DefaultValueFactory = _ => defaultValue.TotalSeconds, HelpName = "seconds" }.Above(0);
}
