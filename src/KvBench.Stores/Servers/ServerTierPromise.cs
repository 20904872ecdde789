namespace KvBench.Stores.Servers;

/// <summary>What a server's documentation promises an acknowledged write at the setting that is one of KvBench's tiers.</summary>
/// <param name="Setting">The setting as the server's configuration spells it, for example <c>appendfsync always</c>.</param>
/// <param name="MayLose">
/// The longest span of acknowledged writes, counted back from a crash of the server's process (what a kill round makes),
/// that the documentation says the setting may lose: <see cref="TimeSpan.Zero"/> where nothing acknowledged is lost
/// then. Above zero, the setting is weaker than the tier's meaning for every other row (a killed process loses nothing
/// acknowledged), and the tables name it (<see cref="ServerRow.WeakerThanTier"/>).
/// </param>
/// <param name="Documented">The promise in the documentation's own terms, with what kind of crash it speaks of.</param>
public sealed record ServerTierPromise(string Setting, TimeSpan MayLose, string Documented);
