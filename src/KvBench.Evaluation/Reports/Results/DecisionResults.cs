using System.Diagnostics.CodeAnalysis;

using KvBench.Evaluation.Decision;
using KvBench.Evaluation.Reports.Charts;

namespace KvBench.Evaluation.Reports.Results;

/// <summary>
/// The results file of <c>kvbench decide</c> (kind <see cref="DecideKind"/>): the profile as read, the settings, and
/// everything measured on each option, from which the outcome and the whole decision record are drawn again
/// (<see cref="Record"/>); the figures each driver read from them, with their units and intervals, for a reader's own
/// tools.
/// </summary>
public sealed record DecisionResults : ResultsFile
{
    /// <summary>The kind of <c>decide</c>'s files.</summary>
    public const string DecideKind = "decide";

    /// <summary>A file to read into.</summary>
    public DecisionResults()
        : base(DecideKind)
    {
    }

    /// <summary>What <paramref name="evidence"/> holds, as a decision run by <paramref name="command"/> measured it.</summary>
    [SetsRequiredMembers]
    public DecisionResults(
        string command, DateTimeOffset generatedAt, MachineInfo machine, DecisionEvidence evidence, string? profileLink, TimeSpan wallTime)
        : base(DecideKind, command, generatedAt, machine)
    {
        ArgumentNullException.ThrowIfNull(evidence);
        Profile = evidence.Profile;
        Settings = evidence.Settings;
        Options = evidence.Options;
        Floor = evidence.Floor;
        ProfileLink = profileLink;
        WallTime = wallTime;
    }

    /// <summary>The profile, as <c>kvbench decide</c> read it.</summary>
    public required DecisionProfile Profile { get; init; }

    /// <summary>How hard the run measured.</summary>
    public required DecisionSettings Settings { get; init; }

    /// <summary>Everything measured on each candidate, in the order considered.</summary>
    public required IReadOnlyList<OptionEvidence> Options { get; init; }

    /// <summary>The floor row's workload rounds, or <see langword="null"/> when no driver ran the workload.</summary>
    public OptionEvidence? Floor { get; init; }

    /// <summary>The profile's path relative to the record, as the record links it; <see langword="null"/> for none.</summary>
    public string? ProfileLink { get; init; }

    /// <summary>How long the measurement took.</summary>
    public required TimeSpan WallTime { get; init; }

    /// <summary>
    /// Each option's figure for each driver, as the record prints it: written for a reader's own tools, and drawn again
    /// from the measurements when the file is read, never read from here.
    /// </summary>
    public IReadOnlyList<DecisionFigure> Figures =>
        [.. Evidence().Figures().SelectMany(option => option.Figures.Select((figure, i) => DecisionFigure.Of(option.Option, Profile.Drivers[i], figure)))];

    /// <summary>The evidence, as the run that measured it held it.</summary>
    public DecisionEvidence Evidence() => new(Profile, Settings, Options, Floor);

    /// <summary>The outcome the figures give.</summary>
    public DecisionOutcome Outcome() => DecisionOutcome.Decide(Profile.Drivers, Evidence().Figures());

    /// <summary>The decision record's markdown, as <c>kvbench decide</c> wrote it.</summary>
    public string Record() => DecisionRecord.Write(Evidence(), Outcome(), Machine, Command, ProfileLink, GeneratedAt, WallTime);

    /// <inheritdoc/>
    public override async Task<ChartImages> RenderAsync(string markdownFile, string source, string? gnuplot = null)
    {
        await File.WriteAllTextAsync(markdownFile, Record()).ConfigureAwait(false);
        return ChartFiles.None(markdownFile);
    }
}

/// <summary>One option's figure for one driver, in the driver's base unit.</summary>
/// <param name="Option">The row.</param>
/// <param name="Driver">The driver's name.</param>
/// <param name="Unit">The unit of <paramref name="Value"/>, <paramref name="Low"/> and <paramref name="High"/>.</param>
/// <param name="Value">The median of the rounds, or the one measurement; NaN when unmeasured.</param>
/// <param name="Low">The least any round measured.</param>
/// <param name="High">The most any round measured.</param>
/// <param name="Samples">How many rounds or measurements the interval rests on.</param>
/// <param name="Unmeasured">Why there is no figure, or <see langword="null"/>.</param>
public sealed record DecisionFigure(
    string Option, string Driver, string Unit, double Value, double Low, double High, int Samples, string? Unmeasured)
{
    /// <summary><paramref name="figure"/>, <paramref name="option"/>'s for <paramref name="driver"/>.</summary>
    public static DecisionFigure Of(string option, Driver driver, Figure figure)
    {
        ArgumentNullException.ThrowIfNull(driver);
        ArgumentNullException.ThrowIfNull(figure);
        return new(option, driver.Name, UnitOf(driver), figure.Value, figure.Low, figure.High, figure.Samples, figure.Unmeasured);
    }

    /// <summary>The base unit of <paramref name="driver"/>'s figures, the one its threshold is in.</summary>
    public static string UnitOf(Driver driver)
    {
        ArgumentNullException.ThrowIfNull(driver);
        return driver.Quantity switch
        {
            DriverQuantity.Capability => driver.IsYesNo() ? "1 yes, 0 no" : "bytes",
            DriverQuantity.Throughput => "ops/s",
            DriverQuantity.Latency or DriverQuantity.VisibilityLag => "ns",
            DriverQuantity.CpuPerOperation => "ns/op",
            DriverQuantity.AllocatedBytesPerOperation => "bytes/op",
            DriverQuantity.DiskBytesPerRecord => "bytes/record",
            DriverQuantity.CrashKept or DriverQuantity.PowerLossKept => "share, 0 to 1",
            _ => driver.Quantity.ToString(),
        };
    }
}
