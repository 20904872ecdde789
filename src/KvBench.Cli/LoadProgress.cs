using KvBench.Evaluation.Workload;

using Spectre.Console;

namespace KvBench.Cli;

/// <summary>
/// Runs work that loads records on another thread and, when it takes longer than a second and standard error is a
/// terminal, draws a progress bar there for each load it reports, so standard output stays the command's result.
/// </summary>
internal sealed class LoadProgress : IProgress<LoadStatus>
{
    /// <summary>Work that ends sooner than this shows no bar.</summary>
    private static readonly TimeSpan s_delay = TimeSpan.FromSeconds(1);

    private LoadStatus? _latest;

    /// <summary>Keeps only the latest status, read by the thread that draws.</summary>
    public void Report(LoadStatus value) => Volatile.Write(ref _latest, value);

    /// <summary>Runs <paramref name="work"/>, which reports to the progress it is given, and returns its result.</summary>
    public static T Run<T>(Func<IProgress<LoadStatus>, T> work)
    {
        var progress = new LoadProgress();
        Task<T> running = Task.Run(() => work(progress));
        if (Task.WaitAny([running], s_delay) < 0 && !Console.IsErrorRedirected)
        {
            progress.Draw(running);
        }

        return running.GetAwaiter().GetResult();
    }

    private void Draw(Task running)
    {
        IAnsiConsole console = AnsiConsole.Create(new AnsiConsoleSettings { Out = new AnsiConsoleOutput(Console.Error) });
        console.Progress().Start(context =>
        {
            ProgressTask? bar = null;
            string? label = null;
            bool done;
            do
            {
                done = Task.WaitAny([running], TimeSpan.FromMilliseconds(100)) >= 0;
                if (Volatile.Read(ref _latest) is not { } status)
                {
                    continue;
                }

                if (status.Label != label)
                {
                    bar?.StopTask();
                    bar = context.AddTask(Markup.Escape(status.Label), maxValue: Math.Max(status.Total, 1));
                    label = status.Label;
                }

                bar!.Value = status.Done;
            }
            while (!done);
        });
    }
}
