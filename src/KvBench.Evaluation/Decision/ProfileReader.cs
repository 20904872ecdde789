using System.Globalization;
using System.Text.Json;

using KvBench.Core;
using KvBench.Evaluation.Workload;
using KvBench.Stores;

namespace KvBench.Evaluation.Decision;

/// <summary>
/// Reads a decision profile (the JSON a team writes for <c>kvbench decide --profile FILE</c>) strictly: every field is
/// known, typed and in range, or the read fails with one <see cref="ProfileException"/> naming where and why. A profile
/// that reads is one KvBench can measure; nothing is guessed or silently dropped. The format is described by
/// <c>docs/profiles/kvbench-profile.schema.json</c> and shown, field by field, by <see cref="ProfileStarter.Text"/>.
/// </summary>
public static class ProfileReader
{
    /// <summary>
    /// The shortest key a profile may ask for: the workload runner writes the record's 8-byte index into every key and
    /// needs one byte more to tell its keys from another run's.
    /// </summary>
    public const int MinKeyBytes = 9;

    /// <summary>The most reader processes a profile may put beside its writer: each is a process on the machine under test.</summary>
    public const int MaxReaderProcesses = 16;

    /// <summary>The most threads a profile may ask for in the measured process.</summary>
    public const int MaxThreads = 256;

    internal static readonly string[] RootNames = ["$schema", "title", "context", "workload", "drivers", "rowAssemblies", "candidates"];
    internal static readonly string[] WorkloadNames = [
        "keyBytes", "keyShape", "valueBytes", "records", "mix", "scanLength", "popularity", "threads", "processes",
        "rate", "durability"];
    internal static readonly string[] RangeNames = ["min", "max", "buckets"];
    internal static readonly string[] BucketNames = ["share", "bytes"];
    internal static readonly string[] KeyShapeNames = ["prefixes"];
    internal static readonly string[] PopularityNames = ["zipfian"];
    internal static readonly string[] ProcessesNames = ["readers"];
    internal static readonly string[] QuantityNames = [
        "capability", "throughput", "latency", "visibilityLag", "crashKept", "powerLossKept", "diskBytesPerRecord",
        "allocations", "cpu"];
    /// <summary>The percentiles every latency summary keeps: a driver on another would be judged on a figure nobody measured.</summary>
    internal static readonly double[] MeasuredPercentiles = [50, 95, 99, 99.9, 100];

    internal static readonly string[] DriverNames = ["name", .. QuantityNames, "percentile", "while", "atLeast", "atMost", "must", "weight"];

    /// <summary>The operation names a profile uses, in the order the mix and the record list them.</summary>
    internal static readonly (string Name, OperationType Type)[] Operations =
    [
        ("get", OperationType.Read),
        ("update", OperationType.Update),
        ("insert", OperationType.Insert),
        ("delete", OperationType.Delete),
        ("hasKey", OperationType.HasKey),
        ("scan", OperationType.Scan),
        ("readModifyWrite", OperationType.ReadModifyWrite),
    ];

    internal static readonly (string Name, CapabilityCell Cell)[] Capabilities =
    [
        ("keyBytes", CapabilityCell.KeyBytes),
        ("valueBytes", CapabilityCell.ValueBytes),
        ("growth", CapabilityCell.Growth),
        ("multiProcessWriters", CapabilityCell.MultiProcessWriters),
        ("orderedScans", CapabilityCell.OrderedScans),
    ];

    internal static readonly string[] MixNames = [.. Operations.Select(operation => operation.Name)];

    private static readonly JsonDocumentOptions s_options = new()
    {
        CommentHandling = JsonCommentHandling.Skip,
        AllowTrailingCommas = true,
    };

    /// <summary>Reads the profile in the file <paramref name="path"/>.</summary>
    /// <exception cref="ProfileException">The file is missing or unreadable, is not JSON, or is not a valid profile.</exception>
    public static DecisionProfile Read(string path)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(path);
        string json;
        try
        {
            json = File.ReadAllText(path);
        }
        catch (Exception e) when (e is FileNotFoundException or DirectoryNotFoundException)
        {
            throw new ProfileException(path, string.Empty, $"{path}: no such file; `kvbench profile init` writes a starter profile", e);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            throw new ProfileException(path, string.Empty, $"{path}: cannot be read: {e.Message}", e);
        }

