using System.CommandLine;
using System.Text.Json;
using System.Text.Json.Nodes;

using Json.Schema;

using KvBench.Cli;
using KvBench.Core;
using KvBench.Evaluation.Decision;
using KvBench.Evaluation.Workload;
using KvBench.Stores.Lmdb;
using KvBench.Stores.Sqlite;

using static KvBench.Tests.Cli.InProcessCli;


namespace KvBench.Tests.Evaluation.Decision;

/// <summary>The decision profile format: what reads, what each mistake says, the schema beside it and the CLI over it.</summary>
public sealed class ProfileReaderTests
{
    private const string Throughput = """{"throughput": "workload", "atLeast": "1000/s", "must": true}""";

    private static readonly JsonDocumentOptions s_jsonWithComments = new() { CommentHandling = JsonCommentHandling.Skip, AllowTrailingCommas = true };

    /// <summary>A valid profile with the workload's fields, the drivers and more root fields replaced.</summary>
    private static string Profile(string workload = "\"records\": 1000", string drivers = Throughput, string root = "") =>
        $$"""{"title": "t", "workload": { {{workload}} }, "drivers": [ {{drivers}} ] {{root}} }""";

    [Fact]
    public void A_full_profile_reads_into_the_model_in_base_units()
    {
        string json = """
            // Comments and trailing commas are part of the format.
            {
              "$schema": "kvbench-profile.schema.json",
              "title": "Choose a store",
              "context": "Why.",
              "workload": {
                "keyBytes": "1 KiB",
                "keyShape": {"prefixes": 64},
                "valueBytes": {"buckets": [{"share": 0.8, "bytes": 200}, {"share": 0.2, "bytes": "40 KiB"}]},
                "records": 5000,
                "mix": {"get": 0.5, "update": 0.3, "insert": 0.1, "delete": 0.05, "hasKey": 0, "scan": 0.05, "readModifyWrite": 0},
                "scanLength": 20,
                "popularity": {"zipfian": 0.8},
                "threads": 4,
                "processes": {"readers": 2},
                "rate": 2000,
                "durability": "synced",
              },
              "drivers": [
                {"capability": "valueBytes", "atLeast": "1 MiB", "must": true},
                {"capability": "growth", "weight": 1},
                {"throughput": "workload", "atLeast": "50k/s", "weight": 2},
                {"name": "UI", "latency": "hasKey", "percentile": 99.9, "while": "writing", "atMost": "2 ms", "must": true},
                {"visibilityLag": "p99", "atMost": "100 ms", "must": false, "weight": 0.5},
                {"crashKept": "acknowledged", "atLeast": "99.5%", "must": true},
                {"diskBytesPerRecord": true, "atMost": "1.5 KB", "weight": 1},
                {"allocations": "perOperation", "atMost": 0, "weight": 1},
                {"cpu": "perOperation", "atMost": "20 µs", "weight": 1},
              ],
              "candidates": ["sqlite_wal", "LMDB"],
            }
            """;

        DecisionProfile profile = ProfileReader.Parse(json, "full.json");

        Assert.Equal("Choose a store", profile.Title);
        Assert.Equal("Why.", profile.Context);
        ProfileWorkload workload = profile.Workload;
        Assert.Equal(LengthDistribution.Fixed(1024), workload.KeyBytes);
        Assert.Equal(new KeyShape(64), workload.KeyShape);
        Assert.Equal(LengthDistribution.Weighted([new LengthBucket(0.8, 200), new LengthBucket(0.2, 40 * 1024)]), workload.ValueBytes);
        Assert.Equal(5000, workload.Records);
        Assert.Equal(new OperationMix(Read: 0.5, Update: 0.3, Insert: 0.1, Delete: 0.05, Scan: 0.05), workload.Mix);
        Assert.Equal(20, workload.ScanLength);
        Assert.Equal((KeyDistribution.Zipfian, 0.8), (workload.Popularity, workload.ZipfianConstant));
        Assert.Equal(4, workload.Threads);
        Assert.Equal(2, workload.ReaderProcesses);
        Assert.Equal(2000, workload.Rate);
        Assert.Equal(Durability.Synced, workload.Durability);
        Assert.Equal([SqliteRow.WalName, LmdbRow.RowName], profile.Candidates);

        Driver[] drivers = [.. profile.Drivers];
        Assert.Equal(9, drivers.Length);
        Assert.Equal(
            new Driver
            {
                Name = "longest value ≥ 1 MiB",
                Quantity = DriverQuantity.Capability,
                Capability = CapabilityCell.ValueBytes,
                Bound = Bound.AtLeast,
                Threshold = 1 << 20,
                Must = true,
            },
            drivers[0]);
        Assert.Equal(
            new Driver
            {
                Name = "grows without a reopen",
                Quantity = DriverQuantity.Capability,
                Capability = CapabilityCell.Growth,
                Bound = Bound.AtLeast,
                Threshold = 1,
                Weight = 1,
            },
            drivers[1]);
        Assert.Equal(
            new Driver
            {
                Name = "throughput at the workload ≥ 50,000 ops/s",
                Quantity = DriverQuantity.Throughput,
                Bound = Bound.AtLeast,
                Threshold = 50_000,
                Weight = 2,
            },
            drivers[2]);
        Assert.Equal(
            new Driver
            {
                Name = "UI",
                Quantity = DriverQuantity.Latency,
                Operation = OperationType.HasKey,
                Percentile = 99.9,
                WhileWriting = true,
                Bound = Bound.AtMost,
                Threshold = 2_000_000,
                Must = true,
            },
            drivers[3]);
        Assert.Equal(
            new Driver
            {
                Name = "p99 visibility lag between processes ≤ 100 ms",
                Quantity = DriverQuantity.VisibilityLag,
                Bound = Bound.AtMost,
                Threshold = 100_000_000,
                Weight = 0.5,
            },
            drivers[4]);
        Assert.Equal(
            new Driver
            {
                Name = "acknowledged writes kept after a crash ≥ 99.5%",
                Quantity = DriverQuantity.CrashKept,
                Bound = Bound.AtLeast,
                Threshold = 0.995,
                Must = true,
            },
            drivers[5]);
        Assert.Equal(
            (DriverQuantity.DiskBytesPerRecord, Bound.AtMost, 1500.0, "disk bytes per record ≤ 1.5 KB"),
            (drivers[6].Quantity, drivers[6].Bound, drivers[6].Threshold, drivers[6].Name));
        Assert.Equal((DriverQuantity.AllocatedBytesPerOperation, 0.0), (drivers[7].Quantity, drivers[7].Threshold));
        Assert.Equal(
            (DriverQuantity.CpuPerOperation, 20_000.0, "CPU time per operation ≤ 20 µs"),
            (drivers[8].Quantity, drivers[8].Threshold, drivers[8].Name));
    }

