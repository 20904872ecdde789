using KvBench.Core;
using KvBench.Evaluation.Reports.Results;
using KvBench.Stores;
using KvBench.Stores.Servers;

namespace KvBench.Evaluation.Reports.Sections.ClusterFaults;

/// <summary>
/// A member of every cluster row killed and paused under load (<see cref="ClusterFault"/>): the leader, then a follower,
/// each on a cluster KvBench started for the one fault; and single writes against batched ones, and the row's own reads
/// against relaxed ones, on each (<see cref="ClusterRequests"/>). A lost acknowledged update, or a stale read from a row's own
/// reads where they are linearizable (etcd's), fails the run; where the row offers reads without a quorum, a paused leader
/// is run again with them, and their stale reads are counted, not failed, as are those of a row whose own reads ask no
/// quorum (a leader's reads, <see cref="ServerRow.LinearizableReads"/>). Each row of one server that offers Synced is killed under
/// the same load at Synced too, to show what a replica changes. <c>kvbench cluster fault</c> runs one row's faults alone.
/// </summary>
public sealed class ClusterFaultSection : AdrSection
{
    /// <summary>The faults, at <paramref name="preset"/>'s settings: the short form for <see cref="AdrPreset.Quick"/>.</summary>
    public ClusterFaultSection(AdrPreset preset = AdrPreset.Default)
    {
        Settings = preset == AdrPreset.Quick ? ClusterFaultSettings.Short : new ClusterFaultSettings();
        RequestRecords = preset == AdrPreset.Quick ? 100 : 500;
    }

    /// <inheritdoc/>
    public override string Name => "clusterfaults";

    /// <summary>The load and timing of every fault.</summary>
    [InResultsFile]
    public ClusterFaultSettings Settings { get; private set; }

    /// <summary>One result per row, fault and member, in that order; <see langword="null"/> before measuring.</summary>
    [InResultsFile]
    public IReadOnlyList<ClusterFaultResult>? Results { get; set; }

    /// <summary>Single against batched writes and own against relaxed reads, one per row; <see langword="null"/> before measuring.</summary>
    [InResultsFile]
    public IReadOnlyList<ClusterRequestsResult>? Requests { get; set; }

    /// <summary>Records each way in <see cref="Requests"/>: fewer for the quick preset.</summary>
    [InResultsFile]
    public int RequestRecords { get; private set; }

    /// <summary>The server rows left out, each with why.</summary>
    [InResultsFile]
    public IReadOnlyList<string> LeftOut { get; private set; } = [];

    /// <summary>
    /// Runs <paramref name="runs"/> on <paramref name="row"/> alone, a new cluster each, as <c>kvbench cluster fault</c>
    /// does: the table of what the client saw, and whether a run lost an acknowledged update or served a stale read
    /// through the row's own reads.
    /// </summary>
    public static async Task<ClusterFaultsAlone> RunAloneAsync(string row, IEnumerable<ClusterFaultSettings> runs)
    {
        ArgumentNullException.ThrowIfNull(runs);
        var results = new List<ClusterFaultResult>();
        foreach (ClusterFaultSettings settings in runs)
        {
            results.Add(await ClusterFault.RunAsync(row, settings).ConfigureAwait(false));
        }

        return new ClusterFaultsAlone(
            ClusterFaultTable.ToMarkdown(results),
            LostWrites: results.Any(result => result.LostAfterRun > 0),
            StaleOwnReads: results.Any(result => result.StaleReads > 0 && !result.Settings.RelaxedReads));
    }

