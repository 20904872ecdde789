namespace KvBench.Testing;

/// <summary>A fresh directory under the system temp folder, deleted with everything in it on dispose.</summary>
public sealed class TempDirectory : IDisposable
{
    /// <summary>Creates the directory.</summary>
    public TempDirectory()
    {
        Path = System.IO.Path.Combine(System.IO.Path.GetTempPath(), "kvbench-tests", Guid.NewGuid().ToString("N"));
        Directory.CreateDirectory(Path);
    }

    /// <summary>The directory's full path.</summary>
    public string Path { get; }

    /// <summary>The full path of <paramref name="name"/> inside the directory.</summary>
    public string Combine(string name) => System.IO.Path.Combine(Path, name);

    /// <summary>Deletes the directory and everything in it.</summary>
    public void Dispose()
    {
        try
        {
            Directory.Delete(Path, recursive: true);
        }
        catch (IOException)
        {
            // A child process killed on timeout may still be closing files; the OS temp cleaner takes the rest.
        }
    }
}