    [Fact]
    public void Fields_left_out_take_the_models_defaults()
    {
        DecisionProfile profile = ProfileReader.Parse(
            """{"title": "t", "workload": {}, "drivers": [{"capability": "orderedScans", "must": true}]}""",
            "small.json");

        Assert.Equal(new ProfileWorkload(), profile.Workload);
        Assert.Null(profile.Context);
        Assert.Null(profile.Candidates);
        Assert.Equal("ordered prefix scans", Assert.Single(profile.Drivers).Name);
    }

    [Fact]
    public void The_default_driver_name_says_what_is_measured_and_the_threshold()
    {
        DecisionProfile profile = ProfileReader.Parse(Profile(drivers: """{"latency": "get", "while": "writing", "atMost": "2 ms", "must": true}"""), "p.json");

        Assert.Equal("p99 get latency while a writer process imports ≤ 2 ms", Assert.Single(profile.Drivers).Name);
    }

    [Fact]
    public void The_workload_reads_in_words()
    {
        var workload = new ProfileWorkload
        {
            ValueBytes = LengthDistribution.Weighted([new LengthBucket(0.8, 200), new LengthBucket(0.2, 40 * 1024)]),
        };

        Assert.Equal(
            "100,000 records, keys 16 B (random), values 80% 200 B, 20% 40 KiB; 50% get, 50% update; zipfian (0.99); " +
                "1 thread; one process; as fast as it goes; Buffered",
            ProfileDescription.Workload(workload));
        Assert.Equal(
            "1 record, keys 16 B to 32 B, uniform (8 prefixes, ordered under each), values 128 B; 90% get, 10% scan " +
                "(scans of up to 10 records); latest; 4 threads; a writer process beside 2 reader processes; 2,000 " +
                "ops/s (open loop); Synced",
            ProfileDescription.Workload(new ProfileWorkload
            {
                Records = 1,
                KeyBytes = LengthDistribution.Range(16, 32),
                KeyShape = new KeyShape(8),
                Mix = new OperationMix(Read: 0.9, Scan: 0.1),
                ScanLength = 10,
                Popularity = KeyDistribution.Latest,
                Threads = 4,
                ReaderProcesses = 2,
                Rate = 2000,
                Durability = Durability.Synced,
            }));
    }

