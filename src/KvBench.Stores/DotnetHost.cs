namespace KvBench.Stores;

/// <summary>The <c>dotnet</c> host that runs this process, so a child (a kvbench, a .NET tool's server) runs on the same runtime and SDK.</summary>
public static class DotnetHost
{
    /// <summary>The host's path, or plain <c>dotnet</c> (found on the PATH) when this process was not started by one.</summary>
    public static string Path
    {
        get
        {
            // Set by the SDK for everything it starts (dotnet test, dotnet run).
            if (Environment.GetEnvironmentVariable("DOTNET_HOST_PATH") is { Length: > 0 } hostPath && File.Exists(hostPath))
            {
                return hostPath;
            }

            string? processPath = Environment.ProcessPath;
            return processPath is not null && System.IO.Path.GetFileNameWithoutExtension(processPath) == "dotnet" ? processPath : "dotnet";
        }
    }
}
