using System.Collections.Concurrent;

namespace Contoso.Settings;

/// <summary>
/// The stale-after-reopen variant's cache: the whole table, read at a process's first open of a directory and kept for
/// the process's life, so the app "starts fast" on a later open. Each open gets a copy that its own writes update; the
/// copy a reopen gets is still the first open's.
/// </summary>
internal static class WarmCache
{
    private static readonly ConcurrentDictionary<string, Dictionary<string, byte[]>> s_firstOpen = new();

    public static Dictionary<string, byte[]> For(string directory, Func<Dictionary<string, byte[]>> readAll) =>
        new(s_firstOpen.GetOrAdd(directory, _ => readAll()));
}