    public static TheoryData<string, string, string> BadProfiles => new()
    {
        // Unknown fields, with the closest known name when one is close.
        { Profile(root: ", \"candidate\": [\"LMDB\"]"), "$.candidate", "unknown field; did you mean \"candidates\"?" },
        { Profile(workload: "\"valueBites\": 10"), "$.workload.valueBites", "unknown field; did you mean \"valueBytes\"?" },
        { Profile(workload: "\"KeyBytes\": 10"), "$.workload.KeyBytes", "unknown field; did you mean \"keyBytes\"?" },
        {
            Profile(drivers: """{"throughput": "workload", "atLeast": "1/s", "must": true, "colour": "red"}"""),
            "$.drivers[0].colour",
            "unknown field; the fields of a driver are name, capability"},
        {
            Profile(workload: "\"valueBytes\": {\"buckets\": [{\"share\": 1, \"byte\": 5}]}"),
            "$.workload.valueBytes.buckets[0].byte",
            "unknown field; did you mean \"bytes\"?"},
        { Profile(workload: "\"records\": 1, \"records\": 2"), "$.workload.records", "given twice" },

        // Wrong types and missing fields.
        { """{"workload": {}, "drivers": [{"capability": "growth", "must": true}]}""", "$.title", "missing; this field is required" },
        {
            Profile(root: ", \"title\": \"again\"").Replace(
                "\"title\": \"t\", ",
                string.Empty,
                StringComparison.Ordinal).Replace("\"again\"", "\" \"", StringComparison.Ordinal),
            "$.title",
            "empty; give some text"},
        { """{"title": "t", "drivers": []}""", "$.workload", "missing; this field is required" },
        { Profile(workload: "\"records\": \"many\""), "$.workload.records", "expected a whole number of records, found the string \"many\"" },
        { Profile(workload: "\"records\": 1.5"), "$.workload.records", "1.5 is not a whole number of records" },
        { Profile(workload: "\"records\": 0"), "$.workload.records", "0 records; give at least 1" },
        { Profile(workload: "\"threads\": 300"), "$.workload.threads", "300 threads; give 1 to 256" },
        { Profile(workload: "\"scanLength\": 0"), "$.workload.scanLength", "0 records a scan reads; give at least 1" },
        { Profile(workload: "\"mix\": [1]"), "$.workload.mix", "expected a mix of operation shares (an object), found an array" },
        { Profile(drivers: "7"), "$.drivers[0]", "expected a driver (an object), found the number 7" },
        { """{"title": "t", "workload": {}, "drivers": []}""", "$.drivers", "no drivers" },
        { Profile(root: ", \"candidates\": \"LMDB\""), "$.candidates", "expected an array of row names, found the string \"LMDB\"" },

        // Lengths.
        { Profile(workload: "\"keyBytes\": 4"), "$.workload.keyBytes", "4 is too short; a key needs at least 9 bytes (8 for the record's index and 1 more)" },
        { Profile(workload: "\"valueBytes\": 0"), "$.workload.valueBytes", "0 is too short; a value needs at least 1 byte" },
        { Profile(workload: "\"valueBytes\": -5"), "$.workload.valueBytes", "-5 is too short" },
        { Profile(workload: "\"valueBytes\": {\"min\": 100, \"max\": 10}"), "$.workload.valueBytes.max", "max (10 B) is below min (100 B)" },
        {
            Profile(workload: "\"valueBytes\": {\"buckets\": [{\"share\": 1, \"bytes\": 5}, {\"share\": 1, \"bytes\": \"0 KiB\"}]}"),
            "$.workload.valueBytes.buckets[1].bytes",
            "\"0 KiB\" is too short"},
        { Profile(workload: "\"valueBytes\": {\"buckets\": [{\"share\": 0, \"bytes\": 5}]}"), "$.workload.valueBytes.buckets", "the shares sum to 0" },
        {
            Profile(workload: "\"valueBytes\": \"40 parsecs\""),
            "$.workload.valueBytes",
            "cannot read \"40 parsecs\"; give a number and a unit, such as \"512 B\" (B, KB, KiB, MB, MiB, GB, GiB)"},
        { Profile(workload: "\"valueBytes\": \"2 ms\""), "$.workload.valueBytes", "\"2 ms\" is a duration, but a length is a size" },
        { Profile(workload: "\"valueBytes\": \"4 GiB\""), "$.workload.valueBytes", "is too long" },
        { Profile(workload: "\"valueBytes\": 1e400"), "$.workload.valueBytes", "expected a number of bytes, found the number 1e400" },
        { Profile(drivers: """{"diskBytesPerRecord": true, "atMost": "1e400 B", "must": true}"""), "$.drivers[0].atMost", "cannot read \"1e400 B\"" },

        // The mix.
        { Profile(workload: "\"mix\": {\"get\": 0, \"update\": 0}"), "$.workload.mix", "the shares sum to 0; give at least one operation a share above 0" },
        { Profile(workload: "\"mix\": {}"), "$.workload.mix", "the shares sum to 0" },
        { Profile(workload: "\"mix\": {\"get\": 1, \"update\": -0.5}"), "$.workload.mix.update", "a negative share (-0.5); a share is 0 or more" },
        { Profile(workload: "\"mix\": {\"read\": 1}"), "$.workload.mix.read", "unknown field; the fields of a mix of operation shares are get, update" },

        // Enumerations list what is allowed.
        {
            Profile(workload: "\"popularity\": \"hot\""),
            "$.workload.popularity",
            "\"hot\" is not one of \"uniform\", \"zipfian\", \"latest\" or {\"zipfian\": constant}"},
        { Profile(workload: "\"popularity\": {\"zipfian\": 1}"), "$.workload.popularity.zipfian", "the zipfian constant is 1; it must be above 0 and below 1" },
        { Profile(workload: "\"durability\": \"Fsync\""), "$.workload.durability", "\"Fsync\" is not one of \"Buffered\", \"Synced\"" },
        { Profile(workload: "\"processes\": \"two\""), "$.workload.processes", "\"two\" is not one of \"one\" or {\"readers\": N}" },
        { Profile(workload: "\"processes\": {\"readers\": 17}"), "$.workload.processes.readers", "17 reader processes; give 1 to 16" },
        { Profile(workload: "\"keyShape\": \"ordered\""), "$.workload.keyShape", "\"ordered\" is not one of \"random\" or {\"prefixes\": N}" },
        {
            Profile(drivers: """{"latency": "read", "atMost": "1 ms", "must": true}"""),
            "$.drivers[0].latency",
            "\"read\" is not one of \"get\", \"update\", \"insert\", \"delete\", \"hasKey\", \"scan\", \"readModifyWrite\""},
        { Profile(drivers: """{"capability": "growths", "must": true}"""), "$.drivers[0].capability", "(did you mean \"growth\"?)" },
        {
            Profile(drivers: """{"latency": "get", "while": "importing", "atMost": "1 ms", "must": true}"""),
            "$.drivers[0].while",
            "\"importing\" is not one of \"alone\", \"writing\""},
        {
            Profile(drivers: """{"throughput": "total", "atLeast": "1/s", "must": true}"""),
            "$.drivers[0].throughput",
            "\"total\" is not allowed here; the only value is \"workload\""},
        {
            Profile(drivers: """{"diskBytesPerRecord": false, "atMost": "1 B", "must": true}"""),
            "$.drivers[0].diskBytesPerRecord",
            "expected true, found false"},

        // Rows.
        {
            Profile(root: ", \"candidates\": [\"LMDB\", \"Sqlite-WAL\"]"),
            "$.candidates[1]",
            "no row is named \"Sqlite-WAL\" (did you mean \"Sqlite_WAL\"?); the rows are Sqlite_WAL"},
        { Profile(root: ", \"candidates\": [\"LMDB\", \"lmdb\"]"), "$.candidates[1]", "LMDB is named twice" },
        { Profile(root: ", \"candidates\": []"), "$.candidates", "no candidates" },

        // Thresholds: the unit, the bound and the value.
        {
            Profile(drivers: """{"latency": "get", "atMost": "5 MiB", "must": true}"""),
            "$.drivers[0].atMost",
            "\"5 MiB\" is a size, but a latency threshold is a duration, such as \"2 ms\""},
        {
            Profile(drivers: """{"throughput": "workload", "atLeast": "5 ms", "must": true}"""),
            "$.drivers[0].atLeast",
            "\"5 ms\" is a duration, but a throughput threshold is a rate"},
        {
            Profile(drivers: """{"latency": "get", "atMost": "2 fortnights", "must": true}"""),
            "$.drivers[0].atMost",
            "cannot read \"2 fortnights\"; give a number and a unit, such as \"2 ms\" (ns, us, µs, ms, s)"},
        { Profile(drivers: """{"latency": "get", "atMost": 2, "must": true}"""), "$.drivers[0].atMost", "a bare number is no duration; give a unit" },
        {
            Profile(drivers: """{"latency": "get", "atLeast": "2 ms", "must": true}"""),
            "$.drivers[0].atLeast",
            "latency takes atMost (the most you accept), not atLeast"},
        {
            Profile(drivers: """{"throughput": "workload", "atMost": "5/s", "must": true}"""),
            "$.drivers[0].atMost",
            "throughput takes atLeast (the least you accept), not atMost"},
        {
            Profile(drivers: """{"cpu": "perOperation", "must": true}"""),
            "$.drivers[0]",
            "no threshold; give \"atMost\" (the most you accept), such as \"2 ms\""},
        {
            Profile(drivers: """{"capability": "growth", "atLeast": "1 B", "must": true}"""),
            "$.drivers[0].atLeast",
            "the capability growth is yes or no and takes no threshold"},
        {
            Profile(drivers: """{"crashKept": "acknowledged", "atLeast": "150%", "must": true}"""),
            "$.drivers[0].atLeast",
            "\"150%\" is no share; give 0 to 1 or 0% to 100%"},
        { Profile(drivers: """{"throughput": "workload", "atLeast": 0, "must": true}"""), "$.drivers[0].atLeast", "0 must be above 0" },
        {
            Profile(drivers: """{"visibilityLag": "p99", "percentile": 50, "atMost": "1 s", "must": true}"""),
            "$.drivers[0].percentile",
            "only a latency driver takes percentile"},
        {
            Profile(drivers: """{"latency": "get", "percentile": 0, "atMost": "1 s", "must": true}"""),
            "$.drivers[0].percentile",
            "the percentile is 0; the latency histograms keep 50, 95, 99, 99.9 and 100"},
        {
            Profile(drivers: """{"latency": "get", "percentile": 90, "atMost": "1 s", "must": true}"""),
            "$.drivers[0].percentile",
            "the percentile is 90; the latency histograms keep 50, 95, 99, 99.9 and 100"},

        // Quantities and importance.
        {
            Profile(drivers: """{"atLeast": "1/s", "must": true}"""),
            "$.drivers[0]",
            "no quantity; give one of capability, throughput, latency, visibilityLag, crashKept, powerLossKept, diskBytesPerRecord, allocations, cpu"},
        {
            Profile(drivers: """{"throughput": "workload", "latency": "get", "atLeast": "1/s", "must": true}"""),
            "$.drivers[0]",
            "2 quantities (throughput, latency); a driver measures one"},
        { Profile(drivers: """{"throughput": "workload", "atLeast": "1/s", "must": true, "weight": 2}"""), "$.drivers[0]", "both must and weight" },
        {
            Profile(drivers: """{"throughput": "workload", "atLeast": "1/s"}"""),
            "$.drivers[0]",
            "neither must nor weight; give \"must\": true or a \"weight\" above 0"},
        { Profile(drivers: """{"throughput": "workload", "atLeast": "1/s", "must": false}"""), "$.drivers[0].must", "must is false and there is no weight" },
        { Profile(drivers: """{"throughput": "workload", "atLeast": "1/s", "weight": 0}"""), "$.drivers[0].weight", "0 is not above 0; a weight must be" },
        {
            Profile(drivers: """{"throughput": "workload", "atLeast": "1/s", "must": "yes"}"""),
            "$.drivers[0].must",
            "expected true or false, found the string \"yes\""},
        {
            Profile(drivers: Throughput + ", " + """{"name": "", "cpu": "perOperation", "atMost": "1 us", "must": true}"""),
            "$.drivers[1].name",
            "empty; give some text"},

        // Not JSON at all.
        { "{\n  \"title\": \"t\",\n  \"workload\": }", "$", "not valid JSON at line 3, position 15: '}' is an invalid start of a value." },
        { "[1, 2]", "$", "expected the profile (an object), found an array" },
    };

