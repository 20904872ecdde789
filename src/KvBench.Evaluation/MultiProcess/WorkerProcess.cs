using System.Collections.Concurrent;
using System.Text.Json;

namespace KvBench.Evaluation.MultiProcess;

/// <summary>A worker running as a CLI child process, seen through the JSON lines it prints.</summary>
internal sealed class WorkerProcess : IAsyncDisposable
{
    private readonly WorkerOptions _options;
    private readonly CliProcess _process;
    private readonly ConcurrentDictionary<string, TaskCompletionSource> _events = new();
    private readonly Task _readingOutput;
    private readonly List<string> _otherOutput = [];
    private WorkerResult? _result;

    private WorkerProcess(KvBenchCli cli, WorkerOptions options)
    {
        _options = options;
        _process = cli.Start(options.ToArguments());
        _readingOutput = ReadOutputAsync();
    }

    public static WorkerProcess Start(KvBenchCli cli, WorkerOptions options) => new(cli, options);

    /// <summary>Waits until the worker prints <paramref name="event"/>.</summary>
    /// <returns><see langword="false"/> when the worker closed its output first or <paramref name="timeout"/> passed.</returns>
    public async Task<bool> WaitForAsync(string @event, TimeSpan timeout)
    {
        Task seen = Event(@event).Task;
        await Task.WhenAny(seen, _readingOutput, Task.Delay(timeout)).ConfigureAwait(false);
        return seen.IsCompleted;
    }

    public void RequestStop() => _process.SendLine(MultiProcessWorker.StopCommand);

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

        return new WorkerRun(_options.Name, _options.Access, _result, exitCode, error);
    }

    public ValueTask DisposeAsync() => _process.DisposeAsync();

    private TaskCompletionSource Event(string @event) =>
        _events.GetOrAdd(@event, static _ => new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously));

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
            Event(message.Event).TrySetResult();
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
