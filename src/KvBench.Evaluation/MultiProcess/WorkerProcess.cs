using System.Collections.Concurrent;
using System.Text.Json;

using KvBench.Core;

namespace KvBench.Evaluation.MultiProcess;

/// <summary>A worker running as a CLI child process, seen through the JSON lines it prints.</summary>
internal sealed class WorkerProcess : IAsyncDisposable
{
    private readonly string _name;
    private readonly StoreAccess _access;
    private readonly CliProcess _process;
    private readonly ConcurrentDictionary<string, TaskCompletionSource<WorkerMessage>> _events = new();
    private readonly Task _readingOutput;
    private readonly List<string> _otherOutput = [];
    private WorkerResult? _result;

    private WorkerProcess(KvBenchCli cli, IEnumerable<string> arguments, string name, StoreAccess access)
    {
        _name = name;
        _access = access;
        _process = cli.Start(arguments);
        _readingOutput = ReadOutputAsync();
    }

    public static WorkerProcess Start(KvBenchCli cli, WorkerOptions options) => new(cli, options.ToArguments(), options.Name, options.Access);

    /// <summary>Starts a worker of another command that prints <see cref="WorkerMessage"/> lines, called <paramref name="name"/> in reports.</summary>
    public static WorkerProcess Start(KvBenchCli cli, IEnumerable<string> arguments, string name, StoreAccess access) => new(cli, arguments, name, access);

    /// <summary>Waits until the worker prints <paramref name="event"/>.</summary>
    /// <returns><see langword="false"/> when the worker closed its output first or <paramref name="timeout"/> passed.</returns>
    public async Task<bool> WaitForAsync(string @event, TimeSpan timeout) => await MessageAsync(@event, timeout).ConfigureAwait(false) is not null;

    /// <summary>Waits until the worker prints <paramref name="event"/> and returns that line (the first of that event).</summary>
    /// <returns><see langword="null"/> when the worker closed its output first or <paramref name="timeout"/> passed.</returns>
    public async Task<WorkerMessage?> MessageAsync(string @event, TimeSpan timeout)
    {
        Task<WorkerMessage> seen = Event(@event).Task;
        await Task.WhenAny(seen, _readingOutput, Task.Delay(timeout)).ConfigureAwait(false);
        return seen.IsCompletedSuccessfully ? seen.Result : null;
    }

    /// <summary>Writes a command line to the worker's input.</summary>
    public void Send(string line) => _process.SendLine(line);

    public void RequestStop() => Send(MultiProcessWorker.StopCommand);

    /// <summary>Asks the worker to stop (if it still runs) and waits for it, killing it when it overruns <paramref name="timeout"/>.</summary>
    public async Task<WorkerRun> FinishAsync(TimeSpan timeout)
    {
        RequestStop();
        int? exitCode = await _process.WaitForExitAsync(timeout).ConfigureAwait(false);
        await _readingOutput.ConfigureAwait(false);
        string error = _process.StandardError;
        if (_otherOutput.Count > 0)
        {
            error += $"{Environment.NewLine}Output that was not a worker message: {string.Join(Environment.NewLine, _otherOutput)}";
        }

        return new WorkerRun(_name, _access, _result, exitCode, error);
    }

    public ValueTask DisposeAsync() => _process.DisposeAsync();

    private TaskCompletionSource<WorkerMessage> Event(string @event) =>
        _events.GetOrAdd(@event, static _ => new TaskCompletionSource<WorkerMessage>(TaskCreationOptions.RunContinuationsAsynchronously));

    private async Task ReadOutputAsync()
    {
        await foreach (string line in _process.OutputLines.ReadAllAsync().ConfigureAwait(false))
        {
            WorkerMessage? message = Parse(line);
            if (message is null)
            {
                _otherOutput.Add(line);
                continue;
            }

            _result = message.Result ?? _result;
            Event(message.Event).TrySetResult(message);
        }
    }

    private static WorkerMessage? Parse(string line)
    {
        try
        {
            return JsonSerializer.Deserialize(line, WorkerJsonContext.Default.WorkerMessage);
        }
        catch (JsonException)
        {
            return null;
        }
    }
}