    [Theory]
    [MemberData(nameof(BadProfiles))]
    public void A_bad_profile_is_one_error_naming_its_path_and_problem(string json, string path, string problem)
    {
        ProfileException error = Assert.Throws<ProfileException>(() => ProfileReader.Parse(json, "bad.json"));

        Assert.Equal(path, error.JsonPath);
        Assert.StartsWith($"{path}: ", error.Message, StringComparison.Ordinal);
        Assert.Contains(problem, error.Message, StringComparison.Ordinal);
        Assert.DoesNotContain('\n', error.Message);
        Assert.Equal("bad.json", error.SourceName);
    }

    [Fact]
    public void A_missing_file_is_a_profile_error_too()
    {
        using var directory = new TempDirectory();
        string path = directory.Combine("nope.json");

        ProfileException error = Assert.Throws<ProfileException>(() => ProfileReader.Read(path));

        Assert.Equal(string.Empty, error.JsonPath);
        Assert.Equal($"{path}: no such file; `kvbench profile init` writes a starter profile", error.Message);
    }

    [Fact]
    public void The_starter_reads_and_comments_every_field()
    {
        DecisionProfile profile = ProfileReader.Parse(ProfileStarter.Text, "starter");

        Assert.NotEmpty(profile.Drivers);
        string[] lines = ProfileStarter.Text.Split('\n');
        for (int i = 0; i < lines.Length; i++)
        {
            string line = lines[i].Trim();
            if (line.StartsWith('"'))
            {
                Assert.True(
                    lines[i - 1].Trim().StartsWith("//", StringComparison.Ordinal),
                    $"the starter's field line {i + 1} has no comment above it: {line}");
            }
        }
    }

