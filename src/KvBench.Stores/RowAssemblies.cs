using System.Reflection;
using System.Runtime.Loader;

using KvBench.Core;

namespace KvBench.Stores;

/// <summary>
/// Loads rows from a team's built assembly: each <see cref="KeyValueStoreDefinitionAttribute"/> it carries names a
/// <see cref="KeyValueStoreDefinition"/>, which joins <see cref="StoreCatalog"/> as a row (<see cref="StoreCatalog.LoadedRows"/>).
/// The assembly gets a load context of its own that resolves its dependencies from its <c>.deps.json</c>, as the
/// team built them, except KvBench.Core, which is this process's, so its definitions and stores are the types KvBench
/// knows. Loading is once per file and process; the processes KvBench starts load the same files
/// (<see cref="EnvironmentVariable"/>).
/// </summary>
public static class RowAssemblies
{
    /// <summary>
    /// The variable that hands the loaded assemblies to the processes KvBench starts (the multi-process worker, the crash
    /// writer, the contention workers): their full paths, separated by <see cref="Path.PathSeparator"/>.
    /// </summary>
    public const string EnvironmentVariable = "KVBENCH_ROW_ASSEMBLIES";

    private static readonly Lock s_gate = new();
    private static readonly Dictionary<string, IReadOnlyList<StoreRow>> s_loaded = new(StringComparer.Ordinal);
    private static string[] s_paths = [];

    /// <summary>The full paths of the assemblies loaded in this process, in the order they were loaded.</summary>
    public static IReadOnlyList<string> Loaded => Volatile.Read(ref s_paths);

