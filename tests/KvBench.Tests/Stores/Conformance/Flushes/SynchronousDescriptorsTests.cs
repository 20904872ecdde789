
namespace KvBench.Tests.Stores.Conformance.Flushes;

/// <summary>
/// How <see cref="ServerDeviceFlushTests"/> tells a write that flushed from one that did not, from strace's lines: a
/// descriptor opened O_DSYNC and closed within the trace (a Raft log segment of dqlite's libraft, closed once full) is
/// synchronous for every write before its close, though /proc no longer has it when the trace is read.
/// </summary>
public sealed class SynchronousDescriptorsTests
{
    [Fact]
    public void A_descriptor_opened_synchronous_and_closed_in_the_trace_counts_for_the_writes_before_its_close()
    {
        SynchronousDescriptors descriptors = Tracing(
            "101 openat(AT_FDCWD, \"\", O_WRONLY|O_CREAT|O_EXCL|O_DSYNC|O_DIRECT|O_CLOEXEC, 0600) = 17");

        Assert.True(descriptors.IsSynchronous("101", "17"));
        descriptors.Observe("101 close(17) = 0");
        descriptors.Observe("101 openat(AT_FDCWD, \"\", O_RDONLY|O_CLOEXEC) = 17");

        Assert.False(descriptors.IsSynchronous("101", "17"));
    }

    [Fact]
    public void A_descriptor_opened_by_one_thread_is_judged_alike_for_every_thread_of_its_process()
    {
        SynchronousDescriptors descriptors = Tracing("101 openat(AT_FDCWD, \"\", O_RDWR|O_SYNC) = 9");

        Assert.True(descriptors.IsSynchronous("102", "9"));
        Assert.False(descriptors.IsSynchronous("201", "9"));
    }

    [Fact]
    public void An_open_split_around_another_threads_line_is_read_from_its_two_halves()
    {
        SynchronousDescriptors descriptors = Tracing(
            "101 openat(AT_FDCWD, \"\", O_WRONLY|O_DSYNC <unfinished ...>",
            "102 write(5, \"\"..., 12) = 12",
            "101 <... openat resumed>) = 23");

        Assert.True(descriptors.IsSynchronous("101", "23"));
    }

    [Fact]
    public void A_failed_open_and_a_plain_one_record_no_flush()
    {
        SynchronousDescriptors descriptors = Tracing(
            "101 openat(AT_FDCWD, \"\", O_WRONLY|O_DSYNC) = -1 ENOENT (No such file or directory)",
            "101 openat(AT_FDCWD, \"\", O_WRONLY|O_CREAT, 0644) = 4");

        Assert.False(descriptors.IsSynchronous("101", "4"));
        Assert.True(descriptors.IsSynchronous("101", "3"), "A descriptor the trace never opened is judged by reading it now.");
    }

    /// <summary>Threads 101 and 102 are one process, 201 another; a descriptor the trace does not explain reads as synchronous only when it is 3.</summary>
    private static SynchronousDescriptors Tracing(params string[] lines)
    {
        var descriptors = new SynchronousDescriptors(
            thread => thread.StartsWith('1') ? "101" : thread,
            (_, descriptor) => descriptor == "3");
        foreach (string line in lines)
        {
            descriptors.Observe(line);
        }

        return descriptors;
    }
}
