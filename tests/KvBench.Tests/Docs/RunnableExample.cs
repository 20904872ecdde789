namespace KvBench.Tests.Docs;

/// <summary>A fenced block a hand-written page marks <c>bash runnable</c>: commands a reader can paste into an empty folder.</summary>
/// <param name="File">The page, relative to the repository's root, with forward slashes.</param>
/// <param name="Line">The line of the block's opening fence, counted from 1.</param>
/// <param name="Script">The block's lines, each ending in a newline.</param>
internal sealed record RunnableExample(string File, int Line, string Script)
{
    /// <summary>The info string that marks a block runnable; GitHub renders the block as bash and ignores the second word.</summary>
    public const string InfoString = "bash runnable";

    /// <summary>
    /// The runnable blocks of the README and of every hand-written page under <c>docs/</c>: generated files
    /// (<c>docs/results</c>, the generated records in <c>docs/adr</c>) print the commands that made them, which are
    /// not examples.
    /// </summary>
    public static IReadOnlyList<RunnableExample> FindAll(string root) =>
        [.. HandWrittenPages(root).Order(StringComparer.Ordinal).SelectMany(page => Read(Relative(root, page), System.IO.File.ReadAllText(page)))];

    /// <summary>The README and every page under docs/ but the generated ones (results, records), as full paths.</summary>
    public static IEnumerable<string> HandWrittenPages(string root) =>
        Directory.EnumerateFiles(Path.Combine(root, "docs"), "*.md", SearchOption.AllDirectories)
            .Where(page => !IsUnder(root, page, "docs/results") && !IsUnder(root, page, "docs/adr"))
            .Prepend(Path.Combine(root, "README.md"));

    /// <summary>The runnable blocks of one page's <paramref name="markdown"/>.</summary>
    public static IEnumerable<RunnableExample> Read(string file, string markdown)
    {
        string[] lines = markdown.ReplaceLineEndings("\n").Split('\n');
        for (int index = 0; index < lines.Length; index++)
        {
            if (lines[index].Trim() != "```" + InfoString)
            {
                continue;
            }

            int opening = index;
            var script = new System.Text.StringBuilder();
            for (index++; index < lines.Length && lines[index].Trim() != "```"; index++)
            {
                script.Append(lines[index]).Append('\n');
            }

            yield return new RunnableExample(file, opening + 1, script.ToString());
        }
    }

    private static bool IsUnder(string root, string page, string folder) =>
        Relative(root, page).StartsWith(folder + "/", StringComparison.Ordinal);

    private static string Relative(string root, string page) => Path.GetRelativePath(root, page).Replace('\\', '/');
}