    [Fact]
    public void Every_checked_in_profile_and_the_starter_validate_against_the_schema_and_read()
    {
        JsonSchema schema = Schema();
        string[] profiles = [.. Directory.GetFiles(Repository.Profiles(), "*.json").Where(file => !file.EndsWith(".schema.json", StringComparison.Ordinal))];
        Assert.NotEmpty(profiles);

        foreach ((string name, string text) in profiles.Select(file => (file, File.ReadAllText(file))).Append(("starter", ProfileStarter.Text)))
        {
            using JsonDocument document = JsonDocument.Parse(text, s_jsonWithComments);
            EvaluationResults results = schema.Evaluate(document.RootElement, new EvaluationOptions { OutputFormat = OutputFormat.List });
            Assert.True(results.IsValid, $"{name} does not validate: {Errors(results)}");
            _ = ProfileReader.Parse(text, name);
        }
    }

    public static TheoryData<string> ProfilesBothReject => new()
    {
        Profile(root: ", \"candidate\": [\"LMDB\"]"),
        Profile(drivers: """{"throughput": "workload", "atLeast": "1/s", "must": true, "colour": "red"}"""),
        Profile(drivers: """{"throughput": "workload", "latency": "get", "atLeast": "1/s", "must": true}"""),
        Profile(drivers: """{"throughput": "workload", "atLeast": "1/s", "must": true, "weight": 2}"""),
        Profile(drivers: """{"throughput": "workload", "atLeast": "1/s", "must": false}"""),
        Profile(drivers: """{"latency": "get", "atLeast": "2 ms", "must": true}"""),
        Profile(drivers: """{"latency": "get", "atMost": "5 MiB", "must": true}"""),
        Profile(drivers: """{"capability": "growth", "atLeast": "1 B", "must": true}"""),
        Profile(workload: "\"keyBytes\": {\"min\": 16}"),
        Profile(workload: "\"popularity\": {\"zipfian\": 1}"),
        Profile(workload: "\"durability\": \"Fsync\""),
    };