        return Parse(json, path, Path.GetDirectoryName(Path.GetFullPath(path))!);
    }

    /// <summary>
    /// Loads the rows of the assemblies the profile in <paramref name="path"/> names (<c>rowAssemblies</c>), before a
    /// command line that names them is checked. A file that cannot be read or is not JSON loads nothing here: reading the
    /// whole profile reports that.
    /// </summary>
    /// <exception cref="ProfileException">An assembly the profile names cannot be loaded.</exception>
    public static void LoadRowAssemblies(string path)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(path);
        JsonDocument document;
        try
        {
            document = JsonDocument.Parse(File.ReadAllText(path), s_options);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or JsonException)
        {
            return;
        }

        using (document)
        {
            if (document.RootElement is { ValueKind: JsonValueKind.Object } root && root.TryGetProperty("rowAssemblies", out JsonElement element))
            {
                _ = new Walker(path, Path.GetDirectoryName(Path.GetFullPath(path))!).RowAssemblies(element, "$.rowAssemblies");
            }
        }
    }

    /// <summary>
    /// Reads the profile <paramref name="json"/>; <paramref name="sourceName"/> names it in errors. Its
    /// <c>rowAssemblies</c> are relative to the current directory.
    /// </summary>
    /// <exception cref="ProfileException">The text is not JSON or not a valid profile.</exception>
    public static DecisionProfile Parse(string json, string sourceName) => Parse(json, sourceName, Environment.CurrentDirectory);

    private static DecisionProfile Parse(string json, string sourceName, string baseDirectory)
    {
        ArgumentNullException.ThrowIfNull(json);
        ArgumentNullException.ThrowIfNull(sourceName);
        JsonDocument document;
        try
        {
            document = JsonDocument.Parse(json, s_options);
        }
        catch (JsonException e)
        {
            // The parser's message ends with its own 0-based position; the line and column are given 1-based instead.
            string reason = e.Message;
            int position = reason.IndexOf(" LineNumber:", StringComparison.Ordinal);
            reason = (position >= 0 ? reason[..position] : reason).Trim();
            throw new ProfileException(
                sourceName,
                "$",
                $"not valid JSON at line {(e.LineNumber ?? 0) + 1}, position {(e.BytePositionInLine ?? 0) + 1}: {reason}",
                e);
        }

        using (document)
        {
            return new Walker(sourceName, baseDirectory).Profile(document.RootElement);
        }
    }

    /// <summary>The profile name of <paramref name="type"/>: "get", "hasKey".</summary>
    internal static string NameOf(OperationType type) => Operations.First(operation => operation.Type == type).Name;

    /// <summary>The profile name of <paramref name="cell"/>: "keyBytes", "orderedScans".</summary>
    internal static string NameOf(CapabilityCell cell) => Capabilities.First(capability => capability.Cell == cell).Name;

    /// <summary>The known name closest to <paramref name="name"/>, when one is close enough to be a slip.</summary>
    internal static string? Closest(string name, IEnumerable<string> known)
    {
        string? best = null;
        int bestDistance = int.MaxValue;
        foreach (string candidate in known)
        {
            int distance = Distance(name.ToLowerInvariant(), candidate.ToLowerInvariant());
            if (distance < bestDistance)
            {
                (best, bestDistance) = (candidate, distance);
            }
        }

        return bestDistance <= Math.Max(2, name.Length / 3) ? best : null;
    }

    private static int Distance(string a, string b)
    {
        int[] previous = [.. Enumerable.Range(0, b.Length + 1)];
        int[] current = new int[b.Length + 1];
        for (int i = 1; i <= a.Length; i++)
        {
            current[0] = i;
            for (int j = 1; j <= b.Length; j++)
            {
                int substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
                current[j] = Math.Min(substitution, Math.Min(previous[j] + 1, current[j - 1] + 1));
            }

            (previous, current) = (current, previous);
        }

        return previous[b.Length];
    }

    private static string Quoted(IEnumerable<string> names) => string.Join(", ", names.Select(name => $"\"{name}\""));

    /// <summary>Walks one profile document; holds its source name for the errors and its directory for the paths in it.</summary>
    private sealed class Walker(string source, string baseDirectory)
    {
        public DecisionProfile Profile(JsonElement root)
        {
            var profile = new Fields(this, root, "$", RootNames, "the profile");
            _ = profile.Optional("$schema") is { } schema ? Text(schema, profile.At("$schema"), allowEmpty: true) : null;
            string title = Text(profile.Required("title"), profile.At("title"), allowEmpty: false);
            string? context = profile.Optional("context") is { } contextElement ? Text(contextElement, profile.At("context"), allowEmpty: true) : null;
            ProfileWorkload workload = Workload(profile.Required("workload"), profile.At("workload"));
            IReadOnlyList<Driver> drivers = Drivers(profile.Required("drivers"), profile.At("drivers"));

            // Before the candidates: a row from a team's assembly is a known row only once its assembly is loaded.
            IReadOnlyList<string> rowAssemblies = profile.Optional("rowAssemblies") is { } assemblies
                ? RowAssemblies(assemblies, profile.At("rowAssemblies"))
                : [];
            IReadOnlyList<string>? candidates = profile.Optional("candidates") is { } candidatesElement
                ? Candidates(candidatesElement, profile.At("candidates"))
                : null;
            return new DecisionProfile
            {
                Title = title,
                Context = context,
                Workload = workload,
                Drivers = drivers,
                Candidates = candidates,
                RowAssemblies = rowAssemblies,
            };
        }

        /// <summary>Loads each assembly of a <c>rowAssemblies</c> array (paths relative to the profile); their full paths.</summary>
        public IReadOnlyList<string> RowAssemblies(JsonElement element, string path)
        {
            if (element.ValueKind != JsonValueKind.Array)
            {
                throw WrongType(element, path, "an array of assembly paths");
            }

            var paths = new List<string>();
            int index = 0;
            foreach (JsonElement item in element.EnumerateArray())
            {
                string at = $"{path}[{index++}]";
                string full = System.IO.Path.GetFullPath(Text(item, at, allowEmpty: false), baseDirectory);
                try
                {
                    _ = Stores.RowAssemblies.Load(full);
                }
                catch (RowAssemblyException e)
                {
                    throw new ProfileException(source, at, e.Message, e);
                }

                paths.Add(full);
            }

            return paths;
        }

        public ProfileException Fail(string path, string problem) => new(source, path, problem);

        public ProfileException WrongType(JsonElement element, string path, string expected) =>
            Fail(path, $"expected {expected}, found {Describe(element)}");

        private static string Describe(JsonElement element) => element.ValueKind switch
        {
            JsonValueKind.Object => "an object",
            JsonValueKind.Array => "an array",
            JsonValueKind.String => $"the string \"{element.GetString()}\"",
            JsonValueKind.Number => $"the number {element.GetRawText()}",
            JsonValueKind.True or JsonValueKind.False => element.GetRawText(),
            _ => "null",
        };

        private ProfileWorkload Workload(JsonElement element, string path)
        {
            var fields = new Fields(this, element, path, WorkloadNames, "a workload");
            var workload = new ProfileWorkload();
            if (fields.Optional("keyShape") is { } keyShape)
            {
                workload = workload with { KeyShape = Shape(keyShape, fields.At("keyShape")) };
            }

            if (fields.Optional("keyBytes") is { } keyBytes)
            {
                workload = workload with { KeyBytes = Length(keyBytes, fields.At("keyBytes"), "key", MinKeyBytes) };
            }

            if (fields.Optional("valueBytes") is { } valueBytes)
            {
                workload = workload with { ValueBytes = Length(valueBytes, fields.At("valueBytes"), "value", 1) };
            }

            if (fields.Optional("records") is { } records)
            {
                workload = workload with { Records = Whole(records, fields.At("records"), 1, long.MaxValue, "records") };
            }

            if (fields.Optional("mix") is { } mix)
            {
                workload = workload with { Mix = Mix(mix, fields.At("mix")) };
            }

            if (fields.Optional("scanLength") is { } scanLength)
            {
                workload = workload with { ScanLength = (int)Whole(scanLength, fields.At("scanLength"), 1, int.MaxValue, "records a scan reads") };
            }

            if (fields.Optional("popularity") is { } popularity)
            {
                (KeyDistribution distribution, double constant) = Popularity(popularity, fields.At("popularity"));
                workload = workload with { Popularity = distribution, ZipfianConstant = constant };
            }

            if (fields.Optional("threads") is { } threads)
            {
                workload = workload with { Threads = (int)Whole(threads, fields.At("threads"), 1, MaxThreads, "threads") };
            }

            if (fields.Optional("processes") is { } processes)
            {
                workload = workload with { ReaderProcesses = Processes(processes, fields.At("processes")) };
            }

            if (fields.Optional("rate") is { } rate)
            {
                workload = workload with { Rate = Positive(rate, fields.At("rate"), "operations per second") };
            }

            if (fields.Optional("durability") is { } durability)
            {
                workload = workload with
                {
                    Durability = Choice(
                        durability,
                        fields.At("durability"),
                        Enum.GetValues<Durability>().Select(tier => (tier.ToString(), tier)).ToArray(),
                        ignoreCase: true),
                };
            }

            return workload;
        }

        private KeyShape Shape(JsonElement element, string path)
        {
            if (element.ValueKind == JsonValueKind.Object)
            {
                var fields = new Fields(this, element, path, KeyShapeNames, "a key shape");
                return new KeyShape((int)Whole(fields.Required("prefixes"), fields.At("prefixes"), 1, int.MaxValue, "prefixes"));
            }

            if (element.ValueKind != JsonValueKind.String)
            {
                throw WrongType(element, path, "\"random\" or {\"prefixes\": N}");
            }

            return Choice(element, path, [("random", KeyShape.Random)], ignoreCase: false, more: "or {\"prefixes\": N}");
        }

        private LengthDistribution Length(JsonElement element, string path, string what, int minimum)
        {
            if (element.ValueKind is JsonValueKind.Number or JsonValueKind.String)
            {
                return LengthDistribution.Fixed(Bytes(element, path, what, minimum));
            }

            if (element.ValueKind != JsonValueKind.Object)
            {
                throw WrongType(element, path, "a length: bytes (16), a size (\"1 KiB\"), {\"min\", \"max\"} or {\"buckets\": [...]}");
            }

            var fields = new Fields(this, element, path, RangeNames, "a length");
            if (fields.Optional("buckets") is { } buckets)
            {
                if (fields.Has("min") || fields.Has("max"))
                {
                    throw Fail(path, "give either min and max or buckets, not both");
                }

                return Buckets(buckets, fields.At("buckets"), what, minimum);
            }

            if (!fields.Has("min") && !fields.Has("max"))
            {
                throw Fail(path, "an empty length; give a number of bytes, {\"min\", \"max\"} or {\"buckets\": [...]}");
            }

            int min = Bytes(fields.Required("min"), fields.At("min"), what, minimum);
            int max = Bytes(fields.Required("max"), fields.At("max"), what, minimum);
            return max < min
                ? throw Fail(fields.At("max"), $"max ({max:N0} B) is below min ({min:N0} B)")
                : LengthDistribution.Range(min, max);
        }

        private LengthDistribution Buckets(JsonElement element, string path, string what, int minimum)
        {
            if (element.ValueKind != JsonValueKind.Array)
            {
                throw WrongType(element, path, "an array of {\"share\", \"bytes\"}");
            }

            if (element.GetArrayLength() == 0)
            {
                throw Fail(path, "no buckets; give at least one {\"share\", \"bytes\"}");
            }

            var list = new List<LengthBucket>();
            int index = 0;
            foreach (JsonElement item in element.EnumerateArray())
            {
                string at = $"{path}[{index++}]";
                var fields = new Fields(this, item, at, BucketNames, "a bucket");
                double share = Share(fields.Required("share"), fields.At("share"), allowZero: true);
                list.Add(new LengthBucket(share, Bytes(fields.Required("bytes"), fields.At("bytes"), what, minimum)));
            }

            return list.Sum(bucket => bucket.Share) <= 0
                ? throw Fail(path, "the shares sum to 0; give at least one bucket a share above 0")
                : LengthDistribution.Weighted(list);
        }

        private int Bytes(JsonElement element, string path, string what, int minimum)
        {
            double bytes = element.ValueKind switch
            {
                JsonValueKind.Number => Finite(element, path, "a number of bytes"),
                JsonValueKind.String => Quantity(element, path, UnitKind.Size, "a length"),
                _ => throw WrongType(element, path, "a number of bytes or a size such as \"1 KiB\""),
            };
            if (bytes != Math.Floor(bytes))
            {
                throw Fail(path, $"{element.GetRawText()} is not a whole number of bytes");
            }

            if (bytes < minimum)
            {
                string why = minimum == MinKeyBytes && what == "key"
                    ? $"a key needs at least {MinKeyBytes} bytes (8 for the record's index and 1 more)"
                    : $"a {what} needs at least {minimum} byte{(minimum == 1 ? string.Empty : "s")}";
                throw Fail(path, $"{element.GetRawText()} is too short; {why}");
            }

            return bytes > int.MaxValue
                ? throw Fail(path, $"{element.GetRawText()} is too long; a {what} is at most {int.MaxValue:N0} bytes")
                : (int)bytes;
        }

        private OperationMix Mix(JsonElement element, string path)
        {
            var fields = new Fields(this, element, path, MixNames, "a mix of operation shares");
            var shares = new Dictionary<OperationType, double>();
            foreach ((string name, OperationType type) in Operations)
            {
                if (fields.Optional(name) is { } share)
                {
                    shares[type] = share.ValueKind == JsonValueKind.Number && share.TryGetDouble(out double given) && given < 0
                        ? throw Fail(fields.At(name), $"a negative share ({share.GetRawText()}); a share is 0 or more")
                        : Finite(share, fields.At(name), "a share (a number, 0 or more)");
                }
            }

            double total = shares.Values.Sum();
            if (total <= 0)
            {
                throw Fail(path, "the shares sum to 0; give at least one operation a share above 0");
            }

            double Of(OperationType type) => shares.GetValueOrDefault(type);
            return new OperationMix(
                Read: Of(OperationType.Read),
                Update: Of(OperationType.Update),
                Insert: Of(OperationType.Insert),
                ReadModifyWrite: Of(OperationType.ReadModifyWrite),
                Scan: Of(OperationType.Scan),
                Delete: Of(OperationType.Delete),
                HasKey: Of(OperationType.HasKey));
        }

        private (KeyDistribution Distribution, double Constant) Popularity(JsonElement element, string path)
        {
            if (element.ValueKind == JsonValueKind.Object)
            {
                var fields = new Fields(this, element, path, PopularityNames, "a popularity");
                string at = fields.At("zipfian");
                double constant = Finite(fields.Required("zipfian"), at, "the zipfian constant (a number between 0 and 1)");
                return constant is > 0 and < 1
                    ? (KeyDistribution.Zipfian, constant)
                    : throw Fail(at, $"the zipfian constant is {element.GetProperty("zipfian").GetRawText()}; it must be above 0 and below 1 (YCSB uses 0.99)");
            }

            if (element.ValueKind != JsonValueKind.String)
            {
                throw WrongType(element, path, "\"uniform\", \"zipfian\", \"latest\" or {\"zipfian\": constant}");
            }

            KeyDistribution distribution = Choice(
                element,
                path,
                [("uniform", KeyDistribution.Uniform), ("zipfian", KeyDistribution.Zipfian), ("latest", KeyDistribution.Latest)],
                ignoreCase: false,
                more: "or {\"zipfian\": constant}");
            return (distribution, ZipfianGenerator.DefaultTheta);
        }

        private int Processes(JsonElement element, string path)
        {
            if (element.ValueKind == JsonValueKind.Object)
            {
                var fields = new Fields(this, element, path, ProcessesNames, "processes");
                return (int)Whole(fields.Required("readers"), fields.At("readers"), 1, MaxReaderProcesses, "reader processes");
            }

            if (element.ValueKind != JsonValueKind.String)
            {
                throw WrongType(element, path, "\"one\" or {\"readers\": N}");
            }

            return Choice(element, path, [("one", 0)], ignoreCase: false, more: "or {\"readers\": N}");
        }

        private IReadOnlyList<Driver> Drivers(JsonElement element, string path)
        {
            if (element.ValueKind != JsonValueKind.Array)
            {
                throw WrongType(element, path, "an array of drivers");
            }

            if (element.GetArrayLength() == 0)
            {
                throw Fail(path, "no drivers; give at least one, such as {\"throughput\": \"workload\", \"atLeast\": \"10000/s\", \"must\": true}");
            }

            var drivers = new List<Driver>();
            int index = 0;
            foreach (JsonElement item in element.EnumerateArray())
            {
                drivers.Add(Driver(item, $"{path}[{index++}]"));
            }

            return drivers;
        }

        private Driver Driver(JsonElement element, string path)
        {
            var fields = new Fields(this, element, path, DriverNames, "a driver");
            string[] quantities = [.. QuantityNames.Where(fields.Has)];
            if (quantities.Length == 0)
            {
                throw Fail(path, $"no quantity; give one of {string.Join(", ", QuantityNames)}");
            }

            if (quantities.Length > 1)
            {
                throw Fail(path, $"{quantities.Length} quantities ({string.Join(", ", quantities)}); a driver measures one: write one driver for each");
            }

            string quantityName = quantities[0];
            JsonElement quantity = fields.Required(quantityName);
            string at = fields.At(quantityName);
            CapabilityCell? cell = quantityName == "capability" ? Choice(quantity, at, Capabilities, ignoreCase: false) : null;
            OperationType? operation = null;
            (DriverQuantity kind, Bound? bound, UnitKind unit) = quantityName switch
            {
                "capability" => Capability(cell!.Value),
                "throughput" => Only(quantity, at, "workload", (DriverQuantity.Throughput, Bound.AtLeast, UnitKind.Rate)),
                "latency" => (DriverQuantity.Latency, Bound.AtMost, UnitKind.Duration),
                "visibilityLag" => Only(quantity, at, "p99", (DriverQuantity.VisibilityLag, Bound.AtMost, UnitKind.Duration)),
                "crashKept" => Only(quantity, at, "acknowledged", (DriverQuantity.CrashKept, Bound.AtLeast, UnitKind.Share)),
                "powerLossKept" => Only(quantity, at, "acknowledged", (DriverQuantity.PowerLossKept, Bound.AtLeast, UnitKind.Share)),
                "diskBytesPerRecord" => quantity.ValueKind == JsonValueKind.True
                    ? (DriverQuantity.DiskBytesPerRecord, Bound.AtMost, UnitKind.Size)
                    : throw WrongType(quantity, at, "true"),
                "allocations" => Only(quantity, at, "perOperation", (DriverQuantity.AllocatedBytesPerOperation, Bound.AtMost, UnitKind.Size)),
                _ => Only(quantity, at, "perOperation", (DriverQuantity.CpuPerOperation, Bound.AtMost, UnitKind.Duration)),
            };
            if (kind == DriverQuantity.Latency)
            {
                operation = Choice(quantity, at, Operations, ignoreCase: false);
            }

            double percentile = 99;
            bool whileWriting = false;
            foreach (string latencyOnly in (string[])["percentile", "while"])
            {
                if (kind != DriverQuantity.Latency && fields.Has(latencyOnly))
                {
                    throw Fail(fields.At(latencyOnly), $"only a latency driver takes {latencyOnly}");
                }
            }

            if (fields.Optional("percentile") is { } percentileElement)
            {
                percentile = Finite(percentileElement, fields.At("percentile"), "a percentile (50, 95, 99, 99.9 or 100)");
                if (!MeasuredPercentiles.Contains(percentile))
                {
                    throw Fail(
                        fields.At("percentile"),
                        $"the percentile is {percentileElement.GetRawText()}; the latency histograms keep 50, 95, " +
                            $"99, 99.9 and 100 (the largest)");
                }
            }

            if (fields.Optional("while") is { } whileElement)
            {
                whileWriting = Choice(whileElement, fields.At("while"), [("alone", false), ("writing", true)], ignoreCase: false);
            }

            double threshold = Threshold(fields, path, quantityName, bound, unit, kind == DriverQuantity.AllocatedBytesPerOperation);
            (bool must, double weight) = Importance(fields, path);
            var driver = new Driver
            {
                Name = string.Empty,
                Quantity = kind,
                Capability = cell,
                Operation = operation,
                Percentile = percentile,
                WhileWriting = whileWriting,
                Bound = bound ?? Bound.AtLeast,
                Threshold = threshold,
                Must = must,
                Weight = weight,
            };
            string? name = fields.Optional("name") is { } nameElement ? Text(nameElement, fields.At("name"), allowEmpty: false) : null;
            return driver with { Name = name ?? ProfileDescription.DefaultName(driver) };
        }

        private static (DriverQuantity, Bound?, UnitKind) Capability(CapabilityCell cell) =>
            cell is CapabilityCell.KeyBytes or CapabilityCell.ValueBytes
                ? (DriverQuantity.Capability, Bound.AtLeast, UnitKind.Size)
                : (DriverQuantity.Capability, null, UnitKind.Size);

        private (DriverQuantity, Bound?, UnitKind) Only(JsonElement element, string path, string allowed, (DriverQuantity, Bound?, UnitKind) result)
        {
            _ = Choice(element, path, [(allowed, true)], ignoreCase: false);
            return result;
        }

        private double Threshold(Fields fields, string path, string quantityName, Bound? bound, UnitKind unit, bool allowZero)
        {
            bool atLeast = fields.Has("atLeast");
            bool atMost = fields.Has("atMost");
            if (bound is null)
            {
                return atLeast || atMost
                    ? throw Fail(
                        fields.At(atLeast ? "atLeast" : "atMost"),
                        $"the capability {fields.Required(quantityName).GetString()} is yes or no and takes no threshold")
                    : 1;
            }

            string right = bound == Bound.AtLeast ? "atLeast" : "atMost";
            string wrong = bound == Bound.AtLeast ? "atMost" : "atLeast";
            string meaning = bound == Bound.AtLeast ? "the least you accept" : "the most you accept";
            if (fields.Has(wrong))
            {
                throw Fail(fields.At(wrong), $"{quantityName} takes {right} ({meaning}), not {wrong}");
            }

            if (!fields.Has(right))
            {
                throw Fail(path, $"no threshold; give \"{right}\" ({meaning}), such as {ProfileUnits.Example(unit)}");
            }

            JsonElement element = fields.Required(right);
            string at = fields.At(right);
            double value = element.ValueKind switch
            {
                JsonValueKind.String => Quantity(element, at, unit, $"a {quantityName} threshold"),
                JsonValueKind.Number when unit == UnitKind.Duration =>
                    throw Fail(at, $"a bare number is no duration; give a unit, such as {ProfileUnits.Example(unit)} ({ProfileUnits.UnitsOf(unit)})"),
                JsonValueKind.Number => Finite(element, at, $"{ProfileUnits.Name(unit)} such as {ProfileUnits.Example(unit)}"),
                _ => throw WrongType(element, at, $"{ProfileUnits.Name(unit)} such as {ProfileUnits.Example(unit)}"),
            };
            if (unit == UnitKind.Share && value is < 0 or > 1)
            {
                throw Fail(at, $"{element.GetRawText()} is no share; give 0 to 1 or 0% to 100%");
            }

            return value < 0 || (value == 0 && !allowZero)
                ? throw Fail(at, $"{element.GetRawText()} must be above 0")
                : value;
        }

        private (bool Must, double Weight) Importance(Fields fields, string path)
        {
            bool? must = fields.Optional("must") is { } mustElement
                ? mustElement.ValueKind switch
                {
                    JsonValueKind.True => true,
                    JsonValueKind.False => false,
                    _ => throw WrongType(mustElement, fields.At("must"), "true or false"),
                }
                : null;
            double? weight = fields.Optional("weight") is { } weightElement ? Positive(weightElement, fields.At("weight"), "a weight") : null;
            return (must, weight) switch
            {
                (true, not null) => throw Fail(path, "both must and weight; a must-driver is not weighed: drop one"),
                (true, null) => (true, 0),
                (false, null) => throw Fail(fields.At("must"), "must is false and there is no weight; give \"must\": true or a \"weight\" above 0"),
                (_, { } given) => (false, given),
                (null, null) => throw Fail(path, "neither must nor weight; give \"must\": true or a \"weight\" above 0"),
            };
        }

        private IReadOnlyList<string> Candidates(JsonElement element, string path)
        {
            if (element.ValueKind != JsonValueKind.Array)
            {
                throw WrongType(element, path, "an array of row names");
            }

            if (element.GetArrayLength() == 0)
            {
                throw Fail(path, "no candidates; name at least one row, or leave candidates out to consider every embedded row");
            }

            var names = new List<string>();
            int index = 0;
            foreach (JsonElement item in element.EnumerateArray())
            {
                string at = $"{path}[{index++}]";
                string given = Text(item, at, allowEmpty: false);
                string name = StoreCatalog.AllNames.FirstOrDefault(known => string.Equals(known, given, StringComparison.OrdinalIgnoreCase))
                    ?? throw Fail(
                        at,
                        $"no row is named \"{given}\"{Suggestion(given, StoreCatalog.AllNames)}; the rows are " +
                            $"{string.Join(", ", StoreCatalog.AllNames)}");
                if (names.Contains(name))
                {
                    throw Fail(at, $"{name} is named twice");
                }

                names.Add(name);
            }

            return names;
        }

        private double Quantity(JsonElement element, string path, UnitKind expected, string what)
        {
            string text = element.GetString()!;
            (double value, UnitKind kind) = ProfileUnits.Parse(text)
                ?? throw Fail(
                    path,
                    $"cannot read \"{text}\"; give a number and a unit, such as {ProfileUnits.Example(expected)} (" +
                        $"{ProfileUnits.UnitsOf(expected)})");
            return kind == expected
                ? value
                : throw Fail(
                    path,
                    $"\"{text}\" is {ProfileUnits.Name(kind)}, but {what} is {ProfileUnits.Name(expected)}, such as " +
                        $"{ProfileUnits.Example(expected)}");
        }

        private T Choice<T>(JsonElement element, string path, (string Name, T Value)[] allowed, bool ignoreCase, string? more = null)
        {
            string allowedText = Quoted(allowed.Select(choice => choice.Name)) + (more is null ? string.Empty : " " + more);
            if (element.ValueKind != JsonValueKind.String)
            {
                throw WrongType(element, path, allowed.Length == 1 && more is null ? $"\"{allowed[0].Name}\"" : $"one of {allowedText}");
            }

            string given = element.GetString()!;
            StringComparison comparison = ignoreCase ? StringComparison.OrdinalIgnoreCase : StringComparison.Ordinal;
            foreach ((string name, T value) in allowed)
            {
                if (string.Equals(name, given, comparison))
                {
                    return value;
                }
            }

            throw Fail(path, allowed.Length == 1 && more is null
                ? $"\"{given}\" is not allowed here; the only value is \"{allowed[0].Name}\""
                : $"\"{given}\" is not one of {allowedText}{Suggestion(given, allowed.Select(choice => choice.Name))}");
        }

        private static string Suggestion(string given, IEnumerable<string> known) =>
            Closest(given, known) is { } closest ? $" (did you mean \"{closest}\"?)" : string.Empty;

        private string Text(JsonElement element, string path, bool allowEmpty)
        {
            if (element.ValueKind != JsonValueKind.String)
            {
                throw WrongType(element, path, "a string");
            }

            string text = element.GetString()!;
            return !allowEmpty && string.IsNullOrWhiteSpace(text) ? throw Fail(path, "empty; give some text") : text;
        }

        private double Finite(JsonElement element, string path, string expected) =>
            element.ValueKind == JsonValueKind.Number && element.TryGetDouble(out double value) && double.IsFinite(value)
                ? value
                : throw WrongType(element, path, expected);

        private double Positive(JsonElement element, string path, string what)
        {
            double value = Finite(element, path, $"{what} (a number above 0)");
            return value > 0 ? value : throw Fail(path, $"{element.GetRawText()} is not above 0; {what} must be");
        }

        private double Share(JsonElement element, string path, bool allowZero)
        {
            double value = Finite(element, path, "a share (a number, 0 or more)");
            return value < 0 || (value == 0 && !allowZero)
                ? throw Fail(path, $"a negative share ({element.GetRawText()}); a share is 0 or more")
                : value;
        }

        private long Whole(JsonElement element, string path, long min, long max, string what)
        {
            double value = Finite(element, path, $"a whole number of {what}");
            if (value != Math.Floor(value))
            {
                throw Fail(path, $"{element.GetRawText()} is not a whole number of {what}");
            }

            return value < min || value > max
                ? throw Fail(path, max == long.MaxValue || max == int.MaxValue
                    ? $"{element.GetRawText()} {what}; give at least {min.ToString("N0", CultureInfo.InvariantCulture)}"
                    : $"{element.GetRawText()} {what}; give {min.ToString(CultureInfo.InvariantCulture)} to {max.ToString(CultureInfo.InvariantCulture)}")
                : (long)value;
        }
    }

    /// <summary>One JSON object's fields, checked on arrival: an object, no unknown name, no name twice.</summary>
    private sealed class Fields
    {
        private readonly Walker _walker;
        private readonly Dictionary<string, JsonElement> _fields = new(StringComparer.Ordinal);

        public Fields(Walker walker, JsonElement element, string path, string[] known, string what)
        {
            _walker = walker;
            Path = path;
            if (element.ValueKind != JsonValueKind.Object)
            {
                throw walker.WrongType(element, path, $"{what} (an object)");
            }

            foreach (JsonProperty property in element.EnumerateObject())
            {
                string at = At(property.Name);
                if (!known.Contains(property.Name, StringComparer.Ordinal))
                {
                    throw walker.Fail(at, Closest(property.Name, known) is { } closest
                        ? $"unknown field; did you mean \"{closest}\"?"
                        : $"unknown field; the fields of {what} are {string.Join(", ", known)}");
                }

                if (!_fields.TryAdd(property.Name, property.Value))
                {
                    throw walker.Fail(at, "given twice; give each field once");
                }
            }
        }

        public string Path { get; }

        public string At(string name) => $"{Path}.{name}";

        public bool Has(string name) => _fields.ContainsKey(name);

        public JsonElement? Optional(string name) => _fields.TryGetValue(name, out JsonElement value) ? value : null;

        public JsonElement Required(string name) =>
            _fields.TryGetValue(name, out JsonElement value) ? value : throw _walker.Fail(At(name), "missing; this field is required");
    }
}
