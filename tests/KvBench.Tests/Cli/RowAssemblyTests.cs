using System.Reflection;

using KvBench.Cli;
using KvBench.Core;
using KvBench.Evaluation.Decision;
using KvBench.Stores;

using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;

using static KvBench.Tests.Cli.InProcessCli;

namespace KvBench.Tests.Cli;

/// <summary>
/// A row from a team's own assembly: kvbench loads the sample store (samples/Contoso.Settings) and every command, and the
/// processes it starts, treat it as a row; a file that cannot give rows is a usage error of one line.
/// </summary>
public sealed class RowAssemblyTests
{
    /// <summary>The sample's build, from its own folder with its own dependencies, as a team would point kvbench at it.</summary>
    internal static string Sample { get; } = typeof(RowAssemblyTests).Assembly.GetCustomAttributes<AssemblyMetadataAttribute>()
        .Single(attribute => attribute.Key == "ContosoSettingsAssembly").Value!;

    [Fact]
    public void A_missing_file_is_a_usage_error_naming_it()
    {
        using var scratch = new TempDirectory();
        string path = scratch.Combine("Missing.dll");

        AssertUsageError($"Row assembly '{path}' does not exist.", "stores", "--rows-from", path);
    }

    [Fact]
    public void A_file_that_is_not_an_assembly_is_a_usage_error()
    {
        using var scratch = new TempDirectory();
        string path = scratch.Combine("Notes.dll");
        File.WriteAllText(path, "not an assembly");

        AssertUsageError($"Row assembly '{path}' is not a .NET assembly.", "stores", "--rows-from", path);
    }

    [Fact]
    public void An_assembly_that_declares_no_row_is_a_usage_error_that_says_how_to_declare_one()
    {
        using var scratch = new TempDirectory();
        string path = Compile(scratch, "NoRows", "public sealed class Unrelated { }");

        AssertUsageError(
            $"Row assembly '{path}' declares no row; name each definition with [assembly: KeyValueStoreDefinition(typeof(YourDefinition))]",
            "stores",
            "--rows-from",
            path);
    }

    [Fact]
    public void A_declared_type_that_is_no_definition_is_a_usage_error_naming_it()
    {
        using var scratch = new TempDirectory();
        string path = Compile(scratch, "NotADefinition", """
            [assembly: KvBench.Core.KeyValueStoreDefinition(typeof(Acme.Settings))]
            namespace Acme { public sealed class Settings { } }
            """);

        AssertUsageError(
            $"Row assembly '{path}' names Acme.Settings, which does not derive from KvBench.Core.KeyValueStoreDefinition.",
            "stores",
            "--rows-from",
            path);
    }

    [Fact]
    public void A_definition_without_a_public_parameterless_constructor_is_a_usage_error_naming_it()
    {
        using var scratch = new TempDirectory();
        string path = Compile(scratch, "NoConstructor", Definition("Acme.NeedsAPath", "AcmeNeedsAPath", "public NeedsAPath(string path) { }"));

        AssertUsageError(
            $"Row assembly '{path}' names Acme.NeedsAPath, which KvBench cannot create: a definition must be a public, non-abstract class " +
                "with a public parameterless constructor.",
            "stores",
            "--rows-from",
            path);
    }

    [Fact]
    public void A_row_named_as_a_row_of_kvbench_is_a_usage_error_and_joins_nothing()
    {
        using var scratch = new TempDirectory();
        string path = Compile(scratch, "Clash", Definition("Acme.FakeLmdb", "lmdb"));

        AssertUsageError($"Row assembly '{path}' defines the row lmdb, which is a row of KvBench; give it another name.", "stores", "--rows-from", path);
        Assert.DoesNotContain(StoreCatalog.LoadedRows, row => row.LoadedFrom == path);
        Assert.Null(StoreCatalog.Row("LMDB").LoadedFrom);
    }

    [Fact]
    public void A_profile_whose_row_assembly_is_missing_is_a_usage_error_at_its_place_in_the_profile()
    {
        using var scratch = new TempDirectory();
        string profile = scratch.Combine("profile.json");
        File.WriteAllText(profile, """
            {
              "title": "t",
              "workload": { "records": 100, "mix": { "get": 1 } },
              "drivers": [{ "throughput": "workload", "atLeast": "1/s", "must": true }],
              "rowAssemblies": ["bin/Ours.dll"]
            }
            """);

        ProfileException error = Assert.Throws<ProfileException>(() => ProfileReader.Read(profile));

        Assert.Equal("$.rowAssemblies[0]", error.JsonPath);
        Assert.Equal($"Row assembly '{scratch.Combine("bin/Ours.dll")}' does not exist.", error.Problem);
    }

