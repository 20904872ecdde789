using System.Text.RegularExpressions;

namespace KvBench.Tests.Docs;

/// <summary>
/// Every relative link of the README and the hand-written pages reaches a file, and every anchor a heading of it, so
/// a page moved or a heading renamed fails here rather than in a reader's browser.
/// </summary>
public sealed partial class DocumentLinksTests
{
    [Fact]
    public void Every_relative_link_and_anchor_resolves()
    {
        string root = Repository.Root();
        var broken = new List<string>();
        foreach (string page in RunnableExample.HandWrittenPages(root))
        {
            string markdown = File.ReadAllText(page);
            foreach (Match link in LinkPattern().Matches(WithoutCode(markdown)))
            {
                string target = link.Groups["target"].Value;
                if (target.Contains("://", StringComparison.Ordinal) || target.StartsWith("mailto:", StringComparison.Ordinal))
                {
                    continue;
                }

                string[] parts = target.Split('#', 2);
                string file = parts[0].Length == 0 ? page : Path.GetFullPath(Path.Combine(Path.GetDirectoryName(page)!, Uri.UnescapeDataString(parts[0])));
                string where = $"{Path.GetRelativePath(root, page)}: ({target})";
                if (!File.Exists(file) && !Directory.Exists(file))
                {
                    broken.Add($"{where}: no such file");
                }
                else if (parts.Length == 2 && file.EndsWith(".md", StringComparison.Ordinal) && !Anchors(File.ReadAllText(file)).Contains(parts[1]))
                {
                    broken.Add($"{where}: no heading with that anchor");
                }
            }
        }

        Assert.True(broken.Count == 0, string.Join('\n', broken));
    }

    [Theory]
    [InlineData("## The SQLITE_BUSY trap", "the-sqlite_busy-trap")]
    [InlineData("### What each row survives", "what-each-row-survives")]
    [InlineData("## `kvbench decide`: a record", "kvbench-decide-a-record")]
    [InlineData("## SQLite: connection strategies, the SQLITE_BUSY trap", "sqlite-connection-strategies-the-sqlite_busy-trap")]
    public void Anchors_are_GitHubs(string heading, string anchor) => Assert.Contains(anchor, Anchors(heading));

    [Fact]
    public void A_repeated_heading_gets_a_numbered_anchor() =>
        Assert.Equal(["rows", "rows-1"], Anchors("## Rows\n\n## Rows\n").Order(StringComparer.Ordinal));

    /// <summary>The anchors GitHub gives the headings of <paramref name="markdown"/>, repeated ones numbered.</summary>
    private static HashSet<string> Anchors(string markdown)
    {
        var anchors = new HashSet<string>(StringComparer.Ordinal);
        var seen = new Dictionary<string, int>(StringComparer.Ordinal);
        foreach (string line in WithoutCode(markdown).Split('\n'))
        {
            if (HeadingPattern().Match(line) is not { Success: true } heading)
            {
                continue;
            }

            string slug = SlugDrop().Replace(heading.Groups["text"].Value.Trim().ToLowerInvariant(), string.Empty).Replace(' ', '-');
            int count = seen.GetValueOrDefault(slug);
            seen[slug] = count + 1;
            anchors.Add(count == 0 ? slug : $"{slug}-{count}");
        }

        return anchors;
    }

    /// <summary>The markdown without its fenced blocks, whose lines are neither links nor headings.</summary>
    private static string WithoutCode(string markdown) => FencePattern().Replace(markdown.ReplaceLineEndings("\n"), string.Empty);

    [GeneratedRegex(@"\]\((?<target>[^)\s]+)\)")]
    private static partial Regex LinkPattern();

    [GeneratedRegex(@"^#{1,6} (?<text>.+)$")]
    private static partial Regex HeadingPattern();

    // GitHub keeps letters, digits, spaces, hyphens and underscores, and turns each space into a hyphen.
    [GeneratedRegex(@"[^\p{L}\p{Nd} _-]")]
    private static partial Regex SlugDrop();

    [GeneratedRegex(@"^```.*?^```[^\n]*$", RegexOptions.Multiline | RegexOptions.Singleline)]
    private static partial Regex FencePattern();
}