    [Theory]
    [MemberData(nameof(ProfilesBothReject))]
    public void The_schema_rejects_what_the_reader_rejects_where_a_schema_can_say_it(string json)
    {
        using JsonDocument document = JsonDocument.Parse(json);

        Assert.False(Schema().Evaluate(document.RootElement).IsValid);
        Assert.Throws<ProfileException>(() => ProfileReader.Parse(json, "bad.json"));
    }

    [Fact]
    public void The_schema_names_exactly_the_fields_the_reader_knows()
    {
        var schemaNames = new SortedSet<string>(StringComparer.Ordinal);
        Collect(JsonNode.Parse(File.ReadAllText(SchemaPath()))!, schemaNames);
        var readerNames = new SortedSet<string>(
            [.. ProfileReader.RootNames, .. ProfileReader.WorkloadNames, .. ProfileReader.RangeNames, .. ProfileReader.BucketNames,
             .. ProfileReader.KeyShapeNames, .. ProfileReader.PopularityNames, .. ProfileReader.ProcessesNames, .. ProfileReader.MixNames,
             .. ProfileReader.DriverNames],
            StringComparer.Ordinal);

        Assert.Equal(readerNames, schemaNames);

        static void Collect(JsonNode node, ISet<string> names)
        {
            switch (node)
            {
                case JsonObject obj:
                    foreach ((string key, JsonNode? value) in obj)
                    {
                        if (key == "properties" && value is JsonObject properties)
                        {
                            names.UnionWith(properties.Select(property => property.Key));
                        }

                        if (value is not null)
                        {
                            Collect(value, names);
                        }
                    }

                    break;
                case JsonArray array:
                    foreach (JsonNode? item in array)
                    {
                        if (item is not null)
                        {
                            Collect(item, names);
                        }
                    }

                    break;
            }
        }
    }