    /// <inheritdoc/>
    public override async Task MeasureAsync(AdrContext context)
    {
        ArgumentNullException.ThrowIfNull(context);
        var results = new List<ClusterFaultResult>();
        var requests = new List<ClusterRequestsResult>();
        var leftOut = new List<string>();
        foreach (ServerRow row in StoreCatalog.ServerRows)
        {
            if (row.UnavailableReason is { } reason)
            {
                leftOut.Add($"{row.Name}: {reason}");
                continue;
            }

            if (row.UserEndpoint is not null)
            {
                leftOut.Add($"{row.Name}: {row.EndpointVariable} points it at a server of the user's own, which KvBench does not fault");
                continue;
            }

            if (row.IsOneProcess && !row.OpensAt(Durability.Synced))
            {
                leftOut.Add(
                    $"{row.Name}: offers no Synced tier, so a kill of its one server would be set beside replicas " +
                        $"that sync every update; its kills are in the server kill rounds");
                continue;
            }

            if (row.IsOneProcess)
            {
                // The same load with the one server, at Synced, killed: what the cluster rows' replicas change.
                context.Log($"Cluster faults: {row.Name}'s one server killed under the same load...");
                results.Add(
                    await ClusterFault.RunAsync(
                        row.Name,
                        Settings with { Fault = MemberFault.Kill, Target = FaultTarget.Leader }).ConfigureAwait(false));
                continue;
            }

            context.Log($"Single against batched writes and own against relaxed reads on {row.Name}...");
            requests.Add(await ClusterRequests.RunAsync(row.Name, RequestRecords).ConfigureAwait(false));
            context.Log($"Cluster faults on {row.Name}: a member killed and paused under load, the leader and then a follower...");
            foreach (MemberFault fault in Enum.GetValues<MemberFault>())
            {
                foreach (FaultTarget target in Enum.GetValues<FaultTarget>())
                {
                    results.Add(await ClusterFault.RunAsync(row.Name, Settings with { Fault = fault, Target = target }).ConfigureAwait(false));
                }
            }

            // A paused leader, resumed, is deposed without knowing it at first: where reads need no quorum, it may answer
            // from what it had.
            if (row.WithRelaxedReads(new ServerStoreOptions { Directory = context.WorkDirectory }) is not null)
            {
                results.Add(
                    await ClusterFault.RunAsync(
                        row.Name,
                        Settings with
                        {
                            Fault = MemberFault.Pause,
                            Target = FaultTarget.Leader,
                            RelaxedReads = true,
                        }).ConfigureAwait(false));
            }

            context.Took($"Cluster faults on {row.Name}");
        }

        Results = results;
        Requests = requests;
        LeftOut = leftOut;
    }

    /// <inheritdoc/>
    public override IReadOnlyList<string> Problems() =>
    [
        .. (Results ?? [])
            .Where(result => result.LostAfterRun > 0)
            .Select(result =>
                $"{result.Row} lost {result.LostAfterRun} acknowledged updates when its " +
                    $"{result.Settings.Target.ToString().ToLowerInvariant()} was faulted ({result.Settings.Fault})."),
        .. (Results ?? [])
            .Where(result =>
                result.StaleReads > 0
                    && !result.Settings.RelaxedReads
                    && StoreCatalog.Row(result.Row) is ServerRow { LinearizableReads: true })
            .Select(result =>
                $"{result.Row} served {result.StaleReads} stale reads when its " +
                    $"{result.Settings.Target.ToString().ToLowerInvariant()} was faulted ({result.Settings.Fault}), " +
                    $"while it declares its reads linearizable."),
    ];

    /// <inheritdoc/>
    public override void WriteTo(AdrMarkdown markdown)
    {
        ArgumentNullException.ThrowIfNull(markdown);
        if (Results is null)
        {
            return;
        }

        markdown.Within(AdrSections.ServerChecksChapter);
        markdown.Output.AppendLine("### A cluster member killed or paused under load").AppendLine();
        markdown.Output.Append(ClusterFaultTable.ToMarkdown(Results));
        markdown.Output.AppendLine(
            "Pausing with SIGSTOP stands in for a partition, as etcd's own functional tests use it: the member " +
                "neither answers nor learns it was away. Each row of one server (replication none) that offers " +
                "Synced was killed under the same load, on a server of its own at Synced, and started again on its " +
                "data: what the cluster's replicas change. The members share this machine's one disk and two cores, " +
                "so an election here is no faster than on separate machines, and every update is synced on each " +
                "member's disk before it is acknowledged. `kvbench cluster fault --store <row> --faults Kill Pause " +
                "--members Leader Follower` runs these alone.").AppendLine();
        if (Requests is { Count: > 0 })
        {
            markdown.Output.AppendLine("### Batched writes and relaxed reads on a cluster").AppendLine();
            markdown.Output.Append(ClusterFaultTable.RequestsToMarkdown(Requests));
        }

        foreach (string row in LeftOut)
        {
            markdown.Output.AppendLine($"Not measured: {row}.").AppendLine();
        }
    }
}

/// <summary>What <see cref="ClusterFaultSection.RunAloneAsync"/> found.</summary>
/// <param name="Markdown">The table of every run, with its explanation.</param>
/// <param name="LostWrites">Whether a run lost an acknowledged update.</param>
/// <param name="StaleOwnReads">Whether a run served a stale read through the row's own reads.</param>
public sealed record ClusterFaultsAlone(string Markdown, bool LostWrites, bool StaleOwnReads);
