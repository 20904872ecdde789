using System.ComponentModel;

using KvBench.Evaluation.MultiProcess;

namespace KvBench.Evaluation.Reports.Charts;

/// <summary>What <see cref="ChartFiles.WriteAsync"/> left in a charts folder.</summary>
/// <param name="Folder">The folder, as the markdown links it (relative to the markdown file).</param>
/// <param name="Images">The id of every chart whose PNG was drawn in this run.</param>
/// <param name="Problem">Why some or all PNGs were not drawn, in one line, or <see langword="null"/>.</param>
public sealed record ChartImages(string Folder, IReadOnlySet<string> Images, string? Problem)
{
    /// <summary>The relative link to chart <paramref name="id"/>'s PNG, or <see langword="null"/> when it was not drawn.</summary>
    public string? Link(string id) => Images.Contains(id) ? $"{Folder}/{id}.png" : null;
}

/// <summary>
/// Writes each image chart's data file and gnuplot script into a folder and has gnuplot draw it. gnuplot runs as a real
/// process per chart under <see cref="Deadline"/>; where it is missing or fails, the data files and scripts are still
/// written and the result says why in one line, so the markdown is never held back by a picture.
/// </summary>
public static class ChartFiles
{
    /// <summary>How long one chart may take to draw before gnuplot is killed: a chart takes well under a second.</summary>
    public static readonly TimeSpan Deadline = TimeSpan.FromSeconds(30);

    /// <summary>The charts folder beside <paramref name="markdownFile"/>: its name without extension, then "-charts".</summary>
    public static string FolderFor(string markdownFile) =>
        Path.Combine(Path.GetDirectoryName(Path.GetFullPath(markdownFile))!, Path.GetFileNameWithoutExtension(markdownFile) + "-charts");

    /// <summary>What a markdown file without charts has beside it: no folder, nothing drawn, nothing missing.</summary>
    public static ChartImages None(string markdownFile) =>
        new(Path.GetFileName(FolderFor(markdownFile)), new HashSet<string>(StringComparer.Ordinal), null);

    /// <summary>Writes every chart in <paramref name="charts"/> that is drawn as an image into <paramref name="folder"/> and draws it.</summary>
    /// <param name="charts">The charts; those without <see cref="ChartOutputs.Image"/> are skipped.</param>
    /// <param name="folder">Where the data files, scripts and PNGs go; created when missing.</param>
    /// <param name="machine">The machine, for the titles.</param>
    /// <param name="gnuplot">
    /// The gnuplot executable, or <see langword="null"/> to look for it on the PATH; a path with no file there counts
    /// as not installed.
    /// </param>
    /// <param name="deadline">How long one chart may take, <see cref="Deadline"/> unless given.</param>
    public static async Task<ChartImages> WriteAsync(
        IEnumerable<Chart> charts, string folder, string machine, string? gnuplot = null, TimeSpan? deadline = null)
    {
        ArgumentNullException.ThrowIfNull(charts);
        Directory.CreateDirectory(folder);
        gnuplot = gnuplot is null ? FindOnPath("gnuplot") : File.Exists(gnuplot) ? gnuplot : null;
        var drawn = new HashSet<string>(StringComparer.Ordinal);
        int failed = 0;
        string? problem = gnuplot is null
            ? $"PNG charts not drawn: gnuplot is not installed (Debian: sudo apt-get install gnuplot-nox); the data " +
                $"files and gnuplot scripts are in {folder}, and the markdown carries its Mermaid charts."
            : null;
        foreach (Chart chart in charts.Where(chart => chart.Outputs.HasFlag(ChartOutputs.Image)))
        {
            string image = Path.Combine(folder, chart.Id + ".png");
            // An image left by an earlier run must not stand in for one this run failed to draw.
            File.Delete(image);
            await File.WriteAllTextAsync(Path.Combine(folder, chart.Id + ".dat"), GnuplotChart.DataFile(chart)).ConfigureAwait(false);
            string script = Path.Combine(folder, chart.Id + ".gp");
            await File.WriteAllTextAsync(script, GnuplotChart.Script(chart, machine)).ConfigureAwait(false);
            if (gnuplot is null)
            {
                continue;
            }

            (string? failure, bool giveUp) = await DrawAsync(gnuplot, script, image, deadline ?? Deadline).ConfigureAwait(false);
            if (giveUp)
            {
                // A gnuplot that hangs or cannot start will do so for every chart: one deadline is enough to wait.
                gnuplot = null;
            }

            if (failure is null)
            {
                drawn.Add(chart.Id);
            }
            else
            {
                problem ??= failure;
                failed++;
            }
        }

        if (failed > 1)
        {
            problem += string.Create(System.Globalization.CultureInfo.InvariantCulture, $" ({failed} charts not drawn in all)");
        }

        return new ChartImages(Path.GetFileName(Path.TrimEndingDirectorySeparator(folder)), drawn, problem);
    }

    /// <summary>
    /// Runs gnuplot on <paramref name="script"/> in its folder. The failure is <see langword="null"/> when it wrote
    /// <paramref name="image"/>, else why not in one line; give up when gnuplot hung or could not start.
    /// </summary>
    private static async Task<(string? Failure, bool GiveUp)> DrawAsync(string gnuplot, string script, string image, TimeSpan deadline)
    {
        var startInfo = CliProcess.RedirectedStartInfo(gnuplot, [Path.GetFileName(script)]);
        startInfo.WorkingDirectory = Path.GetDirectoryName(script);
        try
        {
            CliRunResult result = await CliProcess.RunAsync(startInfo, deadline).ConfigureAwait(false);
            string firstError = result.Error.Split(
                '\n',
                StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries).FirstOrDefault()
                ?? "no error output";
            string? failure = result.ExitCode != 0 ? $"PNG chart not drawn: gnuplot {Path.GetFileName(script)} exited with {result.ExitCode}: {firstError}"
                : !File.Exists(image) ? $"PNG chart not drawn: gnuplot {Path.GetFileName(script)} exited with 0 but " +
                    $"wrote no {Path.GetFileName(image)}: {firstError}"
                : null;
            return (failure, false);
        }
        catch (TimeoutException)
        {
            return (
                $"PNG charts not drawn: gnuplot {Path.GetFileName(script)} ran longer than {deadline.TotalSeconds:0.#} s and was killed; " +
                    $"no further chart was tried.",
                true);
        }
        catch (Win32Exception exception)
        {
            return ($"PNG charts not drawn: gnuplot could not be started ({gnuplot}): {exception.Message}", true);
        }
    }

    private static string? FindOnPath(string program) =>
        (Environment.GetEnvironmentVariable("PATH") ?? string.Empty)
            .Split(Path.PathSeparator, StringSplitOptions.RemoveEmptyEntries)
            .Select(directory => Path.Combine(directory, program))
            .FirstOrDefault(File.Exists);
}
