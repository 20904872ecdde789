namespace Contoso.Settings;

/// <summary>The mistakes the broken variants make on purpose, each a row of its own, so kvbench's checks can be seen to catch them.</summary>
internal enum SettingsFault
{
    /// <summary>The store as Contoso ships it.</summary>
    None,

    /// <summary>Every seventh <c>Put</c> is acknowledged and not stored.</summary>
    DropsEverySeventhPut,

    /// <summary>
    /// Reads come from a cache of the whole table that the process takes at its first open of a directory and keeps:
    /// after a reopen in the same process, a value written since reads as it was at the first open.
    /// </summary>
    StaleAfterReopen,

    /// <summary>SQLite's file locks are turned off (<c>nolock=1</c>): two processes that write at once lose each other's writes.</summary>
    NoLock,
}