    [Fact]
    public void Profile_check_prints_one_line_for_a_good_profile_and_exits_0()
    {
        using var directory = new TempDirectory();
        string path = directory.Combine("good.json");
        File.WriteAllText(path, Profile(root: ", \"candidates\": [\"LMDB\"]"));

        (int exitCode, string output, string error) = Invoke("profile", "check", path);

        Assert.Equal((ExitCodes.Ok, string.Empty), (exitCode, error));
        Assert.Equal(
            "\"t\": 1,000 records, keys 16 B (random), values 128 B; 50% get, 50% update; zipfian (0.99); 1 thread; " +
                "one process; as fast as it goes; Buffered; 1 driver (1 must, 0 weighted); candidates LMDB",
            output.TrimEnd());
    }

    [Fact]
    public void Profile_check_on_a_bad_profile_prints_one_line_naming_file_path_and_problem_and_exits_2()
    {
        using var directory = new TempDirectory();
        string path = directory.Combine("bad.json");
        File.WriteAllText(path, Profile(workload: "\"mix\": {\"get\": 0}"));

        (int exitCode, string output, string error) = Invoke("profile", "check", path);

        Assert.Equal((ExitCodes.Usage, string.Empty), (exitCode, output));
        Assert.Equal($"kvbench: {path}: $.workload.mix: the shares sum to 0; give at least one operation a share above 0{Environment.NewLine}", error);
    }

