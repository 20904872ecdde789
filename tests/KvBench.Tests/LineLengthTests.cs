namespace KvBench.Tests;

/// <summary>
/// Every C# line of the product and its tests fits in <see cref="MaxLineLength"/> characters, so a reader sees each one
/// whole; .editorconfig states the width, and this test is what holds a tree to it.
/// </summary>
public sealed class LineLengthTests
{
    /// <summary>The widest line allowed; most lines keep to 120, and a line past this one hides its end in a side-by-side diff.</summary>
    public const int MaxLineLength = 160;

    private static readonly string[] s_folders = ["src", "benchmarks", "tests", "samples"];

    [Fact]
    public void Every_cs_line_fits_in_160_characters()
    {
        string[] tooLong = [.. LongLines(Repository.Root())];

        Assert.True(tooLong.Length == 0, $"{tooLong.Length} lines longer than {MaxLineLength} characters:\n{string.Join('\n', tooLong)}");
    }

    /// <summary>"path:line (length)" of every line over the width in the C# files of <paramref name="root"/>'s folders, build output left out.</summary>
    private static IEnumerable<string> LongLines(string root)
    {
        foreach (string folder in s_folders)
        {
            foreach (string file in Directory.EnumerateFiles(Path.Combine(root, folder), "*.cs", SearchOption.AllDirectories).Order(StringComparer.Ordinal))
            {
                string relative = Path.GetRelativePath(root, file);
                if (relative.Split(Path.DirectorySeparatorChar).Any(part => part is "bin" or "obj"))
                {
                    continue;
                }

                string[] lines = File.ReadAllLines(file);
                for (int i = 0; i < lines.Length; i++)
                {
                    if (lines[i].Length > MaxLineLength)
                    {
                        yield return $"{relative.Replace(Path.DirectorySeparatorChar, '/')}:{i + 1} ({lines[i].Length})";
                    }
                }
            }
        }
    }
}
