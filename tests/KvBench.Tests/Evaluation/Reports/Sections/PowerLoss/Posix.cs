using System.Runtime.InteropServices;
using System.Text;


namespace KvBench.Tests.Evaluation.Reports.Sections.PowerLoss;

/// <summary>
/// The libc calls the power-cut tests make, each by name: .NET's own streams do not say whether a flush is fsync or
/// fdatasync, nor open with O_DSYNC, and the tests must know exactly which flush ran.
/// </summary>
internal static partial class Posix
{
    public const int ReadOnly = 0;
    public const int WriteOnly = 1;
    public const int Create = 0x40;
    public const int Append = 0x400;
    public const int DataSync = 0x1000;
    public const int Sync = 0x101000;
    public const int Directory = 0x10000;
    public const int Truncate = 0x200;
    public const int Direct = 0x4000;

    public static int Open(string path, int flags)
    {
        int fd = NativeOpen(path, flags, 420);
        return fd >= 0 ? fd : throw Error($"open {path}");
    }

    public static void Write(int fd, string text)
    {
        byte[] bytes = Encoding.ASCII.GetBytes(text);
        if (NativeWrite(fd, bytes, bytes.Length) != bytes.Length)
        {
            throw Error("write");
        }
    }

    public static void FileSync(int fd) => Check(NativeFsync(fd), "fsync");

    public static void DataSyncOnly(int fd) => Check(NativeFdatasync(fd), "fdatasync");

    public static void Close(int fd) => Check(NativeClose(fd), "close");

    /// <summary>Opens a directory, fsyncs it and closes it: what makes its entries durable.</summary>
    public static void SyncDirectory(string path)
    {
        int fd = Open(path, ReadOnly | Directory);
        try
        {
            FileSync(fd);
        }
        finally
        {
            Close(fd);
        }
    }

    /// <summary>Creates (or truncates) a file, writes it, and closes it without any flush.</summary>
    public static void WriteFile(string path, string text, int extraFlags = 0)
    {
        int fd = Open(path, WriteOnly | Create | Truncate | extraFlags);
        Write(fd, text);
        Close(fd);
    }

    private static void Check(int result, string call)
    {
        if (result != 0)
        {
            throw Error(call);
        }
    }

    private static IOException Error(string call) => new($"{call} failed: errno {Marshal.GetLastPInvokeError()}");

    [LibraryImport("libc", EntryPoint = "open", SetLastError = true, StringMarshalling = StringMarshalling.Utf8)]
    private static partial int NativeOpen(string path, int flags, int mode);

    [LibraryImport("libc", EntryPoint = "write", SetLastError = true)]
    private static partial nint NativeWrite(int fd, byte[] buffer, nint count);

    [LibraryImport("libc", EntryPoint = "fsync", SetLastError = true)]
    private static partial int NativeFsync(int fd);

    [LibraryImport("libc", EntryPoint = "fdatasync", SetLastError = true)]
    private static partial int NativeFdatasync(int fd);

    [LibraryImport("libc", EntryPoint = "close", SetLastError = true)]
    private static partial int NativeClose(int fd);
}
