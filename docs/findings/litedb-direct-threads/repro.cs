// LiteDB alone, no KvBench code: one LiteDatabase in direct mode shared by several threads, the calls KvBench's
// LiteDB_Direct row makes (FindById; an _id >= key query read for up to 100 documents; an upsert of a new key), over a
// collection larger than LiteDB's page cache keeps idle. Every value is derived from its key, so a read returns the
// right bytes, the wrong bytes, or throws. After the run the database is reopened and every key read back.
//
//   dotnet run docs/findings/litedb-direct-threads/repro.cs -- [mix] [threads] [records] [seconds] [serialize]
//
// mix: C (reads only) or E (95 % scans, 5 % inserts); serialize: "lock" runs every call under one lock, as the row does.
#:package LiteDB@5.0.21
#:property ManagePackageVersionsCentrally=false
#:property TreatWarningsAsErrors=false
#:property EnforceCodeStyleInBuild=false
#:property PublishAot=false

using System.Buffers.Binary;
using System.Diagnostics;

using LiteDB;

string mix = args.Length > 0 ? args[0].ToUpperInvariant() : "E";
int threads = args.Length > 1 ? int.Parse(args[1]) : 4;
int records = args.Length > 2 ? int.Parse(args[2]) : 50_000;
double seconds = args.Length > 3 ? double.Parse(args[3], System.Globalization.CultureInfo.InvariantCulture) : 10;
bool serialize = args.Length > 4 && args[4] == "lock";
const int ValueBytes = 128;

string directory = Path.Combine(Path.GetTempPath(), "litedb-threads-" + Guid.NewGuid().ToString("N"));
Directory.CreateDirectory(directory);
string file = Path.Combine(directory, "kv.db");
ConnectionString Connection() => new() { Filename = file, Connection = ConnectionType.Direct };

static byte[] Key(long id)
{
    // 9 bytes: a marker and the id's bits scattered, so inserted keys land all over the index.
    byte[] key = new byte[9];
    key[0] = (byte)'k';
    BinaryPrimitives.WriteUInt64BigEndian(key.AsSpan(1), unchecked((ulong)id * 0x9E3779B97F4A7C15UL));
    return key;
}

static byte[] Value(byte[] key)
{
    byte[] value = new byte[ValueBytes];
    for (int i = 0; i < value.Length; i++)
    {
        value[i] = (byte)(key[1 + (i % 8)] ^ i);
    }

    return value;
}

static BsonDocument Document(byte[] key) => new() { ["_id"] = key, ["v"] = Value(key) };

using (var load = new LiteDatabase(Connection()))
{
    var collection = load.GetCollection("kv");
    for (int start = 0; start < records; start += 1000)
    {
        collection.Upsert(Enumerable.Range(start, Math.Min(1000, records - start)).Select(i => Document(Key(i))));
    }
}

long nextId = records;
long operations = 0, wrongReads = 0;
var errors = new System.Collections.Concurrent.ConcurrentDictionary<string, int>();
var gate = new object();
using (var database = new LiteDatabase(Connection()))
{
    var collection = database.GetCollection("kv");
    var stopwatch = Stopwatch.StartNew();
    var workers = Enumerable.Range(0, threads).Select(thread => new Thread(() =>
    {
        var random = new Random(thread);
        long done = 0, wrong = 0;
        while (stopwatch.Elapsed.TotalSeconds < seconds)
        {
            byte[] key = Key(random.NextInt64(Math.Max(records, Interlocked.Read(ref nextId) - threads)));
            try
            {
                if (serialize)
                {
                    lock (gate)
                    {
                        wrong += Operation(collection, key, random);
                    }
                }
                else
                {
                    wrong += Operation(collection, key, random);
                }
            }
            catch (Exception error)
            {
                errors.AddOrUpdate($"{error.GetType().Name}: {error.Message}", 1, (_, count) => count + 1);
            }

            done++;
        }

        Interlocked.Add(ref operations, done);
        Interlocked.Add(ref wrongReads, wrong);
    })).ToList();
    workers.ForEach(worker => worker.Start());
    workers.ForEach(worker => worker.Join());
}

int inserted = (int)(Interlocked.Read(ref nextId) - records);
long missingOrWrongOnReopen = 0;
string reopen = "reopened";
try
{
    using var reopened = new LiteDatabase(Connection());
    var collection = reopened.GetCollection("kv");
    for (long id = 0; id < records; id++)
    {
        byte[] key = Key(id);
        BsonDocument? document = collection.FindById(key);
        if (document is null || !document["v"].AsBinary.AsSpan().SequenceEqual(Value(key)))
        {
            missingOrWrongOnReopen++;
        }
    }
}
catch (Exception error)
{
    reopen = $"reopen failed: {error.GetType().Name}: {error.Message}";
}

Console.WriteLine($"mix {mix}, {threads} threads, {records} records, {seconds} s, {(serialize ? "one lock" : "no lock")}: {operations} operations ({inserted} inserts), {wrongReads} wrong reads, {errors.Values.Sum()} errors; {reopen}, {missingOrWrongOnReopen} loaded records missing or wrong");
foreach (var (message, count) in errors.OrderByDescending(pair => pair.Value))
{
    Console.WriteLine($"  {count} x {message}");
}

Directory.Delete(directory, recursive: true);
return wrongReads == 0 && errors.IsEmpty && missingOrWrongOnReopen == 0 && reopen == "reopened" ? 0 : 1;

int Operation(ILiteCollection<BsonDocument> collection, byte[] key, Random random)
{
    if (mix == "C")
    {
        BsonDocument? document = collection.FindById(key);
        return document is not null && document["v"].AsBinary.AsSpan().SequenceEqual(Value(key)) ? 0 : 1;
    }

    if (random.NextDouble() < 0.05)
    {
        collection.Upsert(Document(Key(Interlocked.Increment(ref nextId) - 1)));
        return 0;
    }

    int wrong = 0;
    foreach (BsonDocument document in collection.Find(Query.GTE("_id", key), limit: 1 + random.Next(100)))
    {
        byte[] found = document["_id"].AsBinary;
        if (!document["v"].AsBinary.AsSpan().SequenceEqual(Value(found)))
        {
            wrong++;
        }
    }

    return wrong;
}
