using KvBench.Cli;
using KvBench.Evaluation.MultiProcess;
using KvBench.Stores;



namespace KvBench.Tests.Stores.Conformance.Failures;

/// <summary>
/// Flipped bits in a row's files, read back by <c>kvbench verify</c> in a process of its own: the row must answer with
/// the typed error (exit code 8), or open cleanly and either read every record right (0) or let the verify find the
/// records it got wrong (5), in one line, within a deadline: never a hang, and never a crash on a row that can avoid one.
/// Each damage is a process start; a few per row run by default, many more under <c>Category=Long</c>.
/// </summary>
[Trait("Category", "Damage")]
public sealed class DamagedFileTests(ITestOutputHelper output)
{
    private const int Records = 500;
    private const int Trials = 2;
    private const int LongTrials = 12;
    private const int FlippedBits = 16;

    private static readonly TimeSpan s_deadline = TimeSpan.FromSeconds(60);

    [Theory]
    [MemberData(nameof(Rows.Persistent), MemberType = typeof(Rows))]
    public Task Flipped_bits_give_the_typed_error_or_a_clean_open_in_one_line_and_never_a_hang(string name) =>
        DamageAndVerify(name, Trials, stream: name.Length * 7919);

    /// <summary>Other damages than the short form's (another random stream), as many as a soak wants.</summary>
    [Theory]
    [Trait("Category", "Long")]
    [MemberData(nameof(Rows.Persistent), MemberType = typeof(Rows))]
    public Task Many_more_flipped_bits_give_the_typed_error_or_a_clean_open_in_one_line_and_never_a_hang(string name) =>
        DamageAndVerify(name, LongTrials, stream: (name.Length * 7919) + 1);

    private async Task DamageAndVerify(string name, int trials, int stream)
    {
        using var directory = new TempDirectory();
        string pristine = directory.Combine("pristine");
        string[] records = ["--records", $"{Records}", "--value-bytes", "100"];
        Assert.Equal(ExitCodes.Ok, (await Run(["load", "--store", name, "--dir", pristine, .. records])).ExitCode);
        string[] files = [.. Directory.EnumerateFiles(pristine, "*", SearchOption.AllDirectories).Where(IsDamageable).Order(StringComparer.Ordinal)];
        Assert.NotEmpty(files);

        var random = new Random(stream);
        var outcomes = new List<string>();
        for (int trial = 0; trial < trials; trial++)
        {
            string damaged = directory.Combine($"trial-{trial}");
            CopyDirectory(pristine, damaged);
            string file = files[random.Next(files.Length)];
            FlipBits(Path.Combine(damaged, Path.GetRelativePath(pristine, file)), random);

            CliRunResult verify = await Run(["verify", "--store", name, "--dir", damaged, .. records]);

            string[] errorLines = verify.Error.Split('\n', StringSplitOptions.RemoveEmptyEntries);
            outcomes.Add($"{Path.GetRelativePath(pristine, file)} -> {verify.ExitCode} {errorLines.FirstOrDefault()}");
            bool crashed = verify.ExitCode > 128;

            // KvBench cannot guard against a fault inside an engine's own reads (a row's MayCrashOnDamagedFiles says
            // which engines map or walk their files unchecked); every other row must give one line and no hang.
            Assert.True(
                verify.ExitCode is ExitCodes.Ok or ExitCodes.VerificationFailed or ExitCodes.StoreDamaged
                    || (crashed && StoreCatalog.Row(name).MayCrashOnDamagedFiles),
                $"{name} with damaged {Path.GetRelativePath(pristine, file)}: exit code {verify.ExitCode}, {verify.Error}");
            if (!crashed)
            {
                Assert.True(errorLines.Length <= 1, $"More than one line: {verify.Error}");
            }

            Directory.Delete(damaged, recursive: true);
        }

        outcomes.ForEach(output.WriteLine);
    }

    /// <summary>Lock files hold no data, and an empty file has no byte to flip.</summary>
    private static bool IsDamageable(string path) =>
        new FileInfo(path).Length > 0 && Path.GetFileName(path) is not ("LOCK" or "lock.mdb") && !path.EndsWith(".lock", StringComparison.Ordinal);

    private static void FlipBits(string path, Random random)
    {
        using var file = new FileStream(path, FileMode.Open, FileAccess.ReadWrite);
        for (int i = 0; i < FlippedBits; i++)
        {
            file.Position = random.NextInt64(file.Length);
            int b = file.ReadByte();
            file.Position--;
            file.WriteByte((byte)(b ^ (1 << random.Next(8))));
        }
    }

    private static void CopyDirectory(string source, string destination)
    {
        foreach (string file in Directory.EnumerateFiles(source, "*", SearchOption.AllDirectories))
        {
            string target = Path.Combine(destination, Path.GetRelativePath(source, file));
            Directory.CreateDirectory(Path.GetDirectoryName(target)!);
            File.Copy(file, target);
        }
    }

    private static Task<CliRunResult> Run(string[] arguments) => KvBenchCli.Locate().RunAsync(arguments, s_deadline);
}
