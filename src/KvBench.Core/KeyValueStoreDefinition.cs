namespace KvBench.Core;

/// <summary>
/// A row defined outside KvBench: a team's own store, described so that <c>kvbench</c> can open it by name and set it
/// in the same tables, checks and decisions as the rows KvBench ships. Derive from it in the store's assembly, give the
/// derived class a public parameterless constructor, and name it in that assembly with
/// <see cref="KeyValueStoreDefinitionAttribute"/>; <c>kvbench --row-assembly PATH</c> (or a profile's
/// <c>rowAssemblies</c>) then loads it.
/// </summary>
/// <remarks>
/// KvBench checks the arguments of an open (the row is available, the tier is declared, a read-only open finds a store)
/// before it calls <see cref="Open"/>, and hands back the store <see cref="Open"/> returns as it is: every later call goes
/// to the team's own code, so its contract bugs stay visible to the conformance suite and its typed errors reach the
/// caller unchanged. Members may be called from several threads, and from processes KvBench starts.
/// </remarks>
public abstract class KeyValueStoreDefinition
{
    /// <summary>Creates the definition; KvBench calls the derived class's public parameterless constructor once per process.</summary>
    protected KeyValueStoreDefinition()
    {
    }

    /// <summary>
    /// The row name, as tables print it and as <c>--store</c> and a profile's <c>candidates</c> name it. It must differ,
    /// in any case, from every row KvBench ships and from every other row loaded with it.
    /// </summary>
    public abstract string Name { get; }

    /// <summary>What the store claims; the conformance suite and the probes measure every claim.</summary>
    public abstract StoreCapabilities Capabilities { get; }

    /// <summary>
    /// What the row is made of, as the tables state it: the store's own package and version and the engine under it,
    /// for example <c>Contoso.Settings 1.2.0 over Microsoft.Data.Sqlite 10.0.14</c>. Asked only when the row is available.
    /// </summary>
    public abstract string Engine { get; }

    /// <summary>
    /// Opens the store with <paramref name="options"/>. Called after KvBench has checked that the row is available, that
    /// <see cref="Capabilities"/> offers the tier asked for, and, for a read-only or secondary open, that
    /// <see cref="HoldsStore"/> found a store in the directory. Throw the contract's typed errors
    /// (<see cref="StoreLockedException"/> when another process holds the store, ...); any other
    /// <see cref="IOException"/> is reported as a <see cref="KeyValueStoreException"/> naming the row.
    /// </summary>
    /// <param name="options">The directory, tier and access; a store with settings of its own reads a derived record.</param>
    public abstract IKeyValueStore Open(StoreOptions options);

    /// <summary>
    /// Whether <paramref name="directory"/> (a full path) holds a store of this row, looked at before a read-only or
    /// secondary open, which must create nothing, and by the crash rounds. It must not create or change anything.
    /// </summary>
    public abstract bool HoldsStore(string directory);

    /// <summary>
    /// Why the store cannot be had on this machine (a native library does not load, a service is missing), or
    /// <see langword="null"/> when it can. Asked once per process. Default: always available.
    /// </summary>
    public virtual string? CheckAvailability() => null;

    /// <summary>
    /// Makes the checks kvbench makes before it calls <see cref="Open"/>, for a caller that opens the store itself (the
    /// suites of KvBench.Testing): the row is available, <see cref="Capabilities"/> offers the tier asked for, and a
    /// read-only or secondary open finds a store in the directory (<see cref="HoldsStore"/>), so such an open creates
    /// nothing.
    /// </summary>
    /// <param name="options">The options the store is about to be opened with.</param>
    /// <exception cref="StoreUnavailableException"><see cref="CheckAvailability"/> gave a reason.</exception>
    /// <exception cref="DurabilityNotOfferedException">The row keeps data, but not at the tier asked for.</exception>
    /// <exception cref="StoreNotFoundException">A read-only or secondary open found no store.</exception>
    public void CheckOpen(StoreOptions options) => OpenChecks.Check(Name, options, CheckAvailability(), Capabilities.Durability, HoldsStore);

    /// <summary>
    /// The files in <paramref name="directory"/> (a full path, holding a closed store of this row) that hold the store's
    /// data: KvBench.Testing's damaged-file suite flips bits in them, and the store must then refuse with
    /// <see cref="StoreDamagedException"/> or read every record right. Leave out files whose damage means nothing (a
    /// lock file). Default: none, and that suite skips the row saying so.
    /// </summary>
    /// <param name="directory">A directory the row's store was written to and closed in.</param>
    public virtual IReadOnlyList<string> DataFiles(string directory) => [];

    /// <summary>
    /// Why the store cannot take KvBench.Testing's disk-full round (its data lives outside its directory, its engine
    /// stops the process on a full disk), or <see langword="null"/> when it can: a write on a full file system fails with
    /// <see cref="StoreFullException"/>, every write acknowledged before it is kept, and writes succeed again once space
    /// is freed. Default: it can.
    /// </summary>
    public virtual string? CheckDiskFullRound() => null;

    /// <inheritdoc/>
    public override string ToString() => Name;
}

/// <summary>
/// Names a <see cref="KeyValueStoreDefinition"/> that an assembly offers to <c>kvbench</c>, one attribute per row:
/// <c>[assembly: KeyValueStoreDefinition(typeof(ContosoSettingsDefinition))]</c>. KvBench reads only these attributes,
/// so loading an assembly instantiates exactly the rows it declares, and a type named by mistake gets an error that
/// says what is wrong with it.
/// </summary>
[AttributeUsage(AttributeTargets.Assembly, AllowMultiple = true)]
public sealed class KeyValueStoreDefinitionAttribute : Attribute
{
    /// <summary>Declares <paramref name="definitionType"/>, a public class deriving from <see cref="KeyValueStoreDefinition"/>.</summary>
    public KeyValueStoreDefinitionAttribute(Type definitionType)
    {
        ArgumentNullException.ThrowIfNull(definitionType);
        DefinitionType = definitionType;
    }

    /// <summary>The definition's type.</summary>
    public Type DefinitionType { get; }
}
