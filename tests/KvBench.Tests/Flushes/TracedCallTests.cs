namespace KvBench.Tests.Flushes;

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
}
