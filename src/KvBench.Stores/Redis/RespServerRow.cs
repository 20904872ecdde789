using System.Net.Sockets;

using KvBench.Core;
using KvBench.Stores.Servers;

using StackExchange.Redis;

namespace KvBench.Stores.Redis;

/// <summary>
/// The rows whose server speaks Redis' protocol (Redis, Garnet): one client (StackExchange.Redis) and one store
/// (<see cref="RedisStore"/>) for all of them; each row says how its server is installed and started, and which durability
/// tier a server's settings give (<see cref="OfferedBy"/>).
/// </summary>
internal abstract class RespServerRow(string name, StoreCapabilities declared, ServerInstall install, string endpointVariable)
    : ServerRow(name, declared, "StackExchange.Redis", install, endpointVariable)
{
    private static readonly TimeSpan s_pingTimeout = TimeSpan.FromSeconds(1);

    /// <summary>
    /// The tiers the server at the other end of <paramref name="server"/> gives every client, read from its settings: the
    /// store refuses any other (<see cref="DurabilityNotOfferedException"/>), so a user's own server at another setting is
    /// never measured as this row.
    /// </summary>
    internal abstract DurabilityTiers OfferedBy(IServer server);

    /// <summary>
    /// A PING over a plain socket: StackExchange.Redis, asked to connect before the server listens, keeps retrying in the
    /// background for longer than the whole ready timeout, so even a server ready almost at once may go unanswered. Each
    /// PING waits at most <see cref="s_pingTimeout"/>: a Garnet starting up accepted a connection and never answered its
    /// PING, while every later connection was answered at once.
    /// </summary>
    internal override async Task<bool> AnswersAsync(string endpoint, CancellationToken cancellationToken)
    {
        if (!HostPort.TryParse(endpoint, out HostPort server))
        {
            throw new ArgumentException($"'{endpoint}' is not host:port.", nameof(endpoint));
        }

        using var ping = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        ping.CancelAfter(s_pingTimeout);
        try
        {
            using var client = new TcpClient();
            await client.ConnectAsync(server.Host, server.Port, ping.Token).ConfigureAwait(false);
            NetworkStream stream = client.GetStream();
            await stream.WriteAsync("PING\r\n"u8.ToArray(), ping.Token).ConfigureAwait(false);
            byte[] reply = new byte[7];
            int read = await stream.ReadAtLeastAsync(reply, reply.Length, throwOnEndOfStream: false, ping.Token).ConfigureAwait(false);
            return reply.AsSpan(0, read).SequenceEqual("+PONG\r\n"u8);
        }
        catch (OperationCanceledException) when (!cancellationToken.IsCancellationRequested)
        {
            return false;
        }
        catch (SocketException)
        {
            return false;
        }
        catch (IOException)
        {
            return false;
        }
    }

    /// <summary>The value of the server setting <paramref name="name"/> (CONFIG GET), or <see langword="null"/> when the server does not name it.</summary>
    private protected static string? Setting(IServer server, string name) =>
        server.ConfigGet(name).FirstOrDefault(setting => string.Equals(setting.Key, name, StringComparison.OrdinalIgnoreCase)).Value;

    /// <summary>redis-benchmark, from Debian's redis-tools: SET and GET over a keyspace loaded beforehand; it speaks RESP to Garnet as to Redis.</summary>
    public override ServerBenchmark OwnBenchmark { get; } = new RedisBenchmark();

    private protected override IServerPing OpenPingCore(string endpoint) => new RedisPing(endpoint);

    private protected override IKeyValueStore OpenAdapter(ServerStoreOptions options, string endpoint, string storeName) =>
        new RedisStore(this, options, endpoint, storeName);

    private protected override StoreFailure ClassifyEngineError(Exception error) => error switch
    {
        RedisServerException server when server.Message.StartsWith("OOM", StringComparison.Ordinal) => StoreFailure.Full,
        RedisException or RedisTimeoutException => StoreFailure.Failed,
        _ => StoreFailures.DotNetIo(error),
    };
}
