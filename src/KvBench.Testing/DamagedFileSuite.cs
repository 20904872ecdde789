using KvBench.Core;

namespace KvBench.Testing;

/// <summary>
/// Flipped bits in a row's data files, read back by <c>kvbench verify</c> in a process of its own: the row must answer
/// with <see cref="StoreDamagedException"/> (exit code 8) or open cleanly and read every record right (0), in one line,
/// within a deadline: never a hang, a crash or a wrong value returned as if it were right. Each damage is a process
/// start; a few per row run by default, many more under <c>Category=Long</c>. KvBench runs it over its rows; a team
/// derives <see cref="DamagedFileSuite{TDefinition}"/>.
/// </summary>
public abstract class DamagedFileSuite : StoreSuite
{
    private const int Records = 500;
    private const int Trials = 2;
    private const int LongTrials = 12;
    private const int FlippedBits = 16;

    private static readonly TimeSpan s_deadline = TimeSpan.FromSeconds(60);

    [Theory]
    [MemberData(PersistentRowsMember)]
    public Task Flipped_bits_give_the_typed_error_or_a_clean_open_in_one_line_and_never_a_hang(string name) =>
        DamageAndVerify(name, Trials, stream: name.Length * 7919);

    /// <summary>Other damages than the short form's (another random stream), as many as a soak wants.</summary>
    [Theory]
    [Trait("Category", "Long")]
    [MemberData(PersistentRowsMember)]
    public Task Many_more_flipped_bits_give_the_typed_error_or_a_clean_open_in_one_line_and_never_a_hang(string name) =>
        DamageAndVerify(name, LongTrials, stream: (name.Length * 7919) + 1);

    /// <summary>
    /// The files of row <paramref name="name"/>'s closed store in <paramref name="directory"/> that hold its data, to be
    /// damaged; none skips the row.
    /// </summary>
    protected abstract IReadOnlyList<string> DataFiles(string name, string directory);

    /// <summary>
    /// Whether row <paramref name="name"/> may return a damaged value as if it were right, for the verify to find (exit
    /// code 5): an engine that keeps no checksum of its values cannot tell. Default: no.
    /// </summary>
    protected virtual bool MayReturnDamagedValues(string name) => false;

    /// <summary>
    /// Whether row <paramref name="name"/>'s engine may crash the process on damaged files, reading them unchecked (a
    /// memory-mapped engine). Default: no, the process must end with an exit code of its own.
    /// </summary>
    protected virtual bool MayCrashOnDamagedFiles(string name) => false;

    private async Task DamageAndVerify(string name, int trials, int stream)
    {
        using var directory = new TempDirectory();
        string pristine = directory.Combine("pristine");
        string[] records = ["--records", $"{Records}", "--value-bytes", "100"];
        KvBenchRun load = await Run(["load", "--store", name, "--dir", pristine, .. records, .. KvBenchRowArguments(name)]);
        Assert.True(load.ExitCode == KvBenchProcess.Ok, load.ToString());
        string[] files = [.. DataFiles(name, Path.GetFullPath(pristine)).Where(file => new FileInfo(file).Length > 0).Order(StringComparer.Ordinal)];
        if (files.Length == 0)
        {
            Assert.Skip($"{name} names no data file to damage in its store (KeyValueStoreDefinition.DataFiles).");
        }

        var random = new Random(stream);
        var outcomes = new List<string>();
        for (int trial = 0; trial < trials; trial++)
        {
            string damaged = directory.Combine($"trial-{trial}");
            CopyDirectory(pristine, damaged);
            string file = Path.GetRelativePath(pristine, files[random.Next(files.Length)]);
            FlipBits(Path.Combine(damaged, file), random);

            KvBenchRun verify = await Run(["verify", "--store", name, "--dir", damaged, .. records, .. KvBenchRowArguments(name)]);

            string[] errorLines = verify.Error.Split('\n', StringSplitOptions.RemoveEmptyEntries);
            outcomes.Add($"{file} -> {verify.ExitCode} {errorLines.FirstOrDefault()}");
            bool crashed = verify.ExitCode > 128;
            Assert.True(
                verify.ExitCode is KvBenchProcess.Ok or KvBenchProcess.StoreDamaged
                    || (verify.ExitCode == KvBenchProcess.VerificationFailed && MayReturnDamagedValues(name))
                    || (crashed && MayCrashOnDamagedFiles(name)),
                $"{name} with damaged {file}: exit code {verify.ExitCode}, {verify.Error}");
            if (!crashed)
            {
                Assert.True(errorLines.Length <= 1, $"More than one line: {verify.Error}");
            }

            Directory.Delete(damaged, recursive: true);
        }

        TestContext.Current.TestOutputHelper?.WriteLine(string.Join(Environment.NewLine, outcomes));
    }

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

    private static Task<KvBenchRun> Run(string[] arguments) => KvBenchProcess.Locate().RunAsync(arguments, s_deadline);
}

/// <summary>
/// The damaged-file rounds over a team's row, <typeparamref name="TDefinition"/>, in the files its
/// <see cref="KeyValueStoreDefinition.DataFiles"/> names: derive it with no members.
/// </summary>
/// <typeparam name="TDefinition">The row's definition, as the team's assembly declares it to kvbench.</typeparam>
public abstract class DamagedFileSuite<TDefinition> : DamagedFileSuite
    where TDefinition : KeyValueStoreDefinition, new()
{
    /// <summary>The row when it keeps its data past a dispose.</summary>
    public static TheoryData<string> PersistentRowsUnderTest => DefinitionRows<TDefinition>.PersistentRows;

    /// <inheritdoc/>
    protected override IKeyValueStore Open(string name, StoreOptions options) => DefinitionRows<TDefinition>.Open(options);

    /// <inheritdoc/>
    protected override IReadOnlyList<string> KvBenchRowArguments(string name) => DefinitionRows<TDefinition>.KvBenchArguments;

    /// <inheritdoc/>
    protected override IReadOnlyList<string> DataFiles(string name, string directory) =>
        DefinitionRows<TDefinition>.Definition.DataFiles(directory);
}