    [Fact]
    public void Profile_check_on_a_missing_file_exits_2_with_one_line()
    {
        using var directory = new TempDirectory();

        (int exitCode, _, string error) = Invoke("profile", "check", directory.Combine("none.json"));

        Assert.Equal(ExitCodes.Usage, exitCode);
        Assert.Single(error.Split(Environment.NewLine, StringSplitOptions.RemoveEmptyEntries));
        Assert.Contains("no such file", error, StringComparison.Ordinal);
    }

    [Fact]
    public void Profile_init_writes_the_starter_and_refuses_to_overwrite_without_force()
    {
        using var directory = new TempDirectory();
        string path = directory.Combine("mine.json");

        Assert.Equal(ExitCodes.Ok, Invoke("profile", "init", path).ExitCode);
        Assert.Equal(ProfileStarter.Text + Environment.NewLine, File.ReadAllText(path));
        Assert.Equal(ExitCodes.Ok, Invoke("profile", "check", path).ExitCode);

        File.WriteAllText(path, "mine");
        (int exitCode, string output, string error) = Invoke("profile", "init", path);
        Assert.Equal((ExitCodes.Usage, string.Empty), (exitCode, output));
        Assert.Equal($"kvbench: {path} exists; pass --force to overwrite it{Environment.NewLine}", error);
        Assert.Equal("mine", File.ReadAllText(path));

        Assert.Equal(ExitCodes.Ok, Invoke("profile", "init", path, "--force").ExitCode);
        Assert.Equal(ProfileStarter.Text + Environment.NewLine, File.ReadAllText(path));
    }

    private static JsonSchema Schema() => JsonSchema.FromText(File.ReadAllText(SchemaPath()));

    private static string Errors(EvaluationResults results) =>
        string.Join("; ", (results.Details ?? []).Where(detail => detail.Errors is not null)
            .SelectMany(detail => detail.Errors!.Select(error => $"{detail.InstanceLocation} ({detail.EvaluationPath}): {error.Value}")));

    private static string SchemaPath() => Path.Combine(Repository.Profiles(), "kvbench-profile.schema.json");
}
