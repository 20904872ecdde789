using System.CommandLine;

using KvBench.Evaluation.Decision;

namespace KvBench.Cli;

/// <summary>
/// <c>--profile FILE</c> on the workload commands: the workload a decision profile states, so <c>run</c>, <c>ycsb</c>,
/// <c>sweep</c> and <c>contend</c> measure what <c>decide</c> measures. An option given on the command line wins over
/// the profile; the profile wins over an option's default.
/// </summary>
internal static class ProfileArguments
{
    public static Option<FileInfo?> Profile { get; } = new("--profile", "-p")
    {
        Description = "Take the workload from a decision profile; an option given here wins over it.",
        HelpName = "file",
    };

    /// <summary>The profile's workload when <c>--profile</c> was given; a bad profile throws <see cref="ProfileException"/> (exit code 2).</summary>
    public static ProfileWorkload? Workload(ParseResult parseResult) =>
        parseResult.GetValue(Profile) is { } file ? ProfileReader.Read(file.FullName).Workload : null;

    /// <summary><paramref name="option"/>'s value when given on the command line, else the profile's, else the option's default.</summary>
    public static T Choose<T>(ParseResult parseResult, Option<T> option, ProfileWorkload? workload, Func<ProfileWorkload, T> fromProfile) =>
        workload is not null && !Given(parseResult, option) ? fromProfile(workload) : parseResult.GetValue(option)!;

    /// <summary>Whether <paramref name="option"/> was typed on the command line (not left to its default).</summary>
    public static bool Given(ParseResult parseResult, Option option) => parseResult.GetResult(option) is { Implicit: false };
}
