namespace KvBench.Stores.Servers;

/// <summary>What a server's documentation promises an acknowledged write at the setting that is one of KvBench's tiers.</summary>
/// <param name="Setting">The setting as the server's configuration spells it, for example <c>appendfsync everysec</c>.</param>
/// <param name="MayLose">
/// The longest span of acknowledged writes, counted back from a crash, that the documentation says the setting may
/// lose: <see cref="TimeSpan.Zero"/> where it promises that nothing acknowledged is lost.
/// </param>
/// <param name="Documented">The promise in the documentation's own terms, with what kind of crash it speaks of.</param>
public sealed record ServerTierPromise(string Setting, TimeSpan MayLose, string Documented);
