
namespace KvBench.Tests.Stores.Conformance.Flushes;

/// <summary>
/// How <see cref="ServerDeviceFlushTests"/> reads strace's lines. On a freshly booted machine the servers' thread ids
/// were under 10000, strace padded them with a second space, and every call was misread: each Synced row counted 0
/// flushes and failed while each Buffered row passed without a call read.
/// </summary>
public sealed class TracedCallTests
{
    [Theory]
    [InlineData("3697  fdatasync(7)                      = 0", "3697", "fdatasync", "7")]
    [InlineData("12345 fdatasync(7)                      = 0", "12345", "fdatasync", "7")]
    [InlineData("3472  write(8, \"\"..., 5)                = 5", "3472", "write", "8")]
    [InlineData("123456 pwrite64(12, \"\"..., 4096, 8192) = 4096", "123456", "pwrite64", "12")]
    [InlineData("3697  sync()                            = 0", "3697", "sync", "")]
    public void A_call_is_read_whatever_the_width_of_its_thread_id(string line, string thread, string call, string firstArgument)
    {
        ServerDeviceFlushTests.TracedCall read = Assert.IsType<ServerDeviceFlushTests.TracedCall>(ServerDeviceFlushTests.TracedCall.Parse(line));

        Assert.Equal(new ServerDeviceFlushTests.TracedCall(thread, call, firstArgument), read);
    }

    [Theory]
    [InlineData("3697  <... fdatasync resumed>)      = 0")]
    [InlineData("3697  +++ exited with 0 +++")]
    [InlineData("")]
    public void A_line_that_is_no_call_start_is_not_read_as_one(string line) =>
        Assert.Null(ServerDeviceFlushTests.TracedCall.Parse(line));

    /// <summary>Lines strace wrote here for dqlite's libraft: an append tried without waiting, then the same block again from a thread that may.</summary>
    [Fact]
    public void An_io_submit_line_is_read_as_its_writes_with_their_descriptors_and_flags()
    {
        const string First = "29559 io_submit(0x7efc7e730000, 1, [{aio_data=0x7efc44020598, aio_rw_flags=RWF_NOWAIT, " +
            "aio_lio_opcode=IOCB_CMD_PWRITEV, aio_fildes=17, aio_buf=[{iov_base=\"\"..., iov_len=8192}], " +
            "aio_offset=131072, aio_flags=IOCB_FLAG_RESFD, aio_resfd=18}]) = 1";
        const string Again = "29563 io_submit(0x7efc7e730000, 1, [{aio_data=0x7efc44020598, " +
            "aio_lio_opcode=IOCB_CMD_PWRITEV, aio_fildes=17, aio_buf=[{iov_base=\"\"..., iov_len=8192}], " +
            "aio_offset=131072}] <unfinished ...>";

        ServerDeviceFlushTests.AioWrite first = Assert.Single(ServerDeviceFlushTests.AioWrite.Parse(First));
        ServerDeviceFlushTests.AioWrite again = Assert.Single(ServerDeviceFlushTests.AioWrite.Parse(Again));

        Assert.Equal(new ServerDeviceFlushTests.AioWrite("0x7efc7e730000", "0x7efc44020598", "17", "131072", NoWait: true, SyncFlag: false), first);
        Assert.Equal(first with { NoWait = false }, again);
        Assert.Equal("io_submit", ServerDeviceFlushTests.TracedCall.Parse(First)?.Call);
    }

    [Theory]
    [
        InlineData(
            "7 io_submit(0x7f00, 2, [{aio_data=0x1, aio_rw_flags=RWF_DSYNC, aio_lio_opcode=IOCB_CMD_PWRITE, " +
                "aio_fildes=5, aio_buf=\"\"..., aio_nbytes=4096, aio_offset=0}, {aio_data=0x2, " +
                "aio_lio_opcode=IOCB_CMD_PREAD, aio_fildes=6, aio_buf=\"\"..., aio_nbytes=4096, aio_offset=0}]) = 2",
            1,
            true)]
    [InlineData("7 io_submit(0x7f00, 1, [...]) = 1", 0, false)]
    [InlineData("7 fdatasync(7) = 0", 0, false)]
    public void Only_the_writes_of_an_io_submit_line_are_read(string line, int writes, bool firstSynced)
    {
        ServerDeviceFlushTests.AioWrite[] read = [.. ServerDeviceFlushTests.AioWrite.Parse(line)];

        Assert.Equal(writes, read.Length);
        Assert.Equal(firstSynced, read.FirstOrDefault()?.SyncFlag ?? false);
    }
}