    [Fact]
    public void The_sample_row_is_listed_opened_written_and_read_through_kvbench()
    {
        using var scratch = new TempDirectory();
        string directory = scratch.Combine("settings");

        (int listed, string stores, _) = Invoke("stores", "--rows-from", Sample);
        (int put, _, string putError) = Invoke("put", "--store", "ContosoSettings", "--dir", directory, "theme", "dark", "--rows-from", Sample);
        (int got, string value, string getError) = Invoke("get", "--store", "contososettings", "--dir", directory, "theme", "--rows-from", Sample);

        Assert.Equal(ExitCodes.Ok, listed);
        Assert.Contains(stores.Split('\n'), line => line.Split('│') is [_, var first, ..] && first.Trim() == "ContosoSettings");
        Assert.Equal((ExitCodes.Ok, string.Empty), (put, putError));
        Assert.Equal((ExitCodes.Ok, "dark", string.Empty), (got, value.Trim(), getError));
        Assert.Equal(Path.GetFullPath(Sample), StoreCatalog.Row("ContosoSettings").LoadedFrom);
        Assert.StartsWith("Contoso.Settings ", StoreCatalog.Engine("ContosoSettings"), StringComparison.Ordinal);
        Assert.True(File.Exists(Path.Combine(directory, "settings.db")));
    }

    [Fact]
    public void The_sample_store_is_handed_back_as_the_team_wrote_it_and_its_typed_errors_pass_through()
    {
        using var scratch = new TempDirectory();
        _ = RowAssemblies.Load(Sample);
        using IKeyValueStore store = StoreCatalog.Open("ContosoSettings", new StoreOptions { Directory = scratch.Path });

        Assert.Equal("Contoso.Settings.SettingsStore", store.GetType().FullName);
        KeyTooLargeException error = Assert.Throws<KeyTooLargeException>(() => store.Put(new byte[1025], [1]));
        Assert.Equal("ContosoSettings", error.StoreName);
        Assert.Throws<StoreNotFoundException>(
            () => StoreCatalog.Open("ContosoSettings", new StoreOptions { Directory = scratch.Combine("empty"), Access = StoreAccess.ReadOnly }));
    }

    [Fact]
    [Trait("Category", "MultiProcess")]
    public void A_crash_round_kills_a_writer_process_that_opened_the_sample_row_by_name_and_finds_every_write()
    {
        using var scratch = new TempDirectory();

        (int exitCode, string output, string error) = Invoke(
            "crash", "--store", "ContosoSettings", "--dir", scratch.Combine("crash"), "--rounds", "2", "--rows-from", Sample);

        Assert.True(exitCode == ExitCodes.Ok, error + output);
        Assert.Matches(@"ContosoSettings \| Buffered \| 2 \| [\d,]+ \| 0 \| 0 \| 0 \|", output);
    }

    [Fact]
    [Trait("Category", "MultiProcess")]
    public void A_crash_round_finds_the_writes_the_broken_sample_row_acknowledged_and_dropped()
    {
        using var scratch = new TempDirectory();

        (int exitCode, string output, _) = Invoke(
            "crash", "--store", "ContosoSettings_DropsPuts", "--dir", scratch.Combine("crash"), "--rounds", "2", "--rows-from", Sample);

        Assert.Equal(ExitCodes.WritesLost, exitCode);
        Assert.Matches(@"ContosoSettings_DropsPuts \| Buffered \| 2 \| [\d,]+ \| [1-9][\d,]* \|", output);
    }

    private static void AssertUsageError(string expected, params string[] arguments)
    {
        (int exitCode, string output, string error) = Invoke(arguments);

        Assert.Equal(ExitCodes.Usage, exitCode);
        Assert.Equal(string.Empty, output);
        string line = Assert.Single(error.Split('\n', StringSplitOptions.RemoveEmptyEntries));
        Assert.StartsWith($"kvbench: {expected}", line, StringComparison.Ordinal);
    }

    private static string Definition(string type, string rowName, string constructor = "")
    {
        string name = type[(type.LastIndexOf('.') + 1)..];
        return $$"""
            using KvBench.Core;
            [assembly: KeyValueStoreDefinition(typeof({{type}}))]
            namespace Acme
            {
                public sealed class {{name}} : KeyValueStoreDefinition
                {
                    {{constructor}}
                    public override string Name => "{{rowName}}";
                    public override StoreCapabilities Capabilities { get; } = new()
                    {
                        MaxKeyBytes = 64, MaxValueBytes = 64, GrowsWithoutRestart = true, MultiProcess = MultiProcessLevel.Exclusive,
                        OrderedPrefixScan = false, Durability = DurabilityTiers.Buffered,
                    };
                    public override string Engine => "Acme 1.0";
                    public override IKeyValueStore Open(StoreOptions options) => throw new System.NotSupportedException();
                    public override bool HoldsStore(string directory) => false;
                }
            }
            """;
    }

    /// <summary>Builds <paramref name="source"/> into <c>{name}.dll</c> in <paramref name="scratch"/>, against this process's KvBench.Core.</summary>
    private static string Compile(TempDirectory scratch, string name, string source)
    {
        MetadataReference[] references = [.. ((string)AppContext.GetData("TRUSTED_PLATFORM_ASSEMBLIES")!)
            .Split(Path.PathSeparator)
            .Select(path => MetadataReference.CreateFromFile(path))];
        CSharpCompilation compilation = CSharpCompilation.Create(
            name,
            [CSharpSyntaxTree.ParseText(source)],
            references,
            new CSharpCompilationOptions(OutputKind.DynamicallyLinkedLibrary));
        string path = scratch.Combine($"{name}.dll");
        Microsoft.CodeAnalysis.Emit.EmitResult result = compilation.Emit(path);
        Assert.True(result.Success, string.Join(Environment.NewLine, result.Diagnostics));
        return path;
    }
}
