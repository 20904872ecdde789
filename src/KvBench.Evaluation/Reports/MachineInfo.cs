using System.Runtime.InteropServices;

namespace KvBench.Evaluation.Reports;

/// <summary>The machine a table was measured on: without it a number means nothing to the next reader.</summary>
/// <param name="Cpu">The processor model.</param>
/// <param name="LogicalCores">Logical cores visible to the process.</param>
/// <param name="MemoryBytes">Physical memory.</param>
/// <param name="OperatingSystem">Distribution and kernel.</param>
/// <param name="Runtime">The .NET runtime.</param>
/// <param name="FileSystem">The file system holding the data directory, as the kernel names it (ext4, xfs, tmpfs...).</param>
public sealed record MachineInfo(string Cpu, int LogicalCores, long MemoryBytes, string OperatingSystem, string Runtime, string FileSystem)
{
    /// <summary>Reads this machine, with the file system of <paramref name="dataDirectory"/>.</summary>
    public static MachineInfo Collect(string dataDirectory) => new(
        Cpu: ReadField("/proc/cpuinfo", "model name") ?? RuntimeInformation.ProcessArchitecture.ToString(),
        LogicalCores: Environment.ProcessorCount,
        MemoryBytes: GC.GetGCMemoryInfo().TotalAvailableMemoryBytes,
        OperatingSystem: $"{ReadOsRelease() ?? RuntimeInformation.OSDescription}, kernel {Environment.OSVersion.Version}",
        Runtime: $"{RuntimeInformation.FrameworkDescription} {RuntimeInformation.ProcessArchitecture}",
        FileSystem: FileSystemOf(dataDirectory));

    /// <summary>One line for a chart's title: "measured &lt;date&gt; on &lt;CPU&gt;, 2 logical cores, 24 GiB, ext4".</summary>
    public string Summary(DateTimeOffset measured) =>
        string.Create(
            System.Globalization.CultureInfo.InvariantCulture,
            $"measured {measured:yyyy-MM-dd} on {Cpu}, {LogicalCores} logical cores, " +
                $"{MemoryBytes / (1024.0 * 1024 * 1024):0.#} GiB, {FileSystem}");

    /// <summary>The file system type of the mount that holds <paramref name="path"/>, from /proc/mounts.</summary>
    public static string FileSystemOf(string path)
    {
        const string Mounts = "/proc/mounts";
        if (!File.Exists(Mounts))
        {
            return "unknown";
        }

        string full = Path.GetFullPath(path);
        (string MountPoint, string Type) best = (string.Empty, "unknown");
        foreach (string line in File.ReadLines(Mounts))
        {
            string[] fields = line.Split(' ');
            if (fields.Length < 3)
            {
                continue;
            }

            string mountPoint = fields[1].Replace("\\040", " ", StringComparison.Ordinal);
            bool contains = full == mountPoint || full.StartsWith(mountPoint.TrimEnd('/') + "/", StringComparison.Ordinal);
            if (contains && mountPoint.Length >= best.MountPoint.Length)
            {
                best = (mountPoint, fields[2]);
            }
        }

        return best.Type;
    }

    private static string? ReadField(string file, string field)
    {
        if (!File.Exists(file))
        {
            return null;
        }

        return File.ReadLines(file)
            .Where(line => line.StartsWith(field, StringComparison.Ordinal))
            .Select(line => line[(line.IndexOf(':', StringComparison.Ordinal) + 1)..].Trim())
            .FirstOrDefault();
    }

    private static string? ReadOsRelease() =>
        File.Exists("/etc/os-release")
            ? File.ReadLines("/etc/os-release")
                .Where(line => line.StartsWith("PRETTY_NAME=", StringComparison.Ordinal))
                .Select(line => line["PRETTY_NAME=".Length..].Trim('"'))
                .FirstOrDefault()
            : null;
}
