using KvBench.Evaluation.MultiProcess;
using KvBench.Stores;

namespace KvBench.Tests.Docs;

/// <summary>
/// Every command example the README and the docs mark runnable (a fenced block whose info string is
/// <c>bash runnable</c>) runs as written, so an example that fails as written fails CI rather than a reader.
/// </summary>
public sealed class RunnableExamplesTests
{
    /// <summary>How long one block may run; examples are meant to take seconds.</summary>
    private static readonly TimeSpan s_timeout = TimeSpan.FromMinutes(2);

    public static TheoryData<string, int> Examples()
    {
        var data = new TheoryData<string, int>();
        foreach (RunnableExample example in RunnableExample.FindAll(Repository.Root()))
        {
            data.Add(example.File, example.Line);
        }

        return data;
    }

    [Fact]
    public void The_docs_hold_runnable_examples()
    {
        // Without this, a change to the marker or the reader would leave the theory below with nothing to run.
        IReadOnlyList<RunnableExample> examples = RunnableExample.FindAll(Repository.Root());
        Assert.Contains(examples, example => example.File == "README.md");
        Assert.True(examples.Select(example => example.File).Distinct().Count() >= 3, string.Join(", ", examples.Select(example => example.File)));
    }

    [Fact]
    public void The_reader_takes_only_blocks_marked_runnable()
    {
        string markdown = """
            ```bash
            kvbench servers up
            ```

            ```bash runnable
            kvbench stores
            kvbench --version
            ```
            """;
        RunnableExample example = Assert.Single(RunnableExample.Read("page.md", markdown));
        Assert.Equal(5, example.Line);
        Assert.Equal("kvbench stores\nkvbench --version\n", example.Script);
    }

    [Theory]
    [MemberData(nameof(Examples))]
    public async Task Runs_as_written(string file, int line)
    {
        RunnableExample example = RunnableExample.FindAll(Repository.Root()).Single(found => found.File == file && found.Line == line);
        using var scratch = new TempDirectory();

        // `kvbench` on the PATH is the CLI these tests were built with, as the installed tool would be.
        string bin = Directory.CreateDirectory(scratch.Combine("bin")).FullName;
        string kvbench = Path.Combine(bin, KvBenchCli.CommandName);
        string assembly = Path.Combine(AppContext.BaseDirectory, KvBenchCli.AssemblyFileName);
        await File.WriteAllTextAsync(kvbench, $"#!/bin/sh\nexec '{DotnetHost.Path}' '{assembly}' \"$@\"\n");
        if (!OperatingSystem.IsWindows())
        {
            File.SetUnixFileMode(kvbench, UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute);
        }

        string work = Directory.CreateDirectory(scratch.Combine("work")).FullName;

        CliRunResult result = await RunBashAsync(example.Script, work, bin);

        Assert.True(result.ExitCode == 0, $"{file}:{line} exited with {result.ExitCode}:\n{example.Script}\n{result.Output}\n{result.Error}");
    }

    private static async Task<CliRunResult> RunBashAsync(string script, string workingDirectory, string bin)
    {
        // -e and pipefail: the block fails at its first failing command, as a reader pasting it would notice.
        System.Diagnostics.ProcessStartInfo startInfo = CliProcess.RedirectedStartInfo("bash", ["-e", "-o", "pipefail", "-c", script]);
        startInfo.WorkingDirectory = workingDirectory;
        startInfo.Environment["PATH"] = bin + Path.PathSeparator + Environment.GetEnvironmentVariable("PATH");
        startInfo.Environment["NO_COLOR"] = "1";
        return await CliProcess.RunAsync(startInfo, s_timeout);
    }
}
