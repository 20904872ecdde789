namespace KvBench.Evaluation.Decision;

/// <summary>The profiles KvBench ships with.</summary>
public static class DecisionProfiles
{
    /// <summary>Where the default profile lives in the repository, for the record's link and the console.</summary>
    public const string DefaultPath = "docs/profiles/desktop-cli-and-ui.json";

    /// <summary>
    /// The desktop case of the NexusMods decision record "Use SqlLite as a datastore" (a CLI and a UI both writing one
    /// store): what the evaluation decides for when it is given no profile. Read from the file built into the assembly.
    /// </summary>
    public static DecisionProfile Default()
    {
        using Stream stream = typeof(DecisionProfiles).Assembly.GetManifestResourceStream("KvBench.Evaluation.Decision.DefaultProfile.json")
            ?? throw new InvalidOperationException("The default profile is not built into the assembly.");
        using var reader = new StreamReader(stream);
        return ProfileReader.Parse(reader.ReadToEnd(), DefaultPath);
    }
}
