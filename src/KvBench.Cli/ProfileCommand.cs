using System.CommandLine;

using KvBench.Evaluation.Decision;

namespace KvBench.Cli;

/// <summary><c>profile init</c> and <c>profile check</c>: write a starter decision profile, and read one as <c>decide</c> will.</summary>
internal static class ProfileCommand
{
    public static Command Create() => new("profile", "Writes or checks a decision profile: your workload and decision drivers in one JSON file.")
    {
        Init(),
        Check(),
    };

    private static Command Init()
    {
        var file = new Argument<FileInfo>("FILE")
        {
            Description = "The profile to write.",
            DefaultValueFactory = static _ => new FileInfo(ProfileStarter.DefaultFileName),
        };
        var force = new Option<bool>("--force") { Description = "Overwrite the file if it exists." };
        var command = new Command("init", "Writes a starter profile, every field commented.") { file, force };
        StoreArguments.SetGuardedAction(command, parseResult =>
        {
            FileInfo target = parseResult.GetValue(file)!;
            if (target.Exists && !parseResult.GetValue(force))
            {
                parseResult.InvocationConfiguration.Error.WriteLine($"kvbench: {target.FullName} exists; pass --force to overwrite it");
                return ExitCodes.Usage;
            }

            File.WriteAllText(target.FullName, ProfileStarter.Text + Environment.NewLine);
            parseResult.InvocationConfiguration.Output.WriteLine($"Wrote {target.FullName}; edit it, then run `kvbench profile check {target.Name}`.");
            return ExitCodes.Ok;
        });
        return command;
    }

    private static Command Check()
    {
        var file = new Argument<FileInfo>("FILE") { Description = "The profile to read." };
        var command = new Command("check", "Reads a profile and prints it in one line, or the first problem in it.") { file };
        StoreArguments.SetGuardedAction(command, parseResult =>
        {
            DecisionProfile profile = ProfileReader.Read(parseResult.GetValue(file)!.FullName);
            parseResult.InvocationConfiguration.Output.WriteLine(ProfileDescription.Summary(profile));
            return ExitCodes.Ok;
        });
        return command;
    }
}