    /// <summary>
    /// Loads the rows the assembly at <paramref name="path"/> declares and adds them to the catalog; a file already
    /// loaded returns its rows again.
    /// </summary>
    /// <exception cref="RowAssemblyException">
    /// The file is missing or is not an assembly, declares no row, names a type that is not a usable definition, or
    /// defines a row whose name another row has. Nothing of the assembly joins the catalog then.
    /// </exception>
    public static IReadOnlyList<StoreRow> Load(string path)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(path);
        string fullPath = Path.GetFullPath(path);
        lock (s_gate)
        {
            if (s_loaded.TryGetValue(fullPath, out IReadOnlyList<StoreRow>? rows))
            {
                return rows;
            }

            rows = Read(fullPath);
            StoreCatalog.AddLoaded(rows);
            s_loaded.Add(fullPath, rows);
            Volatile.Write(ref s_paths, [.. s_paths, fullPath]);
            return rows;
        }
    }

    /// <summary>Loads every assembly <see cref="EnvironmentVariable"/> names: what a process KvBench started does first.</summary>
    /// <exception cref="RowAssemblyException">One of them cannot be loaded (see <see cref="Load"/>).</exception>
    public static void LoadFromEnvironment()
    {
        if (Environment.GetEnvironmentVariable(EnvironmentVariable) is { Length: > 0 } paths)
        {
            foreach (string path in paths.Split(Path.PathSeparator, StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))
            {
                _ = Load(path);
            }
        }
    }

    private static List<StoreRow> Read(string path)
    {
        if (!File.Exists(path))
        {
            throw new RowAssemblyException(path, Directory.Exists(path) ? "is a directory, not an assembly file" : "does not exist");
        }

        Assembly assembly;
        try
        {
            assembly = new RowAssemblyLoadContext(path).LoadFromAssemblyPath(path);
        }
        catch (BadImageFormatException)
        {
            throw new RowAssemblyException(path, "is not a .NET assembly");
        }
        catch (Exception error) when (error is FileLoadException or InvalidOperationException or IOException)
        {
            throw new RowAssemblyException(path, $"cannot be loaded: {error.Message}");
        }

        Type[] declared;
        try
        {
            declared = [.. assembly.GetCustomAttributes<KeyValueStoreDefinitionAttribute>().Select(attribute => attribute.DefinitionType)];
        }
        catch (Exception error) when (error is FileNotFoundException or FileLoadException or TypeLoadException)
        {
            // The usual cause: the assembly was built against another KvBench.Core than this kvbench carries.
            throw new RowAssemblyException(path, $"cannot be read: {error.Message}");
        }

        if (declared.Length == 0)
        {
            throw new RowAssemblyException(
                path,
                $"declares no row; name each definition with [assembly: {nameof(KeyValueStoreDefinition)}(typeof(YourDefinition))], " +
                    $"a public class deriving from {typeof(KeyValueStoreDefinition).FullName}");
        }

        var rows = new List<StoreRow>();
        foreach (Type type in declared)
        {
            KeyValueStoreDefinition definition = Create(path, type);
            string name = definition.Name;
            if (string.IsNullOrWhiteSpace(name))
            {
                throw new RowAssemblyException(path, $"{type.FullName} gives no row name");
            }

            if (definition.Capabilities is null)
            {
                throw new RowAssemblyException(path, $"{type.FullName} (row {name}) declares no capabilities");
            }

            if (StoreCatalog.Find(name) is { } taken)
            {
                throw new RowAssemblyException(
                    path,
                    taken.LoadedFrom is { } other
                        ? $"defines the row {name}, which '{other}' already defined; give one of them another name"
                        : $"defines the row {name}, which is a row of KvBench; give it another name");
            }

            if (rows.Any(row => string.Equals(row.Name, name, StringComparison.OrdinalIgnoreCase)))
            {
                throw new RowAssemblyException(path, $"defines the row {name} twice");
            }

            rows.Add(new AssemblyRow(definition, path));
        }

        return rows;
    }

    private static KeyValueStoreDefinition Create(string path, Type type)
    {
        if (!type.IsAssignableTo(typeof(KeyValueStoreDefinition)))
        {
            throw new RowAssemblyException(path, $"names {type.FullName}, which does not derive from {typeof(KeyValueStoreDefinition).FullName}");
        }

        if (type.IsAbstract || !type.IsPublic && !type.IsNestedPublic || type.GetConstructor(Type.EmptyTypes) is null)
        {
            throw new RowAssemblyException(
                path,
                $"names {type.FullName}, which KvBench cannot create: a definition must be a public, non-abstract class with a public " +
                    "parameterless constructor");
        }

        try
        {
            return (KeyValueStoreDefinition)Activator.CreateInstance(type)!;
        }
        catch (TargetInvocationException error) when (error.InnerException is { } inner)
        {
            throw new RowAssemblyException(path, $"names {type.FullName}, whose constructor failed: {inner.Message}", inner);
        }
    }

    /// <summary>
    /// The load context of one row assembly: its own dependencies from its <c>.deps.json</c> (managed and native, for
    /// this machine's runtime identifier), the host's KvBench.Core, and the framework's assemblies from the default context.
    /// </summary>
    private sealed class RowAssemblyLoadContext(string path) : AssemblyLoadContext($"KvBench row assembly {path}")
    {
        private static readonly string s_contract = typeof(KeyValueStoreDefinition).Assembly.GetName().Name!;

        private readonly AssemblyDependencyResolver _resolver = new(path);

        protected override Assembly? Load(AssemblyName assemblyName) =>
            assemblyName.Name == s_contract ? null
                : _resolver.ResolveAssemblyToPath(assemblyName) is { } resolved ? LoadFromAssemblyPath(resolved)
                : null;

        protected override IntPtr LoadUnmanagedDll(string unmanagedDllName) =>
            _resolver.ResolveUnmanagedDllToPath(unmanagedDllName) is { } resolved ? LoadUnmanagedDllFromPath(resolved) : IntPtr.Zero;
    }
}

/// <summary>
/// A row assembly cannot be loaded: the message, one line, names the file and the problem. A usage error: the file is
/// the user's to fix, and nothing was measured or written.
/// </summary>
public sealed class RowAssemblyException : Exception
{
    /// <summary>Creates the error for the assembly at <paramref name="path"/>.</summary>
    public RowAssemblyException(string path, string problem, Exception? innerException = null)
        : base($"Row assembly '{path}' {problem}.", innerException)
    {
        AssemblyPath = path;
    }

    /// <summary>The assembly's full path.</summary>
    public string AssemblyPath { get; }
}
